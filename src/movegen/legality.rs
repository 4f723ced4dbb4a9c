//! Legality of moves: a cheap filter where it can be proved (pins along rider lines computed from
//! the royal cell, no check, the move touches no line from the royal cell that holds an enemy
//! hopper and no curved or bent path to the royal cell), otherwise an exact attack test on the
//! position after the move.

use arrayvec::ArrayVec;

use crate::attacks::Facing;
use crate::bitboard::Bitboard;
use crate::movegen::targets::attacked_cells;
use crate::position::{Move, MoveKind, Position};
use crate::types::{Cell, PlayerSet};

/// Most pinned men tracked one by one; a man beyond them gets the exact test.
const MAX_PINS: usize = 32;
/// Most enemy men for which the royal piece's steps are tested against one map of their attacks
/// instead of one reverse attack test per step.
const DANGER_MAP_MAX_MEN: u32 = 6;

/// What the legality filter knows about the mover's royal piece before generating moves.
pub(crate) struct Safety<const W: usize> {
    pub royal: Option<Cell>,
    pub enemies: PlayerSet,
    pub in_check: bool,
    pinned: Bitboard<W>,
    /// Each pinned man and the cells it may still move to.
    pins: ArrayVec<(Cell, Bitboard<W>), MAX_PINS>,
    /// Moves from these cells need the exact test.
    pub risky_from: Bitboard<W>,
    /// Moves to these cells need the exact test.
    risky_to: Bitboard<W>,
    /// Where the enemy has few men: the cells the royal piece may not step to, those its enemies
    /// attack once it has left its cell (exact for its plain steps and captures). One pass over
    /// the enemy's men is cheaper then than a test per step, above all with the 26 steps of a
    /// royal piece in three dimensions.
    pub danger: Option<Bitboard<W>>,
}

impl<const W: usize> Safety<W> {
    /// No filter at all: generation with it gives the pseudo-legal moves (Elephant Charges, which
    /// test their own legality, apart).
    pub(crate) fn pseudo_legal(enemies: PlayerSet) -> Self {
        Safety {
            royal: None,
            enemies,
            in_check: false,
            pinned: Bitboard::EMPTY,
            pins: ArrayVec::new(),
            risky_from: Bitboard::EMPTY,
            risky_to: Bitboard::EMPTY,
            danger: None,
        }
    }
}

impl<const W: usize> Position<W> {
    /// What the legality filter needs, with `known_check` whether the mover is in check where the
    /// caller has found it already (it saves the filter its own attack test).
    pub(crate) fn safety(&self, known_check: Option<bool>) -> Safety<W> {
        let game = self.game;
        let tables = &game.moves;
        let p = self.to_move;
        let enemies = self.opponents(p);
        let mut s = Safety { royal: self.royal_cell(p), ..Safety::pseudo_legal(enemies) };
        let Some(k) = s.royal else { return s };
        if self.pieces_of_set(enemies).count() <= DANGER_MAP_MAX_MEN {
            let mut occ = self.occ;
            occ.clear(k);
            s.danger = Some(attacked_cells(self, enemies, occ, Facing::Counted));
        }
        // The map holds the royal cell itself when it is attacked: the lines stop there anyway.
        s.in_check = match (s.danger, known_check) {
            (Some(danger), _) => danger.has(k),
            (None, Some(checked)) => checked,
            (None, None) => self.attacked(k, self.occ, enemies, Bitboard::EMPTY, Facing::Counted),
        };
        debug_assert_eq!(s.in_check, self.in_check(p), "a wrong known check status");
        if s.in_check {
            return s;
        }
        let own = self.by_owner[p];
        let enemy = self.occ & !self.side_men(p);
        let groups = &game.attacks;
        let lines = groups.ride_lines.iter().chain(std::iter::once(&groups.facing_lines));
        for (g, lines) in groups.rides.iter().chain(groups.facing.iter()).zip(lines) {
            let pieces = self.members(&g.members) & enemy & lines[k];
            if pieces.is_empty() {
                continue;
            }
            for &r in &g.rays {
                let ray = &tables.rays[usize::from(r)];
                let line = ray.mask[k] & self.occ;
                let Some(b1) = ray.nearest(line) else { continue };
                if !own.has(b1) {
                    continue;
                }
                let mut rest = line;
                rest.clear(b1);
                if let Some(b2) = ray.nearest(rest)
                    && pieces.has(b2)
                {
                    let segment = ray.mask[k] & !tables.rays[ray.unlimited].mask[b2];
                    if s.pinned.has(b1) {
                        // Pinned along two lines at once: it cannot move at all.
                        for pin in s.pins.iter_mut().filter(|pin| pin.0 == b1) {
                            pin.1 &= segment;
                        }
                    } else if s.pins.try_push((b1, segment)).is_ok() {
                        s.pinned.set(b1);
                    } else {
                        s.risky_from.set(b1);
                    }
                }
            }
        }
        // A move cannot put an enemy hopper on a line through the royal piece, so only the lines
        // that already hold one (of a type hopping along it) can turn into a hopper check.
        for g in &groups.hops {
            let hoppers = self.members(&g.members) & enemy;
            if hoppers.any() {
                for &r in &g.rays {
                    let line = tables.rays[usize::from(r)].mask[k];
                    if line.intersects(&hoppers) {
                        s.risky_from |= line;
                    }
                }
            }
        }
        s.risky_to = s.risky_from;
        // Curved and bent riders: a man of ours is risky when it is the only man on a path
        // between the royal piece and an enemy rider that could use it. (Curved paths are
        // reversible, so they are walked from the royal cell.)
        for (g, reach) in groups.curved.iter().zip(&groups.curved_reach) {
            let pieces = self.members(&g.members) & enemy & reach[k];
            if pieces.is_empty() {
                continue;
            }
            for path in &tables.curved[usize::from(g.set)][k] {
                // The first man on the path must be ours and the second an enemy curved rider.
                let mut blocker = None;
                for &c in path {
                    if !self.occ.has(c) {
                        continue;
                    }
                    match blocker {
                        None if own.has(c) => blocker = Some(c),
                        Some(b) if pieces.has(c) => {
                            s.risky_from.set(b);
                            break;
                        }
                        _ => break,
                    }
                }
            }
        }
        for a in self.members(&groups.bent) & enemy & groups.bent_origins[k] {
            s.risky_from |= self.bent_sole_blockers(a, k, own);
        }
        s
    }

    /// Exact test: is the mover's royal piece safe after moving `from` → `to`, the man on
    /// `captured` (if any, possibly ≠ `to`) being removed?
    pub(crate) fn safe_after(&self, s: &Safety<W>, from: Cell, to: Cell, captured: Option<Cell>) -> bool {
        let Some(k) = s.royal else { return true };
        let mut occ = self.occ;
        occ.clear(from);
        let mut exclude = Bitboard::from_cell(to);
        if let Some(c) = captured {
            occ.clear(c);
            exclude.set(c);
        }
        occ.set(to);
        let target = if k == from { to } else { k };
        !self.attacked(target, occ, s.enemies, exclude, Facing::Counted)
    }

    /// Whether a pseudo-legal move of the player to move leaves its royal piece safe (the exact
    /// test; Elephant Charges, generated legal, pass).
    pub(crate) fn pseudo_legal_move_is_legal(&self, mv: Move) -> bool {
        let s = Safety { royal: self.royal_cell(self.to_move), ..Safety::pseudo_legal(self.opponents(self.to_move)) };
        match mv.kind() {
            MoveKind::Charge | MoveKind::Pass => true,
            MoveKind::EnPassant => self.safe_after(&s, mv.from(), mv.to(), Some(mv.victim_cell())),
            _ => self.safe_after(&s, mv.from(), mv.to(), None),
        }
    }

    /// Whether a plain move `from` → `to` (the target's man, if any, captured) is legal.
    #[inline(always)]
    pub(crate) fn legal_plain(&self, s: &Safety<W>, from: Cell, to: Cell) -> bool {
        match s.royal {
            None => true,
            Some(k) => {
                if k == from || s.in_check || s.risky_from.has(from) || s.risky_to.has(to) {
                    self.safe_after(s, from, to, None)
                } else if s.pinned.has(from) {
                    s.pins.iter().any(|&(c, line)| c == from && line.has(to))
                } else {
                    true
                }
            }
        }
    }
}
