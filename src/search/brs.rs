//! Best-reply search (Schadd & Winands) and BRS+ (Esser, Gras, Winands, Schadd, Lanctot 2013):
//! at the coalition's turn, the moves of every opponent who moves before the root player's next
//! turn are pooled, and only the chosen one is searched. In best-reply search the other opponents
//! pass; in BRS+ they play their first move by a static ordering (the most valuable capture or
//! promotion that does not give material away, else the first move generated), so that every
//! position searched can occur.

use super::MultiSearch;
use super::history::NO_CONTEXT;
use super::movepick::MoveList;
use super::worker::Worker;
use crate::movegen::best_scoring;
use crate::position::{Move, MoveKind, Undo};
use crate::types::Player;

impl<const W: usize> Worker<'_, W> {
    /// Whether this node pools the replies of all the root player's opponents (best-reply search
    /// or BRS+, while three or more players are in the game).
    pub(super) fn brs_node(&self, mover: Player) -> bool {
        matches!(self.algorithm, MultiSearch::BestReply | MultiSearch::BestReplyPlus) && mover != self.root && self.pos.active_count() > 2
    }

    /// Whether an opponent of the root player is to move in a game the root player is still in.
    fn opponent_to_move(&self) -> bool {
        self.pos.to_move() != self.root && self.pos.is_active(self.root) && !self.pos.is_decided()
    }

    /// What an opponent who does not give the best reply plays: the pass in best-reply search;
    /// in BRS+ its first move by a static ordering (the same in a position whatever the search
    /// has learnt, so that the moves pooled stay legal when the line is played).
    fn other_opponents_move(&mut self, ply: usize) -> Move {
        self.static_move(|w| {
            let mut moves = std::mem::take(&mut w.stack[ply].brs.replies);
            let best = w.pos.best_tactical_move(&mut moves, |m| w.static_score(m), |m| !w.unprofitable_capture(m));
            let m = best.or_else(|| w.pos.first_legal_move(&mut moves));
            w.stack[ply].brs.replies = moves;
            m
        })
    }

    /// [`Worker::other_opponents_move`] where the position's legal moves, `legal`, are at hand.
    fn other_opponents_move_among(&mut self, legal: &[Move]) -> Move {
        self.static_move(|w| best_scoring(legal, |m| w.static_score(m), |m| !w.unprofitable_capture(m)).or_else(|| legal.first().copied()))
    }

    /// The static move `find` finds (the pass where it finds none), in BRS+; remembered by
    /// position, as the same positions come back at every iteration.
    fn static_move(&mut self, find: impl FnOnce(&mut Self) -> Option<Move>) -> Move {
        if self.algorithm != MultiSearch::BestReplyPlus {
            return Move::PASS;
        }
        let key = self.pos.hash();
        if let Some(m) = self.static_moves.get(key) {
            return m;
        }
        let m = find(self).unwrap_or(Move::PASS);
        self.static_moves.put(key, m);
        m
    }

    /// The static ordering of [`Worker::other_opponents_move`]: the value of the man captured and
    /// of the promotion; where no move scores above 0, the first move generated is played, and
    /// among equals the first generated. A capture the exchange makes unprofitable
    /// ([`Worker::unprofitable_capture`]) is passed over: an opponent who trades its Queen for a
    /// defended Pawn, or a Rook for a Rook against the rest, is a model that opponents blunder.
    fn static_score(&self, m: Move) -> i32 {
        if m.is_pass() {
            return 0;
        }
        let values = self.shared.eval.values();
        let victim = self.pos.man_at(m.victim_cell());
        let capture = if m.kind() == MoveKind::EnPassant || victim.is_some() { values[victim.kind()] } else { 0 };
        capture + m.promotion().map_or(0, |t| values[t])
    }

    /// The moves of every opponent who moves before the root player's next turn, each with the
    /// number of opponents who move (or pass) before it, scored for ordering. Forced passes are
    /// left out; if no opponent has a move, everyone passes.
    pub(super) fn best_replies(&mut self, list: &mut MoveList, tt_move: Move, ply: usize) {
        list.clear();
        let mut replies = std::mem::take(&mut self.stack[ply].brs.replies);
        let mut played: Vec<(Move, Undo<W>)> = std::mem::take(&mut self.stack[ply].brs.pass_undos);
        self.stack[ply].brs.others.clear();
        let quiet = self.quiet_order(ply);
        while self.opponent_to_move() {
            self.pos.legal_moves_with(None, self.term_cache.lines(), &mut replies);
            let before = u8::try_from(played.len()).expect("fewer than 256 players");
            for &m in replies.iter().filter(|m| !m.is_pass()) {
                list.moves.push(m);
                list.passes.push(before);
                list.scores.push(self.order_score(m, tt_move, ply, &quiet));
            }
            let other = self.other_opponents_move_among(&replies);
            self.stack[ply].brs.others.push(other);
            played.push((other, self.pos.make(other)));
        }
        while let Some((m, u)) = played.pop() {
            self.pos.unmake(m, u);
        }
        if list.moves.is_empty() {
            list.moves.push(Move::PASS);
            list.passes.push(0);
            list.scores.push(0);
        }
        self.stack[ply].brs.replies = replies;
        self.stack[ply].brs.pass_undos = played;
    }

    /// Plays `mv` of a list from [`Worker::best_replies`] after the other opponents before it
    /// (`before` of them), then (at a best-reply node) the other opponents until the root player
    /// is to move again.
    pub(super) fn make_play(&mut self, before: u8, mv: Move, ply: usize, undos: &mut Vec<(Move, Undo<W>)>) {
        let brs = self.brs_node(self.pos.to_move());
        // The opponents before the replying one play what best_replies found for them.
        for k in 0..usize::from(before) {
            let other = self.stack[ply].brs.others[k];
            let u = self.make(other);
            undos.push((other, u));
        }
        let u = self.make(mv);
        undos.push((mv, u));
        self.stack[ply + 1].previous = mv;
        let man = self.pos.man_at(mv.to());
        self.stack[ply + 1].context = if man.is_some() { self.learned.continuation.context(man, mv.to()) } else { NO_CONTEXT };
        if brs {
            while self.opponent_to_move() {
                let other = self.other_opponents_move(ply);
                let u = self.make(other);
                undos.push((other, u));
            }
        }
    }

    /// Takes back everything [`Worker::make_play`] played.
    pub(super) fn unmake_play(&mut self, undos: &mut Vec<(Move, Undo<W>)>) {
        while let Some((m, u)) = undos.pop() {
            self.unmake(m, u);
        }
    }
}
