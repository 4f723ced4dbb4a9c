//! The rule switches of a game definition resolved to tables: castling, en passant cells, royal
//! zones, checkmate promotions, start counts, the Enlightened Move and the Elephant Charge.

use super::movement::{CompiledComponent, MoveTables};
use super::piece_types::TypeInfo;
use crate::bitboard::Bitboard;
use crate::game::{ChargeRule, DeadMaterial, EnlightenedRule, GameDef};
use crate::geometry::{Geometry, Vec3, add};
use crate::movement::Component;
use crate::moves::{MAX_LEG_VECTORS, MAX_LEGS};
use crate::types::{Cell, PieceType, Player, PlayerSet, Table, TypeSet};

/// The Enlightened Move rule resolved for move generation (`movegen::enlightened`).
pub struct EnlightenedTables {
    pub granters: TypeSet,
    /// User types, each with whether its components depend on orientation.
    pub users: Vec<(PieceType, bool)>,
}

impl EnlightenedTables {
    pub fn compile(rule: &EnlightenedRule, def: &GameDef) -> Self {
        let users = rule
            .users
            .iter()
            .map(|&t| {
                let piece = &def.pieces[t];
                assert!(piece.pawn.is_none(), "{}: pawns cannot make Enlightened Moves", piece.name);
                let oriented = piece.components.iter().any(|comp| match comp {
                    Component::Leap { vectors, .. } => vectors.is_oriented(),
                    Component::Ride { dirs, .. } => dirs.is_oriented(),
                    _ => panic!("{}: Enlightened Moves take only leap and ride components", piece.name),
                });
                (t, oriented)
            })
            .collect();
        EnlightenedTables { granters: TypeSet::of(&rule.granters), users }
    }
}

/// One leap of a Charge from a cell: the midpoint and the landing cell.
#[derive(Clone, Copy, Debug)]
pub struct ChargeStep {
    pub mid: Cell,
    pub to: Cell,
}

/// The Elephant Charge rule resolved for move generation (`movegen::charge`).
pub struct ChargeTables {
    pub chargers: TypeSet,
    /// Per cell, per leap vector: the leap, `None` where it leaves the board.
    pub steps: Table<Cell, [Option<ChargeStep>; MAX_LEG_VECTORS]>,
    pub min_legs: usize,
    pub max_legs: usize,
}

impl ChargeTables {
    pub fn compile(rule: &ChargeRule, geo: &Geometry) -> Self {
        assert!(rule.leaps.len() <= MAX_LEG_VECTORS, "a Charge packs at most {MAX_LEG_VECTORS} leap vectors");
        assert!((1..=MAX_LEGS).contains(&rule.max_legs) && rule.min_legs <= rule.max_legs, "Charge length out of range");
        let half = |v: Vec3| -> Vec3 {
            assert!(v.iter().all(|c| c % 2 == 0), "Charge leap {v:?} has no midpoint cell");
            v.map(|c| c / 2)
        };
        let steps = Table::from_fn(geo.len(), |c| {
            let mut row = [None; MAX_LEG_VECTORS];
            for (slot, &v) in row.iter_mut().zip(&rule.leaps) {
                let mid = geo.cell_at(add(geo.coord(c), half(v)));
                if let (Some(mid), Some(to)) = (mid, geo.step(c, v)) {
                    *slot = Some(ChargeStep { mid, to });
                }
            }
            row
        });
        ChargeTables { chargers: TypeSet::of(&rule.chargers), steps, min_legs: rule.min_legs.max(1), max_legs: rule.max_legs }
    }
}

/// The dead-material rule resolved: the type sets and the colours of the colour-bound types.
pub struct DeadTables<const W: usize> {
    pub minor: TypeSet,
    pub colour_bound: TypeSet,
    /// The cells of each colour: the sets of cells a colour-bound man reaches on the empty board.
    pub colours: Vec<Bitboard<W>>,
}

impl<const W: usize> DeadTables<W> {
    fn build(rule: &DeadMaterial, game: &GameDef, tables: &MoveTables<W>, types: &Table<PieceType, TypeInfo<W>>) -> Self {
        let ncells = game.geometry.len();
        let mut colours: Vec<Bitboard<W>> = Vec::new();
        if let Some(&t) = rule.colour_bound.first() {
            let empty = Bitboard::EMPTY;
            let mut seen = Bitboard::<W>::EMPTY;
            for start in game.geometry.all() {
                if seen.has(start) {
                    continue;
                }
                // Every cell the man reaches from `start` by any number of moves.
                let mut colour = Bitboard::from_cell(start);
                let mut frontier = colour;
                while let Some(c) = frontier.pop_first() {
                    let next = targets_on(tables, types, t, c, empty) & !colour;
                    colour |= next;
                    frontier |= next;
                }
                seen |= colour;
                colours.push(colour);
            }
        }
        debug_assert!(colours.iter().map(|c| c.count() as usize).sum::<usize>() == if colours.is_empty() { 0 } else { ncells });
        DeadTables { minor: TypeSet::of(&rule.minor), colour_bound: TypeSet::of(&rule.colour_bound), colours }
    }
}

/// Cells a `t` man of the first orientation reaches from `from` with the board's men on `occ`,
/// by its leaps and rides (the colour-bound pieces of chess-like games).
fn targets_on<const W: usize>(
    tables: &MoveTables<W>,
    types: &Table<PieceType, TypeInfo<W>>,
    t: PieceType,
    from: Cell,
    occ: Bitboard<W>,
) -> Bitboard<W> {
    let mut out = Bitboard::EMPTY;
    for comp in &types[t].comps[Player::new(0)] {
        match comp {
            CompiledComponent::Leap { table, .. } => out |= tables.leaps[usize::from(*table)][from],
            CompiledComponent::Ride { lines, .. } => out |= tables.lines_attacks(*lines, from, occ),
            _ => panic!("colour-bound types leap and ride only"),
        }
    }
    out
}

/// Rule tables of a game.
pub struct RuleTables<const W: usize> {
    pub castles: Vec<Castle<W>>,
    /// Per cell: castling rights lost when a move leaves, enters or captures on it.
    pub castle_clear: Table<Cell, u32>,
    /// [capturer][stepper]: skipped cells where en passant is allowed.
    pub ep_allowed: Table<Player, Table<Player, Bitboard<W>>>,
    pub royal_zone: Table<Player, Bitboard<W>>,
    /// Royal-to-Emperor and deliverer promotions on checkmate, by type.
    pub royal_promotion: Table<PieceType, Option<PieceType>>,
    pub deliverer_promotion: Table<PieceType, Option<PieceType>>,
    /// Per player, per type: how many the player has at the start.
    pub initial_counts: Table<Player, Table<PieceType, u8>>,
    pub enlightened: Option<EnlightenedTables>,
    pub charge: Option<ChargeTables>,
    pub dead: Option<DeadTables<W>>,
    /// The royal types.
    pub royals: TypeSet,
    /// Per player: itself and its partners (itself alone without teams).
    pub side: Table<Player, PlayerSet>,
    /// Whether the game has teams.
    pub teams: bool,
}

/// One castling move resolved: its cells and rights.
#[derive(Clone, Debug)]
pub struct Castle<const W: usize> {
    pub player: Player,
    pub king_from: Cell,
    pub king_to: Cell,
    pub rook_from: Cell,
    pub rook_to: Cell,
    /// Its bit in the castling rights.
    pub right: u32,
    /// Cells that must be empty.
    pub empty: Bitboard<W>,
    /// Cells the King must not be attacked on.
    pub safe: Bitboard<W>,
}

impl<const W: usize> RuleTables<W> {
    pub fn build(def: &GameDef, tables: &MoveTables<W>, types: &Table<PieceType, TypeInfo<W>>) -> Self {
        let geo = &def.geometry;
        let ncells = geo.len();
        let nplayers = def.players.len();
        let ntypes = def.pieces.len();
        let all_cells = Bitboard::<W>::first_n(ncells);
        let line = |a: Cell, z: Cell| -> Bitboard<W> {
            let (pa, pz) = (geo.coord(a), geo.coord(z));
            let d = [0, 1, 2].map(|i| (pz[i] - pa[i]).signum());
            let mut out = Bitboard::from_cell(a);
            let mut cur = a;
            while cur != z {
                cur = geo.cell_at(add(geo.coord(cur), d)).expect("castling line on the board");
                out.set(cur);
            }
            out
        };
        let castles: Vec<Castle<W>> = def
            .rules
            .castling
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let mut empty = line(c.king_from, c.rook_from) | line(c.king_from, c.king_to);
                empty.set(c.rook_to);
                empty.clear(c.king_from);
                empty.clear(c.rook_from);
                Castle {
                    player: c.player,
                    king_from: c.king_from,
                    king_to: c.king_to,
                    rook_from: c.rook_from,
                    rook_to: c.rook_to,
                    right: 1 << i,
                    empty,
                    safe: line(c.king_from, c.king_to),
                }
            })
            .collect();
        let mut castle_clear = Table::filled(ncells, 0u32);
        for c in &castles {
            castle_clear[c.king_from] |= c.right;
            castle_clear[c.rook_from] |= c.right;
        }
        let ep_allowed = Table::from_fn(nplayers, |cap| {
            Table::from_fn(nplayers, |step| match &def.rules.en_passant_cells {
                None => all_cells,
                Some(t) => Bitboard::from_cells(t[cap][step].iter().copied()),
            })
        });
        let royal_zone = Table::from_fn(nplayers, |p| match &def.rules.royal_zone {
            None => all_cells,
            Some(z) => Bitboard::from_cells(z[p].iter().copied()),
        });
        let promotions = |pairs: &[(PieceType, PieceType)]| {
            let mut table = Table::filled(ntypes, None);
            for &(a, z) in pairs {
                table[a] = Some(z);
            }
            table
        };
        let mut initial_counts = Table::filled(nplayers, Table::filled(ntypes, 0u8));
        for s in &def.setup {
            initial_counts[s.owner][s.kind] += 1;
        }
        RuleTables {
            castles,
            castle_clear,
            ep_allowed,
            royal_zone,
            royal_promotion: promotions(&def.rules.mate.royal_promotion),
            deliverer_promotion: promotions(&def.rules.mate.deliverer_promotion),
            initial_counts,
            enlightened: def.rules.enlightened.as_ref().map(|r| EnlightenedTables::compile(r, def)),
            charge: def.rules.charge.as_ref().map(|r| ChargeTables::compile(r, geo)),
            dead: def.rules.dead_material.as_ref().map(|r| DeadTables::build(r, def, tables, types)),
            royals: TypeSet::of(&types.entries().filter(|(_, i)| i.royal).map(|(t, _)| t).collect::<Vec<_>>()),
            side: Table::from_fn(nplayers, |p| match &def.rules.teams {
                Some(rule) => rule.teams.iter().find(|t| t.contains(&p)).map_or(PlayerSet::only(p), |t| t.iter().copied().collect()),
                None => PlayerSet::only(p),
            }),
            teams: def.rules.teams.is_some(),
        }
    }
}
