//! Legal move generation.
//!
//! Pseudo-legal targets come from the compiled components; legality is decided by a cheap
//! filter where it can be proved (pins along rider lines computed from the royal cell, no check,
//! the move touches no line from the royal cell that holds an enemy hopper and no curved or bent
//! path to the royal cell) and otherwise by an exact attack test on the position after the move.
//! Moves granted by rule switches live in their own submodules: [`enlightened`] and [`charge`].

pub mod charge;
pub mod enlightened;

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
        let lines = game.ride_lines.iter().chain(std::iter::once(&game.facing_lines));
        for (g, lines) in groups.rides.iter().chain(groups.facing.iter()).zip(lines) {
            let pieces = self.members(&g.members) & enemy & lines[k];
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
                    } else if s.pins.try_push((b1 as u16, segment)).is_ok() {
                        s.pinned.set(b1);
                    } else {
                        // More pins than a board's directions allow for: test the man exactly.
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
                    let line = game.rays[r as usize].mask[k];
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
        for (g, reach) in groups.curved.iter().zip(&game.curved_reach) {
            let pieces = self.members(&g.members) & enemy & reach[k];
            if pieces.is_empty() {
                continue;
            }
            for path in &game.curved[g.set as usize][k] {
                let mut blocker = None;
                for &c in path {
                    let c = c as usize;
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
        for a in self.members(&groups.bent) & enemy & game.bent_origins[k] {
            s.risky_from |= self.bent_sole_blockers(a, k, own);
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
    pub(crate) fn piece_targets(&self, from: usize, kind: usize, orient: usize, own: Bitboard<W>) -> Bitboard<W> {
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
        self.generate(self.safety(), out);
    }

    fn generate(&self, s: Safety<W>, out: &mut Vec<Move>) {
        out.clear();
        if self.is_decided() {
            return;
        }
        let game = self.game;
        let p = self.to_move as usize;
        let own = self.by_owner[p];
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
        if let Some(rule) = &game.enlightened {
            self.push_enlightened(rule, &s, own, out);
        }
        if let Some(rule) = &game.charge {
            self.push_charges(rule, out);
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

#[cfg(test)]
mod tests {
    use crate::position::{Man, Move, Position};
    use crate::registry::compiled;
    use crate::tables::{CompiledComponent, Game};

    /// Legal moves with every move checked by the exact attack test (no pin or path shortcuts).
    fn exact<const W: usize>(pos: &Position<W>) -> Vec<Move> {
        let mut s = pos.safety();
        s.risky_from = pos.game.all_cells;
        let mut out = Vec::new();
        pos.generate(s, &mut out);
        out.sort_by_key(|m| m.raw());
        out
    }

    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// A sparse random position: each player's royal piece and `men` other random men.
    fn random_position<const W: usize>(game: &'static Game<W>, rng: &mut StdRng, men: usize) -> Position<W> {
        let mut pos = Position::empty(game);
        let royal = (0..game.ntypes).find(|&t| game.types[t].royal).expect("a royal type");
        // Curved and bent riders, whose discovered attacks the legality shortcuts must see, come
        // up more often than the rest.
        let shortcut_relevant = |t: usize| {
            game.types[t].comps[0].iter().any(|c| matches!(c, CompiledComponent::Curved { .. } | CompiledComponent::Bent { .. }))
        };
        let others: Vec<usize> = (0..game.ntypes)
            .filter(|&t| !game.types[t].royal)
            .flat_map(|t| std::iter::repeat_n(t, if shortcut_relevant(t) { 6 } else { 1 }))
            .collect();
        for p in 0..game.nplayers {
            for i in 0..=men {
                let kind = if i == 0 { royal } else { others[rng.random_range(0..others.len())] };
                let cell = loop {
                    let c = rng.random_range(0..game.ncells);
                    if pos.man_at(c).is_none() {
                        break c;
                    }
                };
                pos.put(cell, Man::new(kind, p, p));
            }
        }
        pos
    }

    /// Plays a random game: at every position the legality shortcuts agree with exact tests,
    /// hashes stay incremental and unmake restores the position. Returns (positions, mates).
    fn check_game<const W: usize>(mut pos: Position<W>, rng: &mut StdRng, plies: usize) -> (usize, u8) {
        let mut positions = 0;
        for _ in 0..plies {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            moves.sort_by_key(|m| m.raw());
            assert_eq!(moves, exact(&pos), "{}", crate::notation::position_string(&pos));
            positions += 1;
            if moves.is_empty() {
                break;
            }
            // Take a checkmating move when there is one, else prefer captures.
            let mating = moves.iter().copied().find(|&m| {
                let mut after = pos.clone();
                after.make(m);
                after.mates() > pos.mates()
            });
            let captures: Vec<Move> = moves.iter().copied().filter(|m| pos.man_at(m.to()).is_some()).collect();
            let pool = if !captures.is_empty() && rng.random_range(0..4) != 0 { &captures } else { &moves };
            let mv = mating.unwrap_or(pool[rng.random_range(0..pool.len())]);
            let before = pos.clone();
            let undo = pos.make(mv);
            assert_eq!(pos.hash(), pos.compute_hash());
            let mut back = pos.clone();
            back.unmake(mv, undo);
            assert_eq!(crate::notation::position_string(&back), crate::notation::position_string(&before));
            assert_eq!(back.hash(), before.hash());
        }
        (positions, pos.mates())
    }

    /// Four players with curved and bent riders: from the start and from sparse random
    /// positions, through checks, passes, checkmates and wins.
    #[test]
    fn shortcuts_agree_with_exact_legality_in_random_aof3_games() {
        let game = compiled::<6>(crate::games::definition("aof3").expect("aof3"));
        let mut rng = StdRng::seed_from_u64(0x9E37_79B9_7F4A_7C15);
        let mut positions = 0;
        let mut mates = 0;
        for _ in 0..4 {
            let (n, m) = check_game(Position::start(game), &mut rng, 400);
            positions += n;
            mates += m as usize;
        }
        for _ in 0..60 {
            let men = rng.random_range(4..16);
            let (n, m) = check_game(random_position(game, &mut rng, men), &mut rng, 200);
            positions += n;
            mates += m as usize;
        }
        assert!(positions > 3000, "{positions}");
        assert!(mates > 20, "{mates} checkmates");
    }
}

#[cfg(test)]
mod pass_tests {
    use crate::position::{Man, Move, Position};
    use crate::registry;
    use crate::tables::Game;

    fn game() -> &'static Game<4> {
        registry::compiled::<4>(crate::games::definition("honeycomb3").expect("honeycomb3"))
    }

    fn position(men: &[(&str, usize, &str)], to_move: usize, active: u8) -> Position<4> {
        let g = game();
        let mut p = Position::empty(g);
        for &(c, owner, code) in men {
            let cell = g.geometry().cell_by_name(c).expect("cell");
            p.put(cell, Man::new(g.def.piece_by_code(code).expect("code"), owner, owner));
        }
        p.set_active(active);
        p.set_to_move(to_move);
        p
    }

    /// Yellow's King on the vertex 1a8 is not attacked, but Red covers all five of its cells
    /// (2a8 and 2b8 by the Rook on 2e8, 1b8 by the Bishop, 1a7 by the Bishop defended from 7a7,
    /// 1b7 by the Rook on 7b7), and Yellow has nothing else.
    const BOXED: [(&str, usize, &str); 7] =
        [("1c1", 0, "K"), ("2e8", 0, "R"), ("1a7", 0, "B"), ("7a7", 0, "R"), ("7b7", 0, "R"), ("1a8", 1, "K"), ("5c8", 2, "K")];

    #[test]
    fn no_move_with_three_players_is_the_pass() {
        let mut p = position(&BOXED, 1, 0b111);
        assert!(!p.in_check(1));
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        assert_eq!(moves, vec![Move::PASS]);
        assert_eq!(p.perft(1), 1);
        let undo = p.make(Move::PASS);
        assert_eq!((p.to_move(), p.halfmove_clock()), (2, 1));
        p.unmake(Move::PASS, undo);
        assert_eq!(p.to_move(), 1);
    }

    #[test]
    fn no_move_with_two_players_is_no_move() {
        let men: Vec<_> = BOXED.iter().copied().filter(|m| m.1 != 2).collect();
        let mut p = position(&men, 1, 0b011);
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        assert!(moves.is_empty(), "stalemate: no pass with two players");
        assert_eq!(p.perft(2), 0);
    }

    #[test]
    fn pass_is_not_offered_beside_legal_moves() {
        let mut men = BOXED.to_vec();
        men.push(("3c5", 1, "P"));
        let p = position(&men, 1, 0b111);
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        assert_eq!(moves.len(), 2);
        assert!(!moves.contains(&Move::PASS));
    }

    #[test]
    fn a_decided_game_has_no_moves() {
        let p = position(&[("1c1", 0, "K"), ("3c3", 0, "P")], 0, 0b001);
        assert!(p.is_decided());
        assert_eq!(p.winner(), Some(0));
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        assert!(moves.is_empty());
    }
}

#[cfg(test)]
mod reference_tests {
    //! The legality filter (pins, shortcuts) against a plain reference: every pseudo-legal move
    //! played on a copy and the mover's King tested, over random 3-player games; and `make` /
    //! `unmake` (start-of-turn checkmates included) restoring the position exactly.
    use super::*;
    use crate::registry;
    use crate::tables::Game;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    fn reference_moves(p: &Position<4>) -> Vec<Move> {
        let game = p.game;
        let me = p.to_move as usize;
        let own = p.by_owner[me];
        let enemies = p.active & !(1u8 << me);
        let mut out = Vec::new();
        for from in own {
            let m = p.board[from];
            for to in p.piece_targets(from, m.kind(), m.orientation(), own) {
                let mut q = p.clone();
                q.take(from);
                if q.board[to].is_some() {
                    q.take(to);
                }
                q.put(to, m);
                let king = q.royal_cell(me).expect("the mover has a King");
                if !q.attacked(king, q.occ, enemies, Bitboard::EMPTY, true) {
                    if game.types[m.kind()].pawn {
                        p.push_pawn_move(m.kind(), m.orientation(), Move::new(from, to), &mut out);
                    } else {
                        out.push(Move::new(from, to));
                    }
                }
            }
        }
        if out.is_empty() && p.active.count_ones() > 2 {
            out.push(Move::PASS);
        }
        out.sort_by_key(|m| m.raw());
        out
    }

    fn random_games(id: &str, games: usize, plies: usize) -> (usize, usize, usize) {
        let game: &'static Game<4> = registry::compiled::<4>(crate::games::definition(id).expect("game"));
        let mut rng = StdRng::seed_from_u64(0x9E37_79B9_7F4A_7C15);
        let mut rnd = |n: usize| rng.random_range(0..n);
        let (mut positions, mut checks, mut mates) = (0, 0, 0);
        for _ in 0..games {
            let mut p = Position::start(game);
            for _ in 0..plies {
                let mut moves = Vec::new();
                p.legal_moves(&mut moves);
                if p.is_decided() {
                    break;
                }
                moves.sort_by_key(|m| m.raw());
                assert_eq!(moves, reference_moves(&p), "{}", crate::notation::position_string(&p));
                if moves.is_empty() {
                    break;
                }
                positions += 1;
                checks += p.in_check(p.to_move()) as usize;
                // Prefer captures, so that games open up and Kings come under fire.
                let captures: Vec<Move> = moves.iter().copied().filter(|m| !m.is_pass() && p.board[m.to()].is_some()).collect();
                let mv = if !captures.is_empty() && rnd(3) > 0 { captures[rnd(captures.len())] } else { moves[rnd(moves.len())] };
                let before = (crate::notation::position_string(&p), p.hash(), p.mates());
                let undo = p.make(mv);
                assert_eq!(p.hash(), p.compute_hash());
                assert_eq!(p.psq, p.psq_from_scratch());
                p.unmake(mv, undo);
                assert_eq!((crate::notation::position_string(&p), p.hash(), p.mates()), before);
                p.make(mv);
                mates += (p.mates() - before.2) as usize;
            }
        }
        (positions, checks, mates)
    }

    #[test]
    fn legal_moves_match_the_reference_in_random_three_player_games() {
        for id in ["honeycomb3", "wildhoney3"] {
            let (positions, checks, mates) = random_games(id, 80, 400);
            assert!(positions > 20_000 && checks > 500 && mates > 2, "{id}: {positions} positions, {checks} checks, {mates} mates");
        }
    }
}
