//! The Enlightened Move (rule switch [`crate::game::EnlightenedRule`]; `guru2level.md` §4.1, §7.7).
//!
//! A friendly granter (Guru) on `c` lends a user man on `s` the moves of its own kind made from
//! `c`: if `s − c` is one of the man's moves from `c` (a rider's path clear), the man may go to
//! every empty `t` that a move from `c` of the same lattice length reaches (path clear). The move
//! never captures, so attacks are unaffected; it is an ordinary from→to move, deduplicated
//! against the man's ordinary moves and across granters.

use crate::bitboard::Bitboard;
use crate::position::{Move, Position};
use crate::tables::{CompiledComponent, EnlightenedTables};

use super::Safety;

fn length2(a: [i32; 3], b: [i32; 3]) -> i32 {
    let d = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
}

impl<const W: usize> Position<W> {
    /// Cells that the non-capturing components of a `kind` man would reach from `from` (riders up to
    /// and including the first occupied cell).
    fn move_reach(&self, from: usize, kind: usize, orient: usize) -> Bitboard<W> {
        let game = self.game;
        let mut reach = Bitboard::EMPTY;
        for comp in &game.types[kind].comps[orient] {
            match comp {
                CompiledComponent::Leap { table, mode } if mode.moves() => reach |= game.leaps[*table as usize][from],
                CompiledComponent::Ride { rays, mode } if mode.moves() => {
                    for &r in rays {
                        reach |= game.ray_attacks(r as usize, from, self.occ);
                    }
                }
                _ => {}
            }
        }
        reach
    }

    /// Appends the legal Enlightened Moves that are not also ordinary moves.
    pub(super) fn push_enlightened(&self, rule: &EnlightenedTables, s: &Safety<W>, own: Bitboard<W>, out: &mut Vec<Move>) {
        let game = self.game;
        let mut granters = Bitboard::EMPTY;
        for t in 0..game.ntypes {
            if rule.granters >> t & 1 == 1 {
                granters |= self.by_type[t];
            }
        }
        granters &= own;
        if granters.is_empty() {
            return;
        }
        let geo = game.geometry();
        // Destinations per user cell, merged over granters.
        let mut found: Vec<(u16, Bitboard<W>)> = Vec::new();
        for c in granters {
            let centre = geo.coord(c);
            for &(t, oriented) in &rule.users {
                let mine = own & self.by_type[t];
                if mine.is_empty() {
                    continue;
                }
                let orientations = if oriented { game.nplayers } else { 1 };
                for o in 0..orientations {
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
                        let mut dests = Bitboard::EMPTY;
                        for to in empty {
                            if length2(geo.coord(to), centre) == len {
                                dests.set(to);
                            }
                        }
                        if dests.is_empty() {
                            continue;
                        }
                        match found.iter_mut().find(|f| f.0 as usize == from) {
                            Some(f) => f.1 |= dests,
                            None => found.push((from as u16, dests)),
                        }
                    }
                }
            }
        }
        for (from, dests) in found {
            let from = from as usize;
            let m = self.board[from];
            let (kind, orient) = (m.kind(), m.orientation());
            let mut dests = dests & !self.piece_targets(from, kind, orient, own);
            if game.types[kind].royal {
                dests &= game.royal_zone[m.owner()];
            }
            for to in dests {
                if self.legal_plain(s, from, to) {
                    out.push(Move::new(from, to));
                }
            }
        }
    }
}
