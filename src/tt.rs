//! The transposition table: lock-free, shared by all search threads.
//!
//! Each entry is three atomic words: the key xor-ed with the two data words, the move and the
//! packed score/depth/bound/age. A torn write (two threads storing at once) makes the xor check
//! fail and the entry reads as a miss, so no lock is needed.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::position::Move;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact = 0,
    Lower = 1,
    Upper = 2,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub mv: Move,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

struct Slot {
    check: AtomicU64,
    mv: AtomicU64,
    data: AtomicU64,
}

pub struct TransTable {
    slots: Vec<Slot>,
    age: AtomicU64,
}

impl TransTable {
    /// A table of about `mb` megabytes (at least one entry).
    pub fn new(mb: usize) -> Self {
        let n = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Slot>()).max(1);
        let slots = (0..n).map(|_| Slot { check: AtomicU64::new(0), mv: AtomicU64::new(0), data: AtomicU64::new(0) }).collect();
        TransTable { slots, age: AtomicU64::new(0) }
    }

    pub fn clear(&self) {
        for s in &self.slots {
            s.check.store(0, Ordering::Relaxed);
            s.mv.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
    }

    /// Starts a new search: older entries become preferred for replacement.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn slot(&self, key: u64) -> &Slot {
        &self.slots[((key as u128 * self.slots.len() as u128) >> 64) as usize]
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let s = self.slot(key);
        let mv = s.mv.load(Ordering::Relaxed);
        let data = s.data.load(Ordering::Relaxed);
        if s.check.load(Ordering::Relaxed) ^ mv ^ data != key || data == 0 {
            return None;
        }
        let bound = match (data >> 40) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Entry { mv: Move::from_raw(mv), score: (data & 0xFFFF_FFFF) as u32 as i32, depth: ((data >> 32) & 0xFF) as i32 - 1, bound })
    }

    pub fn store(&self, key: u64, mv: Move, score: i32, depth: i32, bound: Bound) {
        let s = self.slot(key);
        let age = self.age.load(Ordering::Relaxed) & 0xFF;
        let old = s.data.load(Ordering::Relaxed);
        let old_key = s.check.load(Ordering::Relaxed) ^ s.mv.load(Ordering::Relaxed) ^ old;
        let old_depth = ((old >> 32) & 0xFF) as i32 - 1;
        let old_age = (old >> 48) & 0xFF;
        if old != 0 && old_key != key && old_age == age && old_depth > depth {
            return;
        }
        let mv = if mv == Move::NONE && old_key == key { Move::from_raw(s.mv.load(Ordering::Relaxed)) } else { mv };
        let data = (score as u32 as u64) | (((depth + 1).clamp(0, 255) as u64) << 32) | ((bound as u64) << 40) | (age << 48) | (1 << 56);
        s.mv.store(mv.raw(), Ordering::Relaxed);
        s.data.store(data, Ordering::Relaxed);
        s.check.store(key ^ mv.raw() ^ data, Ordering::Relaxed);
    }

    /// Permille of sampled entries written in the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) & 0xFF;
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample].iter().filter(|s| {
            let d = s.data.load(Ordering::Relaxed);
            d != 0 && (d >> 48) & 0xFF == age
        });
        (used.count() * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Cell;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TransTable::new(1);
        let mv = Move::new(Cell::new(12), Cell::new(28));
        tt.store(0xDEAD_BEEF, mv, -123, 7, Bound::Lower);
        let e = tt.probe(0xDEAD_BEEF).expect("stored");
        assert_eq!((e.mv, e.score, e.depth, e.bound), (mv, -123, 7, Bound::Lower));
        assert!(tt.probe(0xDEAD_BEEE).is_none());
    }
}
