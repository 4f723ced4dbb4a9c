//! Perft: the number of move paths of a given length (rules README, "Perft").

use crate::position::{Move, Position};

impl<const W: usize> Position<W> {
    /// Number of leaf nodes `depth` plies below.
    pub fn perft(&mut self, depth: u32) -> u64 {
        let mut buffers = vec![Vec::with_capacity(256); depth as usize + 1];
        self.perft_with(depth, &mut buffers)
    }

    fn perft_with(&mut self, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
        if depth == 0 {
            return 1;
        }
        let (list, rest) = buffers.split_first_mut().expect("one buffer per ply");
        self.legal_moves(list);
        if depth == 1 {
            return list.len() as u64;
        }
        let mut total = 0;
        for &mv in list.iter() {
            let undo = self.make(mv);
            total += self.perft_with(depth - 1, rest);
            self.unmake(mv, undo);
        }
        total
    }

    /// Perft split by first move.
    pub fn divide(&mut self, depth: u32) -> Vec<(Move, u64)> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves
            .into_iter()
            .map(|mv| {
                let undo = self.make(mv);
                let n = if depth <= 1 { 1 } else { self.perft(depth - 1) };
                self.unmake(mv, undo);
                (mv, n)
            })
            .collect()
    }
}
