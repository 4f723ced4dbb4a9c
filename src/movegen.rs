//! Legal move generation.
//!
//! Pseudo-legal targets come from the compiled components; legality is decided by a cheap
//! filter where it can be proved (pins along rider lines computed from the royal cell, no check,
//! the move touches no line from the royal cell that holds an enemy hopper and no curved or bent
//! path to the royal cell) and otherwise by an exact attack test on the position after the move.

use arrayvec::ArrayVec;

use crate::bitboard::Bitboard;
use crate::movement::{Mode, PromotionChoices};
use crate::position::{Move, MoveKind, Position};
use crate::tables::CompiledComponent;

/// What the legality filter knows about the mover's royal piece before generating moves.
struct Safety<const W: usize> {
    royal: Option<usize>,
    enemies: u8,
    in_check: bool,
    pinned: Bitboard<W>,
    pins: ArrayVec<(u16, Bitboard<W>), 32>,
    /// Moves from these cells need the exact test.
    risky_from: Bitboard<W>,
    /// Moves to these cells need the exact test.
    risky_to: Bitboard<W>,
}

impl<const W: usize> Position<W> {
    fn safety(&self) -> Safety<W> {
        let game = self.game;
        let p = self.to_move as usize;
        let enemies = self.active & !(1u8 << p);
        let mut s = Safety {
            royal: self.royal_cell(p),
            enemies,
            in_check: false,
            pinned: Bitboard::EMPTY,
            pins: ArrayVec::new(),
            risky_from: Bitboard::EMPTY,
            risky_to: Bitboard::EMPTY,
        };
        let Some(k) = s.royal else { return s };
        s.in_check = self.attacked(k, self.occ, enemies, Bitboard::EMPTY, true);
        if s.in_check {
            return s;
        }
        let own = self.by_owner[p];
        let enemy = self.occ & !own;
        let groups = &game.groups;
        for g in groups.rides.iter().chain(groups.facing.iter()) {
            let pieces = self.members(&g.members) & enemy;
            if pieces.is_empty() {
                continue;
            }
            for &r in &g.rays {
                let ray = &game.rays[r as usize];
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
                    let segment = ray.mask[k] & !game.rays[ray.unlimited].mask[b2];
                    if s.pinned.has(b1) {
                        // Pinned along two lines at once: it cannot move at all.
                        for pin in s.pins.iter_mut() {
                            if pin.0 as usize == b1 {
                                pin.1 &= segment;
                            }
                        }
                    } else {
                        s.pinned.set(b1);
                        s.pins.push((b1 as u16, segment));
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
                    let line = game.rays[r as usize].mask[k];
                    if line.intersects(&hoppers) {
                        s.risky_from |= line;
                    }
                }
            }
        }
        s.risky_to = s.risky_from;
        for g in &groups.curved {
            if (self.members(&g.members) & enemy).any() {
                s.risky_from |= game.curved_through[k];
            }
        }
        if (self.members(&groups.bent) & enemy).any() {
            s.risky_from |= game.bent_through[k];
        }
        s
    }

    /// Exact test: is the mover's royal piece safe after moving `from` → `to`, the man on
    /// `captured` (if any, possibly ≠ `to`) being removed?
    fn safe_after(&self, s: &Safety<W>, from: usize, to: usize, captured: Option<usize>) -> bool {
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
        !self.attacked(target, occ, s.enemies, exclude, true)
    }

    #[inline(always)]
    fn legal_plain(&self, s: &Safety<W>, from: usize, to: usize) -> bool {
        match s.royal {
            None => true,
            Some(k) => {
                if k == from || s.in_check || s.risky_from.has(from) || s.risky_to.has(to) {
                    self.safe_after(s, from, to, None)
                } else if s.pinned.has(from) {
                    s.pins.iter().any(|&(c, line)| c as usize == from && line.has(to))
                } else {
                    true
                }
            }
        }
    }

    /// Target cells of the man on `from` (all components), before legality.
    #[inline(always)]
    fn piece_targets(&self, from: usize, kind: usize, orient: usize, own: Bitboard<W>) -> Bitboard<W> {
        let game = self.game;
        let occ = self.occ;
        let enemy = occ & !own;
        let mut targets = Bitboard::EMPTY;
        for comp in &game.types[kind].comps[orient] {
            match comp {
                CompiledComponent::Leap { table, mode } => {
                    let t = game.leaps[*table as usize][from];
                    targets |= match mode {
                        Mode::Both => t & !own,
                        Mode::MoveOnly => t & !occ,
                        Mode::CaptureOnly => t & enemy,
                    };
                }
                CompiledComponent::Ride { rays, mode } => {
                    let mut t = Bitboard::EMPTY;
                    for &r in rays {
                        t |= game.ray_attacks(r as usize, from, occ);
                    }
                    targets |= match mode {
                        Mode::Both => t & !own,
                        Mode::MoveOnly => t & !occ,
                        Mode::CaptureOnly => t & enemy,
                    };
                }
                CompiledComponent::Hop { rays } => {
                    for &r in rays {
                        let ray = &game.rays[r as usize];
                        let line = ray.mask[from] & occ;
                        match ray.nearest(line) {
                            None => targets |= ray.mask[from],
                            Some(screen) => {
                                targets |= ray.mask[from] & !game.rays[ray.unlimited].mask[screen] & !occ;
                                if let Some(t) = ray.nearest(line & game.rays[ray.unlimited].mask[screen])
                                    && enemy.has(t)
                                {
                                    targets.set(t);
                                }
                            }
                        }
                    }
                }
                CompiledComponent::Curved { set } => {
                    for path in &game.curved[*set as usize][from] {
                        for &c in path {
                            let c = c as usize;
                            if occ.has(c) {
                                if enemy.has(c) {
                                    targets.set(c);
                                }
                                break;
                            }
                            targets.set(c);
                        }
                    }
                }
                CompiledComponent::Bent { set } => {
                    for leg in &game.bent[*set as usize][from] {
                        let mid = leg.mid as usize;
                        if occ.has(mid) {
                            if enemy.has(mid) {
                                targets.set(mid);
                            }
                        } else {
                            targets.set(mid);
                            for &r in &leg.rays {
                                targets |= game.ray_attacks(r as usize, mid, occ) & !own;
                            }
                        }
                    }
                }
            }
        }
        targets
    }

    /// Types a pawn of `kind` may promote to on `to` right now.
    fn promotion_choices(&self, kind: usize, to: usize, out: &mut ArrayVec<usize, 48>) {
        let p = self.to_move as usize;
        match &self.game.types[kind].promo_choices {
            None => {}
            Some(PromotionChoices::Fixed(list)) => out.extend(list.iter().copied()),
            Some(PromotionChoices::ByCell(table)) => out.extend(table[to]),
            Some(PromotionChoices::CapturedPool(list)) => {
                for &t in list {
                    if self.counts[p][t] < self.game.initial_counts[p][t] {
                        out.push(t);
                    }
                }
            }
        }
    }

    /// Emits the move(s) of a pawn-like man to `to`, with promotion choices where they apply.
    fn push_pawn_move(&self, kind: usize, orient: usize, mv: Move, out: &mut Vec<Move>) {
        let info = &self.game.types[kind];
        let to = mv.to();
        if !info.promo_zone[orient].has(to) {
            out.push(mv);
            return;
        }
        if !info.promo_mandatory[orient].has(to) {
            out.push(mv);
        }
        let mut choices = ArrayVec::new();
        self.promotion_choices(kind, to, &mut choices);
        for t in choices {
            out.push(mv.with_promotion(t));
        }
    }

    /// All legal moves of the player to move; the pass `0000` when three or more players are
    /// active and there is no move; nothing when the game is decided.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.is_decided() {
            return;
        }
        let game = self.game;
        let p = self.to_move as usize;
        let own = self.by_owner[p];
        let s = self.safety();
        for from in own {
            let m = self.board[from];
            let (kind, orient) = (m.kind(), m.orientation());
            let info = &game.types[kind];
            let mut targets = self.piece_targets(from, kind, orient, own);
            if info.royal {
                targets &= game.royal_zone[p];
            }
            if info.pawn {
                for to in targets {
                    if self.legal_plain(&s, from, to) {
                        self.push_pawn_move(kind, orient, Move::new(from, to), out);
                    }
                }
                for &(mid, to) in &info.double_steps[orient][from] {
                    let (mid, to) = (mid as usize, to as usize);
                    if !self.occ.has(mid) && !self.occ.has(to) && self.legal_plain(&s, from, to) {
                        self.push_pawn_move(kind, orient, Move::special(from, to, MoveKind::DoubleStep, mid), out);
                    }
                }
                if info.en_passant {
                    self.push_en_passant(&s, from, kind, orient, out);
                }
            } else {
                for to in targets {
                    if self.legal_plain(&s, from, to) {
                        out.push(Move::new(from, to));
                    }
                }
            }
        }
        if self.castling != 0 && !s.in_check {
            self.push_castles(&s, out);
        }
        if out.is_empty() && self.active.count_ones() > 2 {
            out.push(Move::PASS);
        }
    }

    fn push_en_passant(&self, s: &Safety<W>, from: usize, kind: usize, orient: usize, out: &mut Vec<Move>) {
        let game = self.game;
        let p = self.to_move as usize;
        for q in 0..game.nplayers {
            let ep = self.ep[q];
            if q == p || !ep.is_some() || !self.is_active(q) {
                continue;
            }
            let skipped = ep.skipped as usize;
            let victim = ep.victim as usize;
            if self.occ.has(skipped) || !game.ep_allowed[p][q].has(skipped) {
                continue;
            }
            let reaches = game.types[kind].comps[orient].iter().any(|c| {
                matches!(c, CompiledComponent::Leap { table, mode: Mode::CaptureOnly } if game.leaps[*table as usize][from].has(skipped))
            });
            let vm = self.board[victim];
            if reaches
                && vm.is_some()
                && vm.owner() == q
                && game.types[vm.kind()].en_passant
                && self.safe_after(s, from, skipped, Some(victim))
            {
                self.push_pawn_move(kind, orient, Move::special(from, skipped, MoveKind::EnPassant, victim), out);
            }
        }
    }

    fn push_castles(&self, s: &Safety<W>, out: &mut Vec<Move>) {
        let game = self.game;
        let p = self.to_move as usize;
        for (i, c) in game.castles.iter().enumerate() {
            if c.player != p || self.castling >> i & 1 == 0 {
                continue;
            }
            if self.occ.intersects(&game.castle_empty[i]) {
                continue;
            }
            let safe = game.castle_safe[i].iter().all(|cell| !self.attacked(cell, self.occ, s.enemies, Bitboard::EMPTY, true));
            if safe {
                out.push(Move::special(c.king_from, c.king_to, MoveKind::Castle, i));
            }
        }
    }

    /// Number of leaf nodes `depth` plies below (rules README, "Perft").
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
