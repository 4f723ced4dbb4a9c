//! A learned correction network (chess's is fitted by `tuning/network.py` to Stockfish's labels
//! on top of the rest of the evaluation): one hidden layer over the men seen from the player to
//! move, what the linear terms and tables cannot express (their interactions).
//!
//! The inputs are one per relation (own, enemy), piece type and cell from the mover's side (the
//! second player's cells mirrored top to bottom, as the learned tables'); a man adds its input's
//! column of weights to the hidden units, each unit is clipped to 0..[`ONE`], and the output is
//! their weighted sum: centipawns for the player to move. Only for two players. The first
//! layer's sums are kept by positions as men move ([`InputWeights`], NNUE's accumulators: a
//! man's column added or subtracted per perspective), so that an evaluation reads them; a
//! position the evaluator did not prepare is summed afresh, to the same value.
//!
//! The output may also weigh the same units seen from the other player (NNUE's two
//! perspectives: the first layer's sums are kept for both anyway), and its weights may come in
//! buckets by the men on the board (NNUE's output buckets: an ending weighs the units otherwise
//! than a middle game), bucket (men − 1) × B / M of B.
//!
//! With `mirror`, a viewer whose royal piece stands on the board's left half (by the cells' first
//! coordinate) sees the board mirrored left to right (NNUE's horizontal mirroring: the network
//! learns one King side's patterns from both); a move that takes the royal piece across sums that
//! viewer's units afresh.
//!
//! Text format (part of the definition, compiled in; a malformed one is a defect of the
//! definition, reported with its game and line): `hidden H`; optionally `buckets B M` (B output
//! buckets over M men; without it one), `perspectives P` (1: the mover's units alone, the
//! default; 2: the mover's, then the other player's) and `mirror`; `bias` and H values (the
//! hidden units' biases); B blocks `output` of P × H + 1 values (each unit's weight, then the
//! output's bias, in sixteenths of a centipawn per unit at [`ONE`]), the bucket of fewest men
//! first; then per relation and piece code a block `own P` or `enemy P` of the cells' weights,
//! H values per cell in cell order. Weights are in 1/[`ONE`] of a unit; `#` lines are comments.
//! The first layer's sums are kept in 16 bits: a unit's bias and, per cell, its largest weight
//! in absolute value may sum to at most 32,767.

use std::sync::Arc;

use super::learned::read_blocks;
use crate::position::{InputWeights, Position};
use crate::simd::clipped_dot;
use crate::tables::Game;
use crate::types::{Cell, PieceType, Player, Table};

/// A hidden unit's full activation.
const ONE: i32 = 1024;
/// The output weights' unit: a sixteenth of a centipawn.
const OUTPUT_UNIT: i64 = 16;
/// Hidden units at most (sums made afresh live on the stack).
const MAX_HIDDEN: usize = 1024;
/// Output weights (and bias) at most, in absolute value: with [`ONE`] and [`MAX_HIDDEN`] the
/// output's sum over one perspective stays below 2^31.
const MAX_OUTPUT: i32 = i32::MAX / (ONE * MAX_HIDDEN as i32);

#[derive(Debug)]
pub struct Network {
    /// The first layer: per relation (own, enemy), type and cell from the mover's side, the
    /// hidden units' weights, and their biases; kept by positions as men move.
    pub(super) inputs: Arc<InputWeights>,
    /// Per output bucket, the hidden units' weights, per perspective (the mover's first).
    output: Vec<i16>,
    /// Per output bucket, the output's bias.
    output_bias: Vec<i32>,
    /// Output buckets: a position's is (men − 1) × `buckets` / `bucket_men`, at most the last.
    buckets: usize,
    bucket_men: usize,
    /// 1: the output weighs the mover's units; 2: the other player's too.
    perspectives: usize,
    permille: i32,
}

/// A network's text read in `permille` of its fitted output; `None` where there is none.
pub(super) fn network<const W: usize>(game: &Game<W>, text: &str, permille: i32) -> Option<Network> {
    let def = &game.def;
    if text.is_empty() || permille == 0 {
        return None;
    }
    let id = &def.id;
    assert!(game.nplayers == 2, "game {id}: a network is for two players");
    let (ntypes, ncells) = (game.ntypes, game.ncells);
    let blocks = read_blocks(id, "network", text);
    let h = match blocks.first().map(|b| (&b.header[..], b)) {
        Some((["hidden", h], b)) if b.values.is_empty() => h.parse().ok().filter(|h| (1..=MAX_HIDDEN).contains(h)),
        _ => None,
    }
    .unwrap_or_else(|| panic!("game {id}: network: the first line is `hidden H`, H from 1 to {MAX_HIDDEN}"));
    let (mut buckets, mut bucket_men, mut perspectives, mut mirror, mut rest) = (1, 1, 1, false, 1);
    while let Some(block) = blocks.get(rest).filter(|b| b.values.is_empty()) {
        let bad = |how: &str| -> ! { panic!("game {id}: network, line {}: {how}", block.line) };
        match &block.header[..] {
            ["buckets", b, m] => match (b.parse(), m.parse()) {
                (Ok(b @ 1..=64), Ok(m @ 1..)) => (buckets, bucket_men) = (b, m),
                _ => bad("`buckets B M`, B from 1 to 64 and M from 1"),
            },
            ["perspectives", p] => {
                perspectives = p.parse().ok().filter(|p| (1..=2).contains(p)).unwrap_or_else(|| bad("`perspectives 1` or `perspectives 2`"))
            }
            ["mirror"] => mirror = true,
            _ => break,
        }
        rest += 1;
    }
    let mut bias = Vec::new();
    let mut output = Vec::new();
    let mut output_bias = Vec::new();
    let mut weights = vec![0i16; 2 * ntypes * ncells * h];
    let mut seen = vec![false; 2 * ntypes];
    for block in &blocks[rest..] {
        let bad = |why: &str| -> ! { panic!("game {id}: network, line {}: {why}", block.line) };
        let narrow =
            |v: &i32, most: i32, what: &str| if (-most..=most).contains(v) { *v as i16 } else { bad(&format!("{what} out of range")) };
        match &block.header[..] {
            ["bias"] => {
                block.expect_len(id, "network", h);
                bias = block.values.iter().map(|v| narrow(v, i32::from(i16::MAX), "a bias")).collect();
            }
            ["output"] => {
                let n = perspectives * h;
                block.expect_len(id, "network", n + 1);
                if output_bias.len() == buckets {
                    bad("more output blocks than buckets");
                }
                output.extend(block.values[..n].iter().map(|v| narrow(v, MAX_OUTPUT, "an output weight")));
                output_bias.push(i32::from(narrow(&block.values[n], MAX_OUTPUT, "an output bias")));
            }
            [relation @ ("own" | "enemy"), code] => {
                let kind = def.piece_by_code(code).unwrap_or_else(|| bad("no such piece"));
                let input = usize::from(*relation == "enemy") * ntypes + kind.index();
                if std::mem::replace(&mut seen[input], true) {
                    bad("a block given twice");
                }
                block.expect_len(id, "network", ncells * h);
                let start = input * ncells * h;
                for (w, v) in weights[start..start + ncells * h].iter_mut().zip(&block.values) {
                    *w = narrow(v, i32::from(i16::MAX), "a weight");
                }
            }
            _ => bad("a header is hidden, buckets, perspectives, bias, output, or own or enemy and a piece code"),
        }
    }
    assert!(bias.len() == h && output_bias.len() == buckets, "game {id}: network: bias or output missing");
    let most = largest_sum(&bias, &weights, 2 * ntypes, ncells);
    assert!(
        most <= i32::from(i16::MAX),
        "game {id}: network: a unit's sum may reach {most} (its bias and on each cell its largest weight), beyond 16 bits"
    );
    let oriented = super::learned::oriented(game);
    // With `mirror`, a viewer whose royal piece stands on the board's left half sees it mirrored.
    let halves = mirror.then(|| left_half(game));
    let view = |viewer: Player, c: Cell| usize::from(halves.as_ref().is_some_and(|(left, _)| left[oriented[viewer][c]]));
    let column = |view: usize, viewer: Player, owner: Player, kind: PieceType, c: Cell| {
        let c = oriented[viewer][c];
        let c = match &halves {
            Some((_, mirrored)) if view == 1 => mirrored[c],
            _ => c,
        };
        (usize::from(owner != viewer) * ntypes + kind.index()) * ncells + c.index()
    };
    let inputs = Arc::new(InputWeights::new(2, ntypes, ncells, bias, weights, (1 + usize::from(mirror), view), column));
    Some(Network { inputs, output, output_bias, buckets, bucket_men, perspectives, permille })
}

/// The largest sum a hidden unit can reach in absolute value, whatever the men: its bias and, per
/// cell, its largest weight over the `inputs` (relation and type) a man there may be. The sums
/// are kept in 16 bits ([`InputWeights`]), so this must stay within them.
fn largest_sum(bias: &[i16], weights: &[i16], inputs: usize, ncells: usize) -> i32 {
    let h = bias.len();
    let mut most: Vec<i32> = bias.iter().map(|&b| i32::from(b).abs()).collect();
    let mut cell = vec![0i32; h];
    for c in 0..ncells {
        cell.fill(0);
        for i in 0..inputs {
            let start = (i * ncells + c) * h;
            for (m, &w) in cell.iter_mut().zip(&weights[start..start + h]) {
                *m = (*m).max(i32::from(w).abs());
            }
        }
        for (m, &c) in most.iter_mut().zip(&cell) {
            *m += c;
        }
    }
    most.into_iter().max().unwrap_or(0)
}

/// Per cell, whether it lies left of the board's middle (its first coordinate below the middle of
/// the board's extent), and its mirror image left to right.
fn left_half<const W: usize>(game: &Game<W>) -> (Table<Cell, bool>, Table<Cell, Cell>) {
    let (sides, image) = super::learned::reflection(game, 0);
    let geometry = &game.def.geometry;
    let id = &game.def.id;
    let left = Table::from_fn(game.ncells, |c: Cell| 2 * geometry.coord(c)[0] < sides);
    let mirrored = Table::from_fn(game.ncells, |c: Cell| {
        image[c].unwrap_or_else(|| panic!("game {id}: network: `mirror` on a board not symmetric left to right"))
    });
    (left, mirrored)
}

impl Network {
    /// Centipawns for the player to move.
    pub(super) fn value<const W: usize>(&self, pos: &Position<W>) -> i32 {
        let (h, mover) = (self.inputs.hidden(), pos.to_move());
        let men = pos.occupied().count() as usize;
        let bucket = (men.saturating_sub(1) * self.buckets / self.bucket_men).min(self.buckets - 1);
        let weights = &self.output[bucket * self.perspectives * h..(bucket + 1) * self.perspectives * h];
        let mut sum = 0;
        for (viewer, weights) in [mover, Player::new(1 - mover.index())].into_iter().zip(weights.chunks_exact(h)) {
            // Each clipped unit times its weight is at most ONE × MAX_OUTPUT, a perspective's
            // sum below 2^31.
            sum += i64::from(match pos.input_sums(&self.inputs, viewer) {
                Some(sums) => clipped_dot(sums, weights, ONE as i16),
                None => self.dot_from_scratch(pos, viewer, weights),
            });
        }
        let sixteenths = sum / i64::from(ONE) + i64::from(self.output_bias[bucket]);
        (sixteenths * i64::from(self.permille) / (OUTPUT_UNIT * 1000)) as i32
    }

    /// For a position the evaluator did not prepare: its sums seen from `viewer` made here (apart,
    /// so that the usual path does not clear this stack array at every evaluation).
    #[cold]
    fn dot_from_scratch<const W: usize>(&self, pos: &Position<W>, viewer: Player, weights: &[i16]) -> i32 {
        let mut scratch = [0i16; MAX_HIDDEN];
        let sums = &mut scratch[..self.inputs.hidden()];
        self.inputs.sums_from_scratch(pos, viewer, sums);
        clipped_dot(sums, weights, ONE as i16)
    }
}
