//! Tables derived once per game from its geometry and piece definitions.
//!
//! `Game<W>` is the compiled form of a [`GameDef`] for bitboards of width `W`: leap targets, rays,
//! curved paths and bent paths per cell; each piece type's components resolved to those tables
//! per orientation; reverse "attack groups" for attack tests; promotion, castling and Zobrist data.

use std::collections::HashMap;

use arrayvec::ArrayVec;

use crate::bitboard::Bitboard;
use crate::eval::EvalTables;
use crate::game::{ChargeRule, EnlightenedRule, GameDef};
use crate::geometry::{Geometry, Vec3, add, neg};
use crate::movement::{Component, Mode, PromotionChoices};
use crate::moves::{Leg, MAX_LEG_VECTORS, MAX_LEGS, Move, MoveKind};
use crate::position::Man;

pub const MAX_PLAYERS: usize = 4;
pub const MAX_TYPES: usize = 48;
pub const MAX_CELLS: usize = 512;
/// Orientation value of a group member whose component is the same for every orientation.
pub const ANY_ORIENTATION: u8 = u8::MAX;

pub type Path = ArrayVec<u16, 8>;

pub struct RayTable<const W: usize> {
    pub dir: Vec3,
    /// The ray runs towards higher cell indices.
    pub ascending: bool,
    /// Id of the same direction without a range limit (itself when unlimited).
    pub unlimited: usize,
    pub mask: Vec<Bitboard<W>>,
}

impl<const W: usize> RayTable<W> {
    /// The occupied cell nearest to the ray's origin among `blockers` (a subset of the ray).
    #[inline(always)]
    pub fn nearest(&self, blockers: Bitboard<W>) -> Option<usize> {
        if self.ascending { blockers.first() } else { blockers.last() }
    }
}

/// A bent path from a cell: the first-step cell and the rays that continue from it.
#[derive(Clone, Debug)]
pub struct BentLeg {
    pub mid: u16,
    pub rays: ArrayVec<u16, 4>,
}

#[derive(Clone, Debug)]
pub enum CompiledComponent {
    Leap { table: u16, mode: Mode },
    Ride { rays: ArrayVec<u16, 32>, mode: Mode },
    Hop { rays: ArrayVec<u16, 32> },
    Curved { set: u16 },
    Bent { set: u16 },
}

/// Pieces (type, orientation) sharing one reverse attack pattern.
#[derive(Clone, Debug, Default)]
pub struct Members(pub ArrayVec<(u8, u8), 32>);

impl Members {
    fn add(&mut self, t: usize, o: u8) {
        let m = (t as u8, o);
        if !self.0.contains(&m) {
            self.0.push(m);
        }
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
    pub rays: ArrayVec<u16, 32>,
    pub members: Members,
}

#[derive(Clone, Debug)]
pub struct SetGroup {
    pub set: u16,
    pub members: Members,
}

#[derive(Clone, Debug, Default)]
pub struct AttackGroups {
    pub leaps: Vec<LeapGroup>,
    pub rides: Vec<RayGroup>,
    pub hops: Vec<RayGroup>,
    pub curved: Vec<SetGroup>,
    /// Bent riders are tested by generating their attacks forwards.
    pub bent: Members,
    /// Royal pieces along the facing directions (legality only).
    pub facing: Option<RayGroup>,
}

#[derive(Clone, Debug)]
pub struct CompiledCastle {
    pub player: usize,
    pub king_from: usize,
    pub king_to: usize,
    pub rook_from: usize,
    pub rook_to: usize,
    pub right: u32,
}

pub struct TypeInfo<const W: usize> {
    pub royal: bool,
    pub pawn: bool,
    /// Its moves depend on the man's orientation (pawn-like, or a per-orientation component).
    /// A man of any other type always takes its owner's orientation, so that men that move
    /// alike are the same man (rules README: repetition).
    pub oriented: bool,
    pub en_passant: bool,
    /// Per orientation: compiled components.
    pub comps: Vec<Vec<CompiledComponent>>,
    /// Per orientation, per cell: double steps (skipped cell, destination).
    pub double_steps: Vec<Vec<ArrayVec<(u16, u16), 4>>>,
    /// Per orientation: promotion zone and mandatory cells.
    pub promo_zone: Vec<Bitboard<W>>,
    pub promo_mandatory: Vec<Bitboard<W>>,
    pub promo_choices: Option<PromotionChoices>,
    /// Per orientation: the reverse table of capture-only leaps (for en passant and attack tests).
    pub capture_leaps: Vec<Vec<u16>>,
}

/// The Enlightened Move rule resolved for move generation (`movegen::enlightened`).
pub struct EnlightenedTables {
    /// Bit t set when men of type t grant the move.
    pub granters: u64,
    /// User types, each with whether its components depend on orientation.
    pub users: Vec<(usize, bool)>,
}

impl EnlightenedTables {
    pub fn compile(rule: &EnlightenedRule, def: &GameDef) -> Self {
        let mut granters = 0u64;
        for &t in &rule.granters {
            assert!(t < MAX_TYPES, "granter type {t} out of range");
            granters |= 1 << t;
        }
        let users = rule
            .users
            .iter()
            .map(|&t| {
                let piece = &def.pieces[t];
                assert!(piece.pawn.is_none(), "{}: pawns cannot make Enlightened Moves", piece.name);
                let mut oriented = false;
                for comp in &piece.components {
                    match comp {
                        Component::Leap { vectors, .. } => oriented |= vectors.is_oriented(),
                        Component::Ride { dirs, .. } => oriented |= dirs.is_oriented(),
                        _ => panic!("{}: Enlightened Moves take only leap and ride components", piece.name),
                    }
                }
                (t, oriented)
            })
            .collect();
        EnlightenedTables { granters, users }
    }
}

/// The Elephant Charge rule resolved for move generation (`movegen::charge`).
pub struct ChargeTables {
    /// Bit t set when men of type t charge and are charged over.
    pub chargers: u64,
    /// Per cell, per leap vector: (midpoint, landing cell), `NO_CELL` where it leaves the board.
    pub steps: Vec<[(u16, u16); MAX_LEG_VECTORS]>,
    pub min_legs: usize,
    pub max_legs: usize,
}

impl ChargeTables {
    pub fn compile(rule: &ChargeRule, geo: &Geometry) -> Self {
        assert!(rule.leaps.len() <= MAX_LEG_VECTORS, "a Charge packs at most {MAX_LEG_VECTORS} leap vectors");
        assert!((1..=MAX_LEGS).contains(&rule.max_legs) && rule.min_legs <= rule.max_legs, "Charge length out of range");
        let mut chargers = 0u64;
        for &t in &rule.chargers {
            assert!(t < MAX_TYPES, "charger type {t} out of range");
            chargers |= 1 << t;
        }
        let half = |v: Vec3| -> Vec3 {
            assert!(v.iter().all(|c| c % 2 == 0), "Charge leap {v:?} has no midpoint cell");
            [v[0] / 2, v[1] / 2, v[2] / 2]
        };
        let steps = (0..geo.len())
            .map(|c| {
                let mut row = [(u16::MAX, u16::MAX); MAX_LEG_VECTORS];
                for (i, &v) in rule.leaps.iter().enumerate() {
                    let mid = geo.cell_at(add(geo.coord(c), half(v)));
                    let to = geo.step(c, v);
                    if let (Some(m), Some(t)) = (mid, to) {
                        row[i] = (m as u16, t as u16);
                    }
                }
                row
            })
            .collect();
        ChargeTables { chargers, steps, min_legs: rule.min_legs.max(1), max_legs: rule.max_legs }
    }
}

pub struct Zobrist {
    pub pieces: Vec<u64>,
    pub flag: Vec<u64>,
    pub to_move: [u64; MAX_PLAYERS],
    pub active: [u64; MAX_PLAYERS],
    pub castling: Vec<u64>,
    /// Per double-stepping player and skipped cell (two players' rights may share a cell).
    pub ep: Vec<u64>,
}

pub struct Game<const W: usize> {
    pub def: GameDef,
    pub ncells: usize,
    pub nplayers: usize,
    pub ntypes: usize,
    pub all_cells: Bitboard<W>,
    pub leaps: Vec<Vec<Bitboard<W>>>,
    pub rays: Vec<RayTable<W>>,
    /// [set][cell] -> paths.
    pub curved: Vec<Vec<Vec<Path>>>,
    /// [set][cell] -> bent legs.
    pub bent: Vec<Vec<Vec<BentLeg>>>,
    pub types: Vec<TypeInfo<W>>,
    pub groups: AttackGroups,
    /// Per cell: union of all hopper lines through it.
    pub hop_lines: Vec<Bitboard<W>>,
    /// Per ride group (as in `groups.rides`), per cell: the union of the group's rays from it.
    pub ride_lines: Vec<Vec<Bitboard<W>>>,
    /// Per cell: the union of the facing rays from it.
    pub facing_lines: Vec<Bitboard<W>>,
    /// Per curved group (as in `groups.curved`), per cell: the cells on its paths from there.
    pub curved_reach: Vec<Vec<Bitboard<W>>>,
    /// Per cell: the cells from which some bent path (of any bent set) reaches it on an empty
    /// board.
    pub bent_origins: Vec<Bitboard<W>>,
    pub castles: Vec<CompiledCastle>,
    /// Per cell: castling rights lost when a move leaves, enters or captures on it.
    pub castle_clear: Vec<u32>,
    /// Per castle: cells that must be empty, and cells the king must not be attacked on.
    pub castle_empty: Vec<Bitboard<W>>,
    pub castle_safe: Vec<Bitboard<W>>,
    /// [capturer][stepper]: skipped cells where en passant is allowed.
    pub ep_allowed: Vec<Vec<Bitboard<W>>>,
    pub royal_zone: Vec<Bitboard<W>>,
    pub zobrist: Zobrist,
    /// Royal-to-emperor and deliverer promotions on checkmate, indexed by type.
    pub royal_promotion: Vec<Option<usize>>,
    pub deliverer_promotion: Vec<Option<usize>>,
    /// Per player, per type: how many the player has at the start.
    pub initial_counts: Vec<Vec<u8>>,
    /// The evaluation's tables for the default parameters (see `eval`).
    pub eval: EvalTables,
    pub enlightened: Option<EnlightenedTables>,
    pub charge: Option<ChargeTables>,
}

struct Builder<'a, const W: usize> {
    geo: &'a Geometry,
    leaps: Vec<Vec<Bitboard<W>>>,
    leap_keys: HashMap<Vec<Vec3>, u16>,
    rays: Vec<RayTable<W>>,
    ray_keys: HashMap<(Vec3, u32), u16>,
    curved: Vec<Vec<Vec<Path>>>,
    curved_keys: HashMap<(Vec<Vec3>, u32), u16>,
    bent: Vec<Vec<Vec<BentLeg>>>,
    bent_keys: HashMap<Vec<(Vec3, Vec<Vec3>)>, u16>,
}

impl<'a, const W: usize> Builder<'a, W> {
    fn leap_table(&mut self, vectors: &[Vec3]) -> u16 {
        let mut key = vectors.to_vec();
        key.sort();
        key.dedup();
        if let Some(&id) = self.leap_keys.get(&key) {
            return id;
        }
        let table = (0..self.geo.len())
            .map(|c| {
                let mut b = Bitboard::EMPTY;
                for &v in &key {
                    if let Some(t) = self.geo.step(c, v) {
                        b.set(t);
                    }
                }
                b
            })
            .collect();
        let id = self.leaps.len() as u16;
        self.leaps.push(table);
        self.leap_keys.insert(key, id);
        id
    }

    fn ray(&mut self, dir: Vec3, range: Option<u32>) -> u16 {
        let max = range.unwrap_or(0);
        if let Some(&id) = self.ray_keys.get(&(dir, max)) {
            return id;
        }
        let unlimited = if max == 0 { None } else { Some(self.ray(dir, None)) };
        let n = self.geo.len();
        let mut ascending = None;
        let mask = (0..n)
            .map(|c| {
                let cells = self.geo.ray(c, dir, if max == 0 { usize::MAX } else { max as usize });
                let mut b = Bitboard::EMPTY;
                let mut prev = c;
                for &t in &cells {
                    let asc = t > prev;
                    assert!(*ascending.get_or_insert(asc) == asc, "ray {dir:?} is not monotone in cell index");
                    prev = t;
                    b.set(t);
                }
                b
            })
            .collect();
        let id = self.rays.len() as u16;
        self.rays.push(RayTable {
            dir,
            ascending: ascending.unwrap_or(true),
            unlimited: unlimited.map(|u| u as usize).unwrap_or(id as usize),
            mask,
        });
        self.ray_keys.insert((dir, max), id);
        id
    }

    fn curved_set(&mut self, ring: &[Vec3], max_steps: u32) -> u16 {
        let key = (ring.to_vec(), max_steps);
        if let Some(&id) = self.curved_keys.get(&key) {
            return id;
        }
        let n = ring.len() as i64;
        let table = (0..self.geo.len())
            .map(|c| {
                let mut paths = Vec::new();
                for i in 0..n {
                    for s in [1i64, -1] {
                        let mut path = Path::new();
                        let mut cur = c;
                        for k in 0..max_steps as i64 {
                            let d = ring[(i + s * k).rem_euclid(n) as usize];
                            match self.geo.step(cur, d) {
                                Some(t) if t != c => {
                                    path.push(t as u16);
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
            })
            .collect();
        let id = self.curved.len() as u16;
        self.curved.push(table);
        self.curved_keys.insert(key, id);
        id
    }

    fn bent_set(&mut self, legs: &[(Vec3, Vec<Vec3>)]) -> u16 {
        let key = legs.to_vec();
        if let Some(&id) = self.bent_keys.get(&key) {
            return id;
        }
        let mut ray_ids: Vec<Vec<u16>> = Vec::new();
        for (_, thens) in legs {
            ray_ids.push(thens.iter().map(|&d| self.ray(d, None)).collect());
        }
        let table = (0..self.geo.len())
            .map(|c| {
                let mut out = Vec::new();
                for (li, (first, _)) in legs.iter().enumerate() {
                    if let Some(m) = self.geo.step(c, *first) {
                        out.push(BentLeg { mid: m as u16, rays: ray_ids[li].iter().copied().collect() });
                    }
                }
                out
            })
            .collect();
        let id = self.bent.len() as u16;
        self.bent.push(table);
        self.bent_keys.insert(key, id);
        id
    }
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn bits_of<const W: usize>(cells: &[usize]) -> Bitboard<W> {
    let mut b = Bitboard::EMPTY;
    for &c in cells {
        b.set(c);
    }
    b
}

impl<const W: usize> Game<W> {
    pub fn build(def: GameDef) -> Self {
        let geo = &def.geometry;
        let ncells = geo.len();
        let nplayers = def.players.len();
        let ntypes = def.pieces.len();
        assert!(ncells <= 64 * W && ncells <= MAX_CELLS, "{} cells do not fit {} bits", ncells, 64 * W);
        assert!((2..=MAX_PLAYERS).contains(&nplayers));
        assert!(ntypes <= MAX_TYPES);
        let mut b = Builder::<W> {
            geo,
            leaps: Vec::new(),
            leap_keys: HashMap::new(),
            rays: Vec::new(),
            ray_keys: HashMap::new(),
            curved: Vec::new(),
            curved_keys: HashMap::new(),
            bent: Vec::new(),
            bent_keys: HashMap::new(),
        };

        let mut groups = AttackGroups::default();
        let mut leap_group_ix: HashMap<u16, usize> = HashMap::new();
        let mut ride_group_ix: HashMap<Vec<u16>, usize> = HashMap::new();
        let mut hop_group_ix: HashMap<Vec<u16>, usize> = HashMap::new();
        let mut curved_group_ix: HashMap<u16, usize> = HashMap::new();
        let mut types = Vec::new();

        for (t, piece) in def.pieces.iter().enumerate() {
            let mut comps = Vec::new();
            let mut capture_leaps = Vec::new();
            for o in 0..nplayers {
                let mut list = Vec::new();
                let mut cap_leaps = Vec::new();
                for comp in &piece.components {
                    let compiled = match comp {
                        Component::Leap { vectors, mode } => {
                            let vs = vectors.for_orientation(o);
                            let table = b.leap_table(vs);
                            let mo = if vectors.is_oriented() { o as u8 } else { ANY_ORIENTATION };
                            if mode.captures() {
                                let rev: Vec<Vec3> = vs.iter().map(|&v| neg(v)).collect();
                                let rt = b.leap_table(&rev);
                                let gi = *leap_group_ix.entry(rt).or_insert_with(|| {
                                    groups.leaps.push(LeapGroup { table: rt, members: Members::default() });
                                    groups.leaps.len() - 1
                                });
                                groups.leaps[gi].members.add(t, mo);
                                if *mode == Mode::CaptureOnly {
                                    cap_leaps.push(rt);
                                }
                            }
                            CompiledComponent::Leap { table, mode: *mode }
                        }
                        Component::Ride { dirs, range, mode } => {
                            let ds = dirs.for_orientation(o);
                            let rays: ArrayVec<u16, 32> = ds.iter().map(|&d| b.ray(d, *range)).collect();
                            let mo = if dirs.is_oriented() { o as u8 } else { ANY_ORIENTATION };
                            if mode.captures() {
                                let mut rev: Vec<u16> = ds.iter().map(|&d| b.ray(neg(d), *range)).collect();
                                rev.sort();
                                let gi = *ride_group_ix.entry(rev.clone()).or_insert_with(|| {
                                    groups.rides.push(RayGroup { rays: rev.iter().copied().collect(), members: Members::default() });
                                    groups.rides.len() - 1
                                });
                                groups.rides[gi].members.add(t, mo);
                            }
                            CompiledComponent::Ride { rays, mode: *mode }
                        }
                        Component::Hop { dirs } => {
                            let ds = dirs.for_orientation(o);
                            let rays: ArrayVec<u16, 32> = ds.iter().map(|&d| b.ray(d, None)).collect();
                            let mo = if dirs.is_oriented() { o as u8 } else { ANY_ORIENTATION };
                            let mut rev: Vec<u16> = ds.iter().map(|&d| b.ray(neg(d), None)).collect();
                            rev.sort();
                            let gi = *hop_group_ix.entry(rev.clone()).or_insert_with(|| {
                                groups.hops.push(RayGroup { rays: rev.iter().copied().collect(), members: Members::default() });
                                groups.hops.len() - 1
                            });
                            groups.hops[gi].members.add(t, mo);
                            CompiledComponent::Hop { rays }
                        }
                        Component::Curved { ring, max_steps } => {
                            // Curved paths are reversible (the reverse of a constant-turning walk
                            // is one with the opposite turn), so the set is its own reverse.
                            let set = b.curved_set(ring, *max_steps);
                            let gi = *curved_group_ix.entry(set).or_insert_with(|| {
                                groups.curved.push(SetGroup { set, members: Members::default() });
                                groups.curved.len() - 1
                            });
                            groups.curved[gi].members.add(t, ANY_ORIENTATION);
                            CompiledComponent::Curved { set }
                        }
                        Component::Bent { legs } => {
                            let set = b.bent_set(legs);
                            groups.bent.add(t, ANY_ORIENTATION);
                            CompiledComponent::Bent { set }
                        }
                    };
                    list.push(compiled);
                }
                comps.push(list);
                capture_leaps.push(cap_leaps);
            }

            let pawn = piece.pawn.as_ref();
            let mut double_steps = Vec::new();
            let mut promo_zone = Vec::new();
            let mut promo_mandatory = Vec::new();
            for o in 0..nplayers {
                let mut per_cell: Vec<ArrayVec<(u16, u16), 4>> = vec![ArrayVec::new(); ncells];
                let starts = pawn.and_then(|p| p.double_step.get(o)).map(Vec::as_slice).unwrap_or(&[]);
                for &s in starts {
                    for comp in &piece.components {
                        if let Component::Leap { vectors, mode: Mode::MoveOnly } = comp {
                            for &v in vectors.for_orientation(o) {
                                if let Some(m) = geo.step(s, v)
                                    && let Some(d) = geo.step(m, v)
                                {
                                    per_cell[s].push((m as u16, d as u16));
                                }
                            }
                        }
                    }
                }
                double_steps.push(per_cell);
                let promo = pawn.and_then(|p| p.promotion.as_ref());
                promo_zone.push(promo.map(|pr| bits_of(&pr.zone[o])).unwrap_or_default());
                promo_mandatory.push(promo.map(|pr| bits_of(&pr.mandatory[o])).unwrap_or_default());
            }
            let oriented = pawn.is_some()
                || piece.components.iter().any(|c| match c {
                    Component::Leap { vectors, .. } => vectors.is_oriented(),
                    Component::Ride { dirs, .. } | Component::Hop { dirs } => dirs.is_oriented(),
                    Component::Curved { .. } | Component::Bent { .. } => false,
                });
            types.push(TypeInfo {
                royal: piece.royal,
                pawn: pawn.is_some(),
                oriented,
                en_passant: pawn.is_some_and(|p| p.en_passant),
                comps,
                double_steps,
                promo_zone,
                promo_mandatory,
                promo_choices: pawn.and_then(|p| p.promotion.as_ref()).map(|pr| pr.choices.clone()),
                capture_leaps,
            });
        }

        if !def.rules.royal_facing.is_empty() {
            let mut members = Members::default();
            for (t, p) in def.pieces.iter().enumerate() {
                if p.royal {
                    members.add(t, ANY_ORIENTATION);
                }
            }
            let rays = def.rules.royal_facing.iter().map(|&d| b.ray(neg(d), None)).collect();
            groups.facing = Some(RayGroup { rays, members });
        }

        let all_cells = Bitboard::first_n(ncells);
        // Pruning tables of the attack tests: where a member must stand to matter at all.
        let lines_of = |rays: &[u16]| -> Vec<Bitboard<W>> {
            (0..ncells).map(|c| rays.iter().fold(Bitboard::EMPTY, |acc, &r| acc | b.rays[r as usize].mask[c])).collect()
        };
        let ride_lines = groups.rides.iter().map(|g| lines_of(&g.rays)).collect();
        let facing_lines = groups.facing.as_ref().map(|g| lines_of(&g.rays)).unwrap_or_default();
        let curved_reach = groups
            .curved
            .iter()
            .map(|g| {
                b.curved[g.set as usize]
                    .iter()
                    .map(|paths| {
                        let mut reach = Bitboard::EMPTY;
                        for &c in paths.iter().flatten() {
                            reach.set(c as usize);
                        }
                        reach
                    })
                    .collect()
            })
            .collect();
        let mut bent_origins = vec![Bitboard::<W>::EMPTY; ncells];
        for set in &b.bent {
            for (from, legs) in set.iter().enumerate() {
                for leg in legs {
                    let mid = leg.mid as usize;
                    let mut reach = Bitboard::<W>::from_cell(mid);
                    for &r in &leg.rays {
                        reach |= b.rays[r as usize].mask[mid];
                    }
                    for t in reach {
                        bent_origins[t].set(from);
                    }
                }
            }
        }
        // Legality shortcut: which cells can matter for hoppers.
        let mut hop_lines = vec![Bitboard::<W>::EMPTY; ncells];
        for g in &groups.hops {
            for &r in &g.rays {
                for (c, hl) in hop_lines.iter_mut().enumerate() {
                    *hl |= b.rays[r as usize].mask[c];
                }
            }
        }

        let castles: Vec<CompiledCastle> = def
            .rules
            .castling
            .iter()
            .enumerate()
            .map(|(i, c)| CompiledCastle {
                player: c.player,
                king_from: c.king_from,
                king_to: c.king_to,
                rook_from: c.rook_from,
                rook_to: c.rook_to,
                right: 1 << i,
            })
            .collect();
        let mut castle_clear = vec![0u32; ncells];
        let mut castle_empty = Vec::new();
        let mut castle_safe = Vec::new();
        for c in &castles {
            castle_clear[c.king_from] |= c.right;
            castle_clear[c.rook_from] |= c.right;
            let line = |a: usize, z: usize| -> Vec<usize> {
                let (pa, pz) = (geo.coord(a), geo.coord(z));
                let d = [(pz[0] - pa[0]).signum(), (pz[1] - pa[1]).signum(), (pz[2] - pa[2]).signum()];
                let mut out = vec![a];
                let mut cur = a;
                while cur != z {
                    cur = geo.cell_at(add(geo.coord(cur), d)).expect("castling line on the board");
                    out.push(cur);
                }
                out
            };
            let mut empty: Bitboard<W> = bits_of(&line(c.king_from, c.rook_from));
            empty |= bits_of(&line(c.king_from, c.king_to));
            empty.set(c.rook_to);
            empty.clear(c.king_from);
            empty.clear(c.rook_from);
            castle_empty.push(empty);
            castle_safe.push(bits_of(&line(c.king_from, c.king_to)));
        }

        let ep_allowed = (0..nplayers)
            .map(|cap| {
                (0..nplayers)
                    .map(|step| match &def.rules.en_passant_cells {
                        None => all_cells,
                        Some(t) => bits_of(&t[cap][step]),
                    })
                    .collect()
            })
            .collect();
        let royal_zone = (0..nplayers)
            .map(|p| match &def.rules.royal_zone {
                None => all_cells,
                Some(z) => bits_of(&z[p]),
            })
            .collect();

        let mut seed = 0x7E55_E8A0_0000_0001u64 ^ (ncells as u64) << 32 ^ (ntypes as u64) << 16;
        let zobrist = Zobrist {
            pieces: (0..ncells * ntypes * nplayers * nplayers).map(|_| splitmix(&mut seed)).collect(),
            flag: (0..ncells).map(|_| splitmix(&mut seed)).collect(),
            to_move: std::array::from_fn(|_| splitmix(&mut seed)),
            active: std::array::from_fn(|_| splitmix(&mut seed)),
            castling: (0..castles.len()).map(|_| splitmix(&mut seed)).collect(),
            ep: (0..ncells * nplayers).map(|_| splitmix(&mut seed)).collect(),
        };

        let mut royal_promotion = vec![None; ntypes];
        for &(a, z) in &def.rules.mate.royal_promotion {
            royal_promotion[a] = Some(z);
        }
        let mut deliverer_promotion = vec![None; ntypes];
        for &(a, z) in &def.rules.mate.deliverer_promotion {
            deliverer_promotion[a] = Some(z);
        }
        let mut initial_counts = vec![vec![0u8; ntypes]; nplayers];
        for &(_, owner, t) in &def.setup {
            initial_counts[owner][t] += 1;
        }

        let eval = EvalTables::build(&def, &crate::eval::PARAMS);
        let enlightened = def.rules.enlightened.as_ref().map(|r| EnlightenedTables::compile(r, &def));
        let charge = def.rules.charge.as_ref().map(|r| ChargeTables::compile(r, geo));
        let Builder { leaps, rays, curved, bent, .. } = b;
        Game {
            ncells,
            nplayers,
            ntypes,
            all_cells,
            leaps,
            rays,
            curved,
            bent,
            types,
            groups,
            hop_lines,
            ride_lines,
            facing_lines,
            curved_reach,
            bent_origins,
            castles,
            castle_clear,
            castle_empty,
            castle_safe,
            ep_allowed,
            royal_zone,
            zobrist,
            royal_promotion,
            deliverer_promotion,
            initial_counts,
            eval,
            enlightened,
            charge,
            def,
        }
    }

    #[inline(always)]
    pub fn piece_key(&self, cell: usize, t: usize, owner: usize, orient: usize) -> u64 {
        self.zobrist.pieces[((cell * self.ntypes + t) * self.nplayers + owner) * self.nplayers + orient]
    }

    /// The man with its owner's orientation unless its type moves by orientation (recruited
    /// pawns keep their direction; a recruited Knight is just the mater's Knight).
    #[inline(always)]
    pub fn normalized(&self, m: Man) -> Man {
        if self.types[m.kind()].oriented { m } else { m.with_orientation(m.owner()) }
    }

    /// Hash key of `player`'s en passant right over `skipped`.
    #[inline(always)]
    pub fn ep_key(&self, player: usize, skipped: usize) -> u64 {
        self.zobrist.ep[player * self.ncells + skipped]
    }

    /// The legs of a multi-leg move, in order (empty if `mv` is not one of this game's).
    pub fn charge_legs(&self, mv: Move) -> ArrayVec<Leg, MAX_LEGS> {
        let mut legs = ArrayVec::new();
        let Some(rule) = &self.charge else { return legs };
        if mv.kind() != MoveKind::Charge {
            return legs;
        }
        legs.push(Leg { from: mv.from(), to: mv.to() });
        for (from, dir) in mv.further_legs() {
            let to = rule.steps.get(from).map_or(u16::MAX, |s| s[dir].1);
            if to == u16::MAX {
                break;
            }
            legs.push(Leg { from, to: to as usize });
        }
        legs
    }

    pub fn geometry(&self) -> &Geometry {
        &self.def.geometry
    }

    /// Cells a slider on `ray` from `from` reaches: up to and including the first blocker.
    #[inline(always)]
    pub fn ray_attacks(&self, ray: usize, from: usize, occ: Bitboard<W>) -> Bitboard<W> {
        let r = &self.rays[ray];
        let m = r.mask[from];
        let blockers = m & occ;
        match r.nearest(blockers) {
            None => m,
            Some(b) => m & !self.rays[r.unlimited].mask[b],
        }
    }
}
