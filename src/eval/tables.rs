//! What the evaluation derives from a compiled game and a set of parameters: material values,
//! the piece-square table (material included) that positions sum incrementally, and the average
//! mobility per type. Everything comes from the game's movement tables: a piece's worth and its
//! good cells follow from how many cells it reaches on the empty board.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use super::EvalParams;
use crate::bitboard::Bitboard;
use crate::movegen::targets::piece_targets;
use crate::position::PieceSquare;
use crate::tables::{CompiledComponent, Game};
use crate::types::{Cell, PieceType, Player, Table};

/// Everything the evaluation derives from a game and a set of parameters.
#[derive(Debug)]
pub struct EvalTables {
    pub params: EvalParams,
    /// Material plus piece-square value per (type, orientation, cell).
    pub psq: Arc<PieceSquare>,
    /// Material value per type (royal pieces 0).
    pub values: Table<PieceType, i32>,
    /// Average number of moves per type on the empty board (for mobility).
    pub average_moves: Table<PieceType, i32>,
    /// Per player, the royal piece's moves on the empty board from each cell, within the cells it
    /// may stand on (its zone), and their most.
    pub royal_mobility: Table<Player, Table<Cell, i32>>,
    pub royal_max_mobility: Table<Player, i32>,
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

fn average(values: &Table<Cell, i32>) -> i32 {
    values.iter().sum::<i32>() / values.len().max(1) as i32
}

/// Steps a pawn-like man needs from each cell to reach its promotion zone (`None` if never),
/// stepping along any of its leaps.
fn pawn_distance<const W: usize>(game: &Game<W>, t: PieceType, o: Player) -> Table<Cell, Option<i32>> {
    let info = &game.types[t];
    let leaps: Vec<&Table<Cell, Bitboard<W>>> = info.comps[o]
        .iter()
        .filter_map(|c| match c {
            CompiledComponent::Leap { table, .. } => Some(&game.moves.leaps[usize::from(*table)]),
            _ => None,
        })
        .collect();
    let mut dist: Table<Cell, Option<i32>> = Table::filled(game.ncells, None);
    let mut frontier = info.promo_zone[o];
    for z in frontier {
        dist[z] = Some(0);
    }
    let mut d = 0;
    while frontier.any() {
        d += 1;
        let mut next = Bitboard::EMPTY;
        for c in game.geometry().all() {
            if dist[c].is_none() && leaps.iter().any(|table| table[c].intersects(&frontier)) {
                dist[c] = Some(d);
                next.set(c);
            }
        }
        frontier = next;
    }
    dist
}

impl EvalTables {
    pub fn build<const W: usize>(game: &Game<W>, params: &EvalParams) -> Self {
        let def = &game.def;
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
        let average_moves = game.piece_types().map(|t| average(&empty_board_mobility(game, t, Player::new(0)))).collect();
        let placement: Table<PieceType, Table<Player, Table<Cell, i32>>> = def
            .pieces
            .entries()
            .map(|(t, p)| {
                Table::from_fn(game.nplayers, |o| {
                    if p.pawn.is_some() {
                        let dist = pawn_distance(game, t, o);
                        let max = dist.iter().flatten().max().copied().unwrap_or(0);
                        dist.iter().map(|d| d.map_or(0, |d| (max - d) * params.pawn_advance)).collect()
                    } else {
                        let mob = empty_board_mobility(game, t, o);
                        let avg = average(&mob);
                        let weight = if p.royal { params.centrality_quarter / 3 } else { params.centrality_quarter };
                        mob.iter().map(|&m| (m - avg) * weight / 4).collect()
                    }
                })
            })
            .collect();
        let psq = PieceSquare::from_fn(game.ntypes, game.nplayers, game.ncells, |t, o, c| values[t] + placement[t][o][c]);
        let royal = game.piece_types().find(|&t| game.types[t].royal).expect("every game has a royal type");
        let empty = Bitboard::EMPTY;
        let royal_mobility: Table<Player, Table<Cell, i32>> = Table::from_fn(game.nplayers, |p| {
            let zone = game.rules.royal_zone[p];
            Table::from_fn(game.ncells, |c| (piece_targets(game, c, royal, Player::new(0), empty, empty) & zone).count() as i32)
        });
        let royal_max_mobility = royal_mobility.iter().map(|m| m.iter().copied().max().unwrap_or(0)).collect();
        let distances = royal_distances(game, royal);
        let unreachable = u16::try_from(game.ncells).unwrap_or(u16::MAX);
        let royal_max_distance = i32::from(distances.iter().copied().filter(|&d| d < unreachable).max().unwrap_or(0));
        EvalTables {
            params: *params,
            psq: Arc::new(psq),
            values,
            average_moves,
            royal_mobility,
            royal_max_mobility,
            royal_distances: distances,
            ncells: game.ncells,
            royal_max_distance,
        }
    }
}

/// Built tables per (game, parameters). The defaults' tables stay for the life of the process;
/// other parameter sets are kept only while someone uses them.
struct Cache {
    defaults: HashMap<String, Arc<EvalTables>>,
    others: HashMap<(String, EvalParams), Weak<EvalTables>>,
}

/// The tables of `game` for `params`, built once and shared while in use.
pub fn tables_for<const W: usize>(game: &Game<W>, params: &EvalParams) -> Arc<EvalTables> {
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(Cache { defaults: HashMap::new(), others: HashMap::new() }));
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    let id = &game.def.id;
    if *params == EvalParams::default() {
        return cache.defaults.entry(id.clone()).or_insert_with(|| Arc::new(EvalTables::build(game, params))).clone();
    }
    let key = (id.clone(), *params);
    if let Some(tables) = cache.others.get(&key).and_then(Weak::upgrade) {
        return tables;
    }
    let tables = Arc::new(EvalTables::build(game, params));
    cache.others.retain(|_, weak| weak.strong_count() > 0);
    cache.others.insert(key, Arc::downgrade(&tables));
    tables
}
