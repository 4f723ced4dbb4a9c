//! Attack tests: which men of some players attack a cell.
//!
//! Attacks are pseudo-legal (rules README, step 5): a man attacks a cell if it could capture an
//! enemy there with a move of its own kind. Tests run backwards from the attacked cell through
//! the reverse tables of `tables::AttackGroups`, so their cost does not grow with the number of
//! men on the board.

use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::tables::{ANY_ORIENTATION, Members, RayGroup};

impl<const W: usize> Position<W> {
    /// Men of the group's types (and orientations).
    #[inline(always)]
    pub(crate) fn members(&self, m: &Members) -> Bitboard<W> {
        let mut b = Bitboard::EMPTY;
        for &(t, o) in &m.0 {
            if o == ANY_ORIENTATION {
                b |= self.by_type[t as usize];
            } else {
                b |= self.by_type[t as usize] & self.by_orient[o as usize];
            }
        }
        b
    }

    #[inline(always)]
    fn owned_by(&self, players: u8) -> Bitboard<W> {
        let mut b = Bitboard::EMPTY;
        for p in 0..self.game.nplayers {
            if players >> p & 1 == 1 {
                b |= self.by_owner[p];
            }
        }
        b
    }

    /// True if a man of `players` (bit mask) attacks `target`, with occupancy `occ` and the men
    /// on `exclude` ignored (captured in a hypothetical move). `legality` adds the royal facing
    /// rule, which counts for move legality but does not checkmate.
    #[inline]
    pub fn attacked(&self, target: usize, occ: Bitboard<W>, players: u8, exclude: Bitboard<W>, legality: bool) -> bool {
        self.attack_scan::<true>(target, occ, players, exclude, legality).any()
    }

    /// All men of `players` attacking `target`.
    pub fn attackers(&self, target: usize, occ: Bitboard<W>, players: u8, exclude: Bitboard<W>, legality: bool) -> Bitboard<W> {
        self.attack_scan::<false>(target, occ, players, exclude, legality)
    }

    #[inline(always)]
    fn ray_group_scan<const ANY: bool>(
        &self,
        g: &RayGroup,
        target: usize,
        occ: Bitboard<W>,
        attackers: Bitboard<W>,
        found: &mut Bitboard<W>,
    ) {
        let pieces = self.members(&g.members) & attackers;
        if pieces.is_empty() {
            return;
        }
        let game = self.game;
        for &r in &g.rays {
            let ray = &game.rays[r as usize];
            if let Some(b) = ray.nearest(ray.mask[target] & occ)
                && pieces.has(b)
            {
                found.set(b);
                if ANY {
                    return;
                }
            }
        }
    }

    fn attack_scan<const ANY: bool>(
        &self,
        target: usize,
        occ: Bitboard<W>,
        players: u8,
        exclude: Bitboard<W>,
        legality: bool,
    ) -> Bitboard<W> {
        let game = self.game;
        let groups = &game.groups;
        let attackers = self.owned_by(players) & !exclude;
        let mut found = Bitboard::EMPTY;
        for g in &groups.leaps {
            let pieces = self.members(&g.members) & attackers;
            if pieces.any() {
                found |= game.leaps[g.table as usize][target] & pieces;
                if ANY && found.any() {
                    return found;
                }
            }
        }
        for g in &groups.rides {
            self.ray_group_scan::<ANY>(g, target, occ, attackers, &mut found);
            if ANY && found.any() {
                return found;
            }
        }
        if legality && let Some(g) = &groups.facing {
            self.ray_group_scan::<ANY>(g, target, occ, attackers, &mut found);
            if ANY && found.any() {
                return found;
            }
        }
        for g in &groups.hops {
            let pieces = self.members(&g.members) & attackers;
            if pieces.is_empty() {
                continue;
            }
            for &r in &g.rays {
                let ray = &game.rays[r as usize];
                let line = ray.mask[target] & occ;
                if let Some(screen) = ray.nearest(line)
                    && let Some(h) = ray.nearest(line & game.rays[ray.unlimited].mask[screen])
                    && pieces.has(h)
                {
                    found.set(h);
                    if ANY {
                        return found;
                    }
                }
            }
        }
        for g in &groups.curved {
            let pieces = self.members(&g.members) & attackers;
            if pieces.is_empty() {
                continue;
            }
            for path in &game.curved[g.set as usize][target] {
                for &c in path {
                    let c = c as usize;
                    if occ.has(c) {
                        if pieces.has(c) {
                            found.set(c);
                            if ANY {
                                return found;
                            }
                        }
                        break;
                    }
                }
            }
        }
        if !groups.bent.0.is_empty() {
            let pieces = self.members(&groups.bent) & attackers;
            for s in pieces {
                if self.bent_targets(s, occ).has(target) {
                    found.set(s);
                    if ANY {
                        return found;
                    }
                }
            }
        }
        found
    }

    /// Cells the bent-rider components of the man on `from` reach (empty or occupied), given `occ`.
    pub(crate) fn bent_targets(&self, from: usize, occ: Bitboard<W>) -> Bitboard<W> {
        let game = self.game;
        let m = self.board[from];
        let mut out = Bitboard::EMPTY;
        for comp in &game.types[m.kind()].comps[m.orientation()] {
            if let crate::tables::CompiledComponent::Bent { set } = comp {
                for leg in &game.bent[*set as usize][from] {
                    let mid = leg.mid as usize;
                    out.set(mid);
                    if !occ.has(mid) {
                        for &r in &leg.rays {
                            out |= game.ray_attacks(r as usize, mid, occ);
                        }
                    }
                }
            }
        }
        out
    }

    /// Whether player `p`'s royal piece is attacked by any other active player.
    pub fn in_check(&self, p: usize) -> bool {
        match self.royal_cell(p) {
            Some(k) => self.attacked(k, self.occ, self.active & !(1 << p), Bitboard::EMPTY, true),
            None => false,
        }
    }
}
