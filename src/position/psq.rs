//! Piece-square values: one number per (type, orientation, cell) that the position sums per owner
//! as men are put and taken, so that the evaluation's material and placement terms cost nothing
//! per node. The evaluator fills the table; the position only adds it up.

use crate::types::{Cell, PieceType, Player};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSquare {
    nplayers: usize,
    ncells: usize,
    /// [type][orientation][cell], flattened.
    values: Vec<i32>,
}

impl PieceSquare {
    /// All zero: positions sum nothing until an evaluator gives them its table.
    pub fn zero(ntypes: usize, nplayers: usize, ncells: usize) -> Self {
        PieceSquare { nplayers, ncells, values: vec![0; ntypes * nplayers * ncells] }
    }

    /// The table whose entry for (type, orientation, cell) is `f` of them.
    pub fn from_fn(ntypes: usize, nplayers: usize, ncells: usize, mut f: impl FnMut(PieceType, Player, Cell) -> i32) -> Self {
        let mut values = Vec::with_capacity(ntypes * nplayers * ncells);
        for t in PieceType::all(ntypes) {
            for o in Player::all(nplayers) {
                values.extend((0..ncells).map(|c| f(t, o, Cell::new(c))));
            }
        }
        PieceSquare { nplayers, ncells, values }
    }

    #[inline(always)]
    pub fn value(&self, t: PieceType, orientation: Player, cell: Cell) -> i32 {
        self.values[(t.index() * self.nplayers + orientation.index()) * self.ncells + cell.index()]
    }
}

#[cfg(test)]
impl PieceSquare {
    /// Distinct values for every entry, for tests of the incremental sums.
    pub(crate) fn arbitrary(ntypes: usize, nplayers: usize, ncells: usize) -> Self {
        Self::from_fn(ntypes, nplayers, ncells, |t, o, c| ((t.index() * 7 + o.index() * 13 + c.index() * 31) % 1009) as i32 - 500)
    }
}
