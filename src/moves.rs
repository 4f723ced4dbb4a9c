//! Men and moves as compact values. A man is a type, an owner, an orientation and a flag in 16
//! bits; a move is from, to, promotion, kind and one auxiliary cell, or the legs of a multi-leg
//! move, in 64 bits. No strings here: `notation` reads and writes them.

use std::fmt;

use arrayvec::ArrayVec;

use crate::types::{Cell, PieceType, Player};

/// A man on the board: type, owner, orientation (whose "forward" it uses) and a flag.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Man(u16);

impl Man {
    pub const NONE: Man = Man(u16::MAX);
    /// Set on the Emperor and the promoted deliverer of a player's first checkmate.
    const FLAG: u16 = 1 << 10;

    #[inline(always)]
    pub fn new(kind: PieceType, owner: Player, orientation: Player) -> Man {
        Man(u16::from(kind.raw()) | u16::from(owner.raw()) << 6 | u16::from(orientation.raw()) << 8)
    }
    #[inline(always)]
    pub fn is_none(self) -> bool {
        self.0 == u16::MAX
    }
    #[inline(always)]
    pub fn is_some(self) -> bool {
        self.0 != u16::MAX
    }
    #[inline(always)]
    pub fn kind(self) -> PieceType {
        PieceType::new(usize::from(self.0 & 63))
    }
    #[inline(always)]
    pub fn owner(self) -> Player {
        Player::new(usize::from((self.0 >> 6) & 3))
    }
    #[inline(always)]
    pub fn orientation(self) -> Player {
        Player::new(usize::from((self.0 >> 8) & 3))
    }
    #[inline(always)]
    pub fn flagged(self) -> bool {
        self.0 & Self::FLAG != 0
    }
    pub fn with_kind(self, kind: PieceType) -> Man {
        Man((self.0 & !63) | u16::from(kind.raw()))
    }
    pub fn with_owner(self, owner: Player) -> Man {
        Man((self.0 & !(3 << 6)) | u16::from(owner.raw()) << 6)
    }
    pub fn with_orientation(self, orientation: Player) -> Man {
        Man((self.0 & !(3 << 8)) | u16::from(orientation.raw()) << 8)
    }
    pub fn with_flag(self, on: bool) -> Man {
        if on { Man(self.0 | Self::FLAG) } else { Man(self.0 & !Self::FLAG) }
    }
}

impl fmt::Debug for Man {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            write!(f, "Man(none)")
        } else {
            let flag = if self.flagged() { " *" } else { "" };
            write!(f, "Man({:?} {:?} o{:?}{flag})", self.kind(), self.owner(), self.orientation())
        }
    }
}

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
    pub fn new(from: Cell, to: Cell) -> Move {
        Move(u64::from(from.raw()) | u64::from(to.raw()) << 9)
    }
    #[inline(always)]
    pub fn with_promotion(self, kind: PieceType) -> Move {
        Move(self.0 | ((u64::from(kind.raw()) + 1) << 18))
    }
    /// A move of a special kind with its auxiliary value (see [`Move::aux`]).
    #[inline(always)]
    fn special(from: Cell, to: Cell, kind: MoveKind, aux: usize) -> Move {
        Move(from.index() as u64 | (to.index() as u64) << 9 | (kind as u64) << KIND_SHIFT | (aux as u64) << LEGS_SHIFT)
    }
    /// A pawn's double step over `skipped`.
    #[inline(always)]
    pub fn double_step(from: Cell, to: Cell, skipped: Cell) -> Move {
        Move::special(from, to, MoveKind::DoubleStep, skipped.index())
    }
    /// An en passant capture of the pawn on `victim`.
    #[inline(always)]
    pub fn en_passant(from: Cell, to: Cell, victim: Cell) -> Move {
        Move::special(from, to, MoveKind::EnPassant, victim.index())
    }
    /// Castling number `index` of the game's list (the King's move from and to).
    #[inline(always)]
    pub fn castle(from: Cell, to: Cell, index: usize) -> Move {
        Move::special(from, to, MoveKind::Castle, index)
    }
    #[inline(always)]
    pub fn from(self) -> Cell {
        Cell::new((self.0 & 511) as usize)
    }
    #[inline(always)]
    pub fn to(self) -> Cell {
        Cell::new(((self.0 >> 9) & 511) as usize)
    }
    #[inline(always)]
    pub fn promotion(self) -> Option<PieceType> {
        match (self.0 >> 18) & 63 {
            0 => None,
            p => Some(PieceType::new(usize::from(p as u8) - 1)),
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
    /// The skipped cell of a double step, the captured pawn's cell of an en passant capture.
    #[inline(always)]
    pub fn aux_cell(self) -> Cell {
        Cell::new(self.aux())
    }
    /// The castling number of a castling move.
    #[inline(always)]
    pub fn castle_index(self) -> usize {
        self.aux()
    }
    #[inline(always)]
    fn aux(self) -> usize {
        ((self.0 >> LEGS_SHIFT) & 511) as usize
    }
    /// The cell of the man a capture removes (`to`, or the pawn taken en passant), if it is a
    /// one-leg move.
    #[inline(always)]
    pub fn victim_cell(self) -> Cell {
        if self.kind() == MoveKind::EnPassant { self.aux_cell() } else { self.to() }
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
        write!(f, "Move({:?}->{:?} {:?} p{:?} aux{})", self.from(), self.to(), self.kind(), self.promotion(), self.aux())
    }
}

impl Move {
    /// A multi-leg move from its legs (from cell, leap-vector index, to cell): the first leg is
    /// the move's from/to; each further leg is packed in 11 bits from bit 27 on (9-bit from
    /// cell, 2-bit vector index), and bits 60–61 hold the number of further legs.
    pub fn multi_leg(legs: &[(Cell, u8, Cell)]) -> Move {
        debug_assert!((1..=MAX_LEGS).contains(&legs.len()));
        let (from, _, to) = legs[0];
        let mut raw = from.index() as u64 | (to.index() as u64) << 9 | (MoveKind::Charge as u64) << KIND_SHIFT;
        for (shift, &(f, dir, _)) in (LEGS_SHIFT..).step_by(LEG_BITS as usize).zip(&legs[1..]) {
            raw |= (f.index() as u64 | u64::from(dir) << 9) << shift;
        }
        raw |= ((legs.len() - 1) as u64) << COUNT_SHIFT;
        Move(raw)
    }

    /// The further legs of a multi-leg move as (from cell, leap-vector index).
    pub fn further_legs(self) -> ArrayVec<(Cell, usize), MAX_LEGS> {
        let extra = ((self.0 >> COUNT_SHIFT) & 3) as usize;
        (LEGS_SHIFT..)
            .step_by(LEG_BITS as usize)
            .take(extra)
            .map(|shift| {
                let bits = self.0 >> shift;
                (Cell::new((bits & 511) as usize), ((bits >> 9) & 3) as usize)
            })
            .collect()
    }
}

/// One leap of a multi-leg move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leg {
    pub from: Cell,
    pub to: Cell,
}
