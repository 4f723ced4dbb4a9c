//! Legal move generation.
//!
//! Pseudo-legal targets come from the compiled components ([`targets`]); legality is decided by
//! [`legality`]. Moves granted by rule switches live in their own submodules: [`enlightened`] and
//! [`charge`]. [`perft`] counts move paths.

pub mod charge;
pub mod enlightened;
mod legality;
mod perft;
pub mod targets;
#[cfg(test)]
mod tests;

use arrayvec::ArrayVec;

use crate::attacks::Facing;
use crate::bitboard::Bitboard;
use crate::movement::{Mode, PromotionChoices};
use crate::position::{Move, Position};
use crate::tables::{CompiledComponent, FreshLines, Rides};
use crate::types::{Cell, MAX_TYPES, PieceType, Player};
use legality::Safety;

/// Which of the legal moves a generation produces.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Generate {
    All,
    /// Captures and promotions (and Elephant Charges).
    Tactical,
    /// The first move of `All` only.
    First,
}

/// Of `moves` that `accepted` takes, the one `score` rates highest, if above 0, the first in
/// `moves` among equals. The best is looked for again below each one refused rather than the
/// moves sorted, as the best is seldom refused.
pub fn best_scoring(moves: &[Move], score: impl Fn(Move) -> i32, accepted: impl Fn(Move) -> bool) -> Option<Move> {
    let rank = |i: usize| (score(moves[i]), std::cmp::Reverse(i));
    let mut below = None;
    loop {
        let next = (0..moves.len()).map(rank).filter(|r| r.0 > 0 && below.is_none_or(|b| *r < b)).max()?;
        let mv = moves[next.1.0];
        if accepted(mv) {
            return Some(mv);
        }
        below = Some(next);
    }
}

impl<const W: usize> Position<W> {
    /// Target cells of a `kind` man of orientation `orient` on `from` (all components), before
    /// legality; `own` are the mover's men.
    #[inline(always)]
    pub(crate) fn piece_targets(&self, from: Cell, kind: PieceType, orient: Player, own: Bitboard<W>) -> Bitboard<W> {
        targets::piece_targets(self.game, from, kind, orient, self.occ, own)
    }

    /// Types a pawn of `kind` may promote to on `to` right now.
    fn promotion_choices(&self, kind: PieceType, to: Cell, out: &mut ArrayVec<PieceType, MAX_TYPES>) {
        let p = self.to_move;
        let initial = &self.game.rules.initial_counts[p];
        match &self.game.types[kind].promo_choices {
            None => {}
            Some(PromotionChoices::Fixed(list)) => out.extend(list.iter().copied()),
            Some(PromotionChoices::ByCell(table)) => out.extend(table[to]),
            Some(PromotionChoices::CapturedPool(list)) => out.extend(list.iter().copied().filter(|&t| self.counts[p][t] < initial[t])),
        }
    }

    /// Emits the move(s) of a pawn-like man to `to`, with promotion choices where they apply.
    fn push_pawn_move(&self, kind: PieceType, orient: Player, mv: Move, out: &mut Vec<Move>) {
        let info = &self.game.types[kind];
        let to = mv.to();
        if !info.promo_zone[orient].has(to) {
            out.push(mv);
            return;
        }
        if !info.promo_mandatory[orient].has(to) {
            out.push(mv);
        }
        let mut choices = ArrayVec::new();
        self.promotion_choices(kind, to, &mut choices);
        out.extend(choices.into_iter().map(|t| mv.with_promotion(t)));
    }

    /// All legal moves of the player to move; the pass `0000` when three or more players are
    /// active and there is no move; nothing when the game is decided.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        self.generate(self.safety(None), Generate::All, out);
    }

    /// [`Position::legal_moves`], with `known_check` whether the mover is in check where the
    /// caller knows it (the filter's own attack test spared), the riders' cells from `rides` (a
    /// search's memo of them).
    pub fn legal_moves_with(&self, known_check: Option<bool>, rides: &mut impl Rides<W>, out: &mut Vec<Move>) {
        self.generate_with(self.safety(known_check), Generate::All, rides, out);
    }

    /// The legal captures and promotions of the player to move (what a capture search plays), in
    /// the order of [`Position::legal_moves`]; never the pass. Elephant Charges come with them
    /// whether they capture or not.
    pub fn legal_tactical_moves(&self, out: &mut Vec<Move>) {
        self.legal_tactical_moves_with(None, &mut FreshLines, out);
    }

    /// [`Position::legal_tactical_moves`], with `known_check` and `rides` as for
    /// [`Position::legal_moves_with`].
    pub fn legal_tactical_moves_with(&self, known_check: Option<bool>, rides: &mut impl Rides<W>, out: &mut Vec<Move>) {
        self.generate_with(self.safety(known_check), Generate::Tactical, rides, out);
    }

    /// The legal capture or promotion (or Elephant Charge) that `score` rates highest, as
    /// [`best_scoring`] chooses. The moves are generated without the legality filter and tested
    /// best first, which spares the filter's preparation where the best is legal.
    pub fn best_tactical_move(
        &self,
        scratch: &mut Vec<Move>,
        score: impl Fn(Move) -> i32,
        accepted: impl Fn(Move) -> bool,
    ) -> Option<Move> {
        self.generate(Safety::pseudo_legal(self.opponents(self.to_move)), Generate::Tactical, scratch);
        best_scoring(scratch, score, |mv| accepted(mv) && self.pseudo_legal_move_is_legal(mv))
    }

    /// The first of [`Position::legal_moves`] (the pass where that is the only move), found
    /// without generating the rest; `scratch` is the vector it is generated into (cleared).
    pub fn first_legal_move(&self, scratch: &mut Vec<Move>) -> Option<Move> {
        self.generate(self.safety(None), Generate::First, scratch);
        scratch.first().copied()
    }

    /// Whether the player to move has a legal move (the pass included); `scratch` as for
    /// [`Position::first_legal_move`].
    pub fn has_legal_move(&self, scratch: &mut Vec<Move>) -> bool {
        self.first_legal_move(scratch).is_some()
    }

    fn generate(&self, s: Safety<W>, mode: Generate, out: &mut Vec<Move>) {
        self.generate_with(s, mode, &mut FreshLines, out);
    }

    fn generate_with(&self, s: Safety<W>, mode: Generate, rides: &mut impl Rides<W>, out: &mut Vec<Move>) {
        out.clear();
        if self.is_decided() {
            return;
        }
        let game = self.game;
        let p = self.to_move;
        let own = self.by_owner[p];
        let side = self.side_men(p);
        let enemy = self.occ & !side;
        let tactical = mode == Generate::Tactical;
        let any_en_passant = self.ep.0.iter().any(Option::is_some);
        for from in own {
            let m = self.man_at(from);
            let (kind, orient) = (m.kind(), m.orientation());
            let info = &game.types[kind];
            if tactical
                && !game.moves.capture_reach[usize::from(info.capture_reach[orient])][from].intersects(&enemy)
                && !(info.pawn && (info.promotes_from[orient].has(from) || info.en_passant && any_en_passant))
            {
                continue;
            }
            let mut targets = if tactical && !info.pawn {
                targets::piece_captures_with(game, from, kind, orient, self.occ, side, rides)
            } else {
                targets::piece_targets_with(game, from, kind, orient, self.occ, side, rides)
            };
            if info.royal {
                targets &= game.rules.royal_zone[p];
            }
            if info.pawn {
                if tactical {
                    targets &= self.occ | info.promo_zone[orient];
                }
                for to in targets {
                    if self.legal_plain(&s, from, to) {
                        self.push_pawn_move(kind, orient, Move::new(from, to), out);
                    }
                }
                for &(mid, to) in &info.double_steps[orient][from] {
                    if tactical && !info.promo_zone[orient].has(to) {
                        continue;
                    }
                    if !self.occ.has(mid) && !self.occ.has(to) && self.legal_plain(&s, from, to) {
                        self.push_pawn_move(kind, orient, Move::double_step(from, to, mid), out);
                    }
                }
                if info.en_passant && any_en_passant {
                    self.push_en_passant(&s, from, kind, orient, out);
                }
            } else {
                match s.danger.filter(|_| s.royal == Some(from)) {
                    Some(danger) => out.extend((targets & !danger).into_iter().map(|to| Move::new(from, to))),
                    None => out.extend(targets.into_iter().filter(|&to| self.legal_plain(&s, from, to)).map(|to| Move::new(from, to))),
                }
            }
            if mode == Generate::First && !out.is_empty() {
                out.truncate(1);
                return;
            }
        }
        if self.castling != 0 && !s.in_check && !tactical {
            self.push_castles(&s, out);
        }
        if let Some(rule) = &game.rules.enlightened
            && !tactical
        {
            self.push_enlightened(rule, &s, own, out);
        }
        if let Some(rule) = &game.rules.charge {
            self.push_charges(rule, out);
        }
        if out.is_empty() && self.active.len() > 2 && !tactical {
            out.push(Move::PASS);
        }
        if mode == Generate::First {
            out.truncate(1);
        }
    }

    fn push_en_passant(&self, s: &Safety<W>, from: Cell, kind: PieceType, orient: Player, out: &mut Vec<Move>) {
        let game = self.game;
        let p = self.to_move;
        for q in game.players() {
            let Some(ep) = self.ep[q] else { continue };
            if !self.opponents(p).has(q) || self.occ.has(ep.skipped) || !game.rules.ep_allowed[p][q].has(ep.skipped) {
                continue;
            }
            let reaches = game.types[kind].comps[orient].iter().any(|c| {
                matches!(c, CompiledComponent::Leap { table, mode: Mode::CaptureOnly } if game.moves.leaps[usize::from(*table)][from].has(ep.skipped))
            });
            let vm = self.man_at(ep.victim);
            if reaches
                && vm.is_some()
                && vm.owner() == q
                && game.types[vm.kind()].en_passant
                && self.safe_after(s, from, ep.skipped, Some(ep.victim))
            {
                self.push_pawn_move(kind, orient, Move::en_passant(from, ep.skipped, ep.victim), out);
            }
        }
    }

    fn push_castles(&self, s: &Safety<W>, out: &mut Vec<Move>) {
        let p = self.to_move;
        for (i, c) in self.game.rules.castles.iter().enumerate() {
            if c.player != p || self.castling & c.right == 0 || self.occ.intersects(&c.empty) {
                continue;
            }
            if c.safe.iter().all(|cell| !self.attacked(cell, self.occ, s.enemies, Bitboard::EMPTY, Facing::Counted)) {
                out.push(Move::castle(c.king_from, c.king_to, i));
            }
        }
    }
}
