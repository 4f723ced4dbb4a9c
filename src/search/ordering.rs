//! Move ordering: the transposition table's move first, then captures (most valuable victim,
//! least valuable attacker), promotions, killers and the history of quiet cut-offs (against a bare
//! royal piece, the quiet moves that leave it fewest steps); and the move picker that hands a node
//! its moves best first.

use super::correction::Correction;
use super::see::see_ge;
use super::worker::Worker;
use crate::attacks::Facing;
use crate::bitboard::Bitboard;
use crate::movegen::targets::{facing_royals, man_attacks};
use crate::moves::Man;
use crate::position::{Move, MoveKind};
use crate::tables::Game;
use crate::types::{Cell, PieceType, Player};
use arrayvec::ArrayVec;

/// Ordering scores by class: each class above every score of the classes below.
const TT_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 24;
const PROMOTION: i32 = 1 << 23;
const KILLER: i32 = 1 << 22;
/// The quiet move that last refuted the previous move: below the killers.
const COUNTER: i32 = KILLER - 1;
/// Captures that lose material (by static exchange): below every quiet move.
const BAD_CAPTURE: i32 = -(1 << 24);
/// Within captures: the victim's value times this, less the attacker's value divided by it.
const VALUE_SCALE: i32 = 16;
/// History scores stay below this (and so below the killers).
const HISTORY_CAP: i32 = 1 << 20;
/// Quiet moves against a bare royal piece, in the killers' place: less `HUNT_PER_STEP` for each
/// step they leave it, plus `HUNT_CHECK` for a check; the history (scaled below `HUNT_CHECK`)
/// breaks ties.
const HUNT_QUIET: i32 = 1 << 21;
const HUNT_PER_STEP: i32 = 4096;
const HUNT_CHECK: i32 = 2048;
const HUNT_HISTORY_DIVISOR: i32 = HISTORY_CAP / 1024;
/// The hunt's ordering is for a few men against a bare royal piece.
const HUNT_ORDER_MAX_MEN: usize = 8;

/// What a node's quiet moves are ordered by besides their history ([`Worker::quiet_order`]).
pub(super) struct QuietOrder {
    /// The quiet move that last refuted the move before (`Move::NONE`: none).
    counter: Move,
    /// The continuation contexts of the moves one and two plies before.
    one: usize,
    two: usize,
}

impl QuietOrder {
    const NONE: QuietOrder = QuietOrder { counter: Move::NONE, one: NO_CONTEXT, two: NO_CONTEXT };
}

/// A node's moves with their ordering scores and, at best-reply nodes, the number of opponents
/// who pass before each move (empty elsewhere: no passes).
#[derive(Default)]
pub(super) struct MoveList {
    pub moves: Vec<Move>,
    pub scores: Vec<i32>,
    pub passes: Vec<u8>,
}

impl MoveList {
    /// Drops the moves the ordering scored below zero (the captures that lose by static
    /// exchange), keeping the scores beside their moves; for lists without passes.
    pub fn drop_bad_captures(&mut self) {
        let mut kept = 0;
        for i in 0..self.moves.len() {
            if self.scores[i] >= 0 {
                self.moves[kept] = self.moves[i];
                self.scores[kept] = self.scores[i];
                kept += 1;
            }
        }
        self.moves.truncate(kept);
        self.scores.truncate(kept);
    }

    pub fn clear(&mut self) {
        self.moves.clear();
        self.scores.clear();
        self.passes.clear();
    }
}

/// Hands out a list's moves best first (a selection sort done one step at a time, since a
/// cut-off usually comes early).
pub(super) struct MovePicker {
    list: MoveList,
    next: usize,
}

impl MovePicker {
    pub fn new(list: MoveList) -> Self {
        MovePicker { list, next: 0 }
    }

    /// The best move not yet handed out, with the passes before it.
    #[inline(always)]
    pub fn next_move(&mut self) -> Option<(Move, u8)> {
        let i = self.next;
        let list = &mut self.list;
        if i >= list.moves.len() {
            return None;
        }
        let j = (i..list.moves.len()).max_by_key(|&j| list.scores[j]).unwrap_or(i);
        list.moves.swap(i, j);
        list.scores.swap(i, j);
        if !list.passes.is_empty() {
            list.passes.swap(i, j);
        }
        self.next += 1;
        Some((list.moves[i], list.passes.get(i).copied().unwrap_or(0)))
    }

    /// How many moves were handed out before the last one.
    pub fn index(&self) -> usize {
        self.next.saturating_sub(1)
    }

    pub fn into_list(self) -> MoveList {
        self.list
    }
}

/// Credit for quiet moves by player and (from, to) cells, earned by cut-offs.
pub(super) struct History {
    ncells: usize,
    scores: Vec<i32>,
}

/// With two players the credit is kept between -HISTORY_MAX and HISTORY_MAX: each update moves a
/// score by its bonus less the share of the bonus that the score already holds ("gravity"), so
/// that old credit fades.
const HISTORY_MAX: i32 = 16_384;

impl History {
    pub fn new(ncells: usize, nplayers: usize) -> Self {
        History { ncells, scores: vec![0; nplayers * ncells * ncells] }
    }

    fn slot(&self, player: Player, mv: Move) -> usize {
        (player.index() * self.ncells + mv.from().index()) * self.ncells + mv.to().index()
    }

    pub fn score(&self, player: Player, mv: Move) -> i32 {
        self.scores[self.slot(player, mv)]
    }

    /// A cut-off at `depth` (three or four players): credit growing with the square of the depth.
    pub fn credit(&mut self, player: Player, mv: Move, depth: i32) {
        let i = self.slot(player, mv);
        self.scores[i] = (self.scores[i] + depth * depth).min(HISTORY_CAP);
    }

    /// Two players: `bonus` (negative: a malus) towards the bounds.
    pub fn update(&mut self, player: Player, mv: Move, bonus: i32) {
        let i = self.slot(player, mv);
        self.scores[i] = toward_bound(self.scores[i], bonus);
    }
}

/// A history score moved by `bonus` less the share of the bonus it already holds ("gravity"), so
/// that it stays within ±[`HISTORY_MAX`] and old credit fades.
fn toward_bound(h: i32, bonus: i32) -> i32 {
    h + bonus - h * bonus.abs() / HISTORY_MAX
}

/// Credit for quiet moves with two players by the move one and two plies before them (the
/// "continuation history" of the strong open engines): a reply that refuted a man's move to a cell
/// is likely to refute it again wherever else on the board it happens. Indexed by the earlier
/// move's context (its man's owner and type, and the cell it went to) and the move's man type and
/// cell, one table for both distances; where the game has too many types and cells for that, the
/// index is folded into [`CONTINUATION_SLOTS_MAX`] slots (a shared slot only blurs a heuristic).
pub(super) struct ContinuationHistory {
    ncells: usize,
    ntypes: usize,
    /// Slots per context: types × cells.
    per_context: usize,
    scores: Vec<i16>,
}

/// Most slots of a continuation history (two bytes each).
const CONTINUATION_SLOTS_MAX: usize = 1 << 21;

/// No earlier move to continue (the root, after a null move or a pass).
pub(super) const NO_CONTEXT: usize = usize::MAX;

impl ContinuationHistory {
    /// With `nplayers` 0 the table is empty: only [`NO_CONTEXT`] may be scored or credited.
    pub fn new(ncells: usize, ntypes: usize, nplayers: usize) -> Self {
        let per_context = ncells * ntypes;
        let len = (per_context * per_context * nplayers).min(CONTINUATION_SLOTS_MAX);
        ContinuationHistory { ncells, ntypes, per_context, scores: vec![0; len] }
    }

    /// The context a move leaves for the moves after it: its man (as it stands after the move) and
    /// the cell it went to.
    pub fn context(&self, man: Man, to: Cell) -> usize {
        (man.owner().index() * self.ntypes + man.kind().index()) * self.ncells + to.index()
    }

    fn slot(&self, context: usize, kind: PieceType, to: Cell) -> usize {
        let i = context * self.per_context + kind.index() * self.ncells + to.index();
        if i < self.scores.len() { i } else { i % self.scores.len() }
    }

    pub fn score(&self, context: usize, kind: PieceType, to: Cell) -> i32 {
        if context == NO_CONTEXT { 0 } else { i32::from(self.scores[self.slot(context, kind, to)]) }
    }

    /// `bonus` (negative: a malus) towards the bounds, as [`History::update`].
    pub fn update(&mut self, context: usize, kind: PieceType, to: Cell, bonus: i32) {
        if context == NO_CONTEXT {
            return;
        }
        let i = self.slot(context, kind, to);
        self.scores[i] = toward_bound(i32::from(self.scores[i]), bonus) as i16;
    }
}

/// What a thread learns about the moves in a search: the quiet moves' history, continuation
/// history and counter moves. With two players a thread's next search
/// of the game starts from what its last one learned ([`Heuristics`](super::Heuristics)).
pub(super) struct Learned {
    pub history: History,
    pub continuation: ContinuationHistory,
    /// With two players, per (from, to) of a move the quiet move that last refuted it.
    pub counters: Vec<Move>,
    /// With two players, the static evaluation's errors by pawn structure.
    pub correction: Correction,
}

impl Learned {
    /// For a search of `game`; `multi`: with three or more players left, whose searches credit
    /// the history only, so that the continuation history and the counter moves stay empty.
    pub fn new<const W: usize>(game: &Game<W>, multi: bool) -> Self {
        let (ncells, ntypes) = (game.ncells, game.ntypes);
        Learned {
            history: History::new(ncells, game.nplayers),
            continuation: ContinuationHistory::new(ncells, ntypes, if multi { 0 } else { game.nplayers }),
            counters: if multi { Vec::new() } else { vec![Move::NONE; ncells * ncells] },
            correction: Correction::new(if multi { 0 } else { game.nplayers }),
        }
    }

    /// Whether it was learned in a game of `game`'s size (a change of game starts afresh).
    pub fn fits<const W: usize>(&self, game: &Game<W>) -> bool {
        self.history.scores.len() == game.nplayers * game.ncells * game.ncells
            && self.continuation.ncells == game.ncells
            && self.continuation.ntypes == game.ntypes
            && self.counters.len() == game.ncells * game.ncells
            && self.correction.fits(game.nplayers)
    }
}

/// The history bonus of a cut-off at `depth` with two players: `slope` per ply up to
/// [`HISTORY_BONUS_MAX`], or with `slope` 0 16 per square ply up to 1,600.
fn history_bonus(depth: i32, slope: i32) -> i32 {
    if slope > 0 { (slope * depth).min(HISTORY_BONUS_MAX) } else { (16 * depth * depth).min(1600) }
}

/// The largest history bonus of a cut-off with a `history_bonus_slope`.
const HISTORY_BONUS_MAX: i32 = HISTORY_MAX / 8;

impl<const W: usize> Worker<'_, W> {
    #[inline(always)]
    pub fn is_capture(&self, mv: Move) -> bool {
        mv.kind() == MoveKind::EnPassant || (mv.kind() != MoveKind::Pass && self.pos.man_at(mv.to()).is_some())
    }

    /// Neither a capture nor a promotion.
    #[inline]
    pub fn is_quiet(&self, mv: Move) -> bool {
        !self.is_capture(mv) && mv.promotion().is_none()
    }

    /// A capture by a more valuable man on a cell that another player then attacks: likely to
    /// lose material, so quiescence can skip it.
    pub fn losing_capture(&self, mv: Move) -> bool {
        if mv.kind() != MoveKind::Normal {
            return false;
        }
        let values = self.shared.eval.values();
        let attacker = values[self.pos.man_at(mv.from()).kind()];
        let victim = self.pos.man_at(mv.to());
        if victim.is_none() || attacker <= values[victim.kind()] {
            return false;
        }
        let mut occ = self.pos.occupied();
        occ.clear(mv.from());
        let others = self.pos.opponents(self.pos.to_move());
        self.pos.attacked(mv.to(), occ, others, Bitboard::EMPTY, Facing::Ignored)
    }

    pub fn order_score(&self, mv: Move, tt_move: Move, ply: usize, quiet: &QuietOrder) -> i32 {
        if mv == tt_move {
            return TT_MOVE;
        }
        let values = self.shared.eval.values();
        let mut s = 0;
        if self.is_capture(mv) {
            let victim = self.pos.man_at(mv.victim_cell());
            let attacker = self.pos.man_at(mv.from());
            let mvv_lva = values[victim.kind()] * VALUE_SCALE - values[attacker.kind()] / VALUE_SCALE;
            // With two sides, a capture that loses material in the exchange comes after the
            // quiet moves.
            if !self.multi && !see_ge(&self.pos, mv, 0, values) {
                return BAD_CAPTURE + mvv_lva;
            }
            s += CAPTURE + mvv_lva;
        }
        if let Some(t) = mv.promotion() {
            s += PROMOTION + values[t];
        }
        if s == 0 {
            if self.stack[ply].killers.contains(&mv) {
                return KILLER;
            }
            if quiet.counter == mv {
                return COUNTER;
            }
            if mv.kind() != MoveKind::Pass {
                s = self.quiet_score(mv, quiet);
            }
        }
        s
    }

    /// What a node's quiet moves are ordered by besides their own history, found once per node:
    /// with two players the counter move and the continuation contexts of the moves one and two
    /// plies before. No continuations where a royal piece is bare: there the hunt's ordering and
    /// the plain history decide (with them the mates of the won-endings tests took up to 5 times
    /// the nodes).
    pub fn quiet_order(&self, ply: usize) -> QuietOrder {
        let mover = self.pos.to_move();
        if self.multi {
            return QuietOrder::NONE;
        }
        let counter = self.counter_of(ply).unwrap_or(Move::NONE);
        if self.pos.is_bare(mover) || self.pos.opponents_bare(mover) {
            return QuietOrder { counter, ..QuietOrder::NONE };
        }
        let (one, two) = self.contexts(ply);
        QuietOrder { counter, one, two }
    }

    /// The continuation contexts of the moves one and two plies before `ply`.
    fn contexts(&self, ply: usize) -> (usize, usize) {
        (self.stack[ply].context, if ply >= 1 { self.stack[ply - 1].context } else { NO_CONTEXT })
    }

    /// A quiet move's credit: twice its history, and its continuation histories.
    pub fn quiet_score(&self, mv: Move, quiet: &QuietOrder) -> i32 {
        let man = self.pos.man_at(mv.from());
        let h = 2 * self.learned.history.score(man.owner(), mv);
        h + self.learned.continuation.score(quiet.one, man.kind(), mv.to())
            + self.learned.continuation.score(quiet.two, man.kind(), mv.to())
    }

    /// Scores every move of `list` for ordering.
    pub fn score_moves(&self, list: &mut MoveList, tt_move: Move, ply: usize) {
        let quiet = self.quiet_order(ply);
        list.scores.clear();
        for i in 0..list.moves.len() {
            let s = self.order_score(list.moves[i], tt_move, ply, &quiet);
            list.scores.push(s);
        }
    }

    /// Where the counter move of the move that led to `ply` is kept.
    fn counter_slot(&self, ply: usize) -> Option<usize> {
        let previous = self.stack[ply].previous;
        (previous != Move::NONE && !previous.is_pass()).then(|| previous.from().index() * self.pos.game().ncells + previous.to().index())
    }

    /// The quiet move that last refuted the move that led to `ply`.
    fn counter_of(&self, ply: usize) -> Option<Move> {
        self.counter_slot(ply).map(|slot| self.learned.counters[slot]).filter(|&m| m != Move::NONE)
    }

    /// A quiet move caused a cut-off: a killer at this ply, and history credit; with two players
    /// the quiet moves searched before it (`tried`) lose credit.
    pub fn remember_cutoff(&mut self, mv: Move, ply: usize, depth: i32, tried: &[Move]) {
        let k = &mut self.stack[ply].killers;
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
        let mover = self.pos.man_at(mv.from()).owner();
        if self.multi {
            self.learned.history.credit(mover, mv, depth);
            return;
        }
        if let Some(slot) = self.counter_slot(ply) {
            self.learned.counters[slot] = mv;
        }
        let bonus = history_bonus(depth, self.params.history_bonus_slope);
        let contexts = self.contexts(ply);
        self.credit_quiet(mv, contexts, bonus);
        for &m in tried {
            self.credit_quiet(m, contexts, -bonus);
        }
    }

    /// Two players: `bonus` to a quiet move's history and continuation histories.
    fn credit_quiet(&mut self, mv: Move, (one, two): (usize, usize), bonus: i32) {
        let man = self.pos.man_at(mv.from());
        self.learned.history.update(man.owner(), mv, bonus);
        self.learned.continuation.update(one, man.kind(), mv.to(), bonus);
        self.learned.continuation.update(two, man.kind(), mv.to(), bonus);
    }

    /// Hunting a bare royal piece with two players: quiet moves ordered by how few steps they leave
    /// it (checks first among equals; stalemates last), so that reductions and pruning spare the
    /// moves that close the net. The steps are counted against the hunter's attacks after the move,
    /// each man's attacks found again only where the move starts or ends on them: an estimate, as
    /// an ordering needs, without making the moves.
    pub fn order_hunt(&self, list: &mut MoveList, tt_move: Move) {
        let pos = &self.pos;
        let game = pos.game();
        let mover = pos.to_move();
        let Some(weak) = pos.opponents(mover).iter().next().and_then(|q| pos.royal_cell(q)) else { return };
        let men = pos.pieces_of(mover);
        if men.count() as usize > HUNT_ORDER_MAX_MEN {
            return;
        }
        let bare = pos.man_at(weak);
        let steps = pos.piece_targets(weak, bare.kind(), bare.orientation(), Bitboard::EMPTY) & game.rules.royal_zone[bare.owner()];
        let mut occ = pos.occupied();
        occ.clear(weak);
        let facing = facing_royals(pos);
        let attacks = |c: Cell, man: Man, occ: Bitboard<W>| man_attacks(game, c, man, facing.has(c), occ);
        let before: ArrayVec<(Cell, Bitboard<W>), HUNT_ORDER_MAX_MEN> = men.iter().map(|c| (c, attacks(c, pos.man_at(c), occ))).collect();
        for i in 0..list.moves.len() {
            let mv = list.moves[i];
            if mv == tt_move || mv.kind() != MoveKind::Normal || !self.is_quiet(mv) {
                continue;
            }
            let (from, to) = (mv.from(), mv.to());
            let mut after = occ;
            after.clear(from);
            after.set(to);
            let mut attacked = attacks(to, pos.man_at(from), after);
            for &(c, a) in &before {
                if c != from {
                    attacked |= if a.has(from) || a.has(to) { attacks(c, pos.man_at(c), after) } else { a };
                }
            }
            let replies = (steps & !attacked).count() as i32;
            let check = attacked.has(weak);
            list.scores[i] = if replies == 0 && !check {
                BAD_CAPTURE - 1
            } else {
                HUNT_QUIET - replies * HUNT_PER_STEP
                    + i32::from(check) * HUNT_CHECK
                    + list.scores[i].clamp(-HISTORY_CAP, HISTORY_CAP) / HUNT_HISTORY_DIVISOR
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Man;

    /// Credit stays within the bounds however often it is given, and a context's credit is its
    /// own: the same move after another context scores nothing.
    #[test]
    fn continuation_credit_is_bounded_and_kept_per_context() {
        let (ncells, ntypes) = (64, 6);
        let mut h = ContinuationHistory::new(ncells, ntypes, 2);
        let (white, black) = (Player::new(0), Player::new(1));
        let knight = PieceType::new(1);
        let after_e5 = h.context(Man::new(PieceType::new(0), black, black), Cell::new(36));
        let after_d5 = h.context(Man::new(PieceType::new(0), black, black), Cell::new(35));
        let f3 = Cell::new(21);
        for _ in 0..1000 {
            h.update(after_e5, knight, f3, history_bonus(20, 0));
        }
        assert!((HISTORY_MAX - 64..=HISTORY_MAX).contains(&h.score(after_e5, knight, f3)), "{}", h.score(after_e5, knight, f3));
        assert_eq!(h.score(after_d5, knight, f3), 0);
        assert_eq!(h.score(NO_CONTEXT, knight, f3), 0);
        for _ in 0..1000 {
            h.update(after_e5, knight, f3, -history_bonus(20, 0));
        }
        assert!(h.score(after_e5, knight, f3) < -HISTORY_MAX + 64);
        // A White man's context differs from a Black one's on the same cell.
        assert_ne!(h.context(Man::new(knight, white, white), f3), h.context(Man::new(knight, black, black), f3));
    }

    /// Where the game's types and cells exceed the table, contexts fold into it (as many types as
    /// a game may have, on aof3's 350 cells).
    #[test]
    fn a_large_game_folds_into_the_table() {
        let (ncells, ntypes) = (350, crate::types::MAX_TYPES);
        let mut h = ContinuationHistory::new(ncells, ntypes, 4);
        assert_eq!(h.scores.len(), CONTINUATION_SLOTS_MAX);
        let last = h.context(Man::new(PieceType::new(ntypes - 1), Player::new(3), Player::new(3)), Cell::new(ncells - 1));
        h.update(last, PieceType::new(ntypes - 1), Cell::new(ncells - 1), 100);
        assert_eq!(h.score(last, PieceType::new(ntypes - 1), Cell::new(ncells - 1)), 100);
    }
}
