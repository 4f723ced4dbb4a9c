//! Reverse attack tables: the piece types grouped by the pattern with which they attack, each
//! pattern stored from the attacked cell back towards the attackers, and the pruning masks that
//! say where a member must stand to matter at all.

use std::collections::HashMap;

use arrayvec::ArrayVec;

use super::movement::{MAX_DIRECTIONS, TableBuilder};
use crate::bitboard::Bitboard;
use crate::game::GameDef;
use crate::geometry::{Vec3, neg};
use crate::movement::Component;
use crate::types::{Cell, PieceType, Player, Table, TypeSet};

/// Which orientation of a type a group member stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Orientation {
    /// The component is the same for every orientation.
    Any,
    Of(Player),
}

/// Pieces (type, orientation) sharing one reverse attack pattern.
#[derive(Clone, Debug, Default)]
pub struct Members {
    pub list: ArrayVec<(PieceType, Orientation), 32>,
    /// The members' types, one bit per type: a group none of whose types is on the board is
    /// skipped without looking at its members (games with many types and few men left).
    pub types: TypeSet,
}

impl Members {
    fn add(&mut self, t: PieceType, o: Orientation) {
        assert!(self.try_add(t, o), "at most 32 members per attack group");
    }

    /// Adds a member unless the list is full (false then).
    fn try_add(&mut self, t: PieceType, o: Orientation) -> bool {
        if !self.list.contains(&(t, o)) {
            if self.list.try_push((t, o)).is_err() {
                return false;
            }
            self.types = self.types.with(t);
        }
        true
    }

    fn same(&self, other: &Members) -> bool {
        self.list.len() == other.list.len() && self.list.iter().all(|m| other.list.contains(m))
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

#[derive(Clone, Debug)]
pub struct LeapGroup {
    /// Reverse table: cells from which a member reaches the indexed cell.
    pub table: u16,
    pub members: Members,
}

#[derive(Clone, Debug)]
pub struct RayGroup {
    /// Rays from the attacked cell back towards the attackers.
    pub rays: ArrayVec<u16, MAX_DIRECTIONS>,
    /// The rays' line table ([`MoveTables::lines_attacks`](super::MoveTables::lines_attacks)),
    /// set at the end of [`AttackTables::build`], once the groups are final.
    pub lines: u16,
    pub members: Members,
}

#[derive(Clone, Debug)]
pub struct SetGroup {
    pub set: u16,
    pub members: Members,
}

/// Everything the attack tests read.
pub struct AttackTables<const W: usize> {
    pub leaps: Vec<LeapGroup>,
    pub rides: Vec<RayGroup>,
    pub hops: Vec<RayGroup>,
    pub curved: Vec<SetGroup>,
    /// Bent riders are tested by generating their attacks forwards.
    pub bent: Members,
    /// Royal pieces along the facing directions (legality only).
    pub facing: Option<RayGroup>,
    /// Per ride group (as in `rides`), per cell: the union of the group's rays from it.
    pub ride_lines: Vec<Table<Cell, Bitboard<W>>>,
    /// Per cell: the union of the facing rays from it.
    pub facing_lines: Table<Cell, Bitboard<W>>,
    /// Per cell: the union of all hopper lines through it.
    pub hop_lines: Table<Cell, Bitboard<W>>,
    /// Per curved group (as in `curved`), per cell: the cells on its paths from there.
    pub curved_reach: Vec<Table<Cell, Bitboard<W>>>,
    /// Per cell: the cells from which some bent path (of any bent set) reaches it on an empty
    /// board.
    pub bent_origins: Table<Cell, Bitboard<W>>,
    /// Per cell: the cells whose men decide whether a man attacks it (the facing rule apart):
    /// every cell an attacker could stand on, and every cell between. A move that changes none of
    /// them leaves the cell attacked by the same men.
    pub influence: Table<Cell, Bitboard<W>>,
}

/// Finds the group with this key or adds an empty one.
fn group_index<K: Eq + std::hash::Hash, G>(index: &mut HashMap<K, usize>, groups: &mut Vec<G>, key: K, new: impl FnOnce() -> G) -> usize {
    *index.entry(key).or_insert_with(|| {
        groups.push(new());
        groups.len() - 1
    })
}

/// The ride groups regrouped by ray: each ray once, with every type that rides it as a member,
/// and the rays with the same members in one group. Grouped by ray set, a compound rider (a
/// Queen) repeats its parts' rays (the Rook's, the Bishop's), which every attack test then scans
/// twice. Where a ray's members would not fit in one list, the groups stay as they are.
fn by_ray(groups: Vec<RayGroup>) -> Vec<RayGroup> {
    let mut rays: Vec<(u16, Members)> = Vec::new();
    for g in &groups {
        for &r in &g.rays {
            let i = rays.iter().position(|&(x, _)| x == r).unwrap_or_else(|| {
                rays.push((r, Members::default()));
                rays.len() - 1
            });
            if !g.members.list.iter().all(|&(t, o)| rays[i].1.try_add(t, o)) {
                return groups;
            }
        }
    }
    let mut out: Vec<RayGroup> = Vec::new();
    for (r, members) in rays {
        match out.iter_mut().find(|g| g.members.same(&members) && !g.rays.is_full()) {
            Some(g) => g.rays.push(r),
            None => out.push(RayGroup { rays: std::iter::once(r).collect(), lines: 0, members }),
        }
    }
    out
}

/// A member's orientation: `o` when the vectors depend on it.
fn orientation(oriented: bool, o: Player) -> Orientation {
    if oriented { Orientation::Of(o) } else { Orientation::Any }
}

impl<const W: usize> AttackTables<W> {
    pub fn build(def: &GameDef, b: &mut TableBuilder<'_, W>) -> Self {
        let ncells = def.geometry.len();
        let nplayers = def.players.len();
        let mut leaps: Vec<LeapGroup> = Vec::new();
        let mut rides: Vec<RayGroup> = Vec::new();
        let mut hops: Vec<RayGroup> = Vec::new();
        let mut curved: Vec<SetGroup> = Vec::new();
        let mut bent = Members::default();
        let mut leap_index = HashMap::new();
        let mut ride_index = HashMap::new();
        let mut hop_index = HashMap::new();
        let mut curved_index = HashMap::new();
        let reverse_rays = |b: &mut TableBuilder<'_, W>, dirs: &[Vec3], range: Option<u32>| -> Vec<u16> {
            let mut rev: Vec<u16> = dirs.iter().map(|&d| b.ray(neg(d), range)).collect();
            rev.sort_unstable();
            rev
        };
        for (t, piece) in def.pieces.entries() {
            for o in Player::all(nplayers) {
                for comp in &piece.components {
                    match comp {
                        Component::Leap { vectors, mode } if mode.captures() => {
                            let rev: Vec<Vec3> = vectors.for_orientation(o).iter().map(|&v| neg(v)).collect();
                            let table = b.leap_table(&rev);
                            let g = group_index(&mut leap_index, &mut leaps, table, || LeapGroup { table, members: Members::default() });
                            leaps[g].members.add(t, orientation(vectors.is_oriented(), o));
                        }
                        Component::Ride { dirs, range, mode } if mode.captures() => {
                            let rev = reverse_rays(b, dirs.for_orientation(o), *range);
                            let g = group_index(&mut ride_index, &mut rides, rev.clone(), || RayGroup {
                                rays: rev.iter().copied().collect(),
                                lines: 0,
                                members: Members::default(),
                            });
                            rides[g].members.add(t, orientation(dirs.is_oriented(), o));
                        }
                        Component::Hop { dirs } => {
                            let rev = reverse_rays(b, dirs.for_orientation(o), None);
                            let g = group_index(&mut hop_index, &mut hops, rev.clone(), || RayGroup {
                                rays: rev.iter().copied().collect(),
                                lines: 0,
                                members: Members::default(),
                            });
                            hops[g].members.add(t, orientation(dirs.is_oriented(), o));
                        }
                        Component::Curved { ring, max_steps } => {
                            // Curved paths are reversible (the reverse of a constant-turning walk
                            // is one with the opposite turn), so the set is its own reverse.
                            let set = b.curved_set(ring, *max_steps);
                            let g = group_index(&mut curved_index, &mut curved, set, || SetGroup { set, members: Members::default() });
                            curved[g].members.add(t, Orientation::Any);
                        }
                        Component::Bent { .. } => bent.add(t, Orientation::Any),
                        Component::Leap { .. } | Component::Ride { .. } => {}
                    }
                }
            }
        }
        let mut rides = by_ray(rides);
        let mut facing = (!def.rules.royal_facing.is_empty()).then(|| {
            let mut members = Members::default();
            for (t, p) in def.pieces.entries() {
                if p.royal {
                    members.add(t, Orientation::Any);
                }
            }
            let rays = def.rules.royal_facing.iter().map(|&d| b.ray(neg(d), None)).collect();
            RayGroup { rays, lines: 0, members }
        });

        for g in rides.iter_mut().chain(&mut hops).chain(&mut facing) {
            g.lines = b.line_table(&g.rays);
        }
        let tables = &b.tables;
        let lines_of = |rays: &[u16]| -> Table<Cell, Bitboard<W>> {
            Table::from_fn(ncells, |c| rays.iter().fold(Bitboard::EMPTY, |acc, &r| acc | tables.rays[usize::from(r)].mask[c]))
        };
        let ride_lines: Vec<_> = rides.iter().map(|g| lines_of(&g.rays)).collect();
        let facing_lines = facing.as_ref().map(|g| lines_of(&g.rays)).unwrap_or_default();
        let hop_rays: Vec<u16> = hops.iter().flat_map(|g| g.rays.iter().copied()).collect();
        let hop_lines = lines_of(&hop_rays);
        let curved_reach: Vec<Table<Cell, Bitboard<W>>> = curved
            .iter()
            .map(|g| tables.curved[usize::from(g.set)].iter().map(|paths| Bitboard::from_cells(paths.iter().flatten().copied())).collect())
            .collect();
        let mut bent_origins = Table::filled(ncells, Bitboard::<W>::EMPTY);
        for set in &tables.bent {
            for (from, legs) in set.entries() {
                for leg in legs {
                    let mut reach = Bitboard::<W>::from_cell(leg.mid);
                    for &r in &leg.rays {
                        reach |= tables.rays[usize::from(r)].mask[leg.mid];
                    }
                    for t in reach {
                        bent_origins[t].set(from);
                    }
                }
            }
        }
        let mut influence: Table<Cell, Bitboard<W>> = Table::from_fn(ncells, |c| {
            let mut cells = Bitboard::from_cell(c) | hop_lines[c];
            for g in &leaps {
                cells |= tables.leaps[usize::from(g.table)][c];
            }
            for lines in ride_lines.iter().chain(&curved_reach) {
                cells |= lines[c];
            }
            cells
        });
        // A bent path: its origin, its first step, and its ride up to the cell.
        if !bent.list.is_empty() {
            for set in &tables.bent {
                for (from, legs) in set.entries() {
                    for leg in legs {
                        influence[leg.mid] |= Bitboard::from_cell(from);
                        for &r in &leg.rays {
                            let ray = &tables.rays[usize::from(r)];
                            let mut path = Bitboard::from_cells([from, leg.mid]);
                            let mut cells: Vec<Cell> = ray.mask[leg.mid].iter().collect();
                            if !ray.ascending {
                                cells.reverse();
                            }
                            for t in cells {
                                influence[t] |= path;
                                path.set(t);
                            }
                        }
                    }
                }
            }
        }
        AttackTables {
            leaps,
            rides,
            hops,
            curved,
            bent,
            facing,
            ride_lines,
            facing_lines,
            hop_lines,
            curved_reach,
            bent_origins,
            influence,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::registry;

    #[test]
    fn every_ray_scanned_once() {
        // Chess: the Queen joins the Bishop's diagonals and the Rook's lines instead of bringing
        // eight rays of its own.
        let game = registry::compiled::<1>(crate::games::definition("chess").expect("chess"));
        let rides = &game.attacks.rides;
        let mut rays: Vec<u16> = rides.iter().flat_map(|g| g.rays.iter().copied()).collect();
        assert_eq!(rays.len(), 8);
        rays.dedup();
        assert_eq!(rays.len(), 8);
        assert_eq!(rides.iter().map(|g| (g.rays.len(), g.members.list.len())).collect::<Vec<_>>(), [(4, 2), (4, 2)]);
    }
}
