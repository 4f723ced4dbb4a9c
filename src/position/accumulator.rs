//! A network's first layer kept as men move (NNUE's accumulators): per player's perspective, the
//! units' biases plus the input weights of every man on the board. Kept like the piece-square
//! sums, by level: `make` makes the level above from the current one and the columns of the men
//! its move put on and took off, in one pass; `unmake` steps back down instead of subtracting.
//! `put` and `take` outside a move add and subtract a man's column at once.
//!
//! The evaluation builds the weights (`eval::network`) and gives them to positions
//! (`Evaluator::prepare`); a position without them is evaluated from scratch.

use std::sync::Arc;

use arrayvec::ArrayVec;

use super::{Man, Position};
use crate::simd::{add_column, combine};
use crate::types::{Cell, PieceType, Player};

/// A first layer's weights, a column of `hidden` per man (perspective, owner, type, cell).
#[derive(Debug)]
pub struct InputWeights {
    hidden: usize,
    nplayers: usize,
    ntypes: usize,
    ncells: usize,
    /// Per (perspective, owner, type, cell), where its column starts in `columns`.
    starts: Vec<u32>,
    columns: Vec<i32>,
    bias: Vec<i32>,
}

impl InputWeights {
    /// The weights whose column for a man of `owner` and `kind` on `cell`, seen from
    /// `perspective`, is number `column(perspective, owner, kind, cell)` of `columns` (each
    /// `bias.len()` long). Columns may be shared: a network's inputs are relative to the viewer.
    /// Weights and biases are 16-bit values, so that the sums of any board's men stay far within
    /// 32 bits.
    pub fn new(
        nplayers: usize,
        ntypes: usize,
        ncells: usize,
        bias: Vec<i32>,
        columns: Vec<i32>,
        column: impl Fn(Player, Player, PieceType, Cell) -> usize,
    ) -> Self {
        let hidden = bias.len();
        assert!(columns.iter().chain(&bias).all(|&w| i16::try_from(w).is_ok()), "a weight beyond 16 bits");
        let mut starts = Vec::with_capacity(nplayers * nplayers * ntypes * ncells);
        for perspective in Player::all(nplayers) {
            for owner in Player::all(nplayers) {
                for kind in PieceType::all(ntypes) {
                    for c in 0..ncells {
                        let start = column(perspective, owner, kind, Cell::new(c)) * hidden;
                        assert!(start + hidden <= columns.len(), "a column beyond the weights");
                        starts.push(u32::try_from(start).expect("weights below 2^32"));
                    }
                }
            }
        }
        InputWeights { hidden, nplayers, ntypes, ncells, starts, columns, bias }
    }

    pub fn hidden(&self) -> usize {
        self.hidden
    }

    #[inline(always)]
    fn column(&self, perspective: Player, m: Man, cell: Cell) -> &[i32] {
        let i = ((perspective.index() * self.nplayers + m.owner().index()) * self.ntypes + m.kind().index()) * self.ncells + cell.index();
        let start = self.starts[i] as usize;
        &self.columns[start..start + self.hidden]
    }

    /// The sums seen from `perspective` over the men of `pos`, into `out` (`hidden` long).
    pub fn sums_from_scratch<const W: usize>(&self, pos: &Position<W>, perspective: Player, out: &mut [i32]) {
        out.copy_from_slice(&self.bias);
        for c in pos.occupied() {
            add_column::<false>(out, self.column(perspective, pos.man_at(c), c));
        }
    }
}

/// Men a move puts on and takes off, held until the move is complete so that its sums are made
/// from the level below in one pass (most moves move one man and capture at most one).
const PENDING: usize = 4;

/// The sums per level of `make` (the position's own at `level`), per perspective.
#[derive(Clone)]
pub(super) struct Accumulators {
    weights: Arc<InputWeights>,
    sums: Vec<i32>,
    level: usize,
    /// Between `push` and `commit`: the current level is not made yet, these men are its change.
    open: bool,
    put: ArrayVec<(Cell, Man), PENDING>,
    taken: ArrayVec<(Cell, Man), PENDING>,
}

impl Accumulators {
    pub(super) fn new<const W: usize>(weights: Arc<InputWeights>, pos: &Position<W>) -> Self {
        let width = weights.nplayers * weights.hidden;
        let mut sums = vec![0; width];
        for (p, out) in sums.chunks_exact_mut(weights.hidden).enumerate() {
            weights.sums_from_scratch(pos, Player::new(p), out);
        }
        Accumulators { weights, sums, level: 0, open: false, put: ArrayVec::new(), taken: ArrayVec::new() }
    }

    fn width(&self) -> usize {
        self.weights.nplayers * self.weights.hidden
    }

    /// The position's sums seen from `perspective`, where they were made with `weights`.
    pub(super) fn sums(&self, weights: &Arc<InputWeights>, perspective: Player) -> Option<&[i32]> {
        debug_assert!(!self.open, "a move's sums read before its commit");
        let h = self.weights.hidden;
        let start = self.level * self.width() + perspective.index() * h;
        Arc::ptr_eq(&self.weights, weights).then(|| &self.sums[start..start + h])
    }

    /// Before a move: a level up, made from this one at [`Accumulators::commit`].
    #[inline(always)]
    pub(super) fn push(&mut self) {
        let width = self.width();
        if self.sums.len() < (self.level + 2) * width {
            self.sums.resize((self.level + 2) * width, 0);
        }
        self.level += 1;
        self.open = true;
        self.put.clear();
        self.taken.clear();
    }

    /// After the move's men are placed: its level made from the one below and its men.
    #[inline(always)]
    pub(super) fn commit(&mut self) {
        if !self.open {
            return;
        }
        self.open = false;
        let (width, h) = (self.width(), self.weights.hidden);
        let (below, level) = self.sums.split_at_mut(self.level * width);
        let below = &below[(self.level - 1) * width..];
        for (p, (out, from)) in level[..width].chunks_exact_mut(h).zip(below.chunks_exact(h)).enumerate() {
            let p = Player::new(p);
            let (mut put, mut taken): ([&[i32]; PENDING], [&[i32]; PENDING]) = ([&[]; PENDING], [&[]; PENDING]);
            for (column, &(c, m)) in put.iter_mut().zip(&self.put) {
                *column = self.weights.column(p, m, c);
            }
            for (column, &(c, m)) in taken.iter_mut().zip(&self.taken) {
                *column = self.weights.column(p, m, c);
            }
            combine(out, from, &put[..self.put.len()], &taken[..self.taken.len()]);
        }
    }

    /// After the move is taken back: the level below, as it was.
    #[inline(always)]
    pub(super) fn pop(&mut self) {
        self.level -= 1;
    }

    #[inline(always)]
    pub(super) fn put(&mut self, cell: Cell, m: Man) {
        self.change::<false>(cell, m);
    }

    #[inline(always)]
    pub(super) fn take(&mut self, cell: Cell, m: Man) {
        self.change::<true>(cell, m);
    }

    /// A man put on (taken off) `cell`: held for the open move, else summed at once.
    #[inline(always)]
    fn change<const TAKEN: bool>(&mut self, cell: Cell, m: Man) {
        if self.open {
            let men = if TAKEN { &mut self.taken } else { &mut self.put };
            if men.try_push((cell, m)).is_ok() {
                return;
            }
            // More men than a move usually moves (a Charge's leaps): the rest one by one.
            self.commit();
        }
        let width = self.width();
        let (weights, level) = (&self.weights, self.level);
        for (p, sums) in self.sums[level * width..(level + 1) * width].chunks_exact_mut(weights.hidden).enumerate() {
            add_column::<TAKEN>(sums, weights.column(Player::new(p), m, cell));
        }
    }
}

#[cfg(test)]
impl InputWeights {
    /// Distinct columns of three weights for every man, for tests of the incremental sums.
    pub(crate) fn arbitrary(nplayers: usize, ntypes: usize, ncells: usize) -> Self {
        let men = nplayers * nplayers * ntypes * ncells;
        let columns = (0..men * 3).map(|i| (i * 7919 % 2003) as i32 - 1000).collect();
        let column =
            |p: Player, o: Player, t: PieceType, c: Cell| ((p.index() * nplayers + o.index()) * ntypes + t.index()) * ncells + c.index();
        InputWeights::new(nplayers, ntypes, ncells, vec![5, -7, 11], columns, column)
    }
}
