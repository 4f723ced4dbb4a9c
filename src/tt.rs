//! The transposition table: lock-free, shared by all search threads.
//!
//! Each entry is three atomic words: the key xor-ed with the two data words, the move and the
//! packed score, depth, bound, principal-variation flag and age. A torn write (two threads storing
//! at once) makes the xor check fail and the entry reads as a miss, so no lock is needed.

use std::alloc::Layout;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::position::Move;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact = 0,
    Lower = 1,
    Upper = 2,
}

impl Bound {
    /// What a search result `best` is, for a node entered with the window (`alpha`, `beta`).
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a stored `score` with this bound settles a node searched with (`alpha`, `beta`).
    pub fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
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

crate::error::message_error!(
    /// A table the machine cannot hold.
    TableError
);

pub struct TransTable {
    slots: Slots,
    age: AtomicU64,
    /// Mixed into every key: changing it empties the table at once (an entry stored under another
    /// salt never matches again).
    salt: AtomicU64,
}

/// Bytes in a mebibyte.
const MIB: usize = 1 << 20;

/// The table's slots, in freshly zeroed memory. The operating system hands such memory out
/// lazily, so a large table costs no time until it is used. A table of a huge page (2 MiB) or more
/// starts on a huge page boundary and asks the system for huge pages (Linux): a probe goes to a
/// random slot, and with 4 KiB pages it would mostly miss the processor's address cache (TLB) as
/// well as its data caches.
struct Slots {
    /// The first slot.
    first: NonNull<Slot>,
    len: usize,
    /// The allocation holding the slots (a huge page larger than they need where aligned).
    base: NonNull<u8>,
    layout: Layout,
}

// SAFETY: `Slots` owns its memory as a `Box<[Slot]>` would, and `Slot` is made of atomics.
unsafe impl Send for Slots {}
// SAFETY: as for `Send`: shared access only ever reads or writes the slots' atomics.
unsafe impl Sync for Slots {}

/// Bytes in a huge page (x86-64 and most 64-bit Linux systems).
const HUGE_PAGE: usize = 2 * MIB;

impl Slots {
    /// `n` zeroed slots; `None` if they cannot be had.
    fn zeroed(n: usize) -> Option<Self> {
        let bytes = Layout::array::<Slot>(n).ok().filter(|l| l.size() > 0)?.size();
        let huge = bytes >= HUGE_PAGE;
        // Aligned by hand inside a larger block: the allocator zeroes a block of plain alignment
        // lazily (fresh pages), one of huge-page alignment by writing every byte.
        let layout =
            Layout::from_size_align(if huge { bytes.checked_add(HUGE_PAGE)? } else { bytes }, std::mem::align_of::<Slot>()).ok()?;
        // SAFETY: the layout has a non-zero size, as `alloc_zeroed` requires.
        let base = NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        let offset = if huge { base.as_ptr().align_offset(HUGE_PAGE) } else { 0 };
        // SAFETY: `offset` is below `HUGE_PAGE` where the block has `HUGE_PAGE` bytes to spare, and
        // 0 otherwise, so the slots lie inside the block; they start at the block's start or on a
        // huge page boundary, both aligned for `Slot`.
        let first = unsafe { base.add(offset) }.cast::<Slot>();
        if huge {
            advise_huge_pages(first.as_ptr().cast(), bytes);
        }
        Some(Slots { first, len: n, base, layout })
    }
}

impl std::ops::Deref for Slots {
    type Target = [Slot];

    fn deref(&self) -> &[Slot] {
        // SAFETY: `first` points to `len` slots inside the block, zeroed at allocation (all-zero
        // bits are a valid `Slot`: three `AtomicU64` of value 0) and only changed through atomics.
        unsafe { std::slice::from_raw_parts(self.first.as_ptr(), self.len) }
    }
}

impl Drop for Slots {
    fn drop(&mut self) {
        // SAFETY: `base` was allocated by the global allocator with `layout`, and is freed once.
        unsafe { std::alloc::dealloc(self.base.as_ptr(), self.layout) }
    }
}

/// Asks Linux to back `len` bytes from `start` (a huge page boundary) with huge pages. Only advice:
/// where transparent huge pages are off the call fails and nothing changes.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *mut u8, len: usize) {
    use std::ffi::{c_int, c_void};
    const MADV_HUGEPAGE: c_int = 14;
    unsafe extern "C" {
        fn madvise(addr: *mut c_void, len: usize, advice: c_int) -> c_int;
    }
    // SAFETY: the range is memory this process owns (one allocation), and `madvise` with
    // `MADV_HUGEPAGE` changes neither its contents nor its validity.
    unsafe {
        madvise(start.cast(), len, MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: *mut u8, _len: usize) {}

/// Memory the system can still give without swapping (Linux; `None` elsewhere).
pub(crate) fn available_memory() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

impl TransTable {
    /// A table of about `mb` mebibytes (at least one entry), or an error if the machine does not
    /// have that much memory available.
    pub fn new(mb: usize) -> Result<Self, TableError> {
        let bytes = mb.max(1).checked_mul(MIB).ok_or_else(|| TableError(format!("{mb} MiB is too large")))?;
        if let Some(available) = available_memory()
            && bytes > available
        {
            return Err(TableError(format!("{mb} MiB is more than the {} MiB of memory available", available / MIB)));
        }
        let n = (bytes / std::mem::size_of::<Slot>()).max(1);
        let slots = Slots::zeroed(n).ok_or_else(|| TableError(format!("cannot allocate {mb} MiB")))?;
        Ok(TransTable { slots, age: AtomicU64::new(0), salt: AtomicU64::new(0) })
    }

    /// Empties the table, at once whatever its size.
    pub fn clear(&self) {
        let salt = self.salt.load(Ordering::Relaxed);
        self.salt.store(salt.wrapping_add(0x9E37_79B9_7F4A_7C15).rotate_left(17) | 1, Ordering::Relaxed);
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred for replacement.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn slot(&self, key: u64) -> &Slot {
        &self.slots[((u128::from(key) * self.slots.len() as u128) >> 64) as usize]
    }

    /// Asks the processor to fetch `key`'s slot into its cache: issued as soon as a move is made,
    /// the fetch overlaps the child node's work before its probe, which otherwise waits on
    /// memory (a search's costliest single instruction).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot: *const Slot = self.slot(key);
            // SAFETY: a prefetch is only a hint: it reads nothing and cannot fault, and SSE, which
            // it needs, is part of every x86-64 processor.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(slot.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let s = self.slot(key);
        let key = key ^ self.salt.load(Ordering::Relaxed);
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
        let key = key ^ self.salt.load(Ordering::Relaxed);
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
        let tt = TransTable::new(1).expect("1 MiB");
        let mv = Move::new(Cell::new(12), Cell::new(28));
        tt.store(0xDEAD_BEEF, mv, -123, 7, Bound::Lower);
        let e = tt.probe(0xDEAD_BEEF).expect("stored");
        assert_eq!((e.mv, e.score, e.depth, e.bound), (mv, -123, 7, Bound::Lower));
        assert!(tt.probe(0xDEAD_BEEE).is_none());
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF).is_none(), "cleared");
        tt.store(0xDEAD_BEEF, mv, 5, 1, Bound::Exact);
        assert_eq!(tt.probe(0xDEAD_BEEF).map(|e| e.score), Some(5));
    }

    #[test]
    fn a_result_s_bound_settles_the_windows_it_should() {
        assert_eq!(Bound::of(50, 10, 50), Bound::Lower);
        assert_eq!(Bound::of(30, 10, 50), Bound::Exact);
        assert_eq!(Bound::of(10, 10, 50), Bound::Upper);
        assert!(Bound::Lower.settles(60, 0, 60) && !Bound::Lower.settles(59, 0, 60));
        assert!(Bound::Upper.settles(0, 0, 60) && !Bound::Upper.settles(1, 0, 60));
        assert!(Bound::Exact.settles(30, 40, 41));
    }

    #[test]
    fn a_large_table_starts_on_a_huge_page_and_holds_its_size() {
        let tt = TransTable::new(4).expect("4 MiB");
        assert_eq!(tt.slots.as_ptr().addr() % HUGE_PAGE, 0);
        assert_eq!(tt.slots.len(), 4 * MIB / std::mem::size_of::<Slot>());
        assert!(tt.slots.iter().all(|s| s.data.load(Ordering::Relaxed) == 0), "zeroed");
        let mv = Move::new(Cell::new(1), Cell::new(2));
        for key in (0..1000u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)) {
            tt.store(key, mv, 7, 3, Bound::Exact);
            assert_eq!(tt.probe(key).map(|e| e.score), Some(7));
        }
        let small = TransTable::new(1).expect("1 MiB");
        assert_eq!(small.slots.len(), MIB / std::mem::size_of::<Slot>());
    }

    #[test]
    fn a_table_larger_than_the_machine_is_an_error() {
        assert!(TransTable::new(1 << 40).is_err());
        assert!(TransTable::new(usize::MAX).is_err());
    }
}
