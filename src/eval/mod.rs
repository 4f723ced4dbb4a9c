//! Evaluation: a score per player, from material and piece-square terms generated from geometry.
//!
//! Material values come from the game definition, or are derived from a piece's average number
//! of moves on the empty board. Piece-square terms reward cells where a piece has more moves on
//! the empty board (centrality) and pawns that are closer to promotion. Both are folded into one
//! [`PieceSquare`](crate::position::PieceSquare) table that positions sum per owner as men move
//! ([`tables`]). Every tunable number is in [`EvalParams`], which `tuning/` can rewrite.

pub mod tables;

use std::sync::Arc;

use crate::bitboard::Bitboard;
use crate::movegen::targets::attack_targets;
use crate::position::Position;
use crate::tables::Game;
use crate::types::{Cell, PerPlayer, PieceType, Player, Table};
pub use tables::EvalTables;

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
    /// Against a bare royal piece: bonus per move it lacks, where it stands, against its most
    /// mobile cell on the empty board (driving it to the edge).
    mopup_edge: 0..=100,
    /// Against a bare royal piece: bonus per royal step the own royal piece is closer to it than
    /// the greatest distance on the board (it helps to mate).
    mopup_close: 0..=100,
    /// Against a bare royal piece: bonus per percent of the cells it may stand on that it
    /// cannot reach by steps over cells the stronger player does not attack (boxing it in).
    mopup_box: 0..=20,
    /// With three or more players: bonus to a player for each opponent it has checkmated, on top
    /// of the largest mop-up term that opponent could have given (so that mating a bare royal
    /// piece always beats driving it to the edge).
    elimination: 0..=2000,
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
    mopup_edge: 40,
    mopup_close: 8,
    mopup_box: 2,
    elimination: 200,
};

impl Default for EvalParams {
    fn default() -> Self {
        PARAMS
    }
}

/// The evaluation of one game with one set of parameters: what the search and the session
/// evaluate with. Positions it evaluates must sum its piece-square table
/// ([`Evaluator::prepare`]).
#[derive(Clone, Debug)]
pub struct Evaluator {
    tables: Arc<EvalTables>,
}

impl Evaluator {
    pub fn new<const W: usize>(game: &Game<W>, params: &EvalParams) -> Self {
        Evaluator { tables: tables::tables_for(game, params) }
    }

    pub fn params(&self) -> EvalParams {
        self.tables.params
    }

    /// Material value per type (royal pieces 0).
    pub fn values(&self) -> &Table<PieceType, i32> {
        &self.tables.values
    }

    /// Makes `pos` sum this evaluator's piece-square values.
    pub fn prepare<const W: usize>(&self, pos: &mut Position<W>) {
        pos.set_piece_square(self.tables.psq.clone());
    }

    /// The evaluation of the position from player `p`'s point of view: own material,
    /// piece-square, mobility and king-safety sum minus the average of the active opponents'.
    pub fn evaluate_for<const W: usize>(&self, pos: &Position<W>, p: Player) -> i32 {
        self.relative(pos, &self.player_sums(pos), p)
    }

    /// [`Evaluator::evaluate_for`] for every player at once (0 for players out of the game).
    pub fn evaluate_all<const W: usize>(&self, pos: &Position<W>) -> PerPlayer<i32> {
        let sums = self.player_sums(pos);
        let mut out = PerPlayer::splat(0);
        for p in pos.active_players().iter() {
            out[p] = self.relative(pos, &sums, p);
        }
        out
    }

    fn relative<const W: usize>(&self, pos: &Position<W>, sums: &PerPlayer<i32>, p: Player) -> i32 {
        let others = pos.active_players().without(p);
        let total: i32 = others.iter().map(|q| sums[q]).sum();
        let tempo = if pos.to_move() == p { self.tables.params.tempo } else { 0 };
        sums[p] + tempo - if others.is_empty() { 0 } else { total / others.len() as i32 }
    }

    /// Each player's own terms: the incremental material and piece-square sum, plus mobility and
    /// king safety where their parameters are not 0.
    fn player_sums<const W: usize>(&self, pos: &Position<W>) -> PerPlayer<i32> {
        let params = &self.tables.params;
        let mut sums = pos.piece_square_sums();
        self.add_mopup(pos, &mut sums);
        if params.mobility_quarter == 0 && params.king_attack == 0 {
            return sums;
        }
        let (mobility, king_safety) = self.activity(pos);
        for p in pos.game().players() {
            sums[p] += mobility[p] + king_safety[p];
        }
        sums
    }

    /// The mop-up term: a player with men besides its royal piece, against an opponent who has
    /// only the royal piece left, gains by driving that piece to where it has few moves and by
    /// bringing its own royal piece near. Both follow from the royal piece's moves on the empty
    /// board, so the term knows no game. A player who has checkmated an opponent keeps the most
    /// that opponent's bare royal piece could have given, plus the `elimination` bonus.
    fn mopup<const W: usize>(&self, pos: &Position<W>) -> PerPlayer<i32> {
        let params = &self.tables.params;
        let mut bonus = PerPlayer::splat(0);
        if params.mopup_edge == 0 && params.mopup_close == 0 && params.mopup_box == 0 && params.elimination == 0 {
            return bonus;
        }
        let active = pos.active_players();
        let t = &self.tables;
        for &out in pos.elimination_order() {
            if let Some(mater) = pos.eliminated_by(out).filter(|&p| active.has(p)) {
                bonus[mater] += params.elimination
                    + params.mopup_edge * t.royal_max_mobility[out]
                    + params.mopup_close * t.royal_max_distance
                    + params.mopup_box * 100;
            }
        }
        // Against several bare royal pieces a player is paid for the one it has done most
        // against, so that it works on one mate at a time.
        let mut best = PerPlayer::splat(0);
        for bare in active.iter().filter(|&q| pos.pieces_of(q).count() == 1) {
            let Some(weak) = pos.royal_cell(bare) else { continue };
            for strong in pos.opponents(bare).iter().filter(|&p| pos.pieces_of(p).count() > 1) {
                let mut b = params.mopup_edge * (t.royal_max_mobility[bare] - t.royal_mobility[bare][weak]);
                if let Some(own) = pos.royal_cell(strong) {
                    b += params.mopup_close * (t.royal_max_distance - t.royal_distance(own, weak));
                }
                if params.mopup_box > 0 {
                    let zone = pos.game().rules.royal_zone[bare];
                    let cells = zone.count().max(1) as i32;
                    let boxed = cells - royal_region(pos, weak, strong, zone).count() as i32;
                    b += params.mopup_box * boxed * 100 / cells;
                }
                best[strong] = best[strong].max(b);
            }
        }
        for p in active.iter() {
            bonus[p] += best[p];
        }
        bonus
    }

    fn add_mopup<const W: usize>(&self, pos: &Position<W>, sums: &mut PerPlayer<i32>) {
        let bonus = self.mopup(pos);
        for p in pos.game().players() {
            sums[p] += bonus[p];
        }
    }

    /// The mobility and king-safety terms per player (centipawns; 0 where their parameter is 0).
    fn activity<const W: usize>(&self, pos: &Position<W>) -> (PerPlayer<i32>, PerPlayer<i32>) {
        let params = &self.tables.params;
        let game = pos.game();
        let mut zones = PerPlayer::splat(Bitboard::<W>::EMPTY);
        if params.king_attack > 0 {
            for q in pos.active_players().iter() {
                if let Some(k) = pos.royal_cell(q) {
                    let m = pos.man_at(k);
                    zones[q] = pos.piece_targets(k, m.kind(), m.orientation(), Bitboard::EMPTY);
                }
            }
        }
        let mut moves = PerPlayer::splat(0i32);
        let mut attacks = PerPlayer::splat(0i32);
        for c in pos.occupied() {
            let m = pos.man_at(c);
            let (p, kind) = (m.owner(), m.kind());
            let info = &game.types[kind];
            if info.pawn || info.royal || !pos.is_active(p) {
                continue;
            }
            let targets = pos.piece_targets(c, kind, m.orientation(), pos.pieces_of(p));
            moves[p] += targets.count() as i32 - self.tables.average_moves[kind];
            if params.king_attack > 0 {
                for q in game.players().filter(|&q| q != p) {
                    attacks[q] += (targets & zones[q]).count() as i32;
                }
            }
        }
        let (mut mobility, mut king_safety) = (PerPlayer::splat(0), PerPlayer::splat(0));
        for p in game.players() {
            mobility[p] = moves[p] * params.mobility_quarter / 4;
            king_safety[p] = -attacks[p] * params.king_attack;
        }
        (mobility, king_safety)
    }

    /// The evaluation split by term for every player (the protocol's `eval`).
    pub fn breakdown<const W: usize>(&self, pos: &Position<W>) -> Breakdown {
        let mut material = PerPlayer::splat(0);
        for c in pos.occupied() {
            let m = pos.man_at(c);
            material[m.owner()] += self.tables.values[m.kind()];
        }
        let psq = pos.piece_square_sums();
        let (mobility, king_safety) = self.activity(pos);
        let mopup = self.mopup(pos);
        let mut b = Breakdown {
            material,
            placement: PerPlayer::splat(0),
            mobility,
            king_safety,
            mopup,
            tempo: PerPlayer::splat(0),
            total: PerPlayer::splat(0),
            score: self.evaluate_all(pos),
        };
        b.tempo[pos.to_move()] = self.tables.params.tempo;
        for p in pos.game().players() {
            b.placement[p] = psq[p] - material[p];
            b.total[p] = psq[p] + mobility[p] + king_safety[p] + mopup[p];
        }
        b
    }
}

/// The cells the royal piece on `weak` reaches by its steps within `zone` without stepping onto a
/// cell that `strong` attacks (its own cell included): the box the stronger player keeps it in.
fn royal_region<const W: usize>(pos: &Position<W>, weak: Cell, strong: Player, zone: Bitboard<W>) -> Bitboard<W> {
    let game = pos.game();
    let mut occ = pos.occupied();
    occ.clear(weak);
    let mut attacked = Bitboard::EMPTY;
    for c in pos.pieces_of(strong) {
        let m = pos.man_at(c);
        attacked |= attack_targets(game, c, m.kind(), m.orientation(), occ);
    }
    let king = pos.man_at(weak);
    let open = zone & !attacked;
    let mut region = Bitboard::from_cell(weak);
    let mut frontier = region;
    while frontier.any() {
        let mut next = Bitboard::EMPTY;
        for c in frontier {
            next |= pos.piece_targets(c, king.kind(), king.orientation(), Bitboard::EMPTY);
        }
        frontier = next & open & !region;
        region |= frontier;
    }
    region
}

/// The evaluation of a position split by term, per player, in centipawns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// The values of the player's men.
    pub material: PerPlayer<i32>,
    /// The piece-square terms (centrality, pawn advance).
    pub placement: PerPlayer<i32>,
    pub mobility: PerPlayer<i32>,
    pub king_safety: PerPlayer<i32>,
    /// Driving a bare royal piece to be mated.
    pub mopup: PerPlayer<i32>,
    /// The bonus of the player to move.
    pub tempo: PerPlayer<i32>,
    /// The player's own terms added up (without the tempo).
    pub total: PerPlayer<i32>,
    /// The evaluation the search uses: own total and tempo less the average of the active
    /// opponents' totals (0 for players out of the game).
    pub score: PerPlayer<i32>,
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
        let (white, black) = (Player::new(0), Player::new(1));
        let plain = Evaluator::new(
            game,
            &PARAMS.with_overrides("tempo=0,centrality_quarter=0,pawn_advance=0,mopup_edge=0,mopup_close=0,mopup_box=0").expect("valid"),
        );
        let active = Evaluator::new(game, &plain.params().with_overrides("mobility_quarter=4,king_attack=10").expect("valid"));
        let mut pos = parse_position(game, "4k3/8/8/4N3/8/8/8/4K3 w - - 0 1").expect("fen");
        plain.prepare(&mut pos);
        assert_eq!((plain.evaluate_for(&pos, white), plain.evaluate_for(&pos, black)), (320, -320));
        active.prepare(&mut pos);
        // The Knight on e5 has 8 moves, 3 more than a Knight's average on the empty board (336 /
        // 64, rounded down to 5): +3 × 4 quarter centipawns. Two of its moves (d7, f7) are next
        // to Black's King: 2 × 10 off Black's sum.
        assert_eq!(active.tables.average_moves[game.def.piece_by_code("N").expect("knight")], 5);
        assert_eq!((active.evaluate_for(&pos, white), active.evaluate_for(&pos, black)), (320 + 3 + 20, -(320 + 3 + 20)));
        assert_eq!(active.evaluate_all(&pos).0[..2], [343, -343]);
        let b = active.breakdown(&pos);
        let two = |v: &PerPlayer<i32>| [v.0[0], v.0[1]];
        assert_eq!((two(&b.material), two(&b.mobility), two(&b.king_safety)), ([320, 0], [3, 0], [0, -20]));
        assert_eq!((two(&b.total), two(&b.score)), ([323, -20], [343, -343]));
    }

    /// The box of a bare King: the cells it reaches without stepping onto an attacked cell.
    #[test]
    fn a_bare_king_is_boxed_in_by_attacked_cells() {
        let game = chess();
        let (white, black) = (Player::new(0), Player::new(1));
        // The Rook on a4, protected, holds the King on e8 to b5–h8 (the a-file and the 4th rank
        // attacked).
        let pos = parse_position(game, "4k3/8/8/8/R7/1K6/8/8 b - - 0 1").expect("fen");
        let king = pos.royal_cell(black).expect("a King");
        let region = royal_region(&pos, king, white, game.all_cells);
        assert_eq!(region.count(), 28);
        let only_box = Evaluator::new(game, &PARAMS.with_overrides("mopup_edge=0,mopup_close=0,mopup_box=2").expect("valid"));
        assert_eq!(only_box.mopup(&pos)[white], 2 * (64 - 28) * 100 / 64);
        // Unprotected, the Rook can be taken: the King gets past the 4th rank through a4.
        let pos = parse_position(game, "4k3/8/8/8/R7/8/8/K7 b - - 0 1").expect("fen");
        let region = royal_region(&pos, king, white, game.all_cells);
        assert_eq!(region.count(), 64 - 15 - 1, "all but the 15 attacked cells and a1 behind them");
    }

    #[test]
    fn tables_follow_the_parameters() {
        let game = chess();
        let default = Evaluator::new(game, &PARAMS);
        assert!(Arc::ptr_eq(&default.tables, &Evaluator::new(game, &PARAMS).tables), "the defaults are built once");
        let params = PARAMS.with_overrides("value_base=150,tempo=30,pawn_advance=0").expect("valid");
        let e = Evaluator::new(game, &params);
        assert!(Arc::ptr_eq(&e.tables, &Evaluator::new(game, &params).tables), "shared while in use");
        let pawn = game.def.piece_by_code("P").expect("pawn");
        let (white, black) = (Player::new(0), Player::new(1));
        let cell = crate::types::Cell::new;
        // Chess gives every value, so `value_base` changes nothing; without an advance bonus a
        // pawn is worth the same on every cell.
        assert_eq!(e.values(), default.values());
        assert_eq!((e.tables.psq.value(pawn, white, cell(8)), e.tables.psq.value(pawn, white, cell(48))), (100, 100));
        assert!(default.tables.psq.value(pawn, white, cell(48)) > 100);
        // Honeycomb's pieces have derived values: each moves up with `value_base`.
        let honey = registry::compiled::<4>(crate::games::definition("honeycomb3").expect("honeycomb3"));
        let (h, h0) = (Evaluator::new(honey, &params), Evaluator::new(honey, &PARAMS));
        for (t, info) in honey.def.pieces.entries() {
            let shift = if info.royal || info.value != 0 { 0 } else { 50 };
            assert_eq!(h.values()[t], h0.values()[t] + shift, "{}", info.name);
        }

        let mut pos = parse_position(game, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2").expect("fen");
        default.prepare(&mut pos);
        let before = default.evaluate_for(&pos, white);
        e.prepare(&mut pos);
        assert_eq!(pos.piece_square_sums(), pos.psq_from_scratch());
        // Symmetric position: only the tempo of the player to move is left.
        assert_eq!((before, e.evaluate_for(&pos, white), e.evaluate_for(&pos, black)), (PARAMS.tempo, 30, 0));
        // The sums stay exact through make/unmake with the new tables.
        for m in ["g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6"] {
            let mv = parse_move(&pos, m).expect("legal");
            pos.make(mv);
            assert_eq!(pos.piece_square_sums(), pos.psq_from_scratch(), "after {m}");
        }
    }

    #[test]
    fn tables_of_other_parameters_are_freed_when_unused() {
        let game = chess();
        let params = PARAMS.with_overrides("tempo=77").expect("valid");
        let weak = Arc::downgrade(&Evaluator::new(game, &params).tables);
        assert!(weak.upgrade().is_none(), "no evaluator holds them any more");
    }
}
