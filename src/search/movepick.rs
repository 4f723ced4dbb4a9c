//! A node's moves and the picker that hands them out best first by their ordering scores
//! (`ordering`'s), at best-reply nodes with the opponents who pass before each.

use super::history::NO_CONTEXT;
use crate::position::Move;

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
    /// Per move, whether it is still to be judged ([`MovePicker::next_judged`]); empty where
    /// none is.
    pub pending: Vec<bool>,
}

impl MoveList {
    /// Drops the moves the ordering scored below zero (quiet moves of bad history, captures
    /// that lose by static exchange where it was looked at), keeping the scores and pending
    /// marks beside their moves; for lists without passes.
    pub fn drop_below_zero(&mut self) {
        let mut kept = 0;
        for i in 0..self.moves.len() {
            if self.scores[i] >= 0 {
                self.moves[kept] = self.moves[i];
                self.scores[kept] = self.scores[i];
                if !self.pending.is_empty() {
                    self.pending[kept] = self.pending[i];
                }
                kept += 1;
            }
        }
        self.moves.truncate(kept);
        self.scores.truncate(kept);
        self.pending.truncate(kept);
    }

    pub fn clear(&mut self) {
        self.moves.clear();
        self.scores.clear();
        self.passes.clear();
        self.pending.clear();
    }
}

/// The index of the last of the highest scores in `scores` (not empty). The maximum first, then
/// the last index holding it, eight scores a step from the end: both passes vectorize, where a
/// pass keeping the best index so far compares one score a step (lists of 200 moves and more in
/// the three-dimensional games, scanned once per move handed out).
fn last_best(scores: &[i32]) -> usize {
    let best = scores.iter().copied().max().unwrap_or(0);
    let chunks = scores.rchunks_exact(8);
    let head = chunks.remainder().len();
    let mut end = scores.len();
    for chunk in chunks {
        if chunk.iter().fold(false, |found, &s| found | (s == best)) {
            return end - 8 + chunk.iter().rposition(|&s| s == best).unwrap_or(0);
        }
        end -= 8;
    }
    scores[..head].iter().rposition(|&s| s == best).unwrap_or(0)
}

/// Hands out a list's moves best first (a selection sort done one step at a time, since a
/// cut-off usually comes early).
pub(super) struct MovePicker {
    list: MoveList,
    next: usize,
}

impl MovePicker {
    pub fn new(list: MoveList) -> Self {
        MovePicker { list, next: 0 }
    }

    /// The best move not yet handed out, with the passes before it.
    #[inline(always)]
    pub fn next_move(&mut self) -> Option<(Move, u8)> {
        let i = self.next;
        let list = &mut self.list;
        if i >= list.moves.len() {
            return None;
        }
        let j = i + last_best(&list.scores[i..]);
        list.moves.swap(i, j);
        list.scores.swap(i, j);
        if !list.passes.is_empty() {
            list.passes.swap(i, j);
        }
        self.next += 1;
        Some((list.moves[i], list.passes.get(i).copied().unwrap_or(0)))
    }

    /// The best move not yet handed out among those `good` accepts, for a list without passes
    /// whose pending moves are scored as if `good` accepted them. A pending move is judged only
    /// when the selection would hand it out or move it, and dropped, the others keeping their
    /// order, where `good` refuses it: the moves come out as [`MovePicker::next_move`] hands them
    /// out once every refused move is dropped beforehand.
    pub fn next_judged(&mut self, mut good: impl FnMut(Move) -> bool) -> Option<Move> {
        let i = self.next;
        let list = &mut self.list;
        debug_assert!(list.passes.is_empty() && list.pending.len() == list.moves.len());
        'select: loop {
            if i >= list.moves.len() {
                return None;
            }
            let j = i + last_best(&list.scores[i..]);
            // The move handed out, and the one the swap moves to its place.
            for k in [j, i] {
                if list.pending[k] {
                    if !good(list.moves[k]) {
                        list.moves.remove(k);
                        list.scores.remove(k);
                        list.pending.remove(k);
                        continue 'select;
                    }
                    list.pending[k] = false;
                }
            }
            list.moves.swap(i, j);
            list.scores.swap(i, j);
            list.pending.swap(i, j);
            self.next += 1;
            return Some(list.moves[i]);
        }
    }

    /// How many moves were handed out before the last one.
    pub fn index(&self) -> usize {
        self.next.saturating_sub(1)
    }

    pub fn into_list(self) -> MoveList {
        self.list
    }
}

#[cfg(test)]
mod tests {
    use super::{MoveList, MovePicker, last_best};
    use crate::position::Move;
    use crate::types::Cell;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// Judging pending moves as they come up hands out what judging them all first and
    /// dropping the refused hands out, in the same order, ties (many here) included.
    #[test]
    fn judging_late_hands_out_the_eager_order() {
        let mut rng = StdRng::seed_from_u64(5);
        for len in 0..30 {
            for _ in 0..100 {
                let moves: Vec<Move> = (0..len).map(|i| Move::new(Cell::new(i), Cell::new(i + 1))).collect();
                let scores: Vec<i32> = (0..len).map(|_| rng.random_range(0..4)).collect();
                let pending: Vec<bool> = (0..len).map(|_| rng.random_range(0..2) == 0).collect();
                let refused: Vec<bool> = pending.iter().map(|&p| p && rng.random_range(0..2) == 0).collect();
                let good = |m: Move| !refused[m.from().index()];
                let kept: Vec<usize> = (0..len).filter(|&i| !refused[i]).collect();
                let eager = MoveList {
                    moves: kept.iter().map(|&i| moves[i]).collect(),
                    scores: kept.iter().map(|&i| scores[i]).collect(),
                    ..MoveList::default()
                };
                let mut eager = MovePicker::new(eager);
                let expected: Vec<Move> = std::iter::from_fn(|| eager.next_move().map(|(m, _)| m)).collect();
                let mut late = MovePicker::new(MoveList { moves, scores, pending, ..MoveList::default() });
                let got: Vec<Move> = std::iter::from_fn(|| late.next_judged(good)).collect();
                assert_eq!(got, expected);
            }
        }
    }

    /// The last of equal best scores, as `max_by_key` chooses, wherever it lies and whatever
    /// the length (whole groups of eight and the rest before them).
    #[test]
    fn last_best_is_the_last_maximum() {
        let mut rng = StdRng::seed_from_u64(3);
        for len in 1..40 {
            for _ in 0..200 {
                let scores: Vec<i32> = (0..len).map(|_| rng.random_range(-3..3)).collect();
                let expected = (0..len).max_by_key(|&j| scores[j]).expect("not empty");
                assert_eq!(last_best(&scores), expected, "{scores:?}");
            }
        }
    }
}
