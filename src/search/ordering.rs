//! Move ordering: the transposition table's move first, then captures (most valuable victim,
//! least valuable attacker), promotions, killers and the history of quiet cut-offs (against a bare
//! royal piece, the quiet moves that leave it fewest steps), as scores for the picker
//! (`movepick`); and what a cut-off teaches the history (`history`).

use super::history::{HISTORY_CAP, NO_CONTEXT, history_bonus};
use super::movepick::{MoveList, QuietOrder};
use super::see::see_ge;
use super::worker::Worker;
use crate::attacks::Facing;
use crate::bitboard::Bitboard;
use crate::movegen::targets::{facing_royals, man_attacks};
use crate::moves::Man;
use crate::position::{Move, MoveKind};
use crate::types::Cell;
use arrayvec::ArrayVec;

/// Whether [`Worker::score_with`] looks at a capture's static exchange.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Exchanges {
    Judged,
    Later,
}

/// Ordering scores by class: each class above every score of the classes below.
const TT_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 24;
const PROMOTION: i32 = 1 << 23;
const KILLER: i32 = 1 << 22;
/// The quiet move that last refuted the previous move: below the killers.
const COUNTER: i32 = KILLER - 1;
/// Captures that lose material (by static exchange): below every quiet move.
const BAD_CAPTURE: i32 = -(1 << 24);
/// Within captures: the victim's value times this, less the attacker's value divided by it.
const VALUE_SCALE: i32 = 16;
/// Quiet moves against a bare royal piece, in the killers' place: less `HUNT_PER_STEP` for each
/// step they leave it, plus `HUNT_CHECK` for a check; the history (scaled below `HUNT_CHECK`)
/// breaks ties.
const HUNT_QUIET: i32 = 1 << 21;
const HUNT_PER_STEP: i32 = 4096;
const HUNT_CHECK: i32 = 2048;
const HUNT_HISTORY_DIVISOR: i32 = HISTORY_CAP / 1024;
/// The hunt's ordering is for a few men against a bare royal piece.
const HUNT_ORDER_MAX_MEN: usize = 8;

impl<const W: usize> Worker<'_, W> {
    #[inline(always)]
    pub fn is_capture(&self, mv: Move) -> bool {
        mv.kind() == MoveKind::EnPassant || (mv.kind() != MoveKind::Pass && self.pos.man_at(mv.to()).is_some())
    }

    /// Neither a capture nor a promotion.
    #[inline]
    pub fn is_quiet(&self, mv: Move) -> bool {
        !self.is_capture(mv) && mv.promotion().is_none()
    }

    /// A capture by a more valuable man on a cell that another player then attacks: likely to
    /// lose material, so quiescence can skip it.
    pub fn losing_capture(&self, mv: Move) -> bool {
        self.capture_answered(mv, false)
    }

    /// [`Worker::losing_capture`], and while three or more players are in, a capture by a man
    /// worth as much as its victim on an attacked cell too: at best an even trade, which costs
    /// both its sides against the players who stay out of it (each player is scored against the
    /// mean of its opponents).
    pub fn unprofitable_capture(&self, mv: Move) -> bool {
        self.capture_answered(mv, self.pos.active_count() > 2)
    }

    /// A normal capture whose capturer is worth more than its victim (or as much, with `even`)
    /// and lands on a cell another player attacks.
    fn capture_answered(&self, mv: Move, even: bool) -> bool {
        if mv.kind() != MoveKind::Normal {
            return false;
        }
        let values = self.shared.eval.values();
        let attacker = values[self.pos.man_at(mv.from()).kind()];
        let victim = self.pos.man_at(mv.to());
        if victim.is_none() || attacker < values[victim.kind()] || (attacker == values[victim.kind()] && !even) {
            return false;
        }
        let mut occ = self.pos.occupied();
        occ.clear(mv.from());
        let others = self.pos.opponents(self.pos.to_move());
        self.pos.attacked(mv.to(), occ, others, Bitboard::EMPTY, Facing::Ignored)
    }

    pub fn order_score(&self, mv: Move, tt_move: Move, ply: usize, quiet: &QuietOrder) -> i32 {
        self.score_with(mv, tt_move, ply, quiet, Exchanges::Judged)
    }

    /// [`Worker::order_score`], with `exchanges` saying whether a capture's static exchange is
    /// looked at.
    fn score_with(&self, mv: Move, tt_move: Move, ply: usize, quiet: &QuietOrder, exchanges: Exchanges) -> i32 {
        if mv == tt_move {
            return TT_MOVE;
        }
        let values = self.shared.eval.values();
        let mut s = 0;
        if self.is_capture(mv) {
            let victim = self.pos.man_at(mv.victim_cell());
            let attacker = self.pos.man_at(mv.from());
            let mvv_lva = values[victim.kind()] * VALUE_SCALE - values[attacker.kind()] / VALUE_SCALE;
            // With two sides, a capture that loses material in the exchange comes after the
            // quiet moves.
            if !self.multi && exchanges == Exchanges::Judged && !see_ge(&self.pos, mv, 0, values) {
                return BAD_CAPTURE + mvv_lva;
            }
            s += CAPTURE + mvv_lva;
        }
        if let Some(t) = mv.promotion() {
            s += PROMOTION + values[t];
        }
        if s == 0 {
            if self.stack[ply].killers.contains(&mv) {
                return KILLER;
            }
            if quiet.counter == mv {
                return COUNTER;
            }
            if mv.kind() != MoveKind::Pass {
                s = self.quiet_score(mv, quiet);
            }
        }
        s
    }

    /// What a node's quiet moves are ordered by besides their own history, found once per node:
    /// with two players the counter move and the continuation contexts of the moves one and two
    /// plies before. No continuations where a royal piece is bare: there the hunt's ordering and
    /// the plain history decide (with them the mates of the won-endings tests took up to 5 times
    /// the nodes).
    pub fn quiet_order(&self, ply: usize) -> QuietOrder {
        let mover = self.pos.to_move();
        if self.multi {
            return QuietOrder::NONE;
        }
        let counter = self.counter_of(ply).unwrap_or(Move::NONE);
        if self.pos.is_bare(mover) || self.pos.opponents_bare(mover) {
            return QuietOrder { counter, ..QuietOrder::NONE };
        }
        let (one, two) = self.contexts(ply);
        QuietOrder { counter, one, two }
    }

    /// The continuation contexts of the moves one and two plies before `ply`.
    fn contexts(&self, ply: usize) -> (usize, usize) {
        (self.stack[ply].context, if ply >= 1 { self.stack[ply - 1].context } else { NO_CONTEXT })
    }

    /// A quiet move's credit: twice its history, and its continuation histories.
    pub fn quiet_score(&self, mv: Move, quiet: &QuietOrder) -> i32 {
        let man = self.pos.man_at(mv.from());
        let h = 2 * self.learned.history.score(man.owner(), mv);
        h + self.learned.continuation.score(quiet.one, man.kind(), mv.to())
            + self.learned.continuation.score(quiet.two, man.kind(), mv.to())
    }

    /// Scores every move of `list` for ordering.
    pub fn score_moves(&self, list: &mut MoveList, tt_move: Move, ply: usize) {
        let quiet = self.quiet_order(ply);
        list.scores.clear();
        list.pending.clear();
        for i in 0..list.moves.len() {
            let s = self.order_score(list.moves[i], tt_move, ply, &quiet);
            list.scores.push(s);
        }
    }

    /// [`Worker::score_moves`] for a two-sided capture search, which drops the captures that lose
    /// by static exchange: the captures (but the table's move) are scored as if they did not
    /// lose and marked pending, to be judged only when they come up
    /// ([`MovePicker::next_judged`](super::movepick::MovePicker::next_judged)). Most nodes cut
    /// off after one or two moves, and most exchanges are then never looked at.
    pub fn score_moves_judging_later(&self, list: &mut MoveList, tt_move: Move, ply: usize) {
        debug_assert!(!self.multi, "exchanges are judged with two sides only");
        let quiet = self.quiet_order(ply);
        list.scores.clear();
        list.pending.clear();
        for i in 0..list.moves.len() {
            let mv = list.moves[i];
            list.scores.push(self.score_with(mv, tt_move, ply, &quiet, Exchanges::Later));
            list.pending.push(mv != tt_move && self.is_capture(mv));
        }
    }

    /// Where the counter move of the move that led to `ply` is kept.
    fn counter_slot(&self, ply: usize) -> Option<usize> {
        let previous = self.stack[ply].previous;
        (previous != Move::NONE && !previous.is_pass()).then(|| previous.from().index() * self.pos.game().ncells + previous.to().index())
    }

    /// The quiet move that last refuted the move that led to `ply`.
    fn counter_of(&self, ply: usize) -> Option<Move> {
        self.counter_slot(ply).map(|slot| self.learned.counters[slot]).filter(|&m| m != Move::NONE)
    }

    /// A quiet move caused a cut-off: a killer at this ply, and history credit; with two players
    /// the quiet moves searched before it (`tried`) lose credit.
    pub fn remember_cutoff(&mut self, mv: Move, ply: usize, depth: i32, tried: &[Move]) {
        let k = &mut self.stack[ply].killers;
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
        let mover = self.pos.man_at(mv.from()).owner();
        if self.multi {
            self.learned.history.credit(mover, mv, depth);
            return;
        }
        if let Some(slot) = self.counter_slot(ply) {
            self.learned.counters[slot] = mv;
        }
        let bonus = history_bonus(depth, self.params.history_bonus_slope);
        let contexts = self.contexts(ply);
        self.credit_quiet(mv, contexts, bonus);
        for &m in tried {
            self.credit_quiet(m, contexts, -bonus);
        }
    }

    /// Two players: `bonus` to a quiet move's history and continuation histories.
    fn credit_quiet(&mut self, mv: Move, (one, two): (usize, usize), bonus: i32) {
        let man = self.pos.man_at(mv.from());
        self.learned.history.update(man.owner(), mv, bonus);
        self.learned.continuation.update(one, man.kind(), mv.to(), bonus);
        self.learned.continuation.update(two, man.kind(), mv.to(), bonus);
    }

    /// Hunting a bare royal piece with two players: quiet moves ordered by how few steps they leave
    /// it (checks first among equals; stalemates last), so that reductions and pruning spare the
    /// moves that close the net. The steps are counted against the hunter's attacks after the move,
    /// each man's attacks found again only where the move starts or ends on them: an estimate, as
    /// an ordering needs, without making the moves.
    pub fn order_hunt(&self, list: &mut MoveList, tt_move: Move) {
        let pos = &self.pos;
        let game = pos.game();
        let mover = pos.to_move();
        let Some(weak) = pos.opponents(mover).iter().next().and_then(|q| pos.royal_cell(q)) else { return };
        let men = pos.pieces_of(mover);
        if men.count() as usize > HUNT_ORDER_MAX_MEN {
            return;
        }
        let bare = pos.man_at(weak);
        let steps = pos.piece_targets(weak, bare.kind(), bare.orientation(), Bitboard::EMPTY) & game.rules.royal_zone[bare.owner()];
        let mut occ = pos.occupied();
        occ.clear(weak);
        let facing = facing_royals(pos);
        let attacks = |c: Cell, man: Man, occ: Bitboard<W>| man_attacks(game, c, man, facing.has(c), occ);
        let before: ArrayVec<(Cell, Bitboard<W>), HUNT_ORDER_MAX_MEN> = men.iter().map(|c| (c, attacks(c, pos.man_at(c), occ))).collect();
        for i in 0..list.moves.len() {
            let mv = list.moves[i];
            if mv == tt_move || mv.kind() != MoveKind::Normal || !self.is_quiet(mv) {
                continue;
            }
            let (from, to) = (mv.from(), mv.to());
            let mut after = occ;
            after.clear(from);
            after.set(to);
            let mut attacked = attacks(to, pos.man_at(from), after);
            for &(c, a) in &before {
                if c != from {
                    attacked |= if a.has(from) || a.has(to) { attacks(c, pos.man_at(c), after) } else { a };
                }
            }
            let replies = (steps & !attacked).count() as i32;
            let check = attacked.has(weak);
            list.scores[i] = if replies == 0 && !check {
                BAD_CAPTURE - 1
            } else {
                HUNT_QUIET - replies * HUNT_PER_STEP
                    + i32::from(check) * HUNT_CHECK
                    + list.scores[i].clamp(-HISTORY_CAP, HISTORY_CAP) / HUNT_HISTORY_DIVISOR
            };
        }
    }
}
