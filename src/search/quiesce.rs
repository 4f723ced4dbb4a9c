//! Quiescence search: captures and promotions until the position is quiet, standing pat on the
//! static evaluation (not in check), with delta pruning and transposition table cut-offs for two
//! players; against a bare royal piece the first ply adds the quiet checks.

use super::alphabeta::{from_tt, to_tt};
use super::movepick::MovePicker;
use super::see::see_ge;
use super::worker::Worker;
use super::{INF, MAX_PLY};
use crate::position::Move;
use crate::tt::Bound;

/// Longest capture sequence with two players.
const TWO_PLAYER_QUIESCE_PLIES: u32 = 12;

impl<const W: usize> Worker<'_, W> {
    pub(super) fn quiesce(&mut self, ply: usize, mut alpha: i32, beta: i32, qdepth: u32) -> i32 {
        if !self.enter_node(ply) {
            return 0;
        }
        if let Some(v) = self.terminal_or_draw(ply) {
            return v;
        }
        // The per-ply tables end here, in check or not.
        if ply >= MAX_PLY - 2 {
            return self.static_eval();
        }
        let mover = self.pos.to_move();
        let in_check = !self.multi && self.mover_in_check(ply);
        // With two players any entry of the table bounds this node's value. The capture search
        // stores its own at depth 0, below every entry of the main search, and never over one of
        // them.
        let mut tt_move = Move::NONE;
        let mut may_store = !self.multi;
        if !self.multi
            && let Some(e) = self.shared.tt.probe(self.key())
        {
            may_store = e.depth <= 0;
            let score = from_tt(e.score, self.distance());
            if e.bound.settles(score, alpha, beta) {
                return score;
            }
            tt_move = e.mv;
        }
        let alpha0 = alpha;
        let mut best = -INF;
        if !in_check {
            best = self.corrected_eval().0;
            let max_plies = if self.multi { self.params.multi_quiesce_plies.unsigned_abs() } else { TWO_PLAYER_QUIESCE_PLIES };
            if best >= beta || qdepth > max_plies {
                if may_store && best >= beta {
                    self.shared.tt.store(self.key(), Move::NONE, to_tt(best, self.distance()), 0, Bound::Lower);
                }
                return best;
            }
            alpha = alpha.max(best);
        }
        let mut list = std::mem::take(&mut self.stack[ply].list);
        list.clear();
        // Hunting a bare royal piece with two players, the first capture-search ply tries the
        // quiet checks too: the mates one move past the horizon are what converts won endings
        // whose mating nets the evaluation cannot see (3d boards, several levels).
        let quiet_checks = !self.multi && !in_check && qdepth == 0 && self.hunts_bare_royals(mover);
        // With two players the check test above saves the generator its own (with more, neither
        // a check nor the quiet checks are looked at here).
        if self.multi {
            self.pos.legal_tactical_moves_with(None, self.term_cache.lines(), &mut list.moves);
        } else if in_check || quiet_checks {
            self.pos.legal_moves_with(Some(in_check), self.term_cache.lines(), &mut list.moves);
        } else {
            self.pos.legal_tactical_moves_with(Some(false), self.term_cache.lines(), &mut list.moves);
        }
        let mut checks = std::mem::take(&mut self.stack[ply].checks);
        checks.clear();
        if quiet_checks {
            let values = self.shared.eval.values();
            let mut lines = None;
            for i in 0..list.moves.len() {
                let m = list.moves[i];
                if self.is_quiet(m) && self.may_give_check(m, &mut lines) && self.gives_check(m) && see_ge(&self.pos, m, 0, values) {
                    checks.push(m);
                }
            }
        }
        // Out of check, the quiet move `has_legal_move` may leave in the list goes at the retain
        // below.
        if list.moves.is_empty() && (in_check || !self.pos.has_legal_move(&mut list.moves)) {
            // Mate or stalemate (in N-player games, the two-player phase ends this way too).
            self.stack[ply].list = list;
            return self.no_move_value();
        }
        if !in_check {
            let delta = if self.multi { 0 } else { self.params.delta_margin };
            let values = self.shared.eval.values();
            let hopeless = |m: Move| {
                let victim = self.pos.man_at(m.victim_cell());
                delta > 0 && m.promotion().is_none() && victim.is_some() && best + values[victim.kind()] + delta <= alpha
            };
            // With three or four players a capture onto a cell another player attacks is usually
            // answered: searching it explodes the capture search in dense positions.
            // An opponent of the root's side captures only the side's men here: the coalition's
            // captures among themselves change the root's prospects least and cost the most.
            let root_side_mover = self.team_is_root(mover);
            let off_topic = |m: Move| {
                self.multi && !root_side_mover && m.promotion().is_none() && !self.team_is_root(self.pos.man_at(m.victim_cell()).owner())
            };
            // A capture that loses material in the exchange is not searched: with three or four
            // players by the cruder `losing_capture`, and an opponent of the root's side does
            // not trade evenly either (`unprofitable_capture`: a trade costs both its sides
            // against the rest, and the side that fears one trades first); with two sides by
            // static exchange evaluation, which the ordering does for captures (below) and this
            // for the rest.
            let losing = |m: Move| {
                if self.multi {
                    if root_side_mover { self.losing_capture(m) } else { self.unprofitable_capture(m) }
                } else {
                    !self.is_capture(m) && !see_ge(&self.pos, m, 0, values)
                }
            };
            list.moves.retain(|&m| (self.is_capture(m) || m.promotion().is_some()) && !hopeless(m) && !off_topic(m) && !losing(m));
            list.moves.extend_from_slice(&checks);
        }
        self.stack[ply].checks = checks;
        // With two sides out of check the captures that lose by static exchange are dropped, each
        // judged only when it comes up; moves scored below 0 (quiet checks of bad history) go now.
        let judged_later = !self.multi && !in_check;
        if judged_later {
            self.score_moves_judging_later(&mut list, tt_move, ply);
            list.drop_below_zero();
        } else {
            self.score_moves(&mut list, tt_move, ply);
        }
        let mut picker = MovePicker::new(list);
        let mut best_move = Move::NONE;
        let values = self.shared.eval.values();
        loop {
            let next =
                if judged_later { picker.next_judged(|m| see_ge(&self.pos, m, 0, values)) } else { picker.next_move().map(|(m, _)| m) };
            let Some(mv) = next else { break };
            let u = self.make(mv);
            self.stack[ply + 1].previous = mv;
            let same_team = self.team_is_root(self.pos.to_move()) == self.team_is_root(mover);
            let v =
                if same_team { self.quiesce(ply + 1, alpha, beta, qdepth + 1) } else { -self.quiesce(ply + 1, -beta, -alpha, qdepth + 1) };
            self.unmake(mv, u);
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    best_move = mv;
                    self.update_pv(ply, mv);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.stack[ply].list = picker.into_list();
        if may_store && !self.aborted {
            self.shared.tt.store(self.key(), best_move, to_tt(best, self.distance()), 0, Bound::of(best, alpha0, beta));
        }
        best
    }
}
