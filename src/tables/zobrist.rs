//! Zobrist keys: one random 64-bit key per man on each cell and per piece of state, so that a
//! position's hash is the xor of the keys of what it holds.

use crate::types::{Cell, MAX_PLAYERS, PieceType, Player};

pub struct Zobrist {
    ntypes: usize,
    nplayers: usize,
    ncells: usize,
    /// [cell][type][owner][orientation], flattened.
    pieces: Vec<u64>,
    /// Per cell: the flag of a first mater's promoted man.
    flag: Vec<u64>,
    pub to_move: [u64; MAX_PLAYERS],
    pub active: [u64; MAX_PLAYERS],
    pub castling: Vec<u64>,
    /// Per double-stepping player and skipped cell (two players' rights may share a cell).
    ep: Vec<u64>,
}

/// SplitMix64: a fixed sequence, so hashes are the same on every run.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Zobrist {
    pub fn new(ncells: usize, ntypes: usize, nplayers: usize, castles: usize) -> Self {
        let mut seed = 0x7E55_E8A0_0000_0001u64 ^ (ncells as u64) << 32 ^ (ntypes as u64) << 16;
        Zobrist {
            ntypes,
            nplayers,
            ncells,
            pieces: (0..ncells * ntypes * nplayers * nplayers).map(|_| splitmix(&mut seed)).collect(),
            flag: (0..ncells).map(|_| splitmix(&mut seed)).collect(),
            to_move: std::array::from_fn(|_| splitmix(&mut seed)),
            active: std::array::from_fn(|_| splitmix(&mut seed)),
            castling: (0..castles).map(|_| splitmix(&mut seed)).collect(),
            ep: (0..ncells * nplayers).map(|_| splitmix(&mut seed)).collect(),
        }
    }

    /// The key of a man of type `t`, owned by `owner` with orientation `orient`, on `cell`.
    #[inline(always)]
    pub fn piece(&self, cell: Cell, t: PieceType, owner: Player, orient: Player) -> u64 {
        self.pieces[((cell.index() * self.ntypes + t.index()) * self.nplayers + owner.index()) * self.nplayers + orient.index()]
    }

    /// The key of the flag of a first mater's promoted man on `cell`.
    #[inline(always)]
    pub fn flag(&self, cell: Cell) -> u64 {
        self.flag[cell.index()]
    }

    /// The key of `player`'s en passant right over `skipped`.
    #[inline(always)]
    pub fn ep(&self, player: Player, skipped: Cell) -> u64 {
        self.ep[player.index() * self.ncells + skipped.index()]
    }
}
