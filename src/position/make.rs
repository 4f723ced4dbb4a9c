//! Making and unmaking moves.

use super::{EnPassant, Position};
use crate::bitboard::Bitboard;
use crate::moves::{MAX_LEGS, Man, Move, MoveKind};
use crate::types::{Cell, PerPlayer, PieceType, Player, PlayerSet};

/// Everything `unmake` needs to restore the position before a move.
#[derive(Clone)]
pub struct Undo<const W: usize> {
    /// The man a one-leg move captured, and where.
    captured: Option<(Cell, Man)>,
    moved: Man,
    castling: u32,
    ep: PerPlayer<Option<EnPassant>>,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
    to_move: Player,
    /// The men captured by each leap of a Charge.
    charge_captured: [Man; MAX_LEGS],
    /// The position right after the move itself, kept when start-of-turn checkmates followed.
    pub(super) snapshot: Option<Box<Position<W>>>,
    unattacked: PlayerSet,
}

impl<const W: usize> Position<W> {
    /// Applies a legal move (or the pass) and everything that follows from it.
    pub fn make(&mut self, mv: Move) -> Undo<W> {
        let game = self.game;
        let z = &game.zobrist;
        let p = self.to_move;
        let mut undo = Undo {
            captured: None,
            moved: Man::NONE,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            hash: self.hash,
            to_move: self.to_move,
            charge_captured: [Man::NONE; MAX_LEGS],
            snapshot: None,
            unattacked: self.unattacked,
        };
        if let Some(a) = &mut self.accumulators {
            a.push();
        }
        self.halfmove = self.halfmove.saturating_add(1);
        let kind = mv.kind();
        if kind == MoveKind::Charge {
            undo.charge_captured = self.apply_charge(mv);
            if undo.charge_captured.iter().any(|m| m.is_some()) {
                self.halfmove = 0;
            }
        } else if kind != MoveKind::Pass {
            let (from, to) = (mv.from(), mv.to());
            let victim_cell = mv.victim_cell();
            if self.man_at(victim_cell).is_some() {
                undo.captured = Some((victim_cell, self.take(victim_cell)));
                self.halfmove = 0;
                // A double-stepped pawn that is captured takes its en passant right with it (with
                // three or more players the right would otherwise outlive it).
                for q in game.players() {
                    if let Some(ep) = self.ep[q]
                        && ep.victim == victim_cell
                    {
                        self.hash ^= z.ep(q, ep.skipped);
                        self.ep[q] = None;
                    }
                }
            }
            let m = self.take(from);
            undo.moved = m;
            if game.types[m.kind()].pawn {
                self.halfmove = 0;
            }
            let placed = match mv.promotion() {
                Some(t) => game.normalized(m.with_kind(t)),
                None => m,
            };
            self.put(to, placed);
            if kind == MoveKind::Castle {
                let c = &game.rules.castles[mv.castle_index()];
                let rook = self.take(c.rook_from);
                self.put(c.rook_to, rook);
            }
            self.clear_castling_rights(from, to);
            if kind == MoveKind::DoubleStep {
                let skipped = mv.aux_cell();
                if self.en_passant_possible(p, skipped, m.kind()) {
                    self.ep[p] = Some(EnPassant { skipped, victim: to });
                    self.hash ^= z.ep(p, skipped);
                }
            }
        }
        let next = self.next_active(p);
        if next <= p {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.hash ^= z.to_move[p.index()] ^ z.to_move[next.index()];
        self.to_move = next;
        if let Some(ep) = self.ep[next].take() {
            self.hash ^= z.ep(next, ep.skipped);
        }
        if self.active.len() > 2 {
            self.unattacked = self.still_unattacked(undo.unattacked, mv, p);
            self.start_of_turn(&mut undo);
        }
        // The network's sums are made once the move's men, start-of-turn checkmates' included,
        // are in place.
        if let Some(mut a) = self.accumulators.take() {
            a.commit(self);
            self.accumulators = Some(a);
        }
        undo
    }

    /// Reverts `make(mv)`.
    pub fn unmake(&mut self, mv: Move, undo: Undo<W>) {
        if let Some(snap) = undo.snapshot {
            *self = *snap;
        }
        // The sums one level down are the position's before the move: the men go back unsummed.
        let mut accumulators = self.accumulators.take();
        let kind = mv.kind();
        if kind == MoveKind::Charge {
            self.revert_charge(mv, &undo.charge_captured);
        } else if kind != MoveKind::Pass {
            let (from, to) = (mv.from(), mv.to());
            if kind == MoveKind::Castle {
                let c = &self.game.rules.castles[mv.castle_index()];
                let rook = self.take(c.rook_to);
                self.put(c.rook_from, rook);
            }
            self.take(to);
            self.put(from, undo.moved);
            if let Some((cell, man)) = undo.captured {
                self.put(cell, man);
            }
        }
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.fullmove = undo.fullmove;
        self.to_move = undo.to_move;
        self.hash = undo.hash;
        self.unattacked = undo.unattacked;
        if let Some(a) = &mut accumulators {
            a.pop();
        }
        self.accumulators = accumulators;
    }

    /// The players whose royal piece no opponent attacks after `mv` by `mover`, from `before`, those
    /// before it: the mover, whose legal move leaves its own safe, and those whose royal piece's
    /// influence cells (`AttackTables::influence`) the move left alone. After a Charge, the mover
    /// alone; after the pass, as before.
    fn still_unattacked(&self, before: PlayerSet, mv: Move, mover: Player) -> PlayerSet {
        let changed = match mv.kind() {
            MoveKind::Pass => return before,
            MoveKind::Charge => return PlayerSet::only(mover),
            MoveKind::Castle => {
                let c = &self.game.rules.castles[mv.castle_index()];
                Bitboard::from_cells([mv.from(), mv.to(), c.rook_from, c.rook_to])
            }
            _ => Bitboard::from_cells([mv.from(), mv.to(), mv.victim_cell()]),
        };
        let influence = &self.game.attacks.influence;
        let mut after = PlayerSet::only(mover);
        for q in before.iter() {
            if let Some(k) = self.royal[q]
                && !influence[k].intersects(&changed)
            {
                after.insert(q);
            }
        }
        after
    }

    /// Drops the castling rights of pieces leaving, entering or captured on `from` and `to`.
    #[inline(always)]
    pub(crate) fn clear_castling_rights(&mut self, from: Cell, to: Cell) {
        let rules = &self.game.rules;
        let lost = self.castling & (rules.castle_clear[from] | rules.castle_clear[to]);
        if lost != 0 {
            for (i, key) in self.game.zobrist.castling.iter().enumerate() {
                if lost >> i & 1 == 1 {
                    self.hash ^= key;
                }
            }
            self.castling &= !lost;
        }
    }

    /// Makes the leaps of a Charge; returns the man each leap captured (`Man::NONE` if none).
    pub(crate) fn apply_charge(&mut self, mv: Move) -> [Man; MAX_LEGS] {
        let mut captured = [Man::NONE; MAX_LEGS];
        for (slot, leg) in captured.iter_mut().zip(self.game.charge_legs(mv)) {
            if self.man_at(leg.to).is_some() {
                *slot = self.take(leg.to);
            }
            let m = self.take(leg.from);
            self.put(leg.to, m);
            self.clear_castling_rights(leg.from, leg.to);
        }
        captured
    }

    /// Reverts [`Position::apply_charge`].
    pub(crate) fn revert_charge(&mut self, mv: Move, captured: &[Man; MAX_LEGS]) {
        let legs = self.game.charge_legs(mv);
        for (leg, &victim) in legs.iter().zip(captured).rev() {
            let m = self.take(leg.to);
            self.put(leg.from, m);
            if victim.is_some() {
                self.put(leg.to, victim);
            }
        }
    }

    /// Whether an opponent could take a pawn en passant on `skipped` (so that the right is
    /// recorded only when it exists, as in FEN).
    fn en_passant_possible(&self, stepper: Player, skipped: Cell, kind: PieceType) -> bool {
        let game = self.game;
        if !game.types[kind].en_passant {
            return false;
        }
        for q in game.players() {
            if !self.opponents(stepper).has(q) || !game.rules.ep_allowed[q][stepper].has(skipped) {
                continue;
            }
            for (t, info) in game.types.entries() {
                if !info.en_passant {
                    continue;
                }
                let mine = self.by_type[t] & self.by_owner[q];
                if mine.is_empty() {
                    continue;
                }
                for o in game.players() {
                    let pieces = mine & self.by_orient[o];
                    if pieces.any()
                        && info.capture_leaps[o].iter().any(|&rt| game.moves.leaps[usize::from(rt)][skipped].intersects(&pieces))
                    {
                        return true;
                    }
                }
            }
        }
        false
    }
}
