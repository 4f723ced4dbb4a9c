//! Piece-square values: a middle-game and an end-game number per (type, orientation, cell) that
//! the position sums per owner as men are put and taken, so that the evaluation's material and
//! placement terms cost nothing per node. The evaluator fills the table; the position only adds
//! it up.

use std::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};

use crate::types::{Cell, PieceType, Player};

/// A value in the middle game and in the end game, blended by the game's phase when a position
/// is evaluated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tapered {
    pub mg: i32,
    pub eg: i32,
}

/// The phase of a full board; 0 is a bare one.
pub const PHASE_FULL: i32 = 256;

impl Tapered {
    pub const ZERO: Tapered = Tapered { mg: 0, eg: 0 };

    pub const fn new(mg: i32, eg: i32) -> Self {
        Tapered { mg, eg }
    }

    /// The same value in both phases.
    pub const fn flat(v: i32) -> Self {
        Tapered { mg: v, eg: v }
    }

    /// The value at `phase` (0: end game, [`PHASE_FULL`]: middle game).
    #[inline(always)]
    pub fn blend(self, phase: i32) -> i32 {
        (self.mg * phase + self.eg * (PHASE_FULL - phase)) / PHASE_FULL
    }
}

impl Add for Tapered {
    type Output = Tapered;
    #[inline(always)]
    fn add(self, o: Tapered) -> Tapered {
        Tapered { mg: self.mg + o.mg, eg: self.eg + o.eg }
    }
}

impl Sub for Tapered {
    type Output = Tapered;
    #[inline(always)]
    fn sub(self, o: Tapered) -> Tapered {
        Tapered { mg: self.mg - o.mg, eg: self.eg - o.eg }
    }
}

impl AddAssign for Tapered {
    #[inline(always)]
    fn add_assign(&mut self, o: Tapered) {
        *self = *self + o;
    }
}

impl SubAssign for Tapered {
    #[inline(always)]
    fn sub_assign(&mut self, o: Tapered) {
        *self = *self - o;
    }
}

impl Neg for Tapered {
    type Output = Tapered;
    fn neg(self) -> Tapered {
        Tapered { mg: -self.mg, eg: -self.eg }
    }
}

impl Div<i32> for Tapered {
    type Output = Tapered;
    #[inline(always)]
    fn div(self, k: i32) -> Tapered {
        Tapered { mg: self.mg / k, eg: self.eg / k }
    }
}

impl Mul<i32> for Tapered {
    type Output = Tapered;
    #[inline(always)]
    fn mul(self, k: i32) -> Tapered {
        Tapered { mg: self.mg * k, eg: self.eg * k }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSquare {
    nplayers: usize,
    ncells: usize,
    /// [type][orientation][cell], flattened.
    values: Vec<Tapered>,
}

impl PieceSquare {
    /// All zero: positions sum nothing until an evaluator gives them its table.
    pub fn zero(ntypes: usize, nplayers: usize, ncells: usize) -> Self {
        PieceSquare { nplayers, ncells, values: vec![Tapered::ZERO; ntypes * nplayers * ncells] }
    }

    /// The table whose entry for (type, orientation, cell) is `f` of them.
    pub fn from_fn(ntypes: usize, nplayers: usize, ncells: usize, mut f: impl FnMut(PieceType, Player, Cell) -> Tapered) -> Self {
        let mut values = Vec::with_capacity(ntypes * nplayers * ncells);
        for t in PieceType::all(ntypes) {
            for o in Player::all(nplayers) {
                values.extend((0..ncells).map(|c| f(t, o, Cell::new(c))));
            }
        }
        PieceSquare { nplayers, ncells, values }
    }

    #[inline(always)]
    pub fn value(&self, t: PieceType, orientation: Player, cell: Cell) -> Tapered {
        self.values[(t.index() * self.nplayers + orientation.index()) * self.ncells + cell.index()]
    }
}

#[cfg(test)]
impl PieceSquare {
    /// Distinct values for every entry, for tests of the incremental sums.
    pub(crate) fn arbitrary(ntypes: usize, nplayers: usize, ncells: usize) -> Self {
        Self::from_fn(ntypes, nplayers, ncells, |t, o, c| {
            let v = ((t.index() * 7 + o.index() * 13 + c.index() * 31) % 1009) as i32 - 500;
            Tapered::new(v, 3 * v / 2)
        })
    }
}
