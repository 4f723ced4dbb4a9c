//! Evaluation: a score per player, from material and piece-square terms generated from geometry.
//!
//! Material values come from the game definition, or are derived from a piece's average number
//! of moves on the empty board. Piece-square terms reward cells where a piece has more moves on
//! the empty board (centrality) and pawns that are closer to promotion. Both are folded into one
//! table `[type][orientation][cell]` that `Position` keeps summed per owner incrementally.
//! Every tunable number is in [`EvalParams`], which `tuning/` can rewrite.

use crate::bitboard::Bitboard;
use crate::game::GameDef;
use crate::movement::{Component, Mode};
use crate::position::Position;

/// Tunable parameters (centipawns).
#[derive(Clone, Copy, Debug)]
pub struct EvalParams {
    /// Value per average empty-board move, for pieces without a given value.
    pub value_per_move: i32,
    /// Constant part of a derived value.
    pub value_base: i32,
    /// Value of a pawn-like man without a given value.
    pub pawn_value: i32,
    /// Piece-square bonus per empty-board move above the piece's average, in 1/4 centipawns.
    pub centrality_quarter: i32,
    /// Pawn bonus per step closer to its promotion zone.
    pub pawn_advance: i32,
    /// Bonus for having the move.
    pub tempo: i32,
}

pub const PARAMS: EvalParams =
    EvalParams { value_per_move: 33, value_base: 100, pawn_value: 100, centrality_quarter: 12, pawn_advance: 6, tempo: 10 };

/// Empty-board move counts of a piece from every cell (orientation `o`).
fn empty_board_mobility(def: &GameDef, kind: usize, o: usize) -> Vec<i32> {
    let geo = &def.geometry;
    let mut out = Vec::with_capacity(geo.len());
    for c in 0..geo.len() {
        let mut targets = std::collections::BTreeSet::new();
        for comp in &def.pieces[kind].components {
            match comp {
                Component::Leap { vectors, mode } if *mode != Mode::CaptureOnly => {
                    targets.extend(vectors.for_orientation(o).iter().filter_map(|&v| geo.step(c, v)));
                }
                Component::Ride { dirs, range, mode } if *mode != Mode::CaptureOnly => {
                    for &d in dirs.for_orientation(o) {
                        targets.extend(geo.ray(c, d, range.map_or(usize::MAX, |r| r as usize)));
                    }
                }
                Component::Hop { dirs } => {
                    for &d in dirs.for_orientation(o) {
                        targets.extend(geo.ray(c, d, usize::MAX));
                    }
                }
                Component::Curved { ring, max_steps } => {
                    let n = ring.len() as i64;
                    for i in 0..n {
                        for turn in [1i64, -1] {
                            let mut cur = c;
                            for k in 0..*max_steps as i64 {
                                match geo.step(cur, ring[(i + turn * k).rem_euclid(n) as usize]) {
                                    Some(t) if t != c => {
                                        targets.insert(t);
                                        cur = t;
                                    }
                                    _ => break,
                                }
                            }
                        }
                    }
                }
                Component::Bent { legs } => {
                    for (first, thens) in legs {
                        if let Some(m) = geo.step(c, *first) {
                            targets.insert(m);
                            for &d in thens {
                                targets.extend(geo.ray(m, d, usize::MAX));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        out.push(targets.len() as i32);
    }
    out
}

/// Steps a pawn-like man needs from each cell to reach its promotion zone (large if never).
fn pawn_distance(def: &GameDef, kind: usize, o: usize) -> Vec<i32> {
    let geo = &def.geometry;
    let n = geo.len();
    let zone: Vec<usize> =
        def.pieces[kind].pawn.as_ref().and_then(|p| p.promotion.as_ref()).map(|pr| pr.zone[o].clone()).unwrap_or_default();
    let mut dist = vec![i32::MAX; n];
    let mut frontier: Vec<usize> = zone.clone();
    for &z in &zone {
        dist[z] = 0;
    }
    let vectors: Vec<_> = def.pieces[kind]
        .components
        .iter()
        .flat_map(|comp| match comp {
            Component::Leap { vectors, .. } => vectors.for_orientation(o).to_vec(),
            _ => Vec::new(),
        })
        .collect();
    let mut d = 0;
    while !frontier.is_empty() {
        d += 1;
        let mut next = Vec::new();
        for (c, dc) in dist.iter_mut().enumerate() {
            if *dc == i32::MAX && vectors.iter().any(|&v| geo.step(c, v).is_some_and(|t| frontier.contains(&t))) {
                *dc = d;
                next.push(c);
            }
        }
        frontier = next;
    }
    dist
}

/// Material values of every type (centipawns; royal pieces 0).
pub fn piece_values(def: &GameDef) -> Vec<i32> {
    def.pieces
        .iter()
        .enumerate()
        .map(|(t, p)| {
            if p.royal {
                0
            } else if p.value != 0 {
                p.value
            } else if p.pawn.is_some() {
                PARAMS.pawn_value
            } else {
                let mob = empty_board_mobility(def, t, 0);
                let avg = mob.iter().sum::<i32>() as f64 / mob.len().max(1) as f64;
                PARAMS.value_base + (PARAMS.value_per_move as f64 * avg) as i32
            }
        })
        .collect()
}

/// The piece-square table `[type][orientation][cell]`, material included.
pub fn piece_square_table(def: &GameDef) -> Vec<Vec<Vec<i32>>> {
    let values = piece_values(def);
    let n = def.players.len();
    def.pieces
        .iter()
        .enumerate()
        .map(|(t, p)| {
            (0..n)
                .map(|o| {
                    if p.pawn.is_some() {
                        let dist = pawn_distance(def, t, o);
                        let max = dist.iter().filter(|&&d| d != i32::MAX).max().copied().unwrap_or(0);
                        dist.iter().map(|&d| values[t] + if d == i32::MAX { 0 } else { (max - d) * PARAMS.pawn_advance }).collect()
                    } else {
                        let mob = empty_board_mobility(def, t, o);
                        let avg = mob.iter().sum::<i32>() / mob.len().max(1) as i32;
                        let weight = if p.royal { PARAMS.centrality_quarter / 3 } else { PARAMS.centrality_quarter };
                        mob.iter().map(|&m| values[t] + (m - avg) * weight / 4).collect()
                    }
                })
                .collect()
        })
        .collect()
}

impl<const W: usize> Position<W> {
    /// The evaluation of the position from player `p`'s point of view: own material and
    /// piece-square sum minus the average of the active opponents'.
    pub fn evaluate_for(&self, p: usize) -> i32 {
        let n = self.game.nplayers;
        let mut others = 0;
        let mut count = 0;
        for q in 0..n {
            if q != p && self.is_active(q) {
                others += self.psq[q];
                count += 1;
            }
        }
        let tempo = if self.to_move as usize == p { PARAMS.tempo } else { 0 };
        self.psq[p] + tempo - if count > 0 { others / count } else { 0 }
    }

    /// Sum of material and piece-square terms per player.
    pub fn material_sums(&self) -> [i32; crate::tables::MAX_PLAYERS] {
        self.psq
    }

    /// Recomputes the per-player sums from scratch (for tests of the incremental update).
    pub fn psq_from_scratch(&self) -> [i32; crate::tables::MAX_PLAYERS] {
        let mut s = [0; crate::tables::MAX_PLAYERS];
        let occ: Bitboard<W> = self.occ;
        for c in occ {
            let m = self.board[c];
            s[m.owner()] += self.game.psq[m.kind()][m.orientation()][c];
        }
        s
    }
}
