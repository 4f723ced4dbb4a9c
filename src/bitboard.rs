//! Fixed-width bit sets over the cells of a board.
//!
//! `Bitboard<W>` holds `64 * W` bits in `W` machine words. The board geometry picks the width
//! (chess 1, the 180–250-cell games 4, Armies of Faith 6); nothing else in the engine assumes one.
//! Bit `i` is the cell with canonical index `i`.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::types::Cell;

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bitboard<const W: usize>(pub [u64; W]);

impl<const W: usize> Default for Bitboard<W> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const W: usize> Bitboard<W> {
    pub const EMPTY: Self = Bitboard([0; W]);
    pub const BITS: usize = 64 * W;

    #[inline(always)]
    pub fn from_cell(cell: Cell) -> Self {
        let mut b = Self::EMPTY;
        b.set(cell);
        b
    }

    /// The set of the given cells.
    pub fn from_cells(cells: impl IntoIterator<Item = Cell>) -> Self {
        let mut b = Self::EMPTY;
        for c in cells {
            b.set(c);
        }
        b
    }

    /// The set of cells `0..n`.
    pub fn first_n(n: usize) -> Self {
        let mut b = Self::EMPTY;
        for i in 0..n.min(Self::BITS) {
            b.0[i >> 6] |= 1u64 << (i & 63);
        }
        b
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline(always)]
    pub fn any(&self) -> bool {
        !self.is_empty()
    }

    #[inline(always)]
    pub fn has(&self, cell: Cell) -> bool {
        let i = cell.index();
        (self.0[i >> 6] >> (i & 63)) & 1 != 0
    }

    #[inline(always)]
    pub fn set(&mut self, cell: Cell) {
        let i = cell.index();
        self.0[i >> 6] |= 1u64 << (i & 63);
    }

    #[inline(always)]
    pub fn clear(&mut self, cell: Cell) {
        let i = cell.index();
        self.0[i >> 6] &= !(1u64 << (i & 63));
    }

    #[inline(always)]
    pub fn toggle(&mut self, cell: Cell) {
        let i = cell.index();
        self.0[i >> 6] ^= 1u64 << (i & 63);
    }

    #[inline(always)]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Lowest set bit (lowest cell index).
    #[inline(always)]
    pub fn first(&self) -> Option<Cell> {
        for (i, &w) in self.0.iter().enumerate() {
            if w != 0 {
                return Some(Cell::new(i * 64 + w.trailing_zeros() as usize));
            }
        }
        None
    }

    /// Highest set bit (highest cell index).
    #[inline(always)]
    pub fn last(&self) -> Option<Cell> {
        for i in (0..W).rev() {
            let w = self.0[i];
            if w != 0 {
                return Some(Cell::new(i * 64 + 63 - w.leading_zeros() as usize));
            }
        }
        None
    }

    /// Every cell whose index is at most this set's lowest (the whole board when empty): with
    /// [`Bitboard::through_last`], what cuts a ray at its first blocker without a second table
    /// lookup, a ray's cells being in index order.
    #[inline(always)]
    pub fn through_first(&self) -> Self {
        // Branch-free: `w ^ (w - 1)` is every bit through the lowest, or all of them for an
        // empty word; `open` closes after the first word with a man.
        let mut out = Self::EMPTY;
        let mut open = !0u64;
        for i in 0..W {
            let w = self.0[i];
            out.0[i] = open & (w ^ w.wrapping_sub(1));
            open &= u64::from(w == 0).wrapping_neg();
        }
        out
    }

    /// Every cell whose index is at least this set's highest (the whole board when empty).
    #[inline(always)]
    pub fn through_last(&self) -> Self {
        // Branch-free as `through_first`: `w | 1` has the same highest bit as a non-empty `w`
        // and shifts nothing off for an empty one.
        let mut out = Self::EMPTY;
        let mut open = !0u64;
        for i in (0..W).rev() {
            let w = self.0[i];
            out.0[i] = open & (!0u64 << (63 - (w | 1).leading_zeros()));
            open &= u64::from(w == 0).wrapping_neg();
        }
        out
    }

    /// A hash of the set for small direct-mapped caches: its words mixed by multiplication.
    #[inline(always)]
    pub fn fold_hash(&self) -> u64 {
        self.0.iter().fold(0u64, |h, &w| (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29))
    }

    /// Removes and returns the lowest set bit.
    #[inline(always)]
    pub fn pop_first(&mut self) -> Option<Cell> {
        for i in 0..W {
            let w = self.0[i];
            if w != 0 {
                self.0[i] = w & (w - 1);
                return Some(Cell::new(i * 64 + w.trailing_zeros() as usize));
            }
        }
        None
    }

    #[inline(always)]
    pub fn intersects(&self, other: &Self) -> bool {
        self.0.iter().zip(other.0.iter()).any(|(a, b)| a & b != 0)
    }

    #[inline(always)]
    pub fn iter(&self) -> BitIter<W> {
        BitIter(*self)
    }
}

pub struct BitIter<const W: usize>(Bitboard<W>);

impl<const W: usize> Iterator for BitIter<W> {
    type Item = Cell;
    #[inline(always)]
    fn next(&mut self) -> Option<Cell> {
        self.0.pop_first()
    }
}

impl<const W: usize> IntoIterator for Bitboard<W> {
    type Item = Cell;
    type IntoIter = BitIter<W>;
    fn into_iter(self) -> BitIter<W> {
        BitIter(self)
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl<const W: usize> $tr for Bitboard<W> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, rhs: Self) -> Self {
                let mut r = self;
                for i in 0..W {
                    r.0[i] = self.0[i] $op rhs.0[i];
                }
                r
            }
        }
        impl<const W: usize> $tra for Bitboard<W> {
            #[inline(always)]
            fn $fa(&mut self, rhs: Self) {
                for i in 0..W {
                    self.0[i] = self.0[i] $op rhs.0[i];
                }
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<const W: usize> Not for Bitboard<W> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        let mut r = self;
        for i in 0..W {
            r.0[i] = !self.0[i];
        }
        r
    }
}

impl<const W: usize> fmt::Debug for Bitboard<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard{:?}", self.iter().map(Cell::index).collect::<Vec<_>>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_scan_and_iterate_across_words() {
        let mut b = Bitboard::<6>::EMPTY;
        for c in [0, 63, 64, 200, 349] {
            b.set(Cell::new(c));
        }
        assert_eq!(b.count(), 5);
        assert_eq!(b.first(), Some(Cell::new(0)));
        assert_eq!(b.last(), Some(Cell::new(349)));
        assert_eq!(b.iter().map(Cell::index).collect::<Vec<_>>(), vec![0, 63, 64, 200, 349]);
        b.clear(Cell::new(0));
        assert_eq!(b.first(), Some(Cell::new(63)));
        assert!(b.has(Cell::new(200)) && !b.has(Cell::new(201)));
        let c = Bitboard::<6>::from_cell(Cell::new(200));
        assert!(b.intersects(&c));
        assert_eq!((b ^ c).count(), 3);
        assert_eq!((!Bitboard::<6>::EMPTY).count(), 384);
        assert_eq!(Bitboard::<1>::first_n(10).count(), 10);
    }

    /// The prefix and suffix masks against a cell-by-cell definition, in one word and across words.
    #[test]
    fn through_first_and_last_cut_at_the_extreme_cells() {
        fn check<const W: usize>(cells: &[usize]) {
            let mut b = Bitboard::<W>::EMPTY;
            for &c in cells {
                b.set(Cell::new(c));
            }
            let (lo, hi) = (b.first().expect("set").index(), b.last().expect("set").index());
            let (up, down) = (b.through_first(), b.through_last());
            for c in 0..W * 64 {
                assert_eq!(up.has(Cell::new(c)), c <= lo, "through_first {cells:?} at {c}");
                assert_eq!(down.has(Cell::new(c)), c >= hi, "through_last {cells:?} at {c}");
            }
        }
        for cells in [&[0][..], &[63], &[5, 40], &[0, 63]] {
            check::<1>(cells);
        }
        for cells in [&[0][..], &[63, 64], &[64], &[130, 200, 349], &[383], &[0, 383]] {
            check::<6>(cells);
        }
    }
}
