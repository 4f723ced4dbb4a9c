//! Piece types as move generation sees them ([`TypeInfo`]), compiled from a game's definitions
//! against the shared tables of [`super::movement`].

use arrayvec::ArrayVec;

use super::movement::{CompiledComponent, LeapsAndRides, MAX_DIRECTIONS, TableBuilder, reach_key};
use crate::bitboard::Bitboard;
use crate::game::GameDef;
use crate::geometry::{Vec3, neg};
use crate::movement::{Component, Mode, PromotionChoices};
use crate::types::{Cell, PieceType, Player, Table};

/// A piece type as move generation sees it.
pub struct TypeInfo<const W: usize> {
    pub royal: bool,
    pub pawn: bool,
    /// Its moves depend on the man's orientation (pawn-like, or a per-orientation component).
    /// A man of any other type always takes its owner's orientation, so that men that move
    /// alike are the same man (rules README: repetition).
    pub oriented: bool,
    pub en_passant: bool,
    /// Per orientation: compiled components.
    pub comps: Table<Player, Vec<CompiledComponent>>,
    /// Per orientation, per cell: double steps (skipped cell, destination).
    pub double_steps: Table<Player, Table<Cell, ArrayVec<(Cell, Cell), 4>>>,
    /// Per orientation: promotion zone and mandatory cells.
    pub promo_zone: Table<Player, Bitboard<W>>,
    pub promo_mandatory: Table<Player, Bitboard<W>>,
    pub promo_choices: Option<PromotionChoices>,
    /// Per orientation: the reverse tables of capture-only leaps (for en passant).
    pub capture_leaps: Table<Player, Vec<u16>>,
    /// Per orientation: the type's attacks as two tables, where its capturing components are
    /// all leaps and rides.
    pub plain_attacks: Table<Player, Option<LeapsAndRides>>,
    /// Per orientation: its moves as two tables, where every component is a leap or a ride that
    /// both moves and captures.
    pub plain_moves: Table<Player, Option<LeapsAndRides>>,
    /// Per orientation: the id of its capture reach ([`MoveTables::capture_reach`]).
    pub capture_reach: Table<Player, u16>,
    /// Per orientation: the cells from which one of its moves (a double step too) could end in
    /// its promotion zone on the empty board. A pawn elsewhere, without an enemy in its capture
    /// reach or an en passant capture, has no capture or promotion.
    pub promotes_from: Table<Player, Bitboard<W>>,
}

/// Compiles every piece type of `def` (for each orientation) against the shared tables.
pub fn compile_types<const W: usize>(def: &GameDef, b: &mut TableBuilder<'_, W>) -> Table<PieceType, TypeInfo<W>> {
    let geo = &def.geometry;
    let nplayers = def.players.len();
    def.pieces
        .iter()
        .map(|piece| {
            let comps: Table<Player, Vec<CompiledComponent>> = Table::from_fn(nplayers, |o| {
                piece
                    .components
                    .iter()
                    .map(|comp| match comp {
                        Component::Leap { vectors, mode } => {
                            CompiledComponent::Leap { table: b.leap_table(vectors.for_orientation(o)), mode: *mode }
                        }
                        Component::Ride { dirs, range, mode } => {
                            let rays: ArrayVec<u16, MAX_DIRECTIONS> = dirs.for_orientation(o).iter().map(|&d| b.ray(d, *range)).collect();
                            let lines = b.line_table(&rays);
                            CompiledComponent::Ride { rays, lines, mode: *mode }
                        }
                        Component::Hop { dirs } => {
                            let rays: ArrayVec<u16, MAX_DIRECTIONS> = dirs.for_orientation(o).iter().map(|&d| b.ray(d, None)).collect();
                            let lines = b.line_table(&rays);
                            CompiledComponent::Hop { rays, lines }
                        }
                        Component::Curved { ring, max_steps } => CompiledComponent::Curved { set: b.curved_set(ring, *max_steps) },
                        Component::Bent { legs } => CompiledComponent::Bent { set: b.bent_set(legs) },
                    })
                    .collect()
            });
            let capture_leaps = Table::from_fn(nplayers, |o| {
                piece
                    .components
                    .iter()
                    .filter_map(|comp| match comp {
                        Component::Leap { vectors, mode: Mode::CaptureOnly } => {
                            let rev: Vec<Vec3> = vectors.for_orientation(o).iter().map(|&v| neg(v)).collect();
                            Some(b.leap_table(&rev))
                        }
                        _ => None,
                    })
                    .collect()
            });
            let pawn = piece.pawn.as_ref();
            let promo = pawn.and_then(|p| p.promotion.as_ref());
            let double_steps = Table::from_fn(nplayers, |o| {
                let mut per_cell: Table<Cell, ArrayVec<(Cell, Cell), 4>> = Table::filled(geo.len(), ArrayVec::new());
                let starts = pawn.and_then(|p| p.double_step.get(o)).map(Vec::as_slice).unwrap_or(&[]);
                for &s in starts {
                    for comp in &piece.components {
                        if let Component::Leap { vectors, mode: Mode::MoveOnly } = comp {
                            for &v in vectors.for_orientation(o) {
                                if let Some(m) = geo.step(s, v)
                                    && let Some(d) = geo.step(m, v)
                                {
                                    per_cell[s].push((m, d));
                                }
                            }
                        }
                    }
                }
                per_cell
            });
            let oriented = pawn.is_some()
                || piece.components.iter().any(|c| match c {
                    Component::Leap { vectors, .. } => vectors.is_oriented(),
                    Component::Ride { dirs, .. } | Component::Hop { dirs } => dirs.is_oriented(),
                    Component::Curved { .. } | Component::Bent { .. } => false,
                });
            let capture_reach = Table::from_fn(nplayers, |o| b.capture_reach(&comps[o]));
            let promo_zone: Table<Player, Bitboard<W>> =
                Table::from_fn(nplayers, |o| promo.map(|pr| Bitboard::from_cells(pr.zone[o].iter().copied())).unwrap_or_default());
            let promotes_from = Table::from_fn(nplayers, |o| {
                let reach = b.reach_of(&reach_key(&comps[o], false));
                let zone = promo_zone[o];
                Bitboard::from_cells(
                    geo.all().filter(|&c| reach[c].intersects(&zone) || double_steps[o][c].iter().any(|&(_, to)| zone.has(to))),
                )
            });
            TypeInfo {
                royal: piece.royal,
                pawn: pawn.is_some(),
                oriented,
                en_passant: pawn.is_some_and(|p| p.en_passant),
                comps,
                double_steps,
                promo_zone,
                promotes_from,
                promo_mandatory: Table::from_fn(nplayers, |o| {
                    promo.map(|pr| Bitboard::from_cells(pr.mandatory[o].iter().copied())).unwrap_or_default()
                }),
                promo_choices: promo.map(|pr| pr.choices.clone()),
                capture_leaps,
                plain_attacks: Table::from_fn(nplayers, |o| {
                    let plain = piece.components.iter().all(|c| matches!(c, Component::Leap { .. } | Component::Ride { .. }));
                    let captures = |c: &&Component| {
                        !matches!(c, Component::Leap { mode: Mode::MoveOnly, .. } | Component::Ride { mode: Mode::MoveOnly, .. })
                    };
                    plain.then(|| joined(b, piece.components.iter().filter(captures), o))
                }),
                plain_moves: Table::from_fn(nplayers, |o| {
                    let plain = piece
                        .components
                        .iter()
                        .all(|c| matches!(c, Component::Leap { mode: Mode::Both, .. } | Component::Ride { mode: Mode::Both, .. }));
                    plain.then(|| joined(b, piece.components.iter(), o))
                }),
                capture_reach,
            }
        })
        .collect()
}

/// The leaps and rides among `comps` (for orientation `o`) joined.
fn joined<'c, const W: usize>(b: &mut TableBuilder<'_, W>, comps: impl Iterator<Item = &'c Component>, o: Player) -> LeapsAndRides {
    let mut vectors = Vec::new();
    let mut rays = Vec::new();
    for comp in comps {
        match comp {
            Component::Leap { vectors: v, .. } => vectors.extend_from_slice(v.for_orientation(o)),
            Component::Ride { dirs, range, .. } => rays.extend(dirs.for_orientation(o).iter().map(|&d| b.ray(d, *range))),
            _ => {}
        }
    }
    LeapsAndRides { leaps: b.leap_table(&vectors), lines: (!rays.is_empty()).then(|| b.line_table(&rays)) }
}
