//! Perft: the number of move paths of a given length (rules README, "Perft").

use std::sync::atomic::{AtomicBool, Ordering};

use crate::position::{Move, Position};

/// Subtrees at least this deep look at the stop flag first (smaller ones finish at once).
const STOP_CHECK_DEPTH: u32 = 3;

impl<const W: usize> Position<W> {
    /// Number of leaf nodes `depth` plies below.
    pub fn perft(&mut self, depth: u32) -> u64 {
        self.perft_until(depth, &AtomicBool::new(false)).unwrap_or(0)
    }

    /// [`Position::perft`], or `None` if `stop` was set before it finished.
    pub fn perft_until(&mut self, depth: u32, stop: &AtomicBool) -> Option<u64> {
        let mut buffers = vec![Vec::with_capacity(256); depth as usize + 1];
        self.without_network_sums(|pos| pos.perft_with(depth, &mut buffers, stop))
    }

    fn perft_with(&mut self, depth: u32, buffers: &mut [Vec<Move>], stop: &AtomicBool) -> Option<u64> {
        if depth == 0 {
            return Some(1);
        }
        if depth >= STOP_CHECK_DEPTH && stop.load(Ordering::Relaxed) {
            return None;
        }
        let (list, rest) = buffers.split_first_mut().expect("one buffer per ply");
        self.legal_moves(list);
        if depth == 1 {
            return Some(list.len() as u64);
        }
        let mut total = 0;
        for &mv in list.iter() {
            let undo = self.make(mv);
            let n = self.perft_with(depth - 1, rest, stop);
            self.unmake(mv, undo);
            total += n?;
        }
        Some(total)
    }

    /// Perft split by first move: `each` gets every legal move with its count, as soon as it is
    /// known. False if `stop` was set before the end.
    pub fn divide_until(&mut self, depth: u32, stop: &AtomicBool, each: &mut dyn FnMut(Move, u64)) -> bool {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        for mv in moves {
            let undo = self.make(mv);
            let n = if depth <= 1 { Some(1) } else { self.perft_until(depth - 1, stop) };
            self.unmake(mv, undo);
            match n {
                Some(n) => each(mv, n),
                None => return false,
            }
        }
        true
    }

    /// Perft split by first move.
    pub fn divide(&mut self, depth: u32) -> Vec<(Move, u64)> {
        let mut out = Vec::new();
        self.divide_until(depth, &AtomicBool::new(false), &mut |mv, n| out.push((mv, n)));
        out
    }
}
