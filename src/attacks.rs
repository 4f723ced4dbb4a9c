//! Attack tests: which men of some players attack a cell.
//!
//! Attacks are pseudo-legal (rules README, step 5): a man attacks a cell if it could capture an
//! enemy there with a move of its own kind. Tests run backwards from the attacked cell through
//! the reverse tables of `tables::AttackGroups`, so their cost does not grow with the number of
//! men on the board.

use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::tables::{ANY_ORIENTATION, CompiledComponent, Members, RayGroup};

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
        lines: &[Bitboard<W>],
        target: usize,
        occ: Bitboard<W>,
        attackers: Bitboard<W>,
        found: &mut Bitboard<W>,
    ) {
        let pieces = self.members(&g.members) & attackers & lines[target];
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
        for (g, lines) in groups.rides.iter().zip(&game.ride_lines) {
            self.ray_group_scan::<ANY>(g, lines, target, occ, attackers, &mut found);
            if ANY && found.any() {
                return found;
            }
        }
        if legality && let Some(g) = &groups.facing {
            self.ray_group_scan::<ANY>(g, &game.facing_lines, target, occ, attackers, &mut found);
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
        for (g, reach) in groups.curved.iter().zip(&game.curved_reach) {
            let pieces = self.members(&g.members) & attackers & reach[target];
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
            let pieces = self.members(&groups.bent) & attackers & game.bent_origins[target];
            for s in pieces {
                if self.bent_attacks(s, target, occ) {
                    found.set(s);
                    if ANY {
                        return found;
                    }
                }
            }
        }
        found
    }

    /// Whether a bent-rider component of the man on `from` reaches `target`, given `occ`.
    fn bent_attacks(&self, from: usize, target: usize, occ: Bitboard<W>) -> bool {
        let game = self.game;
        let m = self.board[from];
        for comp in &game.types[m.kind()].comps[m.orientation()] {
            if let CompiledComponent::Bent { set } = comp {
                for leg in &game.bent[*set as usize][from] {
                    let mid = leg.mid as usize;
                    if mid == target {
                        return true;
                    }
                    if occ.has(mid) {
                        continue;
                    }
                    for &r in &leg.rays {
                        let ray = &game.rays[r as usize];
                        if ray.mask[mid].has(target) && (self.between_on_ray(r as usize, mid, target) & occ).is_empty() {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// The cells strictly between `from` and `to`, which lies on ray `r` from `from`.
    #[inline(always)]
    fn between_on_ray(&self, r: usize, from: usize, to: usize) -> Bitboard<W> {
        let ray = &self.game.rays[r];
        let mut b = ray.mask[from] & !self.game.rays[ray.unlimited].mask[to];
        b.clear(to);
        b
    }

    /// Men of `own` that alone block a path of the bent rider on `from` to `target`: moving one
    /// of them away could open the path.
    pub(crate) fn bent_sole_blockers(&self, from: usize, target: usize, own: Bitboard<W>) -> Bitboard<W> {
        let game = self.game;
        let m = self.board[from];
        let mut out = Bitboard::EMPTY;
        for comp in &game.types[m.kind()].comps[m.orientation()] {
            if let CompiledComponent::Bent { set } = comp {
                for leg in &game.bent[*set as usize][from] {
                    let mid = leg.mid as usize;
                    if mid == target {
                        continue;
                    }
                    for &r in &leg.rays {
                        if game.rays[r as usize].mask[mid].has(target) {
                            let mut path = self.between_on_ray(r as usize, mid, target);
                            path.set(mid);
                            let blockers = path & self.occ;
                            if blockers.count() == 1 && own.intersects(&blockers) {
                                out |= blockers;
                            }
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
