//! Deferring moves another thread is searching (the "simplified ABDADA" of Lazy SMP engines):
//! each thread marks the positions it is searching in a small shared table, and a thread that
//! meets a position another thread is busy with searches it after the node's other moves. By
//! then the other thread has usually stored its result, so the threads split the tree instead of
//! searching the same nodes side by side, and a depth is done sooner.

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots of the table (a power of two): far more than the nodes in progress at once.
const SLOTS: usize = 1 << 12;
/// Nodes shallower than this are not marked: too cheap to share out.
pub(in crate::search) const MIN_DEPTH: i32 = 2;

/// The positions being searched, by table key; a slot holds the key of the last position marked
/// in it (0: none).
pub(in crate::search) struct Busy {
    slots: Box<[AtomicU64]>,
}

impl Default for Busy {
    fn default() -> Self {
        Busy { slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect() }
    }
}

impl Busy {
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key as usize) & (SLOTS - 1)]
    }

    /// Whether some thread is searching the position of `key`.
    pub fn contains(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Marks the position of `key` as being searched.
    pub fn mark(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// The search of `key` is over (unless the slot has since been taken by another position).
    pub fn unmark(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_seen_until_taken_back() {
        let busy = Busy::default();
        let (a, b) = (0x1234_5678_9ABC_0001, 0x1234_5678_9ABC_1001);
        assert!(!busy.contains(a));
        busy.mark(a);
        assert!(busy.contains(a) && !busy.contains(b));
        // b shares a's slot: marking it forgets a, and taking a back leaves b alone.
        busy.mark(b);
        busy.unmark(a);
        assert!(busy.contains(b) && !busy.contains(a));
        busy.unmark(b);
        assert!(!busy.contains(b));
    }
}
