//! The position: men on cells, whose turn it is, who is still playing, rights and counters.
//!
//! `make` applies a move, passes the turn to the next active player and carries out that
//! player's start-of-turn checkmates (rules README, step 6); `unmake` restores the position
//! exactly from the returned [`Undo`].

use std::fmt;

use crate::bitboard::Bitboard;
use crate::eval::EvalTables;
use crate::game::VictimMen;
pub use crate::moves::{MAX_LEGS, Move, MoveKind};
use crate::tables::{Game, MAX_CELLS, MAX_PLAYERS, MAX_TYPES};

/// Player index (turn order).
pub type Player = usize;

/// A man on the board: type, owner, orientation (whose "forward" it uses) and a flag.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Man(u16);

impl Man {
    pub const NONE: Man = Man(u16::MAX);
    /// Set on the Emperor and the promoted deliverer of a player's first checkmate.
    const FLAG: u16 = 1 << 10;

    #[inline(always)]
    pub fn new(kind: usize, owner: Player, orientation: Player) -> Man {
        Man(kind as u16 | (owner as u16) << 6 | (orientation as u16) << 8)
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
    pub fn kind(self) -> usize {
        (self.0 & 63) as usize
    }
    #[inline(always)]
    pub fn owner(self) -> Player {
        ((self.0 >> 6) & 3) as usize
    }
    #[inline(always)]
    pub fn orientation(self) -> Player {
        ((self.0 >> 8) & 3) as usize
    }
    #[inline(always)]
    pub fn flagged(self) -> bool {
        self.0 & Self::FLAG != 0
    }
    pub fn with_kind(self, kind: usize) -> Man {
        Man((self.0 & !63) | kind as u16)
    }
    pub fn with_owner(self, owner: Player) -> Man {
        Man((self.0 & !(3 << 6)) | (owner as u16) << 6)
    }
    pub fn with_orientation(self, orientation: Player) -> Man {
        Man((self.0 & !(3 << 8)) | (orientation as u16) << 8)
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
            write!(f, "Man(t{} p{} o{}{})", self.kind(), self.owner(), self.orientation(), if self.flagged() { " *" } else { "" })
        }
    }
}

/// An en passant opportunity created by a player's double step; it lasts until that player's
/// next turn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct EnPassant {
    pub skipped: u16,
    pub victim: u16,
}

impl EnPassant {
    pub const NONE: EnPassant = EnPassant { skipped: u16::MAX, victim: u16::MAX };
    pub fn is_some(self) -> bool {
        self.skipped != u16::MAX
    }
}

pub const NO_CELL: u16 = u16::MAX;
pub const NO_PLAYER: u8 = u8::MAX;

/// Everything `unmake` needs to restore the position before a move.
#[derive(Clone)]
pub struct Undo<const W: usize> {
    captured: Man,
    captured_cell: u16,
    moved: Man,
    castling: u32,
    ep: [EnPassant; MAX_PLAYERS],
    halfmove: u32,
    fullmove: u32,
    hash: u64,
    to_move: u8,
    /// The men captured by each leap of a Charge.
    charge_captured: [Man; MAX_LEGS],
    /// The position right after the move itself, kept when start-of-turn checkmates followed.
    snapshot: Option<Box<Position<W>>>,
}

#[derive(Clone)]
pub struct Position<const W: usize> {
    pub(crate) game: &'static Game<W>,
    pub(crate) board: [Man; MAX_CELLS],
    pub(crate) by_owner: [Bitboard<W>; MAX_PLAYERS],
    pub(crate) by_orient: [Bitboard<W>; MAX_PLAYERS],
    pub(crate) by_type: [Bitboard<W>; MAX_TYPES],
    pub(crate) occ: Bitboard<W>,
    pub(crate) to_move: u8,
    /// Bit p set while player p is still playing.
    pub(crate) active: u8,
    pub(crate) castling: u32,
    pub(crate) ep: [EnPassant; MAX_PLAYERS],
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
    /// Cell of each player's royal piece (`NO_CELL` if none).
    pub(crate) royal: [u16; MAX_PLAYERS],
    pub(crate) counts: [[u8; MAX_TYPES]; MAX_PLAYERS],
    /// Material plus piece-square terms per owner (see `eval`), kept incrementally.
    pub(crate) psq: [i32; MAX_PLAYERS],
    /// The evaluation's tables (the game's own unless set with `set_eval`).
    pub(crate) eval: &'static EvalTables,
    /// Number of checkmates so far (N-player games).
    pub(crate) mates: u8,
    pub(crate) eliminated_by: [u8; MAX_PLAYERS],
    /// Eliminated players, first eliminated first.
    pub(crate) elimination_order: [u8; MAX_PLAYERS],
    pub(crate) eliminations: u8,
    /// Set when a rule ends the game with a winner while others are still on the board.
    pub(crate) winner: u8,
}

impl<const W: usize> Position<W> {
    /// An empty board, first player to move, everyone active.
    pub fn empty(game: &'static Game<W>) -> Self {
        let mut p = Position {
            game,
            board: [Man::NONE; MAX_CELLS],
            by_owner: [Bitboard::EMPTY; MAX_PLAYERS],
            by_orient: [Bitboard::EMPTY; MAX_PLAYERS],
            by_type: [Bitboard::EMPTY; MAX_TYPES],
            occ: Bitboard::EMPTY,
            to_move: 0,
            active: ((1u32 << game.nplayers) - 1) as u8,
            castling: 0,
            ep: [EnPassant::NONE; MAX_PLAYERS],
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            royal: [NO_CELL; MAX_PLAYERS],
            counts: [[0; MAX_TYPES]; MAX_PLAYERS],
            psq: [0; MAX_PLAYERS],
            eval: &game.eval,
            mates: 0,
            eliminated_by: [NO_PLAYER; MAX_PLAYERS],
            elimination_order: [NO_PLAYER; MAX_PLAYERS],
            eliminations: 0,
            winner: NO_PLAYER,
        };
        p.hash = p.compute_hash();
        p
    }

    /// The game's start position.
    pub fn start(game: &'static Game<W>) -> Self {
        let mut p = Self::empty(game);
        for &(cell, owner, kind) in &game.def.setup {
            p.put(cell, Man::new(kind, owner, owner));
        }
        p.castling = (1u32 << game.castles.len()) - 1;
        p.hash = p.compute_hash();
        p
    }

    pub fn game(&self) -> &'static Game<W> {
        self.game
    }
    pub fn man_at(&self, cell: usize) -> Man {
        self.board[cell]
    }
    pub fn to_move(&self) -> Player {
        self.to_move as usize
    }
    pub fn hash(&self) -> u64 {
        self.hash
    }
    pub fn occupied(&self) -> Bitboard<W> {
        self.occ
    }
    pub fn pieces_of(&self, p: Player) -> Bitboard<W> {
        self.by_owner[p]
    }
    pub fn pieces_of_type(&self, t: usize) -> Bitboard<W> {
        self.by_type[t]
    }
    pub fn is_active(&self, p: Player) -> bool {
        self.active >> p & 1 == 1
    }
    pub fn active_count(&self) -> u32 {
        self.active.count_ones()
    }
    pub fn active_mask(&self) -> u8 {
        self.active
    }
    pub fn castling_rights(&self) -> u32 {
        self.castling
    }
    pub fn en_passant(&self, p: Player) -> EnPassant {
        self.ep[p]
    }
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }
    pub fn royal_cell(&self, p: Player) -> Option<usize> {
        match self.royal[p] {
            NO_CELL => None,
            c => Some(c as usize),
        }
    }
    pub fn count(&self, p: Player, kind: usize) -> u8 {
        self.counts[p][kind]
    }
    pub fn mates(&self) -> u8 {
        self.mates
    }
    pub fn eliminated_by(&self, p: Player) -> Option<Player> {
        match self.eliminated_by[p] {
            NO_PLAYER => None,
            q => Some(q as usize),
        }
    }
    /// Eliminated players in the order they went out.
    pub fn elimination_order(&self) -> Vec<Player> {
        self.elimination_order[..self.eliminations as usize].iter().map(|&p| p as usize).collect()
    }
    /// The winner decided by eliminations or a win rule (not by a mate-in-zero of two players).
    pub fn winner(&self) -> Option<Player> {
        if self.winner != NO_PLAYER {
            Some(self.winner as usize)
        } else if self.active.count_ones() == 1 {
            Some(self.active.trailing_zeros() as usize)
        } else {
            None
        }
    }
    /// The winner decided by a winning rule while other players are still on the board.
    pub fn rule_winner(&self) -> Option<Player> {
        if self.winner == NO_PLAYER { None } else { Some(self.winner as usize) }
    }
    pub fn set_rule_winner(&mut self, p: Player) {
        self.winner = p as u8;
    }
    /// True when eliminations or a win rule have ended the game.
    pub fn is_decided(&self) -> bool {
        self.winner != NO_PLAYER || self.active.count_ones() <= 1
    }

    pub fn set_to_move(&mut self, p: Player) {
        self.to_move = p as u8;
        self.hash = self.compute_hash();
    }
    pub fn set_active(&mut self, mask: u8) {
        self.active = mask;
        self.hash = self.compute_hash();
    }
    pub fn set_castling(&mut self, rights: u32) {
        self.castling = rights;
        self.hash = self.compute_hash();
    }
    pub fn set_en_passant(&mut self, p: Player, ep: EnPassant) {
        self.ep[p] = ep;
        self.hash = self.compute_hash();
    }
    pub fn set_counters(&mut self, halfmove: u32, fullmove: u32) {
        self.halfmove = halfmove;
        self.fullmove = fullmove.max(1);
    }
    pub fn set_mate_state(&mut self, mates: u8, eliminated_by: [u8; MAX_PLAYERS], order: &[u8]) {
        self.mates = mates;
        self.eliminated_by = eliminated_by;
        self.elimination_order = [NO_PLAYER; MAX_PLAYERS];
        self.elimination_order[..order.len()].copy_from_slice(order);
        self.eliminations = order.len() as u8;
    }

    /// Next active player after `p` in turn order.
    #[inline(always)]
    pub fn next_active(&self, p: Player) -> Player {
        let n = self.game.nplayers;
        let mut q = p;
        for _ in 0..n {
            q = if q + 1 == n { 0 } else { q + 1 };
            if self.active >> q & 1 == 1 {
                return q;
            }
        }
        p
    }

    #[inline(always)]
    fn man_key(&self, cell: usize, m: Man) -> u64 {
        let k = self.game.piece_key(cell, m.kind(), m.owner(), m.orientation());
        if m.flagged() { k ^ self.game.zobrist.flag[cell] } else { k }
    }

    /// Places a man on an empty cell.
    #[inline(always)]
    pub fn put(&mut self, cell: usize, m: Man) {
        debug_assert!(self.board[cell].is_none());
        self.board[cell] = m;
        self.by_owner[m.owner()].set(cell);
        self.by_orient[m.orientation()].set(cell);
        self.by_type[m.kind()].set(cell);
        self.occ.set(cell);
        self.hash ^= self.man_key(cell, m);
        self.counts[m.owner()][m.kind()] += 1;
        self.psq[m.owner()] += self.eval.psq[m.kind()][m.orientation()][cell];
        if self.game.types[m.kind()].royal {
            self.royal[m.owner()] = cell as u16;
        }
    }

    /// Removes and returns the man on an occupied cell.
    #[inline(always)]
    pub fn take(&mut self, cell: usize) -> Man {
        let m = self.board[cell];
        debug_assert!(m.is_some());
        self.board[cell] = Man::NONE;
        self.by_owner[m.owner()].clear(cell);
        self.by_orient[m.orientation()].clear(cell);
        self.by_type[m.kind()].clear(cell);
        self.occ.clear(cell);
        self.hash ^= self.man_key(cell, m);
        self.counts[m.owner()][m.kind()] -= 1;
        self.psq[m.owner()] -= self.eval.psq[m.kind()][m.orientation()][cell];
        if self.royal[m.owner()] == cell as u16 {
            self.royal[m.owner()] = NO_CELL;
        }
        m
    }

    fn state_key(&self) -> u64 {
        let z = &self.game.zobrist;
        let mut h = z.to_move[self.to_move as usize];
        for p in 0..self.game.nplayers {
            if self.is_active(p) {
                h ^= z.active[p];
            }
            if self.ep[p].is_some() {
                h ^= self.game.ep_key(p, self.ep[p].skipped as usize);
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
            h ^= self.man_key(c, self.board[c]);
        }
        h
    }

    /// Applies a legal move (or the pass) and everything that follows from it.
    pub fn make(&mut self, mv: Move) -> Undo<W> {
        let game = self.game;
        let z = &game.zobrist;
        let p = self.to_move as usize;
        let mut undo = Undo {
            captured: Man::NONE,
            captured_cell: NO_CELL,
            moved: Man::NONE,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            hash: self.hash,
            to_move: self.to_move,
            charge_captured: [Man::NONE; MAX_LEGS],
            snapshot: None,
        };
        self.halfmove = self.halfmove.saturating_add(1);
        let kind = mv.kind();
        if kind == MoveKind::Charge {
            undo.charge_captured = self.apply_charge(mv);
            if undo.charge_captured.iter().any(|m| m.is_some()) {
                self.halfmove = 0;
            }
        } else if kind != MoveKind::Pass {
            let (from, to) = (mv.from(), mv.to());
            let victim_cell = if kind == MoveKind::EnPassant { mv.aux() } else { to };
            if self.board[victim_cell].is_some() {
                undo.captured = self.take(victim_cell);
                undo.captured_cell = victim_cell as u16;
                self.halfmove = 0;
                // A double-stepped pawn that is captured takes its en passant right with it (with
                // three or more players the right would otherwise outlive it).
                for q in 0..game.nplayers {
                    if self.ep[q].victim as usize == victim_cell {
                        self.hash ^= game.ep_key(q, self.ep[q].skipped as usize);
                        self.ep[q] = EnPassant::NONE;
                    }
                }
            }
            let m = self.take(from);
            undo.moved = m;
            if game.types[m.kind()].pawn {
                self.halfmove = 0;
            }
            let placed = match mv.promotion() {
                Some(t) => game.normalized(m.with_kind(t)),
                None => m,
            };
            self.put(to, placed);
            if kind == MoveKind::Castle {
                let c = &game.castles[mv.aux()];
                let rook = self.take(c.rook_from);
                self.put(c.rook_to, rook);
            }
            self.clear_castling_rights(from, to);
            if kind == MoveKind::DoubleStep {
                let skipped = mv.aux();
                if self.en_passant_possible(p, skipped, m.kind()) {
                    self.ep[p] = EnPassant { skipped: skipped as u16, victim: to as u16 };
                    self.hash ^= game.ep_key(p, skipped);
                }
            }
        }
        let next = self.next_active(p);
        if next <= p {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.hash ^= z.to_move[p] ^ z.to_move[next];
        self.to_move = next as u8;
        if self.ep[next].is_some() {
            self.hash ^= game.ep_key(next, self.ep[next].skipped as usize);
            self.ep[next] = EnPassant::NONE;
        }
        if self.active.count_ones() > 2 {
            self.start_of_turn(&mut undo);
        }
        undo
    }

    /// Drops the castling rights of pieces leaving, entering or captured on `from` and `to`.
    #[inline(always)]
    pub(crate) fn clear_castling_rights(&mut self, from: usize, to: usize) {
        let game = self.game;
        let lost = self.castling & (game.castle_clear[from] | game.castle_clear[to]);
        if lost != 0 {
            for i in 0..game.castles.len() {
                if lost >> i & 1 == 1 {
                    self.hash ^= game.zobrist.castling[i];
                }
            }
            self.castling &= !lost;
        }
    }

    /// Makes the leaps of a Charge; returns the man each leap captured (`Man::NONE` if none).
    pub(crate) fn apply_charge(&mut self, mv: Move) -> [Man; MAX_LEGS] {
        let game = self.game;
        let mut captured = [Man::NONE; MAX_LEGS];
        for (i, leg) in game.charge_legs(mv).into_iter().enumerate() {
            if self.board[leg.to].is_some() {
                captured[i] = self.take(leg.to);
            }
            let m = self.take(leg.from);
            self.put(leg.to, m);
            self.clear_castling_rights(leg.from, leg.to);
        }
        captured
    }

    /// Reverts [`Position::apply_charge`].
    pub(crate) fn revert_charge(&mut self, mv: Move, captured: &[Man; MAX_LEGS]) {
        let legs = self.game.charge_legs(mv);
        for (i, leg) in legs.into_iter().enumerate().rev() {
            let m = self.take(leg.to);
            self.put(leg.from, m);
            if captured[i].is_some() {
                self.put(leg.to, captured[i]);
            }
        }
    }

    /// Reverts `make(mv)`.
    pub fn unmake(&mut self, mv: Move, undo: Undo<W>) {
        if let Some(snap) = undo.snapshot {
            *self = *snap;
        }
        let kind = mv.kind();
        if kind == MoveKind::Charge {
            self.revert_charge(mv, &undo.charge_captured);
        } else if kind != MoveKind::Pass {
            let (from, to) = (mv.from(), mv.to());
            if kind == MoveKind::Castle {
                let c = &self.game.castles[mv.aux()];
                let rook = self.take(c.rook_to);
                self.put(c.rook_from, rook);
            }
            self.take(to);
            self.put(from, undo.moved);
            if undo.captured.is_some() {
                self.put(undo.captured_cell as usize, undo.captured);
            }
        }
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.fullmove = undo.fullmove;
        self.to_move = undo.to_move;
        self.hash = undo.hash;
    }

    /// Whether an opponent could take a pawn en passant on `skipped` (so that the right is
    /// recorded only when it exists, as in FEN).
    fn en_passant_possible(&self, stepper: Player, skipped: usize, kind: usize) -> bool {
        let game = self.game;
        if !game.types[kind].en_passant {
            return false;
        }
        for q in 0..game.nplayers {
            if q == stepper || !self.is_active(q) || !game.ep_allowed[q][stepper].has(skipped) {
                continue;
            }
            for (t, info) in game.types.iter().enumerate() {
                if !info.en_passant {
                    continue;
                }
                let mine = self.by_type[t] & self.by_owner[q];
                if mine.is_empty() {
                    continue;
                }
                for o in 0..game.nplayers {
                    let pieces = mine & self.by_orient[o];
                    if pieces.is_empty() {
                        continue;
                    }
                    for &rt in &info.capture_leaps[o] {
                        if game.leaps[rt as usize][skipped].intersects(&pieces) {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// Start-of-turn checkmates: while the player to move attacks another active player's royal
    /// piece, that player is checkmated (victims in turn order, one at a time).
    fn start_of_turn(&mut self, undo: &mut Undo<W>) {
        let p = self.to_move as usize;
        loop {
            if self.is_decided() {
                return;
            }
            let mut victim = None;
            let mut q = p;
            for _ in 1..self.game.nplayers {
                q = self.next_active(q);
                if q == p {
                    break;
                }
                if let Some(k) = self.royal_cell(q)
                    && self.attacked(k, self.occ, 1 << p, Bitboard::EMPTY, false)
                {
                    let attackers = self.attackers(k, self.occ, 1 << p, Bitboard::EMPTY, false);
                    victim = attackers.first().map(|d| (q, d));
                    break;
                }
            }
            let Some((q, deliverer)) = victim else { return };
            if undo.snapshot.is_none() {
                undo.snapshot = Some(Box::new(self.clone()));
            }
            self.checkmate(q, p, deliverer);
        }
    }

    /// Eliminates `victim`, checkmated by `mater` with the man on `deliverer`.
    pub(crate) fn checkmate(&mut self, victim: Player, mater: Player, deliverer: usize) {
        let game = self.game;
        let rules = &game.def.rules.mate;
        self.mates += 1;
        let first_mate = self.mates == 1;
        let delivered_by_promotee = self.board[deliverer].flagged();
        for c in self.by_owner[victim] {
            let m = self.take(c);
            if rules.victim_men == VictimMen::Recruited && !game.types[m.kind()].royal {
                self.put(c, game.normalized(m.with_owner(mater)));
            }
        }
        self.active &= !(1 << victim);
        self.eliminated_by[victim] = mater as u8;
        self.elimination_order[self.eliminations as usize] = victim as u8;
        self.eliminations += 1;
        self.ep[victim] = EnPassant::NONE;
        for (i, c) in game.castles.iter().enumerate() {
            if c.player == victim {
                self.castling &= !(1 << i);
            }
        }
        let royal = self.royal_cell(mater);
        if royal != Some(deliverer) {
            let d = self.board[deliverer];
            if let Some(t) = game.deliverer_promotion[d.kind()] {
                self.take(deliverer);
                self.put(deliverer, d.with_kind(t));
            }
        }
        if let Some(k) = royal {
            let m = self.board[k];
            if let Some(t) = game.royal_promotion[m.kind()] {
                self.take(k);
                self.put(k, m.with_kind(t));
            }
        }
        if first_mate && rules.second_mate_by_promotee_wins {
            for c in [Some(deliverer), royal].into_iter().flatten() {
                let m = self.take(c);
                self.put(c, m.with_flag(true));
            }
        }
        if rules.second_mate_by_promotee_wins && self.mates == 2 && delivered_by_promotee {
            self.winner = mater as u8;
        }
        self.halfmove = 0;
        self.hash = self.compute_hash();
    }
}

#[cfg(test)]
mod tests {
    //! The N-player turn model (rules README, "Turn structure") on 3-player Honeycomb Chess.
    use super::*;
    use crate::notation::position_string;
    use crate::registry;

    const RED: Player = 0;
    const YELLOW: Player = 1;
    const BLUE: Player = 2;

    fn game() -> &'static Game<4> {
        registry::compiled::<4>(crate::games::definition("honeycomb3").expect("honeycomb3"))
    }

    fn cell(name: &str) -> usize {
        game().geometry().cell_by_name(name).expect("cell name")
    }

    /// A position from (cell, owner, piece code), `to_move` to move, everyone active.
    fn position(men: &[(&str, Player, &str)], to_move: Player) -> Position<4> {
        let g = game();
        let mut p = Position::empty(g);
        for &(c, owner, code) in men {
            p.put(cell(c), Man::new(g.def.piece_by_code(code).expect("code"), owner, owner));
        }
        p.set_to_move(to_move);
        p
    }

    fn find(p: &Position<4>, from: &str, to: &str) -> Move {
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        *moves.iter().find(|m| !m.is_pass() && m.from() == cell(from) && m.to() == cell(to)).expect("legal move")
    }

    /// Everything `make` may change, for comparing before and after `unmake`.
    fn snapshot(p: &Position<4>) -> (String, u64, [u16; MAX_PLAYERS], [i32; MAX_PLAYERS], u8, Vec<Player>, u8) {
        (position_string(p), p.hash(), p.royal, p.psq, p.mates(), p.elimination_order(), p.winner)
    }

    #[test]
    fn next_active_skips_eliminated_players() {
        let mut p = position(&[("1a1", RED, "K"), ("8a8", BLUE, "K")], RED);
        p.set_active(0b101);
        assert_eq!(p.next_active(RED), BLUE);
        assert_eq!(p.next_active(BLUE), RED);
        let mv = find(&p, "1a1", "1a2");
        p.make(mv);
        assert_eq!(p.to_move(), BLUE);
        assert_eq!(p.fullmove_number(), 1);
        let mv = find(&p, "8a8", "7a8");
        p.make(mv);
        assert_eq!((p.to_move(), p.fullmove_number()), (RED, 2));
    }

    /// Yellow, in check from Red's Queen with no legal move, has passed; Blue moves; at the start
    /// of Red's turn Yellow is checkmated and Red recruits Yellow's men.
    #[test]
    fn start_of_turn_checkmate_recruits_and_unmake_restores() {
        let men = [
            ("1a1", RED, "K"),
            ("2b8", RED, "Q"),
            ("2e8", RED, "R"),
            ("1a8", YELLOW, "K"),
            ("3c5", YELLOW, "P"),
            ("5c6", YELLOW, "N"),
            ("8a8", BLUE, "K"),
        ];
        let mut p = position(&men, BLUE);
        let before = snapshot(&p);
        let mv = find(&p, "8a8", "7a8");
        let undo = p.make(mv);
        assert_eq!(p.to_move(), RED);
        assert_eq!(p.active_mask(), 0b101);
        assert_eq!(p.eliminated_by(YELLOW), Some(RED));
        assert_eq!(p.elimination_order(), vec![YELLOW]);
        assert_eq!((p.mates(), p.halfmove_clock(), p.winner()), (1, 0, None));
        assert!(p.man_at(cell("1a8")).is_none());
        let g = game();
        let pawn = p.man_at(cell("3c5"));
        assert_eq!((pawn.kind(), pawn.owner(), pawn.orientation()), (g.def.piece_by_code("P").unwrap(), RED, YELLOW));
        // A Knight moves alike for everyone, so the recruit is simply Red's Knight.
        let knight = p.man_at(cell("5c6"));
        assert_eq!((knight.owner(), knight.orientation()), (RED, RED));
        assert_eq!(p.royal_cell(YELLOW), None);
        assert_eq!(p.hash(), p.compute_hash());
        assert_eq!(p.psq, p.psq_from_scratch());
        // It attacks as Yellow's pawns do (+10 or −1 and one level), not as Red's (+1 or +11).
        let red_attacks = |c: &str| p.attacked(cell(c), p.occupied(), 1 << RED, Bitboard::EMPTY, false);
        assert!(red_attacks("4b5") && red_attacks("3d4"));
        assert!(!red_attacks("4b6") && !red_attacks("4d6"));
        // The recruited pawn goes on in Yellow's direction (columns +10 and −1), this very turn.
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        let from_pawn: Vec<usize> = moves.iter().filter(|m| m.from() == cell("3c5")).map(|m| m.to()).collect();
        assert_eq!(from_pawn, vec![cell("3c4"), cell("4c5")]);
        p.unmake(mv, undo);
        assert_eq!(snapshot(&p), before);
    }

    /// Red has passed in check; at the start of Yellow's turn both other Kings are attacked:
    /// Blue (next after Yellow) goes first, then Red, and Yellow is left alone.
    #[test]
    fn victims_taken_in_turn_order_after_the_mater() {
        let men = [
            ("1a8", RED, "K"),
            ("8a8", BLUE, "K"),
            ("4a8", YELLOW, "Q"),
            ("4b8", YELLOW, "R"),
            ("4a7", YELLOW, "R"),
            ("4b7", YELLOW, "R"),
            ("1e1", YELLOW, "K"),
        ];
        let mut p = position(&men, RED);
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        assert_eq!(moves, vec![Move::PASS]);
        let before = snapshot(&p);
        let undo = p.make(Move::PASS);
        assert_eq!(p.elimination_order(), vec![BLUE, RED]);
        assert_eq!((p.eliminated_by(BLUE), p.eliminated_by(RED)), (Some(YELLOW), Some(YELLOW)));
        assert!(p.is_decided());
        assert_eq!(p.winner(), Some(YELLOW));
        p.legal_moves(&mut moves);
        assert!(moves.is_empty());
        p.unmake(Move::PASS, undo);
        assert_eq!(snapshot(&p), before);
    }

    /// Red's Knight shielded Blue's King from Yellow's Rook; when it moves away, Blue is
    /// checkmated at the start of Yellow's turn without ever moving, and Yellow recruits.
    #[test]
    fn third_players_move_exposes_a_king() {
        let men =
            [("1c1", RED, "K"), ("5a8", RED, "N"), ("1c8", YELLOW, "K"), ("1a8", YELLOW, "R"), ("8a8", BLUE, "K"), ("6c6", BLUE, "P")];
        let mut p = position(&men, RED);
        let mv = find(&p, "5a8", "5b6");
        p.make(mv);
        assert_eq!(p.to_move(), YELLOW);
        assert_eq!(p.active_mask(), 0b011);
        assert_eq!(p.eliminated_by(BLUE), Some(YELLOW));
        let pawn = p.man_at(cell("6c6"));
        assert_eq!((pawn.owner(), pawn.orientation()), (YELLOW, BLUE));
    }

    /// With two players left no start-of-turn step runs: the mover's last move was legal, so it
    /// attacks nothing it could checkmate (README step 2, last sentence).
    #[test]
    fn two_player_phase_has_no_start_of_turn_checkmates() {
        let mut p = position(&[("1e1", RED, "K"), ("3b8", RED, "Q"), ("7e8", RED, "R"), ("8a8", BLUE, "K")], RED);
        p.set_active(0b101);
        let mv = find(&p, "3b8", "7b8");
        p.make(mv);
        assert_eq!((p.to_move(), p.active_mask(), p.mates()), (BLUE, 0b101, 0));
        assert!(p.in_check(BLUE));
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        assert!(moves.is_empty(), "checkmate: no move, no pass");
    }
}
