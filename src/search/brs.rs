//! Best-reply search (Schadd & Winands): at the coalition's turn, the moves of every opponent who
//! moves before the root player's next turn are pooled, and only the chosen one is played; the
//! other opponents pass.

use super::MultiSearch;
use super::ordering::MoveList;
use super::worker::Worker;
use crate::position::{Move, Undo};
use crate::types::Player;

impl<const W: usize> Worker<'_, W> {
    /// Whether this node pools the replies of all the root player's opponents (best-reply
    /// search, while three or more players are in the game).
    pub(super) fn brs_node(&self, mover: Player) -> bool {
        self.algorithm == MultiSearch::BestReply && mover != self.root && self.pos.active_count() > 2
    }

    /// Whether an opponent of the root player is to move in a game the root player is still in.
    fn opponent_to_move(&self) -> bool {
        self.pos.to_move() != self.root && self.pos.is_active(self.root) && !self.pos.is_decided()
    }

    /// The moves of every opponent who moves before the root player's next turn, each with the
    /// number of opponents who pass before it (the others pass after it), scored for ordering.
    /// Forced passes are left out; if no opponent has a move, everyone passes.
    pub(super) fn best_replies(&mut self, list: &mut MoveList, tt_move: Move, ply: usize) {
        list.clear();
        let mut replies = std::mem::take(&mut self.stack[ply].replies);
        let mut passes: Vec<Undo<W>> = std::mem::take(&mut self.stack[ply].pass_undos);
        while self.opponent_to_move() {
            self.pos.legal_moves(&mut replies);
            let before = u8::try_from(passes.len()).expect("fewer than 256 players");
            for &m in replies.iter().filter(|m| !m.is_pass()) {
                list.moves.push(m);
                list.passes.push(before);
                list.scores.push(self.order_score(m, tt_move, ply));
            }
            passes.push(self.pos.make(Move::PASS));
        }
        while let Some(u) = passes.pop() {
            self.pos.unmake(Move::PASS, u);
        }
        if list.moves.is_empty() {
            list.moves.push(Move::PASS);
            list.passes.push(0);
            list.scores.push(0);
        }
        self.stack[ply].replies = replies;
        self.stack[ply].pass_undos = passes;
    }

    /// Plays `mv` after `passes` passes, then (at a best-reply node) passes for the remaining
    /// opponents until the root player is to move again.
    pub(super) fn make_play(&mut self, passes: u8, mv: Move, undos: &mut Vec<(Move, Undo<W>)>) {
        let brs = self.brs_node(self.pos.to_move());
        for _ in 0..passes {
            let u = self.make(Move::PASS);
            undos.push((Move::PASS, u));
        }
        let u = self.make(mv);
        undos.push((mv, u));
        if brs {
            while self.opponent_to_move() {
                let u = self.make(Move::PASS);
                undos.push((Move::PASS, u));
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
