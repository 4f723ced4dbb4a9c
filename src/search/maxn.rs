//! Max-n search for three and four players, with shallow pruning.
//!
//! Every node has a vector of utilities, one per player, and the player to move picks the child
//! that is best for itself. Utilities are shares of a constant total: each active player's
//! evaluation (`Position::evaluate_for`, own material minus the opponents' average, which sums
//! to about zero over the players) is shifted by [`OFFSET`] so that it is non-negative, then the
//! shares are scaled to sum to [`TOTAL`]. An eliminated player has 0; a winner has everything.
//! Because no share is negative and they sum to at most `TOTAL`, a child in which the mover
//! already gets `TOTAL - b` leaves at most `b` to the parent's mover, whose best so far is `b`:
//! the rest of the node is pruned (shallow pruning).
//!
//! The transposition table is shared with the other searches but holds only the best move here
//! (keys are salted per search, so no entry is read as another search's score).

use super::{MAX_PLY, Worker};
use crate::position::{Move, Position};
use crate::tables::MAX_PLAYERS;
use crate::tt::Bound;

/// Utilities per player.
pub(super) type Utilities = [i32; MAX_PLAYERS];

/// The sum of all players' utilities.
pub(super) const TOTAL: i32 = 1 << 20;
/// Added to each evaluation before it becomes a share (an evaluation below `-OFFSET` counts as
/// nothing left).
const OFFSET: i64 = 3_000;
/// Quiescence plies at most, and captures tried per quiescence node (the most promising by
/// victim and attacker value): without alpha-beta, a full capture search explodes in games
/// like `guru2` where dozens of captures are open from the first move.
const MAX_QDEPTH: u32 = 4;
const MAX_QMOVES: usize = 4;

/// The static utilities of a position.
fn shares<const W: usize>(pos: &Position<W>) -> Utilities {
    let n = pos.game().nplayers;
    let values = pos.evaluate_all();
    let mut weight = [0i64; MAX_PLAYERS];
    for (p, w) in weight.iter_mut().enumerate().take(n) {
        if pos.is_active(p) {
            *w = (values[p] as i64 + OFFSET).max(1);
        }
    }
    let sum: i64 = weight.iter().sum();
    let mut u = [0; MAX_PLAYERS];
    for p in 0..n {
        u[p] = (TOTAL as i64 * weight[p] / sum.max(1)) as i32;
    }
    u
}

impl<const W: usize> Worker<'_, W> {
    fn utilities(&self) -> Utilities {
        shares(&self.pos)
    }

    /// Everything to `winner`, less the distance so that sooner wins are preferred.
    fn win_for(&self, winner: usize) -> Utilities {
        let mut u = [0; MAX_PLAYERS];
        u[winner] = TOTAL - self.distance();
        u
    }

    /// A draw: equal shares for the players still in the game.
    fn draw(&self) -> Utilities {
        let n = self.pos.game().nplayers;
        let share = TOTAL / self.pos.active_count().max(1) as i32;
        let mut u = [0; MAX_PLAYERS];
        for (p, x) in u.iter_mut().enumerate().take(n) {
            if self.pos.is_active(p) {
                *x = share;
            }
        }
        u
    }

    /// Ends decided by the rules before any move is generated.
    fn maxn_terminal(&self, ply: usize) -> Option<Utilities> {
        if self.pos.is_decided() {
            return Some(match self.pos.winner() {
                Some(w) => self.win_for(w),
                None => self.draw(),
            });
        }
        if ply > 0 && (self.repeated() || self.pos.halfmove_clock() >= 50 * self.pos.active_count()) {
            return Some(self.draw());
        }
        None
    }

    /// No legal move at all (only with two players left; with more, a pass is always legal).
    fn maxn_no_move(&self) -> Utilities {
        let mover = self.pos.to_move();
        if self.pos.in_check(mover) { self.win_for(self.pos.next_active(mover)) } else { self.draw() }
    }

    /// Max-n to `depth`; `parent` is the player who moved into this node and `bound` the best
    /// utility it has found so far (for shallow pruning).
    pub(super) fn maxn(&mut self, depth: i32, ply: usize, parent: usize, bound: i32) -> Utilities {
        if !self.enter_node(ply) {
            return [0; MAX_PLAYERS];
        }
        if let Some(u) = self.maxn_terminal(ply) {
            return u;
        }
        if depth <= 0 || ply >= MAX_PLY - 2 {
            return self.maxn_quiesce(ply, parent, bound, 0);
        }
        let mover = self.pos.to_move();
        let tt_move = self.tt.probe(self.key()).map_or(Move::NONE, |e| e.mv);
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        self.pos.legal_moves(&mut moves);
        if moves.is_empty() {
            self.buffers[ply] = moves;
            return self.maxn_no_move();
        }
        let mut scores: Vec<i32> = moves.iter().map(|&m| self.order_score(m, tt_move, ply)).collect();
        let mut best: Option<Utilities> = None;
        let mut best_move = Move::NONE;
        for i in 0..moves.len() {
            let j = (i..moves.len()).max_by_key(|&j| scores[j]).unwrap_or(i);
            moves.swap(i, j);
            scores.swap(i, j);
            let mv = moves[i];
            let quiet = !self.is_capture(mv) && mv.promotion().is_none();
            let u = self.make(mv);
            let v = self.maxn(depth - 1, ply + 1, mover, best.map_or(0, |b| b[mover]));
            self.unmake(mv, u);
            if self.aborted {
                break;
            }
            if best.is_none_or(|b| v[mover] > b[mover]) {
                best = Some(v);
                best_move = mv;
                let (head, tail) = self.pv.split_at_mut(ply + 1);
                head[ply].clear();
                head[ply].push(mv);
                head[ply].extend_from_slice(&tail[0]);
                if parent != mover && v[mover] >= TOTAL - bound {
                    if quiet && !mv.is_pass() {
                        self.remember_cutoff(mv, ply, depth);
                    }
                    break;
                }
            }
        }
        self.buffers[ply] = moves;
        if self.aborted {
            return [0; MAX_PLAYERS];
        }
        self.tt.store(self.key(), best_move, 0, depth, Bound::Upper);
        best.unwrap_or_else(|| self.draw())
    }

    /// Captures and promotions until the position is quiet; the mover may always stand pat.
    fn maxn_quiesce(&mut self, ply: usize, parent: usize, bound: i32, qdepth: u32) -> Utilities {
        if qdepth > 0 {
            if !self.enter_node(ply) {
                return [0; MAX_PLAYERS];
            }
            if let Some(u) = self.maxn_terminal(ply) {
                return u;
            }
        } else {
            self.pv[ply].clear();
        }
        let mover = self.pos.to_move();
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        self.pos.legal_moves(&mut moves);
        if moves.is_empty() {
            self.buffers[ply] = moves;
            return self.maxn_no_move();
        }
        let mut best = self.utilities();
        if qdepth >= MAX_QDEPTH || ply >= MAX_PLY - 2 || (parent != mover && best[mover] >= TOTAL - bound) {
            self.buffers[ply] = moves;
            return best;
        }
        moves.retain(|&m| (self.is_capture(m) || m.promotion().is_some()) && !self.losing_capture(m));
        let mut scores: Vec<i32> = moves.iter().map(|&m| self.order_score(m, Move::NONE, ply)).collect();
        for i in 0..moves.len().min(MAX_QMOVES) {
            let j = (i..moves.len()).max_by_key(|&j| scores[j]).unwrap_or(i);
            moves.swap(i, j);
            scores.swap(i, j);
            let mv = moves[i];
            let u = self.make(mv);
            let v = self.maxn_quiesce(ply + 1, mover, best[mover], qdepth + 1);
            self.unmake(mv, u);
            if self.aborted {
                break;
            }
            if v[mover] > best[mover] {
                best = v;
                let (head, tail) = self.pv.split_at_mut(ply + 1);
                head[ply].clear();
                head[ply].push(mv);
                head[ply].extend_from_slice(&tail[0]);
                if parent != mover && v[mover] >= TOTAL - bound {
                    break;
                }
            }
        }
        self.buffers[ply] = moves;
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;
    use crate::registry;
    use crate::tables::Game;

    fn honeycomb() -> &'static Game<4> {
        registry::compiled::<4>(crate::games::definition("honeycomb3").expect("honeycomb3"))
    }

    #[test]
    fn shares_are_non_negative_and_sum_to_the_total() {
        // The start is the same for all three players: only the tempo favours the mover.
        let start = Position::start(honeycomb());
        let u = shares(&start);
        assert!(u[0] > u[1] && u[1] == u[2], "{u:?}");
        let sum: i32 = u.iter().sum();
        assert!((TOTAL - 3..=TOTAL).contains(&sum), "{sum}");
        // Yellow eliminated: Yellow has nothing, Red (Queen and Rook against a bare King) most.
        let p = parse_position(
            honeycomb(),
            "bK7/7/6/5/4/3/2/rK/8/7/6/5/2rQ1/3/2/1/8/7/6/5/4/3/2/1/8/7/6/5/4/3/2/1/6rR1/7/6/5/4/3/2/1 r rb - - 0 1 1:yr",
        )
        .expect("position");
        let u = shares(&p);
        assert_eq!(u[1], 0);
        assert!(u[0] > u[2] && u[2] >= 0, "{u:?}");
        assert!(u.iter().sum::<i32>() <= TOTAL);
    }
}
