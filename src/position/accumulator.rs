//! A network's first layer kept as men move (NNUE's accumulators): per player's perspective, the
//! units' biases plus the input weights of every man on the board. Kept like the piece-square
//! sums, by level: `make` makes the level above from the current one and the columns of the men
//! its move put on and took off, in one pass; `unmake` steps back down instead of subtracting.
//! `put` and `take` outside a move add and subtract a man's column at once.
//!
//! A perspective's columns may depend on where its own royal piece stands (its *view*: NNUE's
//! horizontal mirroring). A move that changes a perspective's view sums that perspective afresh.
//!
//! The sums are 16-bit and wrap: made as men move or afresh, they agree modulo 2^16, and a
//! network's reader refuses weights whose true sums could leave 16 bits (`eval::network`), so
//! that the sums are the true ones and a register holds twice as many as 32-bit sums would.
//!
//! The evaluation builds the weights (`eval::network`) and gives them to positions
//! (`Evaluator::prepare`); a position without them is evaluated from scratch.

use std::sync::Arc;

use arrayvec::ArrayVec;

use super::{Man, Position};
use crate::simd::{add_column, combine};
use crate::types::{Cell, PieceType, Player};

/// A first layer's weights, a column of `hidden` per man (view, perspective, owner, type, cell).
#[derive(Debug)]
pub struct InputWeights {
    hidden: usize,
    nplayers: usize,
    ntypes: usize,
    ncells: usize,
    /// Per (perspective, cell of its royal piece), the perspective's view; 0 without one.
    views: Vec<u8>,
    /// Per (view, perspective, owner, type, cell), where its column starts in `columns`.
    starts: Vec<u32>,
    columns: Vec<i16>,
    bias: Vec<i16>,
}

impl InputWeights {
    /// The weights whose column for a man of `owner` and `kind` on `cell`, seen from
    /// `perspective` in view `v`, is number `column(v, perspective, owner, kind, cell)` of
    /// `columns` (each `bias.len()` long), where of `(views, view)` `view(perspective, cell)`
    /// (below `views`) is a perspective's view with its royal piece on `cell`. Columns may be shared: a network's
    /// inputs are relative to the viewer.
    pub fn new(
        nplayers: usize,
        ntypes: usize,
        ncells: usize,
        bias: Vec<i16>,
        columns: Vec<i16>,
        (views, view): (usize, impl Fn(Player, Cell) -> usize),
        column: impl Fn(usize, Player, Player, PieceType, Cell) -> usize,
    ) -> Self {
        let hidden = bias.len();
        assert!((1..=usize::from(u8::MAX)).contains(&views), "views from 1 to 255");
        let mut starts = Vec::with_capacity(views * nplayers * nplayers * ntypes * ncells);
        for v in 0..views {
            for perspective in Player::all(nplayers) {
                for owner in Player::all(nplayers) {
                    for kind in PieceType::all(ntypes) {
                        for c in 0..ncells {
                            let start = column(v, perspective, owner, kind, Cell::new(c)) * hidden;
                            assert!(start + hidden <= columns.len(), "a column beyond the weights");
                            starts.push(u32::try_from(start).expect("weights below 2^32"));
                        }
                    }
                }
            }
        }
        let views = Player::all(nplayers)
            .flat_map(|p| (0..ncells).map(move |c| (p, Cell::new(c))))
            .map(|(p, c)| view(p, c))
            .inspect(|&v| assert!(v < views, "a view beyond the views"))
            .map(|v| v as u8)
            .collect();
        InputWeights { hidden, nplayers, ntypes, ncells, views, starts, columns, bias }
    }

    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// `perspective`'s view of `pos`: by its royal piece's cell.
    #[inline(always)]
    fn view<const W: usize>(&self, pos: &Position<W>, perspective: Player) -> u8 {
        pos.royal_cell(perspective).map_or(0, |c| self.views[perspective.index() * self.ncells + c.index()])
    }

    #[inline(always)]
    fn column(&self, view: u8, perspective: Player, m: Man, cell: Cell) -> &[i16] {
        let i = (((usize::from(view) * self.nplayers + perspective.index()) * self.nplayers + m.owner().index()) * self.ntypes
            + m.kind().index())
            * self.ncells
            + cell.index();
        let start = self.starts[i] as usize;
        &self.columns[start..start + self.hidden]
    }

    /// The sums seen from `perspective` over the men of `pos`, into `out` (`hidden` long).
    pub fn sums_from_scratch<const W: usize>(&self, pos: &Position<W>, perspective: Player, out: &mut [i16]) {
        let view = self.view(pos, perspective);
        out.copy_from_slice(&self.bias);
        for c in pos.occupied() {
            add_column::<false>(out, self.column(view, perspective, pos.man_at(c), c));
        }
    }
}

/// Men a move puts on and takes off, held until the move is complete so that its sums are made
/// from the level below in one pass (most moves move one man and capture at most one).
const PENDING: usize = 4;

/// A level's view of a perspective whose sums are not kept: men were put on or taken off outside
/// a move, where the royal pieces' cells are not known.
const UNKNOWN: u8 = u8::MAX;

/// The sums per level of `make` (the position's own at `level`), per perspective.
#[derive(Clone)]
pub(super) struct Accumulators {
    weights: Arc<InputWeights>,
    sums: Vec<i16>,
    /// Per level and perspective, the view its sums were made in.
    views: Vec<u8>,
    level: usize,
    /// Between `push` and `commit`: the current level is not made yet, these men are its change.
    open: bool,
    /// The open move moved more men than are held: its level is summed afresh.
    overflow: bool,
    put: ArrayVec<(Cell, Man), PENDING>,
    taken: ArrayVec<(Cell, Man), PENDING>,
}

impl Accumulators {
    pub(super) fn new<const W: usize>(weights: Arc<InputWeights>, pos: &Position<W>) -> Self {
        let (np, h) = (weights.nplayers, weights.hidden);
        let mut a = Accumulators {
            sums: vec![0; np * h],
            views: vec![UNKNOWN; np],
            weights,
            level: 0,
            open: false,
            overflow: false,
            put: ArrayVec::new(),
            taken: ArrayVec::new(),
        };
        for p in Player::all(np) {
            a.refresh(pos, p);
        }
        a
    }

    fn width(&self) -> usize {
        self.weights.nplayers * self.weights.hidden
    }

    /// The current level's sums seen from `p`, made afresh from `pos`.
    fn refresh<const W: usize>(&mut self, pos: &Position<W>, p: Player) {
        let (width, h) = (self.width(), self.weights.hidden);
        let start = self.level * width + p.index() * h;
        self.weights.sums_from_scratch(pos, p, &mut self.sums[start..start + h]);
        self.views[self.level * self.weights.nplayers + p.index()] = self.weights.view(pos, p);
    }

    /// The position's sums seen from `perspective`, where they were made with `weights`.
    pub(super) fn sums(&self, weights: &Arc<InputWeights>, perspective: Player) -> Option<&[i16]> {
        debug_assert!(!self.open, "a move's sums read before its commit");
        let h = self.weights.hidden;
        let start = self.level * self.width() + perspective.index() * h;
        let known = self.views[self.level * self.weights.nplayers + perspective.index()] != UNKNOWN;
        (known && Arc::ptr_eq(&self.weights, weights)).then(|| &self.sums[start..start + h])
    }

    /// Before a move: a level up, made from this one at [`Accumulators::commit`].
    #[inline(always)]
    pub(super) fn push(&mut self) {
        let width = self.width();
        if self.sums.len() < (self.level + 2) * width {
            self.sums.resize((self.level + 2) * width, 0);
            self.views.resize((self.level + 2) * self.weights.nplayers, UNKNOWN);
        }
        self.level += 1;
        self.open = true;
        self.overflow = false;
        self.put.clear();
        self.taken.clear();
    }

    /// After the move's men are placed (`pos` is the position after it): its level made from
    /// the one below and its men, or afresh for a perspective whose view the move changed.
    #[inline(always)]
    pub(super) fn commit<const W: usize>(&mut self, pos: &Position<W>) {
        if !self.open {
            return;
        }
        self.open = false;
        let (width, h, np) = (self.width(), self.weights.hidden, self.weights.nplayers);
        let (below, level) = self.sums.split_at_mut(self.level * width);
        let below = &below[(self.level - 1) * width..];
        let (views_below, views) = self.views.split_at_mut(self.level * np);
        for (p, (out, from)) in level[..width].chunks_exact_mut(h).zip(below.chunks_exact(h)).enumerate() {
            let p = Player::new(p);
            let view = self.weights.view(pos, p);
            views[p.index()] = view;
            if self.overflow || views_below[(self.level - 1) * np + p.index()] != view {
                self.weights.sums_from_scratch(pos, p, out);
                continue;
            }
            let (mut put, mut taken): ([&[i16]; PENDING], [&[i16]; PENDING]) = ([&[]; PENDING], [&[]; PENDING]);
            for (column, &(c, m)) in put.iter_mut().zip(&self.put) {
                *column = self.weights.column(view, p, m, c);
            }
            for (column, &(c, m)) in taken.iter_mut().zip(&self.taken) {
                *column = self.weights.column(view, p, m, c);
            }
            combine(out, from, &put[..self.put.len()], &taken[..self.taken.len()]);
        }
    }

    /// The current level becomes the only one (the moves below it will not be taken back).
    pub(super) fn settle(&mut self) {
        debug_assert!(!self.open, "settled between a move's push and its commit");
        let (width, np) = (self.width(), self.weights.nplayers);
        self.sums.copy_within(self.level * width..(self.level + 1) * width, 0);
        self.views.copy_within(self.level * np..(self.level + 1) * np, 0);
        self.level = 0;
        self.sums.truncate(width);
        self.sums.shrink_to_fit();
        self.views.truncate(np);
        self.views.shrink_to_fit();
    }

    /// After the move is taken back: the level below, as it was (a move taken back from a copy
    /// of the position made before its commit included).
    #[inline(always)]
    pub(super) fn pop(&mut self) {
        self.level -= 1;
        self.open = false;
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
            // More men than a move usually moves (a Charge's leaps): the level is summed afresh.
            self.overflow |= men.try_push((cell, m)).is_err();
            return;
        }
        let (width, np) = (self.width(), self.weights.nplayers);
        let (weights, level) = (&self.weights, self.level);
        if weights.views.iter().any(|&v| v != 0) {
            // The royal piece may have moved: which view holds is not known here.
            self.views[level * np..(level + 1) * np].fill(UNKNOWN);
            return;
        }
        for (p, sums) in self.sums[level * width..(level + 1) * width].chunks_exact_mut(weights.hidden).enumerate() {
            add_column::<TAKEN>(sums, weights.column(0, Player::new(p), m, cell));
        }
    }
}

#[cfg(test)]
impl InputWeights {
    /// Distinct columns of three weights for every man in each of two views (a perspective's
    /// second where its royal piece stands on a cell whose index is a multiple of 3), for tests
    /// of the incremental sums.
    pub(crate) fn arbitrary(nplayers: usize, ntypes: usize, ncells: usize) -> Self {
        let men = nplayers * nplayers * ntypes * ncells;
        let columns = (0..2 * men * 3).map(|i| (i * 7919 % 2003) as i16 - 1000).collect();
        let view = |p: Player, c: Cell| usize::from((c.index() + p.index()).is_multiple_of(3));
        let column = |v: usize, p: Player, o: Player, t: PieceType, c: Cell| {
            (((v * nplayers + p.index()) * nplayers + o.index()) * ntypes + t.index()) * ncells + c.index()
        };
        InputWeights::new(nplayers, ntypes, ncells, vec![5, -7, 11], columns, (2, view), column)
    }
}
