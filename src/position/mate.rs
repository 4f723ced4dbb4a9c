//! Start-of-turn checkmates in games of three or more players (rules README, step 6): the player
//! about to move checkmates every other active player whose royal piece it attacks.

use super::Position;
use super::make::Undo;
use crate::attacks::Facing;
use crate::bitboard::Bitboard;
use crate::game::VictimMen;
use crate::types::{Cell, Player, PlayerSet};

impl<const W: usize> Position<W> {
    /// While the player to move attacks another active player's royal piece, that player is
    /// checkmated (victims in turn order, one at a time). The players known to be attacked by
    /// nobody (`unattacked`, forgotten once a checkmate changes the board) are not tested.
    pub(super) fn start_of_turn(&mut self, undo: &mut Undo<W>) {
        let p = self.to_move;
        let mover = PlayerSet::only(p);
        loop {
            if self.is_decided() {
                return;
            }
            let mut victim = None;
            let mut q = p;
            for _ in 1..self.game.nplayers {
                q = self.next_active(q);
                if q == p {
                    break;
                }
                if self.side_of(p).has(q) {
                    continue;
                }
                if self.unattacked.has(q) {
                    debug_assert!(
                        self.royal_cell(q).is_none_or(|k| !self.attacked(k, self.occ, mover, Bitboard::EMPTY, Facing::Ignored)),
                        "a royal piece known to be safe is attacked"
                    );
                    continue;
                }
                if let Some(k) = self.royal_cell(q)
                    && self.attacked(k, self.occ, mover, Bitboard::EMPTY, Facing::Ignored)
                {
                    let attackers = self.attackers(k, self.occ, mover, Bitboard::EMPTY, Facing::Ignored);
                    victim = attackers.first().map(|d| (q, d));
                    break;
                }
            }
            let Some((q, deliverer)) = victim else { return };
            if undo.snapshot.is_none() {
                undo.snapshot = Some(Box::new(self.clone()));
            }
            self.checkmate(q, p, deliverer);
        }
    }

    /// Eliminates `victim`, checkmated by `mater` with the man on `deliverer`.
    pub(crate) fn checkmate(&mut self, victim: Player, mater: Player, deliverer: Cell) {
        let game = self.game;
        let rules = &game.def.rules.mate;
        self.mates += 1;
        let first_mate = self.mates == 1;
        let delivered_by_promotee = self.man_at(deliverer).flagged();
        for c in self.by_owner[victim] {
            let m = self.take(c);
            if rules.victim_men == VictimMen::Recruited && !game.types[m.kind()].royal {
                self.put(c, game.normalized(m.with_owner(mater)));
            }
        }
        self.active.remove(victim);
        self.eliminated_by[victim] = Some(mater);
        self.elimination_order.push(victim);
        self.ep[victim] = None;
        for c in &game.rules.castles {
            if c.player == victim {
                self.castling &= !c.right;
            }
        }
        let royal = self.royal_cell(mater);
        if royal != Some(deliverer) {
            let d = self.man_at(deliverer);
            if let Some(t) = game.rules.deliverer_promotion[d.kind()] {
                self.take(deliverer);
                self.put(deliverer, d.with_kind(t));
            }
        }
        if let Some(k) = royal {
            let m = self.man_at(k);
            if let Some(t) = game.rules.royal_promotion[m.kind()] {
                self.take(k);
                self.put(k, m.with_kind(t));
            }
        }
        if first_mate && rules.second_mate_by_promotee_wins {
            for c in [Some(deliverer), royal].into_iter().flatten() {
                let m = self.take(c);
                self.put(c, m.with_flag(true));
            }
        }
        if (rules.second_mate_by_promotee_wins && self.mates == 2 && delivered_by_promotee) || self.team_wins_at_second_mate(mater) {
            self.winner = Some(mater);
        }
        self.halfmove = 0;
        self.hash = self.compute_hash();
    }
}
