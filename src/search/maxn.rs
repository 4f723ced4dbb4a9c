//! Max-n search for three and four players, with shallow pruning.
//!
//! Every node has a vector of utilities, one per player, and the player to move picks the child
//! that is best for itself. Utilities are shares of a constant total: each active player's
//! evaluation (`Evaluator::evaluate_for`, own material minus the opponents' average, which sums
//! to about zero over the players) is shifted by [`OFFSET`] so that it is non-negative, then the
//! shares are scaled to sum to [`TOTAL`]. An eliminated player has 0; a winner has everything.
//! Because no share is negative and they sum to at most `TOTAL`, a child in which the mover
//! already gets `TOTAL - b` leaves at most `b` to the parent's mover, whose best so far is `b`:
//! the rest of the node is pruned (shallow pruning).
//!
//! The transposition table is shared with the other searches but holds only the best move here
//! (keys are salted per search, so no entry is read as another search's score).

use super::MAX_PLY;
use super::movepick::MovePicker;
use super::worker::Worker;
use crate::eval::Evaluator;
use crate::position::{Move, Position};
use crate::tt::Bound;
use crate::types::{PerPlayer, Player};

/// Utilities per player.
pub(super) type Utilities = PerPlayer<i32>;

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
fn shares<const W: usize>(pos: &Position<W>, eval: &Evaluator) -> Utilities {
    let values = eval.evaluate_all(pos);
    let mut weight = PerPlayer::splat(0i64);
    for p in pos.active_players().iter() {
        weight[p] = (i64::from(values[p]) + OFFSET).max(1);
    }
    let sum: i64 = weight.0.iter().sum();
    let mut u = PerPlayer::splat(0);
    for p in pos.game().players() {
        u[p] = i32::try_from(i64::from(TOTAL) * weight[p] / sum.max(1)).unwrap_or(TOTAL);
    }
    u
}

impl<const W: usize> Worker<'_, W> {
    fn utilities(&self) -> Utilities {
        shares(&self.pos, self.shared.eval)
    }

    /// Everything to `winner`, less the distance so that sooner wins are preferred.
    fn win_for(&self, winner: Player) -> Utilities {
        let mut u = PerPlayer::splat(0);
        u[winner] = TOTAL - self.distance();
        u
    }

    /// A draw: equal shares for the players still in the game.
    fn draw(&self) -> Utilities {
        let share = TOTAL / i32::try_from(self.pos.active_count().max(1)).unwrap_or(1);
        let mut u = PerPlayer::splat(0);
        for p in self.pos.active_players().iter() {
            u[p] = share;
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
        self.drawn(ply).then(|| self.draw())
    }

    /// No legal move at all (only with two players left; with more, a pass is always legal).
    fn maxn_no_move(&self) -> Utilities {
        match self.pos.end_without_moves().winner {
            Some(w) => self.win_for(w),
            None => self.draw(),
        }
    }

    /// Max-n to `depth`; `parent` is the player who moved into this node and `bound` the best
    /// utility it has found so far (for shallow pruning).
    pub(super) fn maxn(&mut self, depth: i32, ply: usize, parent: Player, bound: i32) -> Utilities {
        if !self.enter_node(ply) {
            return PerPlayer::splat(0);
        }
        if let Some(u) = self.maxn_terminal(ply) {
            return u;
        }
        if depth <= 0 || ply >= MAX_PLY - 2 {
            return self.maxn_quiesce(ply, parent, bound, 0);
        }
        let mover = self.pos.to_move();
        let tt_move = self.shared.tt.probe(self.key()).map_or(Move::NONE, |e| e.mv);
        let mut list = std::mem::take(&mut self.stack[ply].list);
        list.clear();
        self.pos.legal_moves_with(None, self.term_cache.lines(), &mut list.moves);
        if list.moves.is_empty() {
            self.stack[ply].list = list;
            return self.maxn_no_move();
        }
        self.filter_root(ply, &mut list.moves);
        self.score_moves(&mut list, tt_move, ply);
        let mut best: Option<Utilities> = None;
        let mut best_move = Move::NONE;
        let mut picker = MovePicker::new(list);
        while let Some((mv, _)) = picker.next_move() {
            if ply == 0 {
                self.at_root.current = Some((mv, picker.index() + 1));
            }
            let quiet = self.is_quiet(mv);
            let u = self.make(mv);
            let v = self.maxn(depth - 1, ply + 1, mover, best.map_or(0, |b| b[mover]));
            self.unmake(mv, u);
            if self.aborted {
                break;
            }
            if best.is_none_or(|b| v[mover] > b[mover]) {
                best = Some(v);
                best_move = mv;
                self.update_pv(ply, mv);
                if parent != mover && v[mover] >= TOTAL - bound {
                    if quiet && !mv.is_pass() {
                        self.remember_cutoff(mv, ply, depth, &[]);
                    }
                    break;
                }
            }
        }
        self.stack[ply].list = picker.into_list();
        if self.aborted {
            return PerPlayer::splat(0);
        }
        self.shared.tt.store(self.key(), best_move, 0, depth, Bound::Upper);
        best.unwrap_or_else(|| self.draw())
    }

    /// Captures and promotions until the position is quiet; the mover may always stand pat.
    fn maxn_quiesce(&mut self, ply: usize, parent: Player, bound: i32, qdepth: u32) -> Utilities {
        if qdepth > 0 {
            if !self.enter_node(ply) {
                return PerPlayer::splat(0);
            }
            if let Some(u) = self.maxn_terminal(ply) {
                return u;
            }
        } else {
            self.stack[ply].pv.clear();
        }
        let mover = self.pos.to_move();
        let mut list = std::mem::take(&mut self.stack[ply].list);
        list.clear();
        self.pos.legal_tactical_moves_with(None, self.term_cache.lines(), &mut list.moves);
        // The quiet move `has_legal_move` may leave in the list goes at the retain below.
        if list.moves.is_empty() && !self.pos.has_legal_move(&mut list.moves) {
            self.stack[ply].list = list;
            return self.maxn_no_move();
        }
        let mut best = self.utilities();
        if qdepth >= MAX_QDEPTH || ply >= MAX_PLY - 2 || (parent != mover && best[mover] >= TOTAL - bound) {
            self.stack[ply].list = list;
            return best;
        }
        list.moves.retain(|&m| (self.is_capture(m) || m.promotion().is_some()) && !self.losing_capture(m));
        self.score_moves(&mut list, Move::NONE, ply);
        let mut picker = MovePicker::new(list);
        while let Some((mv, _)) = picker.next_move() {
            if picker.index() >= MAX_QMOVES {
                break;
            }
            let u = self.make(mv);
            let v = self.maxn_quiesce(ply + 1, mover, best[mover], qdepth + 1);
            self.unmake(mv, u);
            if self.aborted {
                break;
            }
            if v[mover] > best[mover] {
                best = v;
                self.update_pv(ply, mv);
                if parent != mover && v[mover] >= TOTAL - bound {
                    break;
                }
            }
        }
        self.stack[ply].list = picker.into_list();
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::PARAMS;
    use crate::notation::parse_position;
    use crate::registry;
    use crate::tables::Game;

    fn honeycomb() -> &'static Game<4> {
        registry::compiled::<4>(crate::games::definition("honeycomb3").expect("honeycomb3"))
    }

    #[test]
    fn shares_are_non_negative_and_sum_to_the_total() {
        // The start is the same for all three players: only the tempo favours the mover.
        let eval = Evaluator::new(honeycomb(), &PARAMS);
        let mut start = Position::start(honeycomb());
        eval.prepare(&mut start);
        let u = shares(&start, &eval).0;
        assert!(u[0] > u[1] && u[1] == u[2], "{u:?}");
        let sum: i32 = u.iter().sum();
        assert!((TOTAL - 3..=TOTAL).contains(&sum), "{sum}");
        // Yellow eliminated: Yellow has nothing, Red (Queen and Rook against a bare King) most.
        let mut p = parse_position(
            honeycomb(),
            "bK7/7/6/5/4/3/2/rK/8/7/6/5/2rQ1/3/2/1/8/7/6/5/4/3/2/1/8/7/6/5/4/3/2/1/6rR1/7/6/5/4/3/2/1 r rb - - 0 1 1:yr",
        )
        .expect("position");
        eval.prepare(&mut p);
        let u = shares(&p, &eval).0;
        assert_eq!(u[1], 0);
        assert!(u[0] > u[2] && u[2] >= 0, "{u:?}");
        assert!(u.iter().sum::<i32>() <= TOTAL);
    }
}
