//! A node's moves and the picker that hands them out best first by their ordering scores
//! (`ordering`'s), at best-reply nodes with the opponents who pass before each.

use super::history::NO_CONTEXT;
use crate::position::{Move, MoveKind};

/// What a node's quiet moves are ordered by besides their history ([`Worker::quiet_order`]).
pub(super) struct QuietOrder {
    /// The quiet move that last refuted the move before (`Move::NONE`: none).
    pub counter: Move,
    /// The continuation contexts of the moves one and two plies before.
    pub one: usize,
    pub two: usize,
}

impl QuietOrder {
    pub const NONE: QuietOrder = QuietOrder { counter: Move::NONE, one: NO_CONTEXT, two: NO_CONTEXT };
}

/// A node's moves with their ordering scores and, at best-reply nodes, the number of opponents
/// who pass before each move (empty elsewhere: no passes).
#[derive(Default)]
pub(super) struct MoveList {
    pub moves: Vec<Move>,
    pub scores: Vec<i32>,
    pub passes: Vec<u8>,
}

impl MoveList {
    /// Drops the moves the ordering scored below zero (the captures that lose by static
    /// exchange), keeping the scores beside their moves; for lists without passes.
    pub fn drop_bad_captures(&mut self) {
        let mut kept = 0;
        for i in 0..self.moves.len() {
            if self.scores[i] >= 0 {
                self.moves[kept] = self.moves[i];
                self.scores[kept] = self.scores[i];
                kept += 1;
            }
        }
        self.moves.truncate(kept);
        self.scores.truncate(kept);
    }

    pub fn clear(&mut self) {
        self.moves.clear();
        self.scores.clear();
        self.passes.clear();
    }
}

/// Ordering scores by class: each class above every score of the classes below. Captures and
/// promotions (the scorer's) lie between `KILLER` and `TT_MOVE`, quiet moves' histories below
/// `COUNTER`, captures that lose material far below zero.
pub(super) const TT_MOVE: i32 = 1 << 30;
pub(super) const KILLER: i32 = 1 << 22;
/// The quiet move that last refuted the previous move: below the killers.
pub(super) const COUNTER: i32 = KILLER - 1;
/// A quiet move not scored yet.
const PENDING: i32 = i32::MIN;

/// How the staged picker scores a node's moves when it reaches them (the worker's ordering).
pub(super) trait Scorer {
    /// A capture's or promotion's score, above [`KILLER`], before its exchange is judged; `None`
    /// for a quiet move.
    fn tactical_score(&self, mv: Move) -> Option<i32>;
    /// A capture's score where it loses material in the exchange (below every quiet move's);
    /// `None` where it keeps its material or no exchange is judged.
    fn losing_score(&self, mv: Move) -> Option<i32>;
    /// A quiet move's score (below [`COUNTER`]).
    fn quiet_score(&self, mv: Move, order: &QuietOrder) -> i32;
    /// Rescoring of quiet moves by the hunt of a bare royal piece (`scores` hold their scores so
    /// far).
    fn hunt_scores(&self, moves: &[Move], scores: &mut [i32]);
}

/// How much of a staged list is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Scored {
    /// Nothing yet.
    Nothing,
    /// The table's move, captures and promotions.
    Tactical,
    /// Those, the killers and the counter move.
    Killers,
    /// Every move.
    All,
}

/// Hands out a list's moves best first, by a selection sort done one step at a time (a cut-off
/// usually comes early). A staged list is scored as the picker reaches each class (Stockfish's
/// `movepick.cpp`): the table's move, captures and promotions first, a capture's exchange judged
/// only when it would be handed out, the killers and the counter move, then the quiet moves. The
/// order is the one the whole list scored at once would give.
pub(super) struct MovePicker {
    list: MoveList,
    next: usize,
    scored: Scored,
    /// Per move: whether its exchange is still to be judged.
    unjudged: Vec<bool>,
    tt_move: Move,
    killers: [Move; 2],
    order: QuietOrder,
    hunting: bool,
}

impl MovePicker {
    /// A picker over a list whose moves are scored already.
    pub fn new(list: MoveList) -> Self {
        MovePicker::with(list, Scored::All, Move::NONE, [Move::NONE; 2], QuietOrder::NONE, false)
    }

    /// A picker that scores the unscored `list` as it goes: `tt_move` first, then captures and
    /// promotions, `killers` and `order`'s counter move, the quiet moves by `order` (while
    /// `hunting` a bare royal piece, by the hunt's order, which replaces the killers').
    pub fn staged(list: MoveList, tt_move: Move, killers: [Move; 2], order: QuietOrder, hunting: bool) -> Self {
        MovePicker::with(list, Scored::Nothing, tt_move, killers, order, hunting)
    }

    fn with(list: MoveList, scored: Scored, tt_move: Move, killers: [Move; 2], order: QuietOrder, hunting: bool) -> Self {
        MovePicker { list, next: 0, scored, unjudged: Vec::new(), tt_move, killers, order, hunting }
    }

    /// The best move not yet handed out, with the passes before it.
    #[inline(always)]
    pub fn next_move(&mut self, scorer: &impl Scorer) -> Option<(Move, u8)> {
        if self.scored == Scored::Nothing {
            self.score_tactical(scorer);
        }
        let i = self.next;
        let n = self.list.moves.len();
        loop {
            if i >= n {
                return None;
            }
            // The last of the best, as a selection sort's `max_by_key` finds it.
            let scores = &self.list.scores;
            let j = (i..n).max_by_key(|&j| scores[j]).unwrap_or(i);
            let s = scores[j];
            // Below what is scored so far: the next class must be scored first.
            let floor = match self.scored {
                Scored::Nothing | Scored::Tactical => KILLER + 1,
                Scored::Killers => COUNTER,
                Scored::All => i32::MIN,
            };
            if s < floor {
                self.score_more(scorer);
                continue;
            }
            if self.unjudged.get(j).copied().unwrap_or(false) {
                self.unjudged[j] = false;
                if let Some(losing) = scorer.losing_score(self.list.moves[j]) {
                    self.list.scores[j] = losing;
                    continue;
                }
            }
            self.swap(i, j);
            self.next += 1;
            return Some((self.list.moves[i], self.list.passes.get(i).copied().unwrap_or(0)));
        }
    }

    fn swap(&mut self, i: usize, j: usize) {
        let list = &mut self.list;
        list.moves.swap(i, j);
        list.scores.swap(i, j);
        if !list.passes.is_empty() {
            list.passes.swap(i, j);
        }
        if !self.unjudged.is_empty() {
            self.unjudged.swap(i, j);
        }
    }

    /// Scores the table's move, the captures and promotions; the quiet moves wait.
    fn score_tactical(&mut self, scorer: &impl Scorer) {
        let list = &mut self.list;
        list.scores.clear();
        self.unjudged.clear();
        for &mv in &list.moves {
            let tactical = if mv == self.tt_move { None } else { scorer.tactical_score(mv) };
            list.scores.push(if mv == self.tt_move { TT_MOVE } else { tactical.unwrap_or(PENDING) });
            self.unjudged.push(tactical.is_some());
        }
        self.scored = Scored::Tactical;
    }

    /// Scores the next class of the quiet moves: the killers and the counter move, then every other
    /// quiet move.
    fn score_more(&mut self, scorer: &impl Scorer) {
        let pending = |list: &MoveList, k: usize| list.scores[k] == PENDING;
        let special = |mv: Move, killers: &[Move; 2], order: &QuietOrder| {
            if killers.contains(&mv) {
                Some(KILLER)
            } else if order.counter == mv {
                Some(COUNTER)
            } else {
                None
            }
        };
        // While hunting, the hunt's order replaces the killers': every quiet move at once.
        if self.scored == Scored::Tactical && !self.hunting {
            for k in self.next..self.list.moves.len() {
                if pending(&self.list, k)
                    && let Some(s) = special(self.list.moves[k], &self.killers, &self.order)
                {
                    self.list.scores[k] = s;
                }
            }
            self.scored = Scored::Killers;
            return;
        }
        let from = self.next;
        let mut hunted = Vec::new();
        for k in from..self.list.moves.len() {
            if pending(&self.list, k) {
                let mv = self.list.moves[k];
                self.list.scores[k] = special(mv, &self.killers, &self.order).unwrap_or_else(|| scorer.quiet_score(mv, &self.order));
                if self.hunting && mv.kind() == MoveKind::Normal {
                    hunted.push(k);
                }
            }
        }
        if !hunted.is_empty() {
            let moves: Vec<Move> = hunted.iter().map(|&k| self.list.moves[k]).collect();
            let mut scores: Vec<i32> = hunted.iter().map(|&k| self.list.scores[k]).collect();
            scorer.hunt_scores(&moves, &mut scores);
            for (&k, s) in hunted.iter().zip(scores) {
                self.list.scores[k] = s;
            }
        }
        self.scored = Scored::All;
    }

    /// How many moves were handed out before the last one.
    pub fn index(&self) -> usize {
        self.next.saturating_sub(1)
    }

    pub fn into_list(self) -> MoveList {
        self.list
    }
}
