//! What a search thread learns about moves and positions as it searches: the quiet moves'
//! history, continuation history and counter moves (the move ordering's credit), and the
//! correction history of the static evaluation. With two players a thread's next search of the
//! game starts from what its last one learned ([`Heuristics`](super::Heuristics)).
//!
//! Correction history (two players): how far the searches' values landed from the static
//! evaluation, per mover and pawn structure, added to later static evaluations of positions with
//! the same structure. The evaluation misjudges some structures consistently (a weak pawn it does
//! not see, a blocked centre), and the search measures by how much.

use crate::moves::Man;
use crate::position::Move;
use crate::tables::Game;
use crate::types::{Cell, PieceType, Player};

/// History scores stay below this (and so below the killers).
pub(super) const HISTORY_CAP: i32 = 1 << 20;

/// Credit for quiet moves by player and (from, to) cells, earned by cut-offs.
pub(super) struct History {
    ncells: usize,
    scores: Vec<i32>,
}

/// With two players the credit is kept between -HISTORY_MAX and HISTORY_MAX: each update moves a
/// score by its bonus less the share of the bonus that the score already holds ("gravity"), so
/// that old credit fades.
const HISTORY_MAX: i32 = 16_384;

impl History {
    pub fn new(ncells: usize, nplayers: usize) -> Self {
        History { ncells, scores: vec![0; nplayers * ncells * ncells] }
    }

    fn slot(&self, player: Player, mv: Move) -> usize {
        (player.index() * self.ncells + mv.from().index()) * self.ncells + mv.to().index()
    }

    pub fn score(&self, player: Player, mv: Move) -> i32 {
        self.scores[self.slot(player, mv)]
    }

    /// A cut-off at `depth` (three or four players): credit growing with the square of the depth.
    pub fn credit(&mut self, player: Player, mv: Move, depth: i32) {
        let i = self.slot(player, mv);
        self.scores[i] = (self.scores[i] + depth * depth).min(HISTORY_CAP);
    }

    /// Two players: `bonus` (negative: a malus) towards the bounds.
    pub fn update(&mut self, player: Player, mv: Move, bonus: i32) {
        let i = self.slot(player, mv);
        self.scores[i] = toward_bound(self.scores[i], bonus);
    }
}

/// A history score moved by `bonus` less the share of the bonus it already holds ("gravity"), so
/// that it stays within ±[`HISTORY_MAX`] and old credit fades.
fn toward_bound(h: i32, bonus: i32) -> i32 {
    h + bonus - h * bonus.abs() / HISTORY_MAX
}

/// Credit for quiet moves with two players by the move one and two plies before them (the
/// "continuation history" of the strong open engines): a reply that refuted a man's move to a cell
/// is likely to refute it again wherever else on the board it happens. Indexed by the earlier
/// move's context (its man's owner and type, and the cell it went to) and the move's man type and
/// cell, one table for both distances; where the game has too many types and cells for that, the
/// index is folded into [`CONTINUATION_SLOTS_MAX`] slots (a shared slot only blurs a heuristic).
pub(super) struct ContinuationHistory {
    ncells: usize,
    ntypes: usize,
    /// Slots per context: types × cells.
    per_context: usize,
    scores: Vec<i16>,
}

/// Most slots of a continuation history (two bytes each).
const CONTINUATION_SLOTS_MAX: usize = 1 << 21;

/// No earlier move to continue (the root, after a null move or a pass).
pub(super) const NO_CONTEXT: usize = usize::MAX;

impl ContinuationHistory {
    /// With `nplayers` 0 the table is empty: only [`NO_CONTEXT`] may be scored or credited.
    pub fn new(ncells: usize, ntypes: usize, nplayers: usize) -> Self {
        let per_context = ncells * ntypes;
        let len = (per_context * per_context * nplayers).min(CONTINUATION_SLOTS_MAX);
        ContinuationHistory { ncells, ntypes, per_context, scores: vec![0; len] }
    }

    /// The context a move leaves for the moves after it: its man (as it stands after the move) and
    /// the cell it went to.
    pub fn context(&self, man: Man, to: Cell) -> usize {
        (man.owner().index() * self.ntypes + man.kind().index()) * self.ncells + to.index()
    }

    fn slot(&self, context: usize, kind: PieceType, to: Cell) -> usize {
        let i = context * self.per_context + kind.index() * self.ncells + to.index();
        if i < self.scores.len() { i } else { i % self.scores.len() }
    }

    pub fn score(&self, context: usize, kind: PieceType, to: Cell) -> i32 {
        if context == NO_CONTEXT { 0 } else { i32::from(self.scores[self.slot(context, kind, to)]) }
    }

    /// `bonus` (negative: a malus) towards the bounds, as [`History::update`].
    pub fn update(&mut self, context: usize, kind: PieceType, to: Cell, bonus: i32) {
        if context == NO_CONTEXT {
            return;
        }
        let i = self.slot(context, kind, to);
        self.scores[i] = toward_bound(i32::from(self.scores[i]), bonus) as i16;
    }
}

/// What a thread learns about the moves in a search: the quiet moves' history, continuation
/// history and counter moves. With two players a thread's next search
/// of the game starts from what its last one learned ([`Heuristics`](super::Heuristics)).
pub(super) struct Learned {
    pub history: History,
    pub continuation: ContinuationHistory,
    /// With two players, per (from, to) of a move the quiet move that last refuted it.
    pub counters: Vec<Move>,
    /// With two players, the static evaluation's errors by pawn structure.
    pub correction: Correction,
}

impl Learned {
    /// For a search of `game`; `multi`: with three or more players left, whose searches credit
    /// the history only, so that the continuation history and the counter moves stay empty.
    pub fn new<const W: usize>(game: &Game<W>, multi: bool) -> Self {
        let (ncells, ntypes) = (game.ncells, game.ntypes);
        Learned {
            history: History::new(ncells, game.nplayers),
            continuation: ContinuationHistory::new(ncells, ntypes, if multi { 0 } else { game.nplayers }),
            counters: if multi { Vec::new() } else { vec![Move::NONE; ncells * ncells] },
            correction: Correction::new(if multi { 0 } else { game.nplayers }),
        }
    }

    /// Whether it was learned in a game of `game`'s size (a change of game starts afresh).
    pub fn fits<const W: usize>(&self, game: &Game<W>) -> bool {
        self.history.scores.len() == game.nplayers * game.ncells * game.ncells
            && self.continuation.ncells == game.ncells
            && self.continuation.ntypes == game.ntypes
            && self.counters.len() == game.ncells * game.ncells
            && self.correction.fits(game.nplayers)
    }
}

/// The history bonus of a cut-off at `depth` with two players: `slope` per ply up to
/// [`HISTORY_BONUS_MAX`], or with `slope` 0 16 per square ply up to 1,600.
pub(super) fn history_bonus(depth: i32, slope: i32) -> i32 {
    if slope > 0 { (slope * depth).min(HISTORY_BONUS_MAX) } else { (16 * depth * depth).min(1600) }
}

/// The largest history bonus of a cut-off with a `history_bonus_slope`.
const HISTORY_BONUS_MAX: i32 = HISTORY_MAX / 8;

/// Correction entries per player (a power of two).
const SLOTS: usize = 1 << 14;
/// Stored values are centipawns times this, so that small weights still move them.
const GRAIN: i32 = 256;
/// A search's value weighs min(depth + 1, `MAX_WEIGHT`) / `WEIGHT_SCALE` in the running average.
const MAX_WEIGHT: i32 = 16;
const WEIGHT_SCALE: i32 = 256;

pub(super) struct Correction {
    values: Vec<i32>,
}

impl Correction {
    /// For `nplayers` movers; with 0 the table is empty and corrects nothing (the multi-player
    /// searches, whose values are not the mover's).
    pub fn new(nplayers: usize) -> Self {
        Correction { values: vec![0; nplayers * SLOTS] }
    }

    fn slot(player: Player, pawn_key: u64) -> usize {
        player.index() * SLOTS + (pawn_key as usize & (SLOTS - 1))
    }

    /// The correction in centipawns for `player` to move with pawn structure `pawn_key`.
    pub fn get(&self, player: Player, pawn_key: u64) -> i32 {
        self.values.get(Self::slot(player, pawn_key)).map_or(0, |v| v / GRAIN)
    }

    /// Averages in a search to `depth` whose value was `error` centipawns above the corrected
    /// static evaluation, the error taken at most `max` centipawns either way (so that no
    /// correction exceeds it).
    pub fn learn(&mut self, player: Player, pawn_key: u64, error: i32, depth: i32, max: i32) {
        let Some(v) = self.values.get_mut(Self::slot(player, pawn_key)) else { return };
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        let target = error.clamp(-max, max) * GRAIN;
        *v = (*v * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
    }

    /// Whether it was made for `nplayers` movers.
    pub fn fits(&self, nplayers: usize) -> bool {
        self.values.is_empty() || self.values.len() == nplayers * SLOTS
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Man;

    /// Credit stays within the bounds however often it is given, and a context's credit is its
    /// own: the same move after another context scores nothing.
    #[test]
    fn continuation_credit_is_bounded_and_kept_per_context() {
        let (ncells, ntypes) = (64, 6);
        let mut h = ContinuationHistory::new(ncells, ntypes, 2);
        let (white, black) = (Player::new(0), Player::new(1));
        let knight = PieceType::new(1);
        let after_e5 = h.context(Man::new(PieceType::new(0), black, black), Cell::new(36));
        let after_d5 = h.context(Man::new(PieceType::new(0), black, black), Cell::new(35));
        let f3 = Cell::new(21);
        for _ in 0..1000 {
            h.update(after_e5, knight, f3, history_bonus(20, 0));
        }
        assert!((HISTORY_MAX - 64..=HISTORY_MAX).contains(&h.score(after_e5, knight, f3)), "{}", h.score(after_e5, knight, f3));
        assert_eq!(h.score(after_d5, knight, f3), 0);
        assert_eq!(h.score(NO_CONTEXT, knight, f3), 0);
        for _ in 0..1000 {
            h.update(after_e5, knight, f3, -history_bonus(20, 0));
        }
        assert!(h.score(after_e5, knight, f3) < -HISTORY_MAX + 64);
        // A White man's context differs from a Black one's on the same cell.
        assert_ne!(h.context(Man::new(knight, white, white), f3), h.context(Man::new(knight, black, black), f3));
    }

    /// Where the game's types and cells exceed the table, contexts fold into it (as many types as
    /// a game may have, on aof3's 350 cells).
    #[test]
    fn a_large_game_folds_into_the_table() {
        let (ncells, ntypes) = (350, crate::types::MAX_TYPES);
        let mut h = ContinuationHistory::new(ncells, ntypes, 4);
        assert_eq!(h.scores.len(), CONTINUATION_SLOTS_MAX);
        let last = h.context(Man::new(PieceType::new(ntypes - 1), Player::new(3), Player::new(3)), Cell::new(ncells - 1));
        h.update(last, PieceType::new(ntypes - 1), Cell::new(ncells - 1), 100);
        assert_eq!(h.score(last, PieceType::new(ntypes - 1), Cell::new(ncells - 1)), 100);
    }

    #[test]
    fn corrections_follow_the_errors_within_bounds() {
        let (white, black) = (Player::new(0), Player::new(1));
        let mut c = Correction::new(2);
        assert_eq!(c.get(white, 7), 0);
        for _ in 0..200 {
            c.learn(white, 7, 60, 10, 128);
        }
        // Converged on the error for that mover and key only.
        assert!((58..=60).contains(&c.get(white, 7)), "{}", c.get(white, 7));
        assert_eq!(c.get(black, 7), 0);
        assert_eq!(c.get(white, 8), 0);
        for _ in 0..400 {
            c.learn(black, 7, -1_000, 20, 128);
        }
        assert!((-128..=-126).contains(&c.get(black, 7)), "{}", c.get(black, 7));
        // An empty table corrects nothing and learns nothing.
        let mut none = Correction::new(0);
        none.learn(white, 7, 100, 10, 128);
        assert_eq!(none.get(white, 7), 0);
    }
}
