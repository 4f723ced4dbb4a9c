//! Movement tables: leap targets, rays, lines, curved and bent paths per cell, shared between the
//! piece types that use them (a type's components name them: [`CompiledComponent`]), and the
//! search's memo of riders' and hoppers' cells ([`LineMemo`]).

use std::collections::HashMap;

use arrayvec::ArrayVec;

use crate::bitboard::Bitboard;
use crate::geometry::{Geometry, Vec3};
use crate::movement::Mode;
use crate::types::{Cell, Table};

/// A curved path from a cell: the cells passed, in order.
pub type Path = ArrayVec<Cell, 8>;
/// Most directions one component may list.
pub const MAX_DIRECTIONS: usize = 32;

/// A ray direction from every cell.
pub struct RayTable<const W: usize> {
    pub dir: Vec3,
    /// The ray runs towards higher cell indices.
    pub ascending: bool,
    /// Id of the same direction without a range limit (itself when unlimited).
    pub unlimited: usize,
    pub mask: Table<Cell, Bitboard<W>>,
}

impl<const W: usize> RayTable<W> {
    /// The occupied cell nearest to the ray's origin among `blockers` (a subset of the ray).
    #[inline(always)]
    pub fn nearest(&self, blockers: Bitboard<W>) -> Option<Cell> {
        if self.ascending { blockers.first() } else { blockers.last() }
    }

    /// The second man on the ray among `blockers` (a subset of the ray): a hopper's victim, the
    /// first man beyond its screen.
    #[inline(always)]
    pub fn second_nearest(&self, blockers: Bitboard<W>) -> Option<Cell> {
        // The men beyond the first, cut off in registers: clearing the first man's bit in
        // memory made the next read of the set wait for that write (ninjachess's hoppers).
        let beyond = if self.ascending { blockers & !blockers.through_first() } else { blockers & !blockers.through_last() };
        self.nearest(beyond)
    }
}

/// A rider's rays as lines, for [`MoveTables::lines_attacks`]: each ray towards higher cell
/// indices paired with one towards lower ones (any two such rays: every cell of the one lies
/// above the origin, every cell of the other below it), a ray left over paired with an empty
/// one. Per cell, each pair's two masks side by side, so that one lookup finds them all.
pub struct LineTable<const W: usize> {
    pairs: usize,
    masks: Vec<Bitboard<W>>,
    /// Per cell, every cell of its rays: the men that can change what it reaches.
    reach: Vec<Bitboard<W>>,
}

/// Rider attacks already found ([`MoveTables::lines_attacks`]), one per line table and cell, with
/// the men on that cell's rays they were found with: most of a search's next positions leave a
/// rider's lines as they were, and then the attacks are a lookup. The same cells, found faster;
/// a memo serves the tables of one game.
#[derive(Default)]
pub struct LineMemo<const W: usize> {
    /// `(men on the rays, attacks)` at `lines × cells + cell`.
    slots: Vec<(Bitboard<W>, Bitboard<W>)>,
    /// The same for hoppers: `(men on the rays, captures)`.
    hop_slots: Vec<(Bitboard<W>, Bitboard<W>)>,
}

impl<const W: usize> LineMemo<W> {
    /// The cells `slots` keeps for line table `lines` and `from`, found by `find` where the men
    /// on the lines have changed since.
    #[inline(always)]
    fn look_up(
        slots: &mut Vec<(Bitboard<W>, Bitboard<W>)>,
        tables: &MoveTables<W>,
        lines: u16,
        from: Cell,
        occ: Bitboard<W>,
        find: impl FnOnce() -> Bitboard<W>,
    ) -> Bitboard<W> {
        let table = &tables.lines[usize::from(lines)];
        let cells = table.reach.len();
        if slots.is_empty() {
            // No slot's men can be all cells, the rider's own among them: every slot starts empty.
            *slots = vec![(!Bitboard::EMPTY, Bitboard::EMPTY); tables.lines.len() * cells];
        }
        let men = table.reach[from.index()] & occ;
        let slot = &mut slots[usize::from(lines) * cells + from.index()];
        if slot.0 != men {
            *slot = (men, find());
        }
        slot.1
    }
}

/// Where riders' cells come from ([`MoveTables::lines_attacks`]): the line tables read afresh
/// ([`FreshLines`]) or a search's [`LineMemo`].
pub trait Rides<const W: usize> {
    /// The cells a slider along the rays of line table `lines` from `from` reaches.
    fn lines_attacks(&mut self, tables: &MoveTables<W>, lines: u16, from: Cell, occ: Bitboard<W>) -> Bitboard<W>;

    /// [`MoveTables::hop_captures`] of a hopper whose rays make line table `lines`.
    fn hop_captures(&mut self, tables: &MoveTables<W>, rays: &[u16], lines: u16, from: Cell, occ: Bitboard<W>) -> Bitboard<W>;
}

/// The line tables read afresh at each call.
pub struct FreshLines;

impl<const W: usize> Rides<W> for FreshLines {
    #[inline(always)]
    fn lines_attacks(&mut self, tables: &MoveTables<W>, lines: u16, from: Cell, occ: Bitboard<W>) -> Bitboard<W> {
        tables.lines_attacks(lines, from, occ)
    }

    #[inline(always)]
    fn hop_captures(&mut self, tables: &MoveTables<W>, rays: &[u16], _lines: u16, from: Cell, occ: Bitboard<W>) -> Bitboard<W> {
        tables.hop_captures(rays, from, occ)
    }
}

impl<const W: usize> Rides<W> for LineMemo<W> {
    /// [`MoveTables::lines_attacks`], from the memo where the men on the lines are those it was
    /// found with.
    #[inline(always)]
    fn lines_attacks(&mut self, tables: &MoveTables<W>, lines: u16, from: Cell, occ: Bitboard<W>) -> Bitboard<W> {
        LineMemo::look_up(&mut self.slots, tables, lines, from, occ, || tables.lines_attacks(lines, from, occ))
    }

    /// From the memo where the men on the hopper's lines are those it was found with.
    #[inline(always)]
    fn hop_captures(&mut self, tables: &MoveTables<W>, rays: &[u16], lines: u16, from: Cell, occ: Bitboard<W>) -> Bitboard<W> {
        LineMemo::look_up(&mut self.hop_slots, tables, lines, from, occ, || tables.hop_captures(rays, from, occ))
    }
}

/// A bent path from a cell: the first-step cell and the rays that continue from it.
#[derive(Clone, Debug)]
pub struct BentLeg {
    pub mid: Cell,
    pub rays: ArrayVec<u16, 4>,
}

/// A movement component of one type and orientation, resolved to table ids (a ride's `lines`: its
/// rays' [`LineTable`]).
#[derive(Clone, Debug)]
pub enum CompiledComponent {
    Leap {
        table: u16,
        mode: Mode,
    },
    Ride {
        rays: ArrayVec<u16, MAX_DIRECTIONS>,
        lines: u16,
        mode: Mode,
    },
    /// `lines`: the line table of its rays, whose cells are the men its captures depend on.
    Hop {
        rays: ArrayVec<u16, MAX_DIRECTIONS>,
        lines: u16,
    },
    Curved {
        set: u16,
    },
    Bent {
        set: u16,
    },
}

/// Leaps and rides joined: one leap table of every leap and one line table of every ray, so that
/// a man's cells are two lookups instead of a pass over its components ([`MoveTables::reach`]).
#[derive(Clone, Copy, Debug)]
pub struct LeapsAndRides {
    pub leaps: u16,
    /// `None` for a leaper: no line table to look up.
    pub lines: Option<u16>,
}

/// The shared tables, each built once however many types use it.
pub struct MoveTables<const W: usize> {
    pub leaps: Vec<Table<Cell, Bitboard<W>>>,
    pub rays: Vec<RayTable<W>>,
    pub lines: Vec<LineTable<W>>,
    /// [set][cell] -> paths.
    pub curved: Vec<Table<Cell, Vec<Path>>>,
    /// [set][cell] -> bent legs.
    pub bent: Vec<Table<Cell, Vec<BentLeg>>>,
    /// [id][cell] -> every cell a type's capturing components reach on the empty board, its
    /// rides' and hops' whole rays: the cells it could ever capture on from there (all cells
    /// for bent riders). A man whose reach holds no enemy has no capture, found without
    /// generating its moves.
    pub capture_reach: Vec<Table<Cell, Bitboard<W>>>,
}

impl<const W: usize> MoveTables<W> {
    /// Cells a slider on `ray` from `from` reaches: up to and including the first blocker.
    #[inline(always)]
    pub fn ray_attacks(&self, ray: u16, from: Cell, occ: Bitboard<W>) -> Bitboard<W> {
        let r = &self.rays[usize::from(ray)];
        let m = r.mask[from];
        let blockers = m & occ;
        if blockers.is_empty() {
            m
        } else if r.ascending {
            m & blockers.through_first()
        } else {
            m & blockers.through_last()
        }
    }

    /// Cells a slider along the rays of line table `lines` from `from` reaches:
    /// [`MoveTables::ray_attacks`] of each ray, two rays a pass. A pair's cells are cut below the
    /// first man of the ascending ray and above the last of the descending one; each cut keeps
    /// the other ray whole, which lies entirely on the far side of the origin (an empty ray cuts
    /// nothing).
    #[inline(always)]
    pub fn lines_attacks(&self, lines: u16, from: Cell, occ: Bitboard<W>) -> Bitboard<W> {
        let table = &self.lines[usize::from(lines)];
        let n = 2 * table.pairs;
        let mut t = Bitboard::EMPTY;
        for pair in table.masks[from.index() * n..][..n].chunks_exact(2) {
            let (above, below) = (pair[0], pair[1]);
            let (up, down) = (above & occ, below & occ);
            if W == 1 {
                t |= (above | below) & up.through_first() & down.through_last();
            } else {
                // Wider boards skip the cut of a ray without a man, cheaper than cutting
                // every word.
                t |= if up.is_empty() { above } else { above & up.through_first() };
                t |= if down.is_empty() { below } else { below & down.through_last() };
            }
        }
        t
    }

    /// A hopper's captures along `rays` from `from`: the second man on each (of any owner).
    #[inline(always)]
    pub fn hop_captures(&self, rays: &[u16], from: Cell, occ: Bitboard<W>) -> Bitboard<W> {
        let mut targets = Bitboard::EMPTY;
        for &r in rays {
            let ray = &self.rays[usize::from(r)];
            if let Some(t) = ray.second_nearest(ray.mask[from] & occ) {
                targets.set(t);
            }
        }
        targets
    }

    /// The cells that the leaps and rides of `plain` reach from `from`, riders up to and including
    /// the first man.
    #[inline(always)]
    pub fn reach(&self, plain: LeapsAndRides, from: Cell, occ: Bitboard<W>) -> Bitboard<W> {
        self.reach_with(plain, from, occ, &mut FreshLines)
    }

    /// [`MoveTables::reach`], the rides from `rides`.
    #[inline(always)]
    pub fn reach_with(&self, plain: LeapsAndRides, from: Cell, occ: Bitboard<W>, rides: &mut impl Rides<W>) -> Bitboard<W> {
        let leaps = self.leaps[usize::from(plain.leaps)][from];
        match plain.lines {
            Some(lines) => leaps | rides.lines_attacks(self, lines, from, occ),
            None => leaps,
        }
    }

    /// The cells strictly between `from` and `to`, which lies on ray `ray` from `from`.
    #[inline(always)]
    pub fn between(&self, ray: u16, from: Cell, to: Cell) -> Bitboard<W> {
        let r = &self.rays[usize::from(ray)];
        let mut b = r.mask[from] & !self.rays[r.unlimited].mask[to];
        b.clear(to);
        b
    }
}

/// Builds the shared tables, deduplicating by their defining vectors.
pub struct TableBuilder<'a, const W: usize> {
    geo: &'a Geometry,
    pub tables: MoveTables<W>,
    leap_keys: HashMap<Vec<Vec3>, u16>,
    ray_keys: HashMap<(Vec3, u32), u16>,
    line_keys: HashMap<Vec<u16>, u16>,
    curved_keys: HashMap<(Vec<Vec3>, u32), u16>,
    bent_keys: HashMap<Vec<(Vec3, Vec<Vec3>)>, u16>,
    reach_keys: HashMap<Vec<(u8, u16)>, u16>,
}

fn next_id<T>(list: &[T]) -> u16 {
    u16::try_from(list.len()).expect("fewer than 65536 tables")
}

impl<'a, const W: usize> TableBuilder<'a, W> {
    pub fn new(geo: &'a Geometry) -> Self {
        TableBuilder {
            geo,
            tables: MoveTables {
                leaps: Vec::new(),
                rays: Vec::new(),
                lines: Vec::new(),
                curved: Vec::new(),
                bent: Vec::new(),
                capture_reach: Vec::new(),
            },
            leap_keys: HashMap::new(),
            ray_keys: HashMap::new(),
            line_keys: HashMap::new(),
            curved_keys: HashMap::new(),
            bent_keys: HashMap::new(),
            reach_keys: HashMap::new(),
        }
    }

    /// The capture reach of a type with components `comps` ([`MoveTables::capture_reach`]).
    pub fn capture_reach(&mut self, comps: &[CompiledComponent]) -> u16 {
        let key = reach_key(comps, true);
        if let Some(&id) = self.reach_keys.get(&key) {
            return id;
        }
        let table = self.reach_of(&key);
        let id = next_id(&self.tables.capture_reach);
        self.tables.capture_reach.push(table);
        self.reach_keys.insert(key, id);
        id
    }

    /// Per cell, every cell the components of `key` ([`reach_key`]) reach on the empty board
    /// (bent riders: everywhere).
    pub(super) fn reach_of(&self, key: &[(u8, u16)]) -> Table<Cell, Bitboard<W>> {
        let t = &self.tables;
        Table::from_fn(self.geo.len(), |c| {
            key.iter().fold(Bitboard::EMPTY, |reach, &(tag, id)| {
                let id = usize::from(id);
                reach
                    | match tag {
                        0 => t.leaps[id][c],
                        1 => t.rays[id].mask[c],
                        2 => t.curved[id][c].iter().fold(Bitboard::EMPTY, |b, path| b | Bitboard::from_cells(path.iter().copied())),
                        _ => !Bitboard::EMPTY,
                    }
            })
        })
    }

    pub fn leap_table(&mut self, vectors: &[Vec3]) -> u16 {
        let mut key = vectors.to_vec();
        key.sort_unstable();
        key.dedup();
        if let Some(&id) = self.leap_keys.get(&key) {
            return id;
        }
        let geo = self.geo;
        let table = Table::from_fn(geo.len(), |c| Bitboard::from_cells(key.iter().filter_map(|&v| geo.step(c, v))));
        let id = next_id(&self.tables.leaps);
        self.tables.leaps.push(table);
        self.leap_keys.insert(key, id);
        id
    }

    /// The ray along `dir` (at most `range` steps).
    pub fn ray(&mut self, dir: Vec3, range: Option<u32>) -> u16 {
        let max = range.unwrap_or(0);
        if let Some(&id) = self.ray_keys.get(&(dir, max)) {
            return id;
        }
        let unlimited = if max == 0 { None } else { Some(self.ray(dir, None)) };
        let geo = self.geo;
        let mut ascending = None;
        let mask = Table::from_fn(geo.len(), |c| {
            let cells = geo.ray(c, dir, if max == 0 { usize::MAX } else { max as usize });
            let mut prev = c;
            for &t in &cells {
                let asc = t > prev;
                assert!(*ascending.get_or_insert(asc) == asc, "ray {dir:?} is not monotone in cell index");
                prev = t;
            }
            Bitboard::from_cells(cells)
        });
        let id = next_id(&self.tables.rays);
        self.tables.rays.push(RayTable {
            dir,
            ascending: ascending.unwrap_or(true),
            unlimited: usize::from(unlimited.unwrap_or(id)),
            mask,
        });
        self.ray_keys.insert((dir, max), id);
        id
    }

    /// The line table of these rays.
    pub fn line_table(&mut self, rays: &[u16]) -> u16 {
        let mut key = rays.to_vec();
        key.sort_unstable();
        key.dedup();
        if let Some(&id) = self.line_keys.get(&key) {
            return id;
        }
        let all = &self.tables.rays;
        let (up, down): (Vec<u16>, Vec<u16>) = key.iter().partition(|&&r| all[usize::from(r)].ascending);
        let pairs = up.len().max(down.len());
        let mask = |list: &[u16], i: usize, c: Cell| list.get(i).map_or(Bitboard::EMPTY, |&r| all[usize::from(r)].mask[c]);
        let mut masks = Vec::with_capacity(self.geo.len() * 2 * pairs);
        for c in (0..self.geo.len()).map(Cell::new) {
            for i in 0..pairs {
                masks.extend([mask(&up, i, c), mask(&down, i, c)]);
            }
        }
        let n = 2 * pairs;
        let reach = (0..self.geo.len()).map(|c| masks[c * n..][..n].iter().fold(Bitboard::EMPTY, |b, &x| b | x)).collect();
        let id = next_id(&self.tables.lines);
        self.tables.lines.push(LineTable { pairs, masks, reach });
        self.line_keys.insert(key, id);
        id
    }

    pub fn curved_set(&mut self, ring: &[Vec3], max_steps: u32) -> u16 {
        let key = (ring.to_vec(), max_steps);
        if let Some(&id) = self.curved_keys.get(&key) {
            return id;
        }
        let geo = self.geo;
        let n = ring.len();
        let table = Table::from_fn(geo.len(), |c| {
            let mut paths = Vec::new();
            for first in 0..n {
                // Turning one way adds 1 to the ring index at each step, the other way n - 1.
                for turn in [1, n - 1] {
                    let mut path = Path::new();
                    let mut cur = c;
                    for k in 0..max_steps as usize {
                        match geo.step(cur, ring[(first + turn * k) % n]) {
                            Some(t) if t != c => {
                                path.push(t);
                                cur = t;
                            }
                            _ => break,
                        }
                    }
                    if !path.is_empty() {
                        paths.push(path);
                    }
                }
            }
            paths
        });
        let id = next_id(&self.tables.curved);
        self.tables.curved.push(table);
        self.curved_keys.insert(key, id);
        id
    }

    pub fn bent_set(&mut self, legs: &[(Vec3, Vec<Vec3>)]) -> u16 {
        let key = legs.to_vec();
        if let Some(&id) = self.bent_keys.get(&key) {
            return id;
        }
        let ray_ids: Vec<ArrayVec<u16, 4>> = legs.iter().map(|(_, thens)| thens.iter().map(|&d| self.ray(d, None)).collect()).collect();
        let geo = self.geo;
        let table = Table::from_fn(geo.len(), |c| {
            legs.iter()
                .zip(&ray_ids)
                .filter_map(|((first, _), rays)| geo.step(c, *first).map(|mid| BentLeg { mid, rays: rays.clone() }))
                .collect()
        });
        let id = next_id(&self.tables.bent);
        self.tables.bent.push(table);
        self.bent_keys.insert(key, id);
        id
    }
}

/// What the components among `comps` (with `captures_only`, those that capture) read their cells
/// from: leap tables, rays, curved and bent sets (tagged apart), sorted, each once.
pub(super) fn reach_key(comps: &[CompiledComponent], captures_only: bool) -> Vec<(u8, u16)> {
    let mut key: Vec<(u8, u16)> = Vec::new();
    for comp in comps {
        match comp {
            CompiledComponent::Leap { mode: Mode::MoveOnly, .. } | CompiledComponent::Ride { mode: Mode::MoveOnly, .. }
                if captures_only => {}
            CompiledComponent::Leap { table, .. } => key.push((0, *table)),
            CompiledComponent::Ride { rays, .. } | CompiledComponent::Hop { rays, .. } => key.extend(rays.iter().map(|&r| (1, r))),
            CompiledComponent::Curved { set } => key.push((2, *set)),
            CompiledComponent::Bent { set } => key.push((3, *set)),
        }
    }
    key.sort_unstable();
    key.dedup();
    key
}
