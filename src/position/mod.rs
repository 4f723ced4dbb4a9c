//! The position: men on cells, whose turn it is, who is still playing, rights and counters.
//!
//! `make` (module [`make`]) applies a move, passes the turn to the next active player and carries
//! out that player's start-of-turn checkmates (rules README, step 6; module [`mate`]); `unmake`
//! restores the position exactly from the returned [`Undo`]. Module [`end`] says when the rules
//! end the game.

pub mod accumulator;
pub mod end;
mod make;
mod mate;
pub mod psq;
mod teams;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use arrayvec::ArrayVec;

use crate::bitboard::Bitboard;
pub use crate::moves::{Man, Move, MoveKind};
use crate::tables::Game;
use crate::types::{Cell, MAX_PLAYERS, PerPlayer, PerType, PieceType, Player, PlayerSet, TypeSet};
use accumulator::Accumulators;
pub use accumulator::InputWeights;
pub use end::{EndReason, GameEnd};
pub use make::Undo;
pub use psq::{PHASE_FULL, PieceSquare, Tapered};

/// An en passant opportunity created by a player's double step; it lasts until that player's
/// next turn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct EnPassant {
    pub skipped: Cell,
    pub victim: Cell,
}

/// The men on the board, one per cell, sized by the game's bitboard width.
#[derive(Clone)]
struct Board<const W: usize>([[Man; 64]; W]);

impl<const W: usize> Board<W> {
    #[inline(always)]
    fn get(&self, c: Cell) -> Man {
        self.0.as_flattened()[c.index()]
    }
    #[inline(always)]
    fn set(&mut self, c: Cell, m: Man) {
        self.0.as_flattened_mut()[c.index()] = m;
    }
}

#[derive(Clone)]
pub struct Position<const W: usize> {
    pub(crate) game: &'static Game<W>,
    board: Board<W>,
    pub(crate) by_owner: PerPlayer<Bitboard<W>>,
    pub(crate) by_orient: PerPlayer<Bitboard<W>>,
    pub(crate) by_type: PerType<Bitboard<W>>,
    /// The types with a man on the board: attack tests skip the patterns of types that are gone.
    pub(crate) types_present: TypeSet,
    pub(crate) occ: Bitboard<W>,
    pub(crate) to_move: Player,
    pub(crate) active: PlayerSet,
    pub(crate) castling: u32,
    pub(crate) ep: PerPlayer<Option<EnPassant>>,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
    /// Cell of each player's royal piece.
    pub(crate) royal: PerPlayer<Option<Cell>>,
    pub(crate) counts: PerPlayer<PerType<u8>>,
    /// The piece-square values summed per owner, kept incrementally.
    pub(crate) psq: PerPlayer<Tapered>,
    psq_table: Arc<PieceSquare>,
    /// A network's first-layer sums, kept incrementally where an evaluator gave its weights
    /// (boxed: the position stays small for the games without one).
    accumulators: Option<Box<Accumulators>>,
    /// Number of checkmates so far (N-player games).
    pub(crate) mates: u8,
    pub(crate) eliminated_by: PerPlayer<Option<Player>>,
    /// Eliminated players, first eliminated first.
    pub(crate) elimination_order: ArrayVec<Player, MAX_PLAYERS>,
    /// Set when a rule ends the game with a winner while others are still on the board.
    pub(crate) winner: Option<Player>,
    /// Players whose royal piece no opponent attacks (the facing rule apart), known from the
    /// moves that led here (`make`): the start-of-turn checkmate test leaves them out. Placing or
    /// removing a man outside a move forgets them all.
    pub(crate) unattacked: PlayerSet,
}

impl<const W: usize> Position<W> {
    /// An empty board, first player to move, everyone active.
    pub fn empty(game: &'static Game<W>) -> Self {
        let mut p = Position {
            game,
            board: Board([[Man::NONE; 64]; W]),
            by_owner: PerPlayer::splat(Bitboard::EMPTY),
            by_orient: PerPlayer::splat(Bitboard::EMPTY),
            by_type: PerType::splat(Bitboard::EMPTY),
            types_present: TypeSet::default(),
            occ: Bitboard::EMPTY,
            to_move: Player::new(0),
            active: PlayerSet::first(game.nplayers),
            castling: 0,
            ep: PerPlayer::splat(None),
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            royal: PerPlayer::splat(None),
            counts: PerPlayer::splat(PerType::splat(0)),
            psq: PerPlayer::splat(Tapered::ZERO),
            psq_table: Arc::new(PieceSquare::zero(game.ntypes, game.nplayers, game.ncells)),
            accumulators: None,
            mates: 0,
            eliminated_by: PerPlayer::splat(None),
            elimination_order: ArrayVec::new(),
            winner: None,
            unattacked: PlayerSet::EMPTY,
        };
        p.hash = p.compute_hash();
        p
    }

    /// The game's start position.
    pub fn start(game: &'static Game<W>) -> Self {
        let mut p = Self::empty(game);
        for s in &game.def.setup {
            p.put(s.cell, Man::new(s.kind, s.owner, s.owner));
        }
        p.castling = (1u32 << game.rules.castles.len()) - 1;
        p.hash = p.compute_hash();
        p
    }

    pub fn game(&self) -> &'static Game<W> {
        self.game
    }
    #[inline(always)]
    pub fn man_at(&self, cell: Cell) -> Man {
        self.board.get(cell)
    }
    pub fn to_move(&self) -> Player {
        self.to_move
    }
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The pawn-like men of every player.
    pub fn pawn_men(&self) -> Bitboard<W> {
        self.pieces_of_types(self.game.pawn_kinds.iter().copied())
    }

    /// A key of the pawn-like men's cells and owners (the pawn structure), computed afresh: the
    /// search's correction history asks for it where it evaluates. Only the words the board has
    /// are mixed, so that the key, and with it the play, does not depend on the bitboards' width.
    pub fn pawn_key(&self) -> u64 {
        const MIX: u64 = 0x9E37_79B9_7F4A_7C15;
        let pawns = self.pawn_men();
        let words = self.game.ncells.div_ceil(64);
        let mut h = 0u64;
        for p in self.game.players() {
            for &w in &(pawns & self.by_owner[p]).0[..words] {
                h = (h.rotate_left(23) ^ w).wrapping_mul(MIX);
            }
        }
        h ^ (h >> 31)
    }
    pub fn occupied(&self) -> Bitboard<W> {
        self.occ
    }
    pub fn pieces_of(&self, p: Player) -> Bitboard<W> {
        self.by_owner[p]
    }
    pub fn pieces_of_type(&self, t: PieceType) -> Bitboard<W> {
        self.by_type[t]
    }
    /// The men of `players`.
    #[inline(always)]
    pub fn pieces_of_set(&self, players: PlayerSet) -> Bitboard<W> {
        players.iter().fold(Bitboard::EMPTY, |b, p| b | self.by_owner[p])
    }
    /// The men of the given types.
    pub fn pieces_of_types(&self, types: impl IntoIterator<Item = PieceType>) -> Bitboard<W> {
        types.into_iter().fold(Bitboard::EMPTY, |b, t| b | self.by_type[t])
    }
    pub fn is_active(&self, p: Player) -> bool {
        self.active.has(p)
    }
    pub fn active_count(&self) -> usize {
        self.active.len()
    }
    pub fn active_players(&self) -> PlayerSet {
        self.active
    }
    pub fn castling_rights(&self) -> u32 {
        self.castling
    }
    pub fn en_passant(&self, p: Player) -> Option<EnPassant> {
        self.ep[p]
    }
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }
    pub fn royal_cell(&self, p: Player) -> Option<Cell> {
        self.royal[p]
    }
    /// Whether `p` has one man left (its royal piece, in a game still going): the mop-up's target.
    pub fn is_bare(&self, p: Player) -> bool {
        self.by_owner[p].count() == 1
    }
    /// Whether every opponent of `p` is bare: `p` is mopping up.
    pub fn opponents_bare(&self, p: Player) -> bool {
        self.opponents(p).iter().all(|q| self.is_bare(q))
    }
    pub fn count(&self, p: Player, kind: PieceType) -> u8 {
        self.counts[p][kind]
    }
    pub fn mates(&self) -> u8 {
        self.mates
    }
    pub fn eliminated_by(&self, p: Player) -> Option<Player> {
        self.eliminated_by[p]
    }
    /// Eliminated players in the order they went out.
    pub fn elimination_order(&self) -> &[Player] {
        &self.elimination_order
    }
    /// The winner decided by eliminations or a win rule (not by a mate-in-zero of two players).
    pub fn winner(&self) -> Option<Player> {
        self.winner.or_else(|| if self.active.len() == 1 { self.active.first_player() } else { None })
    }
    /// The winner decided by a winning rule while other players are still on the board.
    pub fn rule_winner(&self) -> Option<Player> {
        self.winner
    }
    pub fn set_rule_winner(&mut self, p: Player) {
        self.winner = Some(p);
    }
    /// True when eliminations or a win rule have ended the game.
    pub fn is_decided(&self) -> bool {
        self.winner.is_some() || self.active.len() <= 1
    }
    /// The piece-square values summed per player (see [`PieceSquare`]).
    pub fn piece_square_sums(&self) -> PerPlayer<Tapered> {
        self.psq
    }

    pub fn set_to_move(&mut self, p: Player) {
        self.to_move = p;
        self.hash = self.compute_hash();
    }
    pub fn set_active(&mut self, players: PlayerSet) {
        self.active = players;
        self.hash = self.compute_hash();
    }
    pub fn set_castling(&mut self, rights: u32) {
        self.castling = rights;
        self.hash = self.compute_hash();
    }
    pub fn set_en_passant(&mut self, p: Player, ep: Option<EnPassant>) {
        self.ep[p] = ep;
        self.hash = self.compute_hash();
    }
    pub fn set_counters(&mut self, halfmove: u32, fullmove: u32) {
        self.halfmove = halfmove;
        self.fullmove = fullmove.max(1);
    }
    /// The checkmate history: the number of checkmates, and each eliminated player with its mater
    /// in order of elimination.
    pub fn set_mate_state(&mut self, mates: u8, eliminations: &[(Player, Player)]) {
        self.mates = mates;
        self.eliminated_by = PerPlayer::splat(None);
        self.elimination_order.clear();
        for &(victim, mater) in eliminations {
            self.eliminated_by[victim] = Some(mater);
            self.elimination_order.push(victim);
        }
    }

    /// Sums the piece-square values of `table` from now on.
    pub fn set_piece_square(&mut self, table: Arc<PieceSquare>) {
        self.psq_table = table;
        self.psq = self.psq_from_scratch();
    }

    /// Keeps the sums of a network's input `weights` from now on (`None`: none).
    pub fn set_input_weights(&mut self, weights: Option<Arc<InputWeights>>) {
        self.accumulators = weights.map(|w| Box::new(Accumulators::new(w, self)));
    }

    /// Runs `walk`, which must leave the position as it found it, without keeping the network's
    /// sums on the way: they are for evaluating, and counting moves (perft) evaluates nothing.
    pub(crate) fn without_network_sums<R>(&mut self, walk: impl FnOnce(&mut Self) -> R) -> R {
        let sums = self.accumulators.take();
        let out = walk(self);
        self.accumulators = sums;
        out
    }

    /// The moves made so far will not be taken back (a game's moves, played for good): the
    /// network's sums keep only the current position's, so that a long game costs no memory.
    pub fn settle(&mut self) {
        if let Some(a) = &mut self.accumulators {
            a.settle();
        }
    }

    /// The sums of `weights` seen from `perspective`, where the position keeps them.
    #[inline(always)]
    pub fn input_sums(&self, weights: &Arc<InputWeights>, perspective: Player) -> Option<&[i16]> {
        self.accumulators.as_ref().and_then(|a| a.sums(weights, perspective))
    }

    /// Recomputes the per-player piece-square sums from scratch (for tests of the incremental
    /// update).
    pub fn psq_from_scratch(&self) -> PerPlayer<Tapered> {
        let mut s = PerPlayer::splat(Tapered::ZERO);
        for c in self.occ {
            let m = self.man_at(c);
            s[m.owner()] += self.psq_table.value(m.kind(), m.orientation(), c);
        }
        s
    }

    /// Next active player after `p` in turn order.
    #[inline(always)]
    pub fn next_active(&self, p: Player) -> Player {
        let n = self.game.nplayers;
        let mut q = p.index();
        for _ in 0..n {
            q = if q + 1 == n { 0 } else { q + 1 };
            if self.active.has(Player::new(q)) {
                return Player::new(q);
            }
        }
        p
    }

    #[inline(always)]
    fn man_key(&self, cell: Cell, m: Man) -> u64 {
        let z = &self.game.zobrist;
        let k = z.piece(cell, m.kind(), m.owner(), m.orientation());
        if m.flagged() { k ^ z.flag(cell) } else { k }
    }

    /// Places a man on an empty cell.
    #[inline(always)]
    pub fn put(&mut self, cell: Cell, m: Man) {
        debug_assert!(self.man_at(cell).is_none());
        self.unattacked = PlayerSet::EMPTY;
        self.board.set(cell, m);
        self.by_owner[m.owner()].set(cell);
        self.by_orient[m.orientation()].set(cell);
        self.by_type[m.kind()].set(cell);
        self.types_present = self.types_present.with(m.kind());
        self.occ.set(cell);
        self.hash ^= self.man_key(cell, m);
        self.counts[m.owner()][m.kind()] += 1;
        self.psq[m.owner()] += self.psq_table.value(m.kind(), m.orientation(), cell);
        if self.game.types[m.kind()].royal {
            self.royal[m.owner()] = Some(cell);
        }
        if let Some(a) = &mut self.accumulators {
            a.put(cell, m);
        }
    }

    /// Removes and returns the man on an occupied cell.
    #[inline(always)]
    pub fn take(&mut self, cell: Cell) -> Man {
        let m = self.man_at(cell);
        debug_assert!(m.is_some());
        self.unattacked = PlayerSet::EMPTY;
        self.board.set(cell, Man::NONE);
        self.by_owner[m.owner()].clear(cell);
        self.by_orient[m.orientation()].clear(cell);
        self.by_type[m.kind()].clear(cell);
        self.occ.clear(cell);
        self.hash ^= self.man_key(cell, m);
        self.counts[m.owner()][m.kind()] -= 1;
        // The owner's count is the cheap test; the whole board's men of the type only when it is 0.
        if self.counts[m.owner()][m.kind()] == 0 && self.by_type[m.kind()].is_empty() {
            self.types_present = self.types_present.without(m.kind());
        }
        self.psq[m.owner()] -= self.psq_table.value(m.kind(), m.orientation(), cell);
        if self.royal[m.owner()] == Some(cell) {
            self.royal[m.owner()] = None;
        }
        if let Some(a) = &mut self.accumulators {
            a.take(cell, m);
        }
        m
    }

    fn state_key(&self) -> u64 {
        let game = self.game;
        let z = &game.zobrist;
        let mut h = z.to_move[self.to_move.index()];
        for p in game.players() {
            if self.is_active(p) {
                h ^= z.active[p.index()];
            }
            if let Some(ep) = self.ep[p] {
                h ^= z.ep(p, ep.skipped);
            }
        }
        for (i, &k) in z.castling.iter().enumerate() {
            if self.castling >> i & 1 == 1 {
                h ^= k;
            }
        }
        h
    }

    pub fn compute_hash(&self) -> u64 {
        let mut h = self.state_key();
        for c in self.occ {
            h ^= self.man_key(c, self.man_at(c));
        }
        h
    }
}
