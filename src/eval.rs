//! Evaluation: a score per player, from material and piece-square terms generated from geometry.
//!
//! Material values come from the game definition, or are derived from a piece's average number
//! of moves on the empty board. Piece-square terms reward cells where a piece has more moves on
//! the empty board (centrality) and pawns that are closer to promotion. Both are folded into one
//! table `[type][orientation][cell]` that `Position` keeps summed per owner incrementally.
//! Every tunable number is in [`EvalParams`], which `tuning/` can rewrite.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use crate::bitboard::Bitboard;
use crate::game::GameDef;
use crate::movement::{Component, Mode};
use crate::position::Position;
use crate::tables::{Game, MAX_PLAYERS};

crate::params::tunable! {
    /// Tunable evaluation parameters (centipawns unless said otherwise).
    EvalParams, "evaluation parameter",
    /// Value per average empty-board move, for pieces without a given value.
    value_per_move: 0..=200,
    /// Constant part of a derived value.
    value_base: 0..=1000,
    /// Value of a pawn-like man without a given value.
    pawn_value: 10..=1000,
    /// Piece-square bonus per empty-board move above the piece's average, in 1/4 centipawns.
    centrality_quarter: 0..=200,
    /// Pawn bonus per step closer to its promotion zone.
    pawn_advance: 0..=100,
    /// Bonus for having the move.
    tempo: 0..=100,
    /// Mobility: bonus per cell a piece (not a pawn, not royal) can move to, counted from its
    /// average number of moves on the empty board, in 1/4 centipawns.
    mobility_quarter: 0..=100,
    /// King safety: penalty per attack of an opponent's piece (not a pawn, not royal) on a
    /// cell the royal piece could move to.
    king_attack: 0..=100,
}

/// The defaults: the one table that `tuning/` rewrites.
pub const PARAMS: EvalParams = EvalParams {
    value_per_move: 33,
    value_base: 100,
    pawn_value: 100,
    centrality_quarter: 12,
    pawn_advance: 6,
    tempo: 10,
    mobility_quarter: 0,
    king_attack: 0,
};

impl Default for EvalParams {
    fn default() -> Self {
        PARAMS
    }
}

/// Everything the evaluation derives from a game and a set of parameters.
#[derive(Clone, Debug)]
pub struct EvalTables {
    pub params: EvalParams,
    /// Material plus piece-square value `[type][orientation][cell]`.
    pub psq: Vec<Vec<Vec<i32>>>,
    /// Material value per type (royal pieces 0).
    pub values: Vec<i32>,
    /// Average number of moves per type on the empty board (for mobility).
    pub average_moves: Vec<i32>,
}

impl EvalTables {
    pub fn build(def: &GameDef, params: &EvalParams) -> Self {
        let average_moves = (0..def.pieces.len())
            .map(|t| {
                let mob = empty_board_mobility(def, t, 0);
                mob.iter().sum::<i32>() / mob.len().max(1) as i32
            })
            .collect();
        EvalTables { params: *params, psq: piece_square_table(def, params), values: piece_values(def, params), average_moves }
    }
}

/// The tables of `game` for `params`: the game's own for the defaults, otherwise built once per
/// game and parameter set and kept for the life of the process.
pub fn tables_for<const W: usize>(game: &'static Game<W>, params: &EvalParams) -> &'static EvalTables {
    if *params == game.eval.params {
        return &game.eval;
    }
    type Cache = Mutex<HashMap<(String, EvalParams), &'static EvalTables>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let mut map = CACHE.get_or_init(|| Mutex::new(HashMap::new())).lock().unwrap_or_else(|e| e.into_inner());
    map.entry((game.def.id.clone(), *params)).or_insert_with(|| Box::leak(Box::new(EvalTables::build(&game.def, params))))
}

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
pub fn piece_values(def: &GameDef, params: &EvalParams) -> Vec<i32> {
    def.pieces
        .iter()
        .enumerate()
        .map(|(t, p)| {
            if p.royal {
                0
            } else if p.value != 0 {
                p.value
            } else if p.pawn.is_some() {
                params.pawn_value
            } else {
                let mob = empty_board_mobility(def, t, 0);
                let avg = mob.iter().sum::<i32>() as f64 / mob.len().max(1) as f64;
                params.value_base + (params.value_per_move as f64 * avg) as i32
            }
        })
        .collect()
}

/// The piece-square table `[type][orientation][cell]`, material included.
pub fn piece_square_table(def: &GameDef, params: &EvalParams) -> Vec<Vec<Vec<i32>>> {
    let values = piece_values(def, params);
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
                        dist.iter().map(|&d| values[t] + if d == i32::MAX { 0 } else { (max - d) * params.pawn_advance }).collect()
                    } else {
                        let mob = empty_board_mobility(def, t, o);
                        let avg = mob.iter().sum::<i32>() / mob.len().max(1) as i32;
                        let weight = if p.royal { params.centrality_quarter / 3 } else { params.centrality_quarter };
                        mob.iter().map(|&m| values[t] + (m - avg) * weight / 4).collect()
                    }
                })
                .collect()
        })
        .collect()
}

impl<const W: usize> Position<W> {
    /// The evaluation of the position from player `p`'s point of view: own material,
    /// piece-square, mobility and king-safety sum minus the average of the active opponents'.
    pub fn evaluate_for(&self, p: usize) -> i32 {
        self.relative(&self.player_sums(), p)
    }

    /// [`Position::evaluate_for`] for every player at once (0 for players out of the game).
    pub fn evaluate_all(&self) -> [i32; MAX_PLAYERS] {
        let sums = self.player_sums();
        let mut out = [0; MAX_PLAYERS];
        for (p, v) in out.iter_mut().enumerate().take(self.game.nplayers) {
            if self.is_active(p) {
                *v = self.relative(&sums, p);
            }
        }
        out
    }

    fn relative(&self, sums: &[i32; MAX_PLAYERS], p: usize) -> i32 {
        let mut others = 0;
        let mut count = 0;
        for (q, &s) in sums.iter().enumerate().take(self.game.nplayers) {
            if q != p && self.is_active(q) {
                others += s;
                count += 1;
            }
        }
        let tempo = if self.to_move as usize == p { self.eval.params.tempo } else { 0 };
        sums[p] + tempo - if count > 0 { others / count } else { 0 }
    }

    /// Each player's own terms: the incremental material and piece-square sum, plus mobility and
    /// king safety where their parameters are not 0.
    fn player_sums(&self) -> [i32; MAX_PLAYERS] {
        let params = &self.eval.params;
        let mut sums = self.psq;
        if params.mobility_quarter == 0 && params.king_attack == 0 {
            return sums;
        }
        let n = self.game.nplayers;
        let mut zones = [Bitboard::<W>::EMPTY; MAX_PLAYERS];
        if params.king_attack > 0 {
            for (q, zone) in zones.iter_mut().enumerate().take(n) {
                if let Some(k) = self.royal_cell(q).filter(|_| self.is_active(q)) {
                    let m = self.board[k];
                    *zone = self.piece_targets(k, m.kind(), m.orientation(), Bitboard::EMPTY);
                }
            }
        }
        let mut moves = [0i32; MAX_PLAYERS];
        let mut attacks = [0i32; MAX_PLAYERS];
        for c in self.occ {
            let m = self.board[c];
            let (p, kind) = (m.owner(), m.kind());
            let info = &self.game.types[kind];
            if info.pawn || info.royal || !self.is_active(p) {
                continue;
            }
            let targets = self.piece_targets(c, kind, m.orientation(), self.by_owner[p]);
            moves[p] += targets.count() as i32 - self.eval.average_moves[kind];
            if params.king_attack > 0 {
                for (q, zone) in zones.iter().enumerate().take(n) {
                    if q != p {
                        attacks[q] += (targets & *zone).count() as i32;
                    }
                }
            }
        }
        for p in 0..n {
            sums[p] += moves[p] * params.mobility_quarter / 4 - attacks[p] * params.king_attack;
        }
        sums
    }

    /// Sum of material and piece-square terms per player.
    pub fn material_sums(&self) -> [i32; MAX_PLAYERS] {
        self.psq
    }

    /// Evaluates with `tables` from now on (the per-player sums are recomputed).
    pub fn set_eval(&mut self, tables: &'static EvalTables) {
        self.eval = tables;
        self.psq = self.psq_from_scratch();
    }

    /// The tables the evaluation uses.
    pub fn eval_tables(&self) -> &'static EvalTables {
        self.eval
    }

    /// Recomputes the per-player sums from scratch (for tests of the incremental update).
    pub fn psq_from_scratch(&self) -> [i32; MAX_PLAYERS] {
        let mut s = [0; MAX_PLAYERS];
        let occ: Bitboard<W> = self.occ;
        for c in occ {
            let m = self.board[c];
            s[m.owner()] += self.eval.psq[m.kind()][m.orientation()][c];
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse_move, parse_position};
    use crate::registry;

    fn chess() -> &'static Game<1> {
        registry::compiled::<1>(crate::games::definition("chess").expect("chess"))
    }

    #[test]
    fn parameters_by_name() {
        let mut p = PARAMS;
        assert_eq!(p.get("tempo"), Some(PARAMS.tempo));
        assert_eq!(p.get("nonsense"), None);
        p.set("tempo", 42).expect("in range");
        assert_eq!(p.tempo, 42);
        assert!(p.set("tempo", 101).is_err());
        assert!(p.set("nonsense", 1).is_err());
        assert_eq!(p.overrides(), "tempo=42");
        let q = PARAMS.with_overrides("tempo=42, pawn_advance=9").expect("valid");
        assert_eq!((q.tempo, q.pawn_advance, q.value_base), (42, 9, PARAMS.value_base));
        assert_eq!(q.overrides(), "pawn_advance=9,tempo=42");
        assert!(PARAMS.with_overrides("tempo").is_err());
        assert!(PARAMS.with_overrides("tempo=x").is_err());
        assert_eq!(PARAMS.with_overrides("").expect("nothing to change"), PARAMS);
        // Every default lies in its range.
        for &(name, min, max) in EvalParams::RANGES {
            assert!((min..=max).contains(&PARAMS.get(name).expect("known")), "{name}");
        }
    }

    #[test]
    fn mobility_and_king_safety() {
        let game = chess();
        let plain = PARAMS.with_overrides("tempo=0,centrality_quarter=0,pawn_advance=0").expect("valid");
        let active = plain.with_overrides("mobility_quarter=4,king_attack=10").expect("valid");
        let mut pos = parse_position(game, "4k3/8/8/4N3/8/8/8/4K3 w - - 0 1").expect("fen");
        pos.set_eval(tables_for(game, &plain));
        assert_eq!((pos.evaluate_for(0), pos.evaluate_for(1)), (320, -320));
        pos.set_eval(tables_for(game, &active));
        // The Knight on e5 has 8 moves, 3 more than a Knight's average on the empty board (336 /
        // 64, rounded down to 5): +3 × 4 quarter centipawns. Two of its moves (d7, f7) are next
        // to Black's King: 2 × 10 off Black's sum.
        assert_eq!(pos.eval_tables().average_moves[game.def.piece_by_code("N").expect("knight")], 5);
        assert_eq!((pos.evaluate_for(0), pos.evaluate_for(1)), (320 + 3 + 20, -(320 + 3 + 20)));
        assert_eq!(pos.evaluate_all()[..2], [343, -343]);
    }

    #[test]
    fn tables_follow_the_parameters() {
        let game = chess();
        assert!(std::ptr::eq(tables_for(game, &PARAMS), &game.eval));
        let params = PARAMS.with_overrides("value_base=150,tempo=30,pawn_advance=0").expect("valid");
        let t = tables_for(game, &params);
        assert!(std::ptr::eq(t, tables_for(game, &params)), "built once");
        let pawn = game.def.piece_by_code("P").expect("pawn");
        // Chess gives every value, so `value_base` changes nothing; without an advance bonus a
        // pawn is worth the same on every cell.
        assert_eq!(t.values, game.eval.values);
        assert_eq!((t.psq[pawn][0][8], t.psq[pawn][0][48]), (100, 100));
        assert!(game.eval.psq[pawn][0][48] > 100);
        // Honeycomb's pieces have derived values: each moves up with `value_base`.
        let honey = registry::compiled::<4>(crate::games::definition("honeycomb3").expect("honeycomb3"));
        let h = tables_for(honey, &params);
        for (t, info) in honey.def.pieces.iter().enumerate() {
            let shift = if info.royal || info.value != 0 { 0 } else { 50 };
            assert_eq!(h.values[t], honey.eval.values[t] + shift, "{}", info.name);
        }

        let mut pos = parse_position(game, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2").expect("fen");
        let before = pos.evaluate_for(0);
        pos.set_eval(t);
        assert_eq!(pos.material_sums(), pos.psq_from_scratch());
        // Symmetric position: only the tempo of the player to move is left.
        assert_eq!((before, pos.evaluate_for(0), pos.evaluate_for(1)), (PARAMS.tempo, 30, 0));
        // The sums stay exact through make/unmake with the new tables.
        for m in ["g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6"] {
            let mv = parse_move(&pos, m).expect("legal");
            pos.make(mv);
            assert_eq!(pos.material_sums(), pos.psq_from_scratch(), "after {m}");
        }
    }
}
