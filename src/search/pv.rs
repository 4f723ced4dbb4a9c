//! Principal variations as legal lines, and the value at their end.

use super::worker::Worker;
use super::{MATE, MAX_PLY};
use crate::eval::Evaluator;
use crate::position::{Move, Position};
use crate::types::Player;

/// The legal beginning of `pv` from `root`, and the position at its end. A best-reply line leaves
/// out the passes of the opponents who did not reply: forced passes are put back, and the line
/// ends at the first move that is not legal in turn.
pub(super) fn legal_prefix<const W: usize>(root: &Position<W>, pv: &[Move]) -> (Vec<Move>, Position<W>) {
    let mut end = root.clone();
    let mut legal = Vec::new();
    let mut out = Vec::new();
    'line: for &m in pv {
        loop {
            end.legal_moves(&mut legal);
            if legal.contains(&m) {
                break;
            }
            if legal.as_slice() != [Move::PASS] || out.len() >= MAX_PLY {
                break 'line;
            }
            end.make(Move::PASS);
            out.push(Move::PASS);
        }
        end.make(m);
        out.push(m);
    }
    (out, end)
}

/// The value for `player` of the position at the end of `pv`: a mate score if the game is over
/// there (or `player` is out of it), else the static evaluation.
fn pv_end_value<const W: usize>(root: &Position<W>, pv: &[Move], player: Player, eval: &Evaluator) -> i32 {
    let (line, end) = legal_prefix(root, pv);
    let distance = MATE - i32::try_from(line.len()).unwrap_or(MATE);
    if let Some(w) = end.winner() {
        return if w == player { distance } else { -distance };
    }
    if !end.is_active(player) {
        return -distance;
    }
    let mut legal = Vec::new();
    end.legal_moves(&mut legal);
    if legal.is_empty() {
        // Only with two players left: mate or stalemate.
        return match end.end_without_moves().winner {
            None => 0,
            Some(w) if w == player => distance,
            Some(_) => -distance,
        };
    }
    eval.evaluate_for(&end, player)
}

impl<const W: usize> Worker<'_, W> {
    /// [`pv_end_value`] of this worker's principal variation from the root (where the worker's
    /// position is between searches).
    pub(super) fn pv_end_value(&self, player: Player) -> i32 {
        pv_end_value(&self.pos, &self.stack[0].pv, player, self.shared.eval)
    }
}
