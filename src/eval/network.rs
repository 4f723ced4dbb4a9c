//! A learned correction network (chess's is fitted by `tuning/network.py` to Stockfish's labels
//! on top of the rest of the evaluation): one hidden layer over the men seen from the player to
//! move, what the linear terms and tables cannot express (their interactions).
//!
//! The inputs are one per relation (the owner's place after the viewer in turn order: own, next,
//! ...), piece type and cell from the viewer's side (through the board's symmetry that carries the
//! viewer's start onto the first player's, [`crate::frames`]: chess's second player sees the
//! board mirrored top to bottom); a man adds its input's column of weights to the hidden units,
//! each unit is clipped to 0..[`ONE`], and the output is their weighted sum: centipawns for the
//! viewer. With two players the viewer is the player to move; with more, every player is one and
//! gets its own output. The first layer's sums are kept by positions as men move ([`InputWeights`], NNUE's accumulators: a
//! man's column added or subtracted per perspective), so that an evaluation reads them; a
//! position the evaluator did not prepare is summed afresh, to the same value.
//!
//! The output may also weigh the same units seen from the next players (NNUE's two perspectives:
//! the first layer's sums are kept for every player anyway), and its weights may come in
//! buckets by the men on the board (NNUE's output buckets: an ending weighs the units otherwise
//! than a middle game), bucket (men − 1) × B / M of B.
//!
//! With `mirror`, a viewer whose royal piece stands on the board's left half (by the cells' first
//! coordinate) sees the board mirrored left to right (NNUE's horizontal mirroring: the network
//! learns one King side's patterns from both); a move that takes the royal piece across sums that
//! viewer's units afresh.
//!
//! The network's file, text and binary, is `eval::network_file`'s: a game's profile compiles in
//! the binary form, which names its game and definition.

use std::sync::Arc;

use super::network_file::{NetworkFile, ONE, input_index};
use crate::position::{InputWeights, Position};
use crate::simd::clipped_dot;
use crate::tables::Game;
use crate::types::{Cell, PieceType, Player, Table};

/// The output weights' unit: a sixteenth of a centipawn.
const OUTPUT_UNIT: i64 = 16;

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

/// The compiled-in binary network `bytes` read in `permille` of its fitted output; `None` where
/// there is none. A network that is not this game's is a defect of the definition: it panics
/// with the reader's reason.
pub(super) fn network<const W: usize>(game: &Game<W>, bytes: &[u8], permille: i32) -> Option<Network> {
    let def = &game.def;
    if bytes.is_empty() || permille == 0 {
        return None;
    }
    let id = &def.id;
    let file = NetworkFile::from_bytes(def, bytes).unwrap_or_else(|e| panic!("game {id}: {e}"));
    let (nplayers, ntypes, ncells) = (game.nplayers, game.ntypes, game.ncells);
    let oriented = super::learned::oriented(game);
    // With `mirror`, a viewer whose royal piece stands on the board's left half sees it mirrored.
    let halves = file.mirror.then(|| left_half(game));
    let view = |viewer: Player, c: Cell| usize::from(halves.as_ref().is_some_and(|(left, _)| left[oriented[viewer][c]]));
    let column = |view: usize, viewer: Player, owner: Player, kind: PieceType, c: Cell| {
        let c = oriented[viewer][c];
        let c = match &halves {
            Some((_, mirrored)) if view == 1 => mirrored[c],
            _ => c,
        };
        input_index(def, viewer, owner, kind, c)
    };
    let views = (1 + usize::from(file.mirror), view);
    let inputs = Arc::new(InputWeights::new(nplayers, ntypes, ncells, file.bias, file.weights, views, column));
    Some(Network {
        inputs,
        output: file.output,
        output_bias: file.output_bias.into_iter().map(i32::from).collect(),
        buckets: file.buckets,
        bucket_men: file.bucket_men,
        perspectives: file.perspectives,
        permille,
    })
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
        self.value_for(pos, pos.to_move())
    }

    /// Centipawns for `player`: its units and those of the next players, as many as the output
    /// weighs.
    pub(super) fn value_for<const W: usize>(&self, pos: &Position<W>, player: Player) -> i32 {
        let h = self.inputs.hidden();
        let men = pos.occupied().count() as usize;
        let bucket = (men.saturating_sub(1) * self.buckets / self.bucket_men).min(self.buckets - 1);
        let weights = &self.output[bucket * self.perspectives * h..(bucket + 1) * self.perspectives * h];
        let n = pos.game().nplayers;
        let mut sum = 0;
        for (k, weights) in weights.chunks_exact(h).enumerate() {
            let viewer = Player::new((player.index() + k) % n);
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
        let mut scratch = [0i16; super::network_file::MAX_HIDDEN];
        let sums = &mut scratch[..self.inputs.hidden()];
        self.inputs.sums_from_scratch(pos, viewer, sums);
        clipped_dot(sums, weights, ONE as i16)
    }
}

#[cfg(test)]
mod tests {
    use super::super::network_file::NetworkFile;
    use crate::eval::{Evaluator, LearnedTexts, PARAMS};
    use crate::notation::parse_position;
    use crate::position::Position;
    use crate::registry;
    use crate::types::Player;

    /// A network of random weights for `id`: every relation, a bucket by the men, as many
    /// perspectives as two at most; through the accumulator kept as men move, each player's value is
    /// the one summed afresh for the same position, after random games.
    fn random_network_agrees<const W: usize>(id: &str, games: u64, plies: usize) {
        use rand::rngs::StdRng;
        use rand::{RngExt, SeedableRng};
        let def = crate::games::definition(id).expect("a game");
        let (n, ntypes, ncells, h) = (def.players.len(), def.pieces.len(), def.geometry.len(), 16);
        let mut rng = StdRng::seed_from_u64(11);
        let mut draw = |count: usize, most: i16| -> Vec<i16> { (0..count).map(|_| rng.random_range(-most..=most)).collect() };
        let perspectives = n.min(2);
        let file = NetworkFile {
            hidden: h,
            buckets: 2,
            bucket_men: def.setup.len(),
            perspectives,
            mirror: false,
            bias: draw(h, 200),
            output: draw(2 * perspectives * h, 600),
            output_bias: draw(2, 600),
            weights: draw(n * ntypes * ncells * h, 40),
        };
        let bytes: &'static [u8] = Box::leak(file.to_bytes(&def).into_boxed_slice());
        let game = registry::compiled::<W>(def);
        let learned = LearnedTexts { network: bytes, ..LearnedTexts::NONE };
        let eval = Evaluator::with_learned(game, &PARAMS.with_overrides("network_permille=1000").expect("valid"), &learned);
        let network = eval.tables.network.as_ref().expect("a network");
        let (mut moves, mut values) = (Vec::new(), std::collections::BTreeSet::new());
        for seed in 0..games {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut pos = Position::start(game);
            eval.prepare(&mut pos);
            for ply in 0..plies {
                let fresh = parse_position(game, &crate::notation::position_string(&pos)).expect("its own position string");
                for p in game.players() {
                    let value = network.value_for(&pos, p);
                    assert_eq!(value, network.value_for(&fresh, p), "{id}, seed {seed}, ply {ply}, player {p:?}");
                    values.insert(value);
                }
                if n > 2 {
                    assert_eq!(
                        eval.breakdown(&pos).network[Player::new(1)],
                        network.value_for(&pos, Player::new(1)),
                        "{id}: every player's output"
                    );
                }
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                pos.make(moves[rng.random_range(0..moves.len())]);
            }
        }
        assert!(values.len() > 20, "{id}: the random network gave only {values:?}");
    }

    #[test]
    fn networks_of_any_game_keep_their_sums_as_men_move() {
        random_network_agrees::<1>("chess", 3, 120);
        random_network_agrees::<4>("ninjachess", 2, 80);
        random_network_agrees::<4>("honeycomb3", 2, 120);
        random_network_agrees::<4>("guru2", 2, 120);
        random_network_agrees::<6>("aof3", 2, 80);
    }
}
