//! What the evaluation derives from a compiled game and a set of parameters: material values
//! (middle and end game), the piece-square table (material included) that positions sum
//! incrementally, the game phase weights, average mobility per type, colour classes of bound
//! pieces, the rides along pawn lines, and the royal piece's tables for the mop-up. Everything
//! comes from the game's movement tables: a piece's worth and its good cells follow from how many
//! cells it reaches on the empty board.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use super::learned::{self, RoyalPawns, SquareTable};
use super::network::{self, Network};
use super::{EvalParams, LearnedTexts};
use crate::bitboard::Bitboard;
use crate::movegen::targets::piece_targets;
use crate::movement::Mode;
use crate::position::{PieceSquare, Tapered};
use crate::tables::{CompiledComponent, Game, PawnTables};
use crate::types::{Cell, PieceType, Player, Table};

/// How a piece type moves, as far as the evaluation's piece terms care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Royal,
    Pawn,
    /// Only leaps: its reach does not depend on other men (outposts).
    Leaper,
    /// Rides or curved, bent or hopping moves.
    Rider,
}

/// Everything the evaluation derives from a game and a set of parameters.
#[derive(Debug)]
pub struct EvalTables {
    pub params: EvalParams,
    /// Material plus piece-square value per (type, orientation, cell).
    pub psq: Arc<PieceSquare>,
    /// Material value per type in the middle game (royal pieces 0): what exchanges are judged by.
    pub values: Table<PieceType, i32>,
    /// The evaluation's material per type, in the middle and the end game.
    pub material: Table<PieceType, Tapered>,
    pub shapes: Table<PieceType, Shape>,
    /// The types of the pieces proper: leapers and riders.
    pub piece_kinds: Vec<PieceType>,
    /// Per type: whether its moves are its attacks less its own men's cells (leaps and rides that
    /// both move and capture, curved and bent riders; no hoppers), so that one set serves
    /// mobility and threats.
    pub moves_are_attacks: Table<PieceType, bool>,
    /// Each man's weight in the game phase (its middle-game value for pieces, 0 for pawns and
    /// royal pieces), and the total of the start position.
    pub phase_weights: Table<PieceType, i32>,
    pub phase_total: i32,
    /// Average number of moves per type on the empty board (for mobility).
    pub average_moves: Table<PieceType, i32>,
    /// For a type bound to part of the board (a Bishop to its colour), the class of each cell:
    /// the lowest cell it can reach from there on the empty board.
    pub colour_classes: Table<PieceType, Option<Table<Cell, u16>>>,
    /// Per type and orientation, its rides (ray tables) that run along a pawn's line (forward or
    /// back), so that pawns can close them (files in chess).
    pub pawn_line_rides: Table<PieceType, Table<Player, Vec<u16>>>,
    /// Per player, the royal piece's moves on the empty board from each cell, within the cells it
    /// may stand on (its zone), and their most.
    pub royal_mobility: Table<Player, Table<Cell, i32>>,
    pub royal_max_mobility: Table<Player, i32>,
    /// Per player, the most the mop-up's edge and cover terms together can give against its bare
    /// royal piece on any cell of its zone (where it has fewest moves, as a rule): part of what a
    /// checkmate of that player is worth, so that the mate pays what the mating net did, not more.
    pub royal_edge_cover_most: Table<Player, i32>,
    /// The definition's learned royal-pawn values, where it has them.
    pub royal_pawns: Option<RoyalPawns>,
    /// The definition's learned correction network, where it has one.
    pub network: Option<Network>,
    /// Royal moves between any two cells on the empty board (`ncells` × `ncells`), and the most.
    royal_distances: Vec<u16>,
    ncells: usize,
    pub royal_max_distance: i32,
}

impl EvalTables {
    /// Royal moves from `a` to `b` on the empty board.
    #[inline]
    pub fn royal_distance(&self, a: Cell, b: Cell) -> i32 {
        i32::from(self.royal_distances[a.index() * self.ncells + b.index()])
    }
}

/// Royal moves between every two cells on the empty board (breadth-first from each cell);
/// unreachable pairs count as the board's size.
fn royal_distances<const W: usize>(game: &Game<W>, royal: PieceType) -> Vec<u16> {
    let n = game.ncells;
    let empty = Bitboard::EMPTY;
    let steps: Table<Cell, Bitboard<W>> = Table::from_fn(n, |c| piece_targets(game, c, royal, Player::new(0), empty, empty));
    let unreachable = u16::try_from(n).unwrap_or(u16::MAX);
    let mut out = vec![unreachable; n * n];
    for start in game.geometry().all() {
        let row = &mut out[start.index() * n..(start.index() + 1) * n];
        let mut seen = Bitboard::<W>::from_cell(start);
        let mut frontier = seen;
        let mut d = 0;
        while frontier.any() {
            let mut next = Bitboard::EMPTY;
            for c in frontier {
                row[c.index()] = d;
                next |= steps[c];
            }
            next &= !seen;
            seen |= next;
            frontier = next;
            d += 1;
        }
    }
    out
}

/// Moves of a `t` man of orientation `o` from every cell of the empty board.
fn empty_board_mobility<const W: usize>(game: &Game<W>, t: PieceType, o: Player) -> Table<Cell, i32> {
    let empty = Bitboard::EMPTY;
    Table::from_fn(game.ncells, |c| piece_targets(game, c, t, o, empty, empty).count() as i32)
}

/// Per cell, the mean centrality of the cells of its pawn line, less that mean's average over
/// the board (all 0 without pawns).
fn line_centrality<const W: usize>(centrality: &Table<Cell, i32>, pawns: Option<&PawnTables<W>>) -> Table<Cell, f64> {
    let Some(pawns) = pawns else { return Table::from_fn(centrality.len(), |_| 0.0) };
    let mean = |cells: Bitboard<W>| cells.iter().map(|x| f64::from(centrality[x])).sum::<f64>() / f64::from(cells.count().max(1));
    let means = Table::from_fn(centrality.len(), |c| mean(pawns.line[c]));
    let average = means.iter().sum::<f64>() / means.len().max(1) as f64;
    means.iter().map(|m| m - average).collect()
}

fn average(values: &Table<Cell, i32>) -> i32 {
    values.iter().sum::<i32>() / values.len().max(1) as i32
}

fn shape_of<const W: usize>(game: &Game<W>, t: PieceType) -> Shape {
    let info = &game.types[t];
    if info.royal {
        Shape::Royal
    } else if info.pawn {
        Shape::Pawn
    } else if info.comps.iter().flatten().all(|c| matches!(c, CompiledComponent::Leap { .. })) {
        Shape::Leaper
    } else {
        Shape::Rider
    }
}

/// The colour classes of a type whose moves on the empty board never reach some cells from a
/// given one (`None` if it can reach every cell from every cell).
fn colour_classes<const W: usize>(game: &Game<W>, t: PieceType) -> Option<Table<Cell, u16>> {
    let empty = Bitboard::EMPTY;
    let o = Player::new(0);
    let mut class: Table<Cell, u16> = Table::filled(game.ncells, u16::MAX);
    for start in game.geometry().all() {
        if class[start] != u16::MAX {
            continue;
        }
        let mut reached = Bitboard::<W>::from_cell(start);
        let mut frontier = reached;
        while frontier.any() {
            let next = frontier.iter().fold(Bitboard::EMPTY, |b, c| b | piece_targets(game, c, t, o, empty, empty));
            frontier = next & !reached;
            reached |= next;
        }
        let id = u16::try_from(start.index()).unwrap_or(u16::MAX);
        for c in reached {
            class[c] = id;
        }
    }
    let first = class[Cell::new(0)];
    class.iter().any(|&c| c != first).then_some(class)
}

/// Which ray tables run along a pawn's line: from some cell, the ray's first cell is a pawn's step
/// from there, or a cell from which a pawn steps there.
fn pawn_line_rays<const W: usize>(game: &Game<W>) -> Vec<bool> {
    let Some(pawns) = &game.pawns else { return vec![false; game.moves.rays.len()] };
    game.moves
        .rays
        .iter()
        .map(|ray| {
            game.geometry()
                .all()
                .any(|c| ray.nearest(ray.mask[c]).is_some_and(|first| pawns.iter().any(|t| t.step[c].has(first) || t.step[first].has(c))))
        })
        .collect()
}

/// Per type and orientation, the rides of a rider along pawn lines.
fn pawn_line_rides<const W: usize>(game: &Game<W>, shapes: &Table<PieceType, Shape>) -> Table<PieceType, Table<Player, Vec<u16>>> {
    let along = pawn_line_rays(game);
    game.piece_types()
        .map(|t| {
            Table::from_fn(game.nplayers, |o| {
                if shapes[t] != Shape::Rider {
                    return Vec::new();
                }
                let rides = game.types[t].comps[o].iter().filter_map(|c| match c {
                    CompiledComponent::Ride { rays, .. } => Some(rays),
                    _ => None,
                });
                rides.flatten().copied().filter(|&r| along[usize::from(r)]).collect()
            })
        })
        .collect()
}

impl EvalTables {
    pub fn build<const W: usize>(game: &Game<W>, params: &EvalParams, learned: &LearnedTexts) -> Self {
        let def = &game.def;
        let shapes: Table<PieceType, Shape> = game.piece_types().map(|t| shape_of(game, t)).collect();
        let values: Table<PieceType, i32> = def
            .pieces
            .entries()
            .map(|(t, p)| {
                if p.royal {
                    0
                } else if p.value != 0 {
                    p.value
                } else if p.pawn.is_some() {
                    params.pawn_value
                } else {
                    let mob = empty_board_mobility(game, t, Player::new(0));
                    let avg = f64::from(mob.iter().sum::<i32>()) / mob.len().max(1) as f64;
                    params.value_base + (f64::from(params.value_per_move) * avg) as i32
                }
            })
            .collect();
        let average_moves: Table<PieceType, i32> =
            game.piece_types().map(|t| average(&empty_board_mobility(game, t, Player::new(0)))).collect();
        // The evaluation's material: the exchange values shifted by shape, for riders by their
        // reach, and for every piece in proportion to its value.
        let material: Table<PieceType, Tapered> = game
            .piece_types()
            .map(|t| {
                let (mg, eg) = match shapes[t] {
                    Shape::Royal => (0, 0),
                    Shape::Pawn => (0, params.pawn_eg_value),
                    Shape::Leaper => (params.leaper_value, params.leaper_eg_value),
                    Shape::Rider => (
                        params.rider_value + average_moves[t] * params.rider_move_value_quarter / 4,
                        params.rider_eg_value + average_moves[t] * params.rider_move_value_eg_quarter / 4,
                    ),
                };
                let scaled =
                    |permille: i32| if matches!(shapes[t], Shape::Leaper | Shape::Rider) { values[t] * permille / 1000 } else { 0 };
                Tapered::new(
                    values[t] + mg + scaled(params.material_scale_permille),
                    values[t] + eg + scaled(params.material_scale_eg_permille),
                )
            })
            .collect();
        // How central a cell is: the pieces' moves from it on the empty board against their
        // averages, summed over the piece types (pawns and royal pieces left out).
        let pieces: Vec<PieceType> = game.piece_types().filter(|&t| matches!(shapes[t], Shape::Leaper | Shape::Rider)).collect();
        let mobility_of: Vec<Table<Cell, i32>> = pieces.iter().map(|&t| empty_board_mobility(game, t, Player::new(0))).collect();
        let centrality: Table<Cell, i32> =
            Table::from_fn(game.ncells, |c| pieces.iter().zip(&mobility_of).map(|(&t, mob)| mob[c] - average_moves[t]).sum());
        let placement: SquareTable = game
            .piece_types()
            .map(|t| {
                Table::from_fn(game.nplayers, |o| {
                    let pawn_tables = game.pawns.as_ref().map(|p| &p[o]);
                    let advance = |c: Cell| pawn_tables.and_then(|p| p.cells[c].to_promotion.map(|d| p.max_to_promotion - d)).unwrap_or(0);
                    match shapes[t] {
                        Shape::Pawn => Table::from_fn(game.ncells, |c| {
                            Tapered::new(params.pawn_advance, params.pawn_advance_eg) * advance(c)
                                + Tapered::new(centrality[c] * params.pawn_centre_quarter / 4, 0)
                        }),
                        Shape::Royal => {
                            let mob = empty_board_mobility(game, t, o);
                            let avg = average(&mob);
                            let line = line_centrality(&centrality, pawn_tables);
                            Table::from_fn(game.ncells, |c| {
                                Tapered::new(
                                    (mob[c] - avg) * params.royal_centrality_quarter / 4 - params.royal_advance * advance(c)
                                        + (line[c] * f64::from(params.royal_line_centrality_quarter) / 4.0).round() as i32,
                                    (mob[c] - avg) * params.royal_centrality_eg_quarter / 4,
                                )
                            })
                        }
                        Shape::Leaper | Shape::Rider => {
                            let mob = empty_board_mobility(game, t, o);
                            let avg = average(&mob);
                            Table::from_fn(game.ncells, |c| {
                                Tapered::new(
                                    (mob[c] - avg) * params.centrality_quarter / 4,
                                    (mob[c] - avg) * params.centrality_eg_quarter / 4,
                                )
                            })
                        }
                    }
                })
            })
            .collect();
        let squares = learned::squares(game, learned.squares, params.square_values_permille);
        let psq = PieceSquare::from_fn(game.ntypes, game.nplayers, game.ncells, |t, o, c| {
            material[t] + placement[t][o][c] + squares.as_ref().map_or(Tapered::ZERO, |l| l[t][o][c])
        });
        let phase_weights: Table<PieceType, i32> =
            game.piece_types().map(|t| if matches!(shapes[t], Shape::Leaper | Shape::Rider) { values[t] } else { 0 }).collect();
        let phase_total = def.setup.iter().map(|s| phase_weights[s.kind]).sum::<i32>().max(1);
        let colour_classes = game.piece_types().map(|t| (shapes[t] != Shape::Royal).then(|| colour_classes(game, t)).flatten()).collect();
        let pawn_line_rides = pawn_line_rides(game, &shapes);
        let moves_are_attacks = game.piece_types().map(|t| game.types[t].comps.iter().flatten().all(moves_as_it_attacks)).collect();
        let royal = game.piece_types().find(|&t| game.types[t].royal).expect("every game has a royal type");
        let empty = Bitboard::EMPTY;
        let royal_mobility: Table<Player, Table<Cell, i32>> = Table::from_fn(game.nplayers, |p| {
            let zone = game.rules.royal_zone[p];
            Table::from_fn(game.ncells, |c| (piece_targets(game, c, royal, Player::new(0), empty, empty) & zone).count() as i32)
        });
        let royal_max_mobility: Table<Player, i32> = royal_mobility.iter().map(|m| m.iter().copied().max().unwrap_or(0)).collect();
        let royal_edge_cover_most = Table::from_fn(game.nplayers, |p| {
            let most = royal_max_mobility[p];
            game.rules.royal_zone[p]
                .into_iter()
                .map(|c| {
                    let moves = royal_mobility[p][c];
                    params.mopup_edge * (most - moves) + params.mopup_cover * moves
                })
                .max()
                .unwrap_or(0)
        });
        let distances = royal_distances(game, royal);
        let unreachable = u16::try_from(game.ncells).unwrap_or(u16::MAX);
        let royal_max_distance = i32::from(distances.iter().copied().filter(|&d| d < unreachable).max().unwrap_or(0));
        EvalTables {
            params: *params,
            psq: Arc::new(psq),
            values,
            material,
            shapes,
            piece_kinds: pieces,
            moves_are_attacks,
            phase_weights,
            phase_total,
            average_moves,
            colour_classes,
            pawn_line_rides,
            royal_mobility,
            royal_max_mobility,
            royal_edge_cover_most,
            royal_pawns: learned::royal_pawns(game, learned.royal_pawns, params.royal_pawn_values_permille),
            network: network::network(game, learned.network, params.network_permille),
            royal_distances: distances,
            ncells: game.ncells,
            royal_max_distance,
        }
    }
}

/// Which tables: a game, its parameters and its learned texts (by address: they are the game's
/// own `'static` texts, compared without reading them).
type Key = (String, EvalParams, [usize; 3]);

/// Built tables per [`Key`]. A game's own tables stay for the life of the process; other
/// parameter sets are kept only while someone uses them.
struct Cache {
    own: HashMap<Key, Arc<EvalTables>>,
    others: HashMap<Key, Weak<EvalTables>>,
}

/// The tables of `game` for `params` and `learned`, built once and shared while in use (`own`:
/// kept for the life of the process, for a game's own values).
pub fn tables_for<const W: usize>(game: &Game<W>, params: &EvalParams, learned: &LearnedTexts, own: bool) -> Arc<EvalTables> {
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(Cache { own: HashMap::new(), others: HashMap::new() }));
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    let texts = [learned.squares.as_ptr(), learned.royal_pawns.as_ptr(), learned.network.as_ptr()].map(|p| p as usize);
    let key = (game.def.id.clone(), *params, texts);
    if let Some(tables) = cache.own.get(&key) {
        return tables.clone();
    }
    if let Some(tables) = cache.others.get(&key).and_then(Weak::upgrade) {
        return tables;
    }
    let tables = Arc::new(EvalTables::build(game, params, learned));
    if own {
        cache.own.insert(key, tables.clone());
    } else {
        cache.others.retain(|_, weak| weak.strong_count() > 0);
        cache.others.insert(key, Arc::downgrade(&tables));
    }
    tables
}

/// Whether a component's moves are its attacks less the own men's cells.
fn moves_as_it_attacks(comp: &CompiledComponent) -> bool {
    match comp {
        CompiledComponent::Leap { mode, .. } | CompiledComponent::Ride { mode, .. } => *mode == Mode::Both,
        CompiledComponent::Curved { .. } | CompiledComponent::Bent { .. } => true,
        CompiledComponent::Hop { .. } => false,
    }
}
