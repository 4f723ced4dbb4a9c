//! Moves as compact values: from, to, promotion, kind and one auxiliary cell, or the legs of a
//! multi-leg move, packed in 64 bits. No strings here: `notation` reads and writes them.

use std::fmt;

use arrayvec::ArrayVec;

/// Most legs a multi-leg move (the Elephant Charge) can hold.
pub const MAX_LEGS: usize = 4;
/// A multi-leg move's further legs name their leap by an index into at most this many vectors.
pub const MAX_LEG_VECTORS: usize = 4;
const KIND_SHIFT: u32 = 24;
const LEGS_SHIFT: u32 = 27;
const LEG_BITS: u32 = 11;
const COUNT_SHIFT: u32 = 60;

/// Move kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    Normal = 0,
    DoubleStep = 1,
    EnPassant = 2,
    Castle = 3,
    /// Several leaps in one move (`movegen::charge`).
    Charge = 4,
    Pass = 7,
}

/// A move: from, to, promotion, kind and one auxiliary cell (the skipped cell of a double step,
/// the captured pawn of an en passant capture, the castling index), packed in 64 bits. A Charge
/// keeps its further legs in bits 27–61 instead ([`Move::multi_leg`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u64);

impl Move {
    pub const NONE: Move = Move(0);
    pub const PASS: Move = Move((MoveKind::Pass as u64) << KIND_SHIFT);

    #[inline(always)]
    pub fn new(from: usize, to: usize) -> Move {
        Move(from as u64 | (to as u64) << 9)
    }
    #[inline(always)]
    pub fn with_promotion(self, kind: usize) -> Move {
        Move(self.0 | ((kind as u64 + 1) << 18))
    }
    #[inline(always)]
    pub fn special(from: usize, to: usize, kind: MoveKind, aux: usize) -> Move {
        Move(from as u64 | (to as u64) << 9 | (kind as u64) << KIND_SHIFT | (aux as u64) << LEGS_SHIFT)
    }
    #[inline(always)]
    pub fn from(self) -> usize {
        (self.0 & 511) as usize
    }
    #[inline(always)]
    pub fn to(self) -> usize {
        ((self.0 >> 9) & 511) as usize
    }
    #[inline(always)]
    pub fn promotion(self) -> Option<usize> {
        match (self.0 >> 18) & 63 {
            0 => None,
            p => Some(p as usize - 1),
        }
    }
    #[inline(always)]
    pub fn kind(self) -> MoveKind {
        match (self.0 >> 24) & 7 {
            0 => MoveKind::Normal,
            1 => MoveKind::DoubleStep,
            2 => MoveKind::EnPassant,
            3 => MoveKind::Castle,
            4 => MoveKind::Charge,
            _ => MoveKind::Pass,
        }
    }
    #[inline(always)]
    pub fn aux(self) -> usize {
        ((self.0 >> 27) & 511) as usize
    }
    pub fn is_pass(self) -> bool {
        self.kind() == MoveKind::Pass
    }
    pub fn raw(self) -> u64 {
        self.0
    }
    pub fn from_raw(v: u64) -> Move {
        Move(v)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({}->{} {:?} p{:?} aux{})", self.from(), self.to(), self.kind(), self.promotion(), self.aux())
    }
}

impl Move {
    /// A multi-leg move from its legs (from cell, leap-vector index, to cell): the first leg is
    /// the move's from/to; each further leg is packed in 11 bits from bit 27 on (9-bit from
    /// cell, 2-bit vector index), and bits 60–61 hold the number of further legs.
    pub fn multi_leg(legs: &[(u16, u8, u16)]) -> Move {
        debug_assert!((1..=MAX_LEGS).contains(&legs.len()));
        let (from, _, to) = legs[0];
        let mut raw = from as u64 | (to as u64) << 9 | (MoveKind::Charge as u64) << KIND_SHIFT;
        for (i, &(f, dir, _)) in legs[1..].iter().enumerate() {
            raw |= (f as u64 | (dir as u64) << 9) << (LEGS_SHIFT + LEG_BITS * i as u32);
        }
        raw |= ((legs.len() - 1) as u64) << COUNT_SHIFT;
        Move(raw)
    }

    /// The further legs of a multi-leg move as (from cell, leap-vector index).
    pub fn further_legs(self) -> ArrayVec<(usize, usize), MAX_LEGS> {
        let extra = ((self.0 >> COUNT_SHIFT) & 3) as usize;
        (0..extra)
            .map(|i| {
                let bits = self.0 >> (LEGS_SHIFT + LEG_BITS * i as u32);
                ((bits & 511) as usize, ((bits >> 9) & 3) as usize)
            })
            .collect()
    }
}

/// One leap of a multi-leg move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leg {
    pub from: usize,
    pub to: usize,
}
