//! Move ordering: the transposition table's move first, then captures (most valuable victim,
//! least valuable attacker), promotions, killers and the history of quiet cut-offs (against a bare
//! royal piece, the quiet moves that leave it fewest steps); and the move picker that hands a node
//! its moves best first.

use super::see::see_ge;
use super::worker::Worker;
use crate::attacks::Facing;
use crate::bitboard::Bitboard;
use crate::movegen::targets::{facing_royals, man_attacks};
use crate::moves::Man;
use crate::position::{Move, MoveKind};
use crate::types::{Cell, Player};
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
        let h = &mut self.scores[i];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }
}

/// The history bonus of a cut-off at `depth` with two players.
fn history_bonus(depth: i32) -> i32 {
    (16 * depth * depth).min(1600)
}

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

    pub fn order_score(&self, mv: Move, tt_move: Move, ply: usize) -> i32 {
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
            if !self.multi && self.counter_of(ply) == Some(mv) {
                return COUNTER;
            }
            if mv.kind() != MoveKind::Pass {
                s = self.history.score(self.pos.man_at(mv.from()).owner(), mv);
            }
        }
        s
    }

    /// Scores every move of `list` for ordering.
    pub fn score_moves(&self, list: &mut MoveList, tt_move: Move, ply: usize) {
        list.scores.clear();
        for i in 0..list.moves.len() {
            let s = self.order_score(list.moves[i], tt_move, ply);
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
        self.counter_slot(ply).map(|slot| self.counters[slot]).filter(|&m| m != Move::NONE)
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
            self.history.credit(mover, mv, depth);
            return;
        }
        if let Some(slot) = self.counter_slot(ply) {
            self.counters[slot] = mv;
        }
        let bonus = history_bonus(depth);
        self.history.update(mover, mv, bonus);
        for &m in tried {
            self.history.update(mover, m, -bonus);
        }
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
