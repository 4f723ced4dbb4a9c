//! The Enlightened Move (rule switch [`crate::game::EnlightenedRule`]; `guru2level.md` §4.1, §7.7).
//!
//! A friendly granter (Guru) on `c` lends a user man on `s` the moves of its own kind made from
//! `c`: if `s − c` is one of the man's moves from `c` (a rider's path clear), the man may go to
//! every empty `t` that a move from `c` of the same lattice length reaches (path clear). The move
//! never captures, so attacks are unaffected; it is an ordinary from→to move, deduplicated
//! against the man's ordinary moves and across granters.

use crate::bitboard::Bitboard;
use crate::geometry::Vec3;
use crate::position::{Move, Position};
use crate::tables::{CompiledComponent, EnlightenedTables};
use crate::types::{Cell, PieceType, Player};

use super::Safety;

fn length2(a: Vec3, b: Vec3) -> i32 {
    (0..3).map(|i| (a[i] - b[i]) * (a[i] - b[i])).sum()
}

impl<const W: usize> Position<W> {
    /// Cells that the non-capturing components of a `kind` man would reach from `from` (riders up to
    /// and including the first occupied cell).
    fn move_reach(&self, from: Cell, kind: PieceType, orient: Player) -> Bitboard<W> {
        let tables = &self.game.moves;
        let mut reach = Bitboard::EMPTY;
        for comp in &self.game.types[kind].comps[orient] {
            match comp {
                CompiledComponent::Leap { table, mode } if mode.moves() => reach |= tables.leaps[usize::from(*table)][from],
                CompiledComponent::Ride { lines, mode, .. } if mode.moves() => reach |= tables.lines_attacks(*lines, from, self.occ),
                _ => {}
            }
        }
        reach
    }

    /// Appends the legal Enlightened Moves that are not also ordinary moves.
    pub(super) fn push_enlightened(&self, rule: &EnlightenedTables, s: &Safety<W>, own: Bitboard<W>, out: &mut Vec<Move>) {
        let game = self.game;
        let granters = self.pieces_of_types(rule.granters.iter()) & own;
        if granters.is_empty() {
            return;
        }
        let geo = game.geometry();
        // Destinations per user cell, merged over granters.
        let mut found: Vec<(Cell, Bitboard<W>)> = Vec::new();
        for c in granters {
            let centre = geo.coord(c);
            for &(t, oriented) in &rule.users {
                let mine = own & self.by_type[t];
                if mine.is_empty() {
                    continue;
                }
                let orientations = if oriented { game.nplayers } else { 1 };
                for o in Player::all(orientations) {
                    let men = if oriented { mine & self.by_orient[o] } else { mine };
                    let reach = self.move_reach(c, t, o);
                    let mut users = reach & men;
                    users.clear(c);
                    if users.is_empty() {
                        continue;
                    }
                    let empty = reach & !self.occ;
                    for from in users {
                        let len = length2(geo.coord(from), centre);
                        let dests = Bitboard::from_cells(empty.iter().filter(|&to| length2(geo.coord(to), centre) == len));
                        if dests.is_empty() {
                            continue;
                        }
                        match found.iter_mut().find(|f| f.0 == from) {
                            Some(f) => f.1 |= dests,
                            None => found.push((from, dests)),
                        }
                    }
                }
            }
        }
        for (from, dests) in found {
            let m = self.man_at(from);
            let (kind, orient) = (m.kind(), m.orientation());
            let mut dests = dests & !self.piece_targets(from, kind, orient, own);
            if game.types[kind].royal {
                dests &= game.rules.royal_zone[m.owner()];
            }
            out.extend(dests.into_iter().filter(|&to| self.legal_plain(s, from, to)).map(|to| Move::new(from, to)));
        }
    }
}
