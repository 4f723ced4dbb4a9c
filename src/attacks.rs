//! Attack tests: which men of some players attack a cell.
//!
//! Attacks are pseudo-legal (rules README, step 5): a man attacks a cell if it could capture an
//! enemy there with a move of its own kind. Tests run backwards from the attacked cell through
//! the reverse tables of `tables::attack`, so their cost does not grow with the number of men on
//! the board.

use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::tables::{CompiledComponent, LineMemo, Members, Orientation, RayGroup, Rides};
use crate::types::{Cell, Player, PlayerSet};

/// Whether the royal facing rule counts as an attack: it does for the legality of a move, and
/// does not checkmate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Facing {
    Ignored,
    Counted,
}

impl<const W: usize> Position<W> {
    /// Men of the group's types (and orientations).
    #[inline(always)]
    pub(crate) fn members(&self, m: &Members) -> Bitboard<W> {
        let mut b = Bitboard::EMPTY;
        if !m.types.intersects(self.types_present) {
            return b;
        }
        for &(t, o) in &m.list {
            b |= match o {
                Orientation::Any => self.by_type[t],
                Orientation::Of(o) => self.by_type[t] & self.by_orient[o],
            };
        }
        b
    }

    /// True if a man of `players` attacks `target`, with occupancy `occ` and the men on `exclude`
    /// ignored (captured in a hypothetical move).
    #[inline]
    pub fn attacked(&self, target: Cell, occ: Bitboard<W>, players: PlayerSet, exclude: Bitboard<W>, facing: Facing) -> bool {
        self.attack_scan::<true>(target, occ, players, exclude, facing).any()
    }

    /// All men of `players` attacking `target`.
    pub fn attackers(&self, target: Cell, occ: Bitboard<W>, players: PlayerSet, exclude: Bitboard<W>, facing: Facing) -> Bitboard<W> {
        self.attack_scan::<false>(target, occ, players, exclude, facing)
    }

    /// Into `found`, the members of ride group `g` among `attackers` that attack `target`: the
    /// first man on each of the group's rays from it, where that is a member.
    #[inline(always)]
    fn ray_group_scan(
        &self,
        g: &RayGroup,
        lines: &crate::types::Table<Cell, Bitboard<W>>,
        target: Cell,
        occ: Bitboard<W>,
        attackers: Bitboard<W>,
        found: &mut Bitboard<W>,
    ) {
        // The cells on the group's lines first: most often none holds an attacker, and the
        // group's members need not be gathered.
        let near = attackers & lines[target];
        if near.is_empty() {
            return;
        }
        let pieces = self.members(&g.members) & near;
        if pieces.is_empty() {
            return;
        }
        *found |= self.game.moves.lines_attacks(g.lines, target, occ) & pieces;
    }

    /// The attackers of `target` (with `ANY`, stopping at the first found).
    fn attack_scan<const ANY: bool>(
        &self,
        target: Cell,
        occ: Bitboard<W>,
        players: PlayerSet,
        exclude: Bitboard<W>,
        facing: Facing,
    ) -> Bitboard<W> {
        let game = self.game;
        let tables = &game.moves;
        let groups = &game.attacks;
        let attackers = self.pieces_of_set(players) & !exclude;
        let mut found = Bitboard::EMPTY;
        for g in &groups.leaps {
            // The few cells a member could leap from first, then the members among their men.
            let near = tables.leaps[usize::from(g.table)][target] & attackers;
            if near.any() {
                found |= self.members(&g.members) & near;
                if ANY && found.any() {
                    return found;
                }
            }
        }
        for (g, lines) in groups.rides.iter().zip(&groups.ride_lines) {
            self.ray_group_scan(g, lines, target, occ, attackers, &mut found);
            if ANY && found.any() {
                return found;
            }
        }
        if facing == Facing::Counted
            && let Some(g) = &groups.facing
        {
            self.ray_group_scan(g, &groups.facing_lines, target, occ, attackers, &mut found);
            if ANY && found.any() {
                return found;
            }
        }
        // Hoppers stand on the hopper lines through the target, if anywhere.
        let near_hops = attackers & groups.hop_lines[target];
        for g in groups.hops.iter().filter(|_| near_hops.any()) {
            let pieces = self.members(&g.members) & near_hops;
            if pieces.is_empty() {
                continue;
            }
            for &r in &g.rays {
                let ray = &tables.rays[usize::from(r)];
                if let Some(h) = ray.second_nearest(ray.mask[target] & occ)
                    && pieces.has(h)
                {
                    found.set(h);
                    if ANY {
                        return found;
                    }
                }
            }
        }
        for (g, reach) in groups.curved.iter().zip(&groups.curved_reach) {
            let near = attackers & reach[target];
            if near.is_empty() {
                continue;
            }
            let pieces = self.members(&g.members) & near;
            if pieces.is_empty() {
                continue;
            }
            for path in &tables.curved[usize::from(g.set)][target] {
                if let Some(&c) = path.iter().find(|&&c| occ.has(c))
                    && pieces.has(c)
                {
                    found.set(c);
                    if ANY {
                        return found;
                    }
                }
            }
        }
        if !groups.bent.is_empty() {
            let near = attackers & groups.bent_origins[target];
            let pieces = if near.any() { self.members(&groups.bent) & near } else { near };
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

    /// The cells a plain move must start or end on to make a man of `players` attack `target`
    /// that did not before: a superset read from the reverse tables (a leaper's cells, the open
    /// lines from `target` up to and including their first man, every hopper line and curved
    /// path through it; the whole board where bent riders play). A move touching none of them
    /// gives no new check, so the exact test can be left out.
    pub fn check_lines(&self, target: Cell, players: PlayerSet) -> Bitboard<W> {
        let game = self.game;
        let tables = &game.moves;
        let groups = &game.attacks;
        let men = self.pieces_of_set(players);
        let has = |m: &Members| (self.members(m) & men).any();
        if has(&groups.bent) {
            return game.all_cells;
        }
        let mut cells = Bitboard::EMPTY;
        for g in groups.leaps.iter().filter(|g| has(&g.members)) {
            cells |= tables.leaps[usize::from(g.table)][target];
        }
        // The facing rule adds none: royal pieces brought face to face by a legal move cannot be,
        // as the mover's own would face the other.
        cells |= self.ride_lines(target, players, None);
        if groups.hops.iter().any(|g| has(&g.members)) {
            cells |= groups.hop_lines[target];
        }
        for (g, reach) in groups.curved.iter().zip(&groups.curved_reach) {
            if has(&g.members) {
                cells |= reach[target];
            }
        }
        cells
    }

    /// The cells on the lines that riders of `players`' types (those on the board) ride to
    /// `target`, from `target` up to and including the first man on each; the lines from `memo`
    /// where there is one.
    pub fn ride_lines(&self, target: Cell, players: PlayerSet, mut memo: Option<&mut LineMemo<W>>) -> Bitboard<W> {
        let tables = &self.game.moves;
        let men = self.pieces_of_set(players);
        let mut cells = Bitboard::EMPTY;
        for g in self.game.attacks.rides.iter().filter(|g| (self.members(&g.members) & men).any()) {
            cells |= match memo.as_deref_mut() {
                Some(memo) => memo.lines_attacks(tables, g.lines, target, self.occ),
                None => tables.lines_attacks(g.lines, target, self.occ),
            };
        }
        cells
    }

    /// Whether a bent-rider component of the man on `from` reaches `target`, given `occ`.
    fn bent_attacks(&self, from: Cell, target: Cell, occ: Bitboard<W>) -> bool {
        let game = self.game;
        let tables = &game.moves;
        let m = self.man_at(from);
        for comp in &game.types[m.kind()].comps[m.orientation()] {
            if let CompiledComponent::Bent { set } = comp {
                for leg in &tables.bent[usize::from(*set)][from] {
                    if leg.mid == target {
                        return true;
                    }
                    if occ.has(leg.mid) {
                        continue;
                    }
                    for &r in &leg.rays {
                        if tables.rays[usize::from(r)].mask[leg.mid].has(target) && (tables.between(r, leg.mid, target) & occ).is_empty() {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// Men of `own` that alone block a path of the bent rider on `from` to `target`: moving one
    /// of them away could open the path.
    pub(crate) fn bent_sole_blockers(&self, from: Cell, target: Cell, own: Bitboard<W>) -> Bitboard<W> {
        let game = self.game;
        let tables = &game.moves;
        let m = self.man_at(from);
        let mut out = Bitboard::EMPTY;
        for comp in &game.types[m.kind()].comps[m.orientation()] {
            if let CompiledComponent::Bent { set } = comp {
                for leg in &tables.bent[usize::from(*set)][from] {
                    if leg.mid == target {
                        continue;
                    }
                    for &r in &leg.rays {
                        if tables.rays[usize::from(r)].mask[leg.mid].has(target) {
                            let mut path = tables.between(r, leg.mid, target);
                            path.set(leg.mid);
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

    /// Whether player `p`'s royal piece is attacked by an opponent (any other active player but a
    /// partner).
    pub fn in_check(&self, p: Player) -> bool {
        match self.royal_cell(p) {
            Some(k) => self.attacked(k, self.occ, self.opponents(p), Bitboard::EMPTY, Facing::Counted),
            None => false,
        }
    }
}
