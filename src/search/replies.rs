//! Best-reply search's own state: what the opponents who do not give the best reply play (BRS+),
//! remembered per thread by position.

use crate::position::{Move, Undo};

/// A best-reply node's scratch, one per ply.
#[derive(Default)]
pub(super) struct ReplyScratch<const W: usize> {
    /// One opponent's moves.
    pub replies: Vec<Move>,
    /// The moves made (and their undos) to reach the next opponent.
    pub pass_undos: Vec<(Move, Undo<W>)>,
    /// What each opponent who does not reply plays, in turn order.
    pub others: Vec<Move>,
}

/// A direct-mapped cache of the static moves of BRS+ by position hash, per thread.
pub(super) struct StaticMoves {
    slots: Vec<(u64, Move)>,
}

/// Slots of [`StaticMoves`] (a power of two).
const STATIC_MOVE_SLOTS: usize = 1 << 14;

impl Default for StaticMoves {
    fn default() -> Self {
        StaticMoves { slots: vec![(0, Move::NONE); STATIC_MOVE_SLOTS] }
    }
}

impl StaticMoves {
    fn slot(key: u64) -> usize {
        (key as usize) & (STATIC_MOVE_SLOTS - 1)
    }

    pub fn get(&self, key: u64) -> Option<Move> {
        let (k, m) = self.slots[Self::slot(key)];
        (k == key && m != Move::NONE).then_some(m)
    }

    pub fn put(&mut self, key: u64, m: Move) {
        self.slots[Self::slot(key)] = (key, m);
    }
}
