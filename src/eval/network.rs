//! A learned correction network (chess's is fitted by `tuning/network.py` to Stockfish's labels
//! on top of the rest of the evaluation): one hidden layer over the men seen from the player to
//! move, what the linear terms and tables cannot express (their interactions).
//!
//! The inputs are one per relation (own, enemy), piece type and cell from the mover's side (the
//! second player's cells mirrored top to bottom, as the learned tables'); a man adds its input's
//! column of weights to the hidden units, each unit is clipped to 0..[`ONE`], and the output is
//! their weighted sum: centipawns for the player to move. Only for two players. The sums are made
//! afresh at each evaluation (about 30 men times the width of 16-bit adds): with chess's 128 units
//! 15 % of the search's instructions, more than the network has gained so far (NN in
//! `tuning/README.md`). Sums kept as men move (NNUE's accumulators) would cost a few adds a move.
//!
//! Text format (part of the definition, compiled in; a malformed one is a defect of the
//! definition, reported with its game and line): `hidden H`; `bias` and H values (the hidden
//! units' biases); `output` and H + 1 values (each unit's weight, then the output's bias, in
//! sixteenths of a centipawn per unit at [`ONE`]); then per relation and piece code a block
//! `own P` or `enemy P` of the cells' weights, H values per cell in cell order. Weights are in
//! 1/[`ONE`] of a unit; `#` lines are comments.

use super::learned::read_blocks;
use crate::position::Position;
use crate::tables::Game;
use crate::types::{Cell, Player, Table};

/// A hidden unit's full activation.
const ONE: i32 = 1024;
/// The output weights' unit: a sixteenth of a centipawn.
const OUTPUT_UNIT: i64 = 16;
/// Hidden units at most (the accumulator lives on the stack).
const MAX_HIDDEN: usize = 128;
/// Output weights (and bias) at most, in absolute value: with [`ONE`] and [`MAX_HIDDEN`] the
/// output's sum stays below 2^31.
const MAX_OUTPUT: i32 = 8191;

#[derive(Debug)]
pub struct Network {
    hidden: usize,
    bias: Vec<i16>,
    output: Vec<i16>,
    output_bias: i32,
    /// Per relation (own 0, enemy 1), type and cell from the mover's side, the `hidden` weights.
    weights: Vec<i16>,
    ntypes: usize,
    ncells: usize,
    /// Per player to move, a cell's index from its side.
    oriented: Table<Player, Table<Cell, Cell>>,
    permille: i32,
}

/// The definition's network in `permille` of its fitted output; `None` where the game has none.
pub(super) fn network<const W: usize>(game: &Game<W>, permille: i32) -> Option<Network> {
    let def = &game.def;
    if def.network.is_empty() || permille == 0 {
        return None;
    }
    let id = &def.id;
    assert!(game.nplayers == 2, "game {id}: a network is for two players");
    let (ntypes, ncells) = (game.ntypes, game.ncells);
    let blocks = read_blocks(id, "network", def.network);
    let h = match blocks.first().map(|b| (&b.header[..], b)) {
        Some((["hidden", h], b)) if b.values.is_empty() => h.parse().ok().filter(|h| (1..=MAX_HIDDEN).contains(h)),
        _ => None,
    }
    .unwrap_or_else(|| panic!("game {id}: network: the first line is `hidden H`, H from 1 to {MAX_HIDDEN}"));
    let mut bias = Vec::new();
    let mut output = Vec::new();
    let mut weights = vec![0i16; 2 * ntypes * ncells * h];
    let mut seen = vec![false; 2 * ntypes];
    for block in &blocks[1..] {
        let bad = |why: &str| -> ! { panic!("game {id}: network, line {}: {why}", block.line) };
        let narrow =
            |v: &i32, most: i32, what: &str| if (-most..=most).contains(v) { *v as i16 } else { bad(&format!("{what} out of range")) };
        match &block.header[..] {
            ["bias"] => {
                block.expect_len(id, "network", h);
                bias = block.values.iter().map(|v| narrow(v, i32::from(i16::MAX), "a bias")).collect();
            }
            ["output"] => {
                block.expect_len(id, "network", h + 1);
                output = block.values.iter().map(|v| narrow(v, MAX_OUTPUT, "an output weight")).collect();
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
            _ => bad("a header is hidden, bias, output, or own or enemy and a piece code"),
        }
    }
    assert!(bias.len() == h && output.len() == h + 1, "game {id}: network: bias or output missing");
    let output_bias = i32::from(output.pop().expect("checked"));
    Some(Network { hidden: h, bias, output, output_bias, weights, ntypes, ncells, oriented: super::learned::oriented(game), permille })
}

impl Network {
    /// Centipawns for the player to move.
    pub(super) fn value<const W: usize>(&self, pos: &Position<W>) -> i32 {
        let h = self.hidden;
        let mut acc = [0i16; MAX_HIDDEN];
        let acc = &mut acc[..h];
        acc.copy_from_slice(&self.bias);
        let mover = pos.to_move();
        let cells = &self.oriented[mover];
        for c in pos.occupied() {
            let man = pos.man_at(c);
            let input = usize::from(man.owner() != mover) * self.ntypes + man.kind().index();
            let start = (input * self.ncells + cells[c].index()) * h;
            // Saturating 16-bit sums (eight to a vector register): a unit that saturates lies
            // far outside the clipped range 0..ONE, where its exact sum would be clipped anyway.
            for (a, &w) in acc.iter_mut().zip(&self.weights[start..start + h]) {
                *a = a.saturating_add(w);
            }
        }
        // 16-bit products summed in 32 bits (`pmaddwd`): at most ONE × MAX_OUTPUT × MAX_HIDDEN.
        let sum: i32 = acc.iter().zip(&self.output).map(|(&a, &w)| i32::from(a.clamp(0, ONE as i16)) * i32::from(w)).sum();
        let sixteenths = i64::from(sum / ONE + self.output_bias);
        (sixteenths * i64::from(self.permille) / (OUTPUT_UNIT * 1000)) as i32
    }
}
