//! The legality filter (pins, shortcuts) against exact tests and a plain reference, and the
//! pass.

mod exact {
    use crate::position::{Man, Move, MoveKind, Position};
    use crate::registry::compiled;
    use crate::tables::{CompiledComponent, Game};
    use crate::types::{Cell, PieceType, Player};

    /// Legal moves with every move checked by the exact attack test (no pin or path shortcuts).
    fn exact<const W: usize>(pos: &Position<W>) -> Vec<Move> {
        let mut s = pos.safety(None);
        s.risky_from = pos.game.all_cells;
        s.danger = None;
        let mut out = Vec::new();
        pos.generate(s, super::super::Generate::All, &mut out);
        out.sort_by_key(|m| m.raw());
        out
    }

    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// A sparse random position: each player's royal piece and `men` other random men.
    fn random_position<const W: usize>(game: &'static Game<W>, rng: &mut StdRng, men: usize) -> Position<W> {
        let mut pos = Position::empty(game);
        let royal = game.piece_types().find(|&t| game.types[t].royal).expect("a royal type");
        // Curved and bent riders, whose discovered attacks the legality shortcuts must see, come
        // up more often than the rest.
        let shortcut_relevant = |t: PieceType| {
            game.types[t].comps[Player::new(0)]
                .iter()
                .any(|c| matches!(c, CompiledComponent::Curved { .. } | CompiledComponent::Bent { .. }))
        };
        let others: Vec<PieceType> = game
            .piece_types()
            .filter(|&t| !game.types[t].royal)
            .flat_map(|t| std::iter::repeat_n(t, if shortcut_relevant(t) { 6 } else { 1 }))
            .collect();
        for p in game.players() {
            for i in 0..=men {
                let kind = if i == 0 { royal } else { others[rng.random_range(0..others.len())] };
                let cell = loop {
                    let c = Cell::new(rng.random_range(0..game.ncells));
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

    /// `(id, $check::<W>(id, rng))` for a game of each geometry and a Cwda army, each at its
    /// bitboard width.
    macro_rules! every_game {
        ($check:ident, $rng:expr) => {
            [
                ("chess", $check::<1>("chess", $rng)),
                ("cwda-cn", $check::<1>("cwda-cn", $rng)),
                ("ninjachess", $check::<4>("ninjachess", $rng)),
                ("honeycomb3", $check::<4>("honeycomb3", $rng)),
                ("honeycomb3-double", $check::<4>("honeycomb3-double", $rng)),
                ("guru2", $check::<4>("guru2", $rng)),
                ("aof3", $check::<6>("aof3", $rng)),
            ]
        };
    }

    /// Few men: the royal piece's steps are tested against a map of the enemy's attacks, which
    /// must agree with the exact test in every game (hoppers, curved and bent riders, the facing
    /// rule, three and four players).
    #[test]
    fn the_danger_map_agrees_with_exact_legality_in_sparse_positions() {
        fn games<const W: usize>(id: &str, rng: &mut StdRng) -> usize {
            let game = compiled::<W>(crate::games::definition(id).expect("a game"));
            let players = game.nplayers;
            let mut positions = 0;
            for _ in 0..40 {
                let men = rng.random_range(0..6 / (players - 1));
                positions += check_game(random_position(game, rng, men), rng, 60).0;
            }
            positions
        }
        let mut rng = StdRng::seed_from_u64(0xD1B5_4A32_D192_ED03);
        for (id, positions) in every_game!(games, &mut rng) {
            assert!(positions > 400, "{id}: {positions}");
        }
    }

    /// A plain move that checks a player who was not in check starts or ends on one of the cells
    /// `Position::check_lines` gives (what lets the search leave out the exact test elsewhere).
    #[test]
    fn every_new_check_touches_the_check_lines() {
        fn checks<const W: usize>(id: &str, rng: &mut StdRng) -> usize {
            let game = compiled::<W>(crate::games::definition(id).expect("a game"));
            let mut found = 0;
            for n in 0..30 {
                // Few men leave long open lines, along which checks are discovered.
                let men = if n % 2 == 0 { rng.random_range(0..3) } else { rng.random_range(3..10) };
                let mut pos = if n < 3 { Position::start(game) } else { random_position(game, rng, men) };
                for _ in 0..60 {
                    let mut moves = Vec::new();
                    pos.legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    for &m in
                        moves.iter().filter(|m| matches!(m.kind(), MoveKind::Normal | MoveKind::DoubleStep) && m.promotion().is_none())
                    {
                        let mut after = pos.clone();
                        after.make(m);
                        let next = after.to_move();
                        let Some(k) = pos.royal_cell(next) else { continue };
                        if pos.in_check(next) || !after.in_check(next) || !pos.is_active(next) {
                            continue;
                        }
                        found += 1;
                        let lines = pos.check_lines(k, pos.opponents(next));
                        assert!(lines.has(m.from()) || lines.has(m.to()), "{id}: {m:?} in {}", crate::notation::position_string(&pos));
                    }
                    let mv = moves[rng.random_range(0..moves.len())];
                    pos.make(mv);
                }
            }
            found
        }
        let mut rng = StdRng::seed_from_u64(0x2545_F491_4F6C_DD1D);
        for (id, found) in every_game!(checks, &mut rng) {
            assert!(found > 100, "{id}: {found} checks");
        }
    }

    /// A type whose moves (or attacks) are leaps and rides alone reaches, through its joined
    /// tables, the cells that its leaps and each ray of its rides reach one by one: every game
    /// and Cwda army, every type, orientation and cell, on random boards.
    #[test]
    fn joined_leaps_and_rides_reach_what_each_ray_reaches() {
        use crate::bitboard::Bitboard;
        use crate::movegen::targets::{attack_targets, piece_targets};
        use crate::movement::Mode;
        fn joined<const W: usize>(id: &str, rng: &mut StdRng) -> usize {
            let game = compiled::<W>(crate::games::definition(id).expect("a game"));
            let tables = &game.moves;
            let mut checked = 0;
            for _ in 0..8 {
                let density = rng.random_range(0.05..0.6);
                let mut occ = Bitboard::<W>::EMPTY;
                let mut own = Bitboard::<W>::EMPTY;
                for c in (0..game.ncells).map(Cell::new) {
                    if rng.random_bool(density) {
                        occ.set(c);
                        if rng.random_bool(0.5) {
                            own.set(c);
                        }
                    }
                }
                for kind in game.piece_types() {
                    for o in game.players() {
                        let info = &game.types[kind];
                        for c in (0..game.ncells).map(Cell::new) {
                            // The capturing components' cells, ray by ray.
                            let mut reach = Bitboard::EMPTY;
                            for comp in &info.comps[o] {
                                match comp {
                                    CompiledComponent::Leap { table, mode } if *mode != Mode::MoveOnly => {
                                        reach |= tables.leaps[usize::from(*table)][c];
                                    }
                                    CompiledComponent::Ride { rays, mode, .. } if *mode != Mode::MoveOnly => {
                                        for &r in rays {
                                            reach |= tables.ray_attacks(r, c, occ);
                                        }
                                    }
                                    _ => {}
                                }
                            }
                            if info.plain_attacks[o].is_some() {
                                assert_eq!(attack_targets(game, c, kind, o, occ), reach, "{id}");
                                checked += 1;
                            }
                            if info.plain_moves[o].is_some() {
                                assert_eq!(piece_targets(game, c, kind, o, occ, own), reach & !own, "{id}");
                                checked += 1;
                            }
                        }
                    }
                }
            }
            checked
        }
        let mut rng = StdRng::seed_from_u64(0x9E37_79B9_7F4A_7C15);
        for (id, checked) in every_game!(joined, &mut rng) {
            assert!(checked > 1000, "{id}: {checked}");
        }
        for id in crate::games::ids().iter().filter(|id| id.starts_with("cwda")) {
            assert!(joined::<1>(id, &mut rng) > 1000, "{id}");
        }
    }
}

mod pass {
    use crate::position::{Man, Move, Position};
    use crate::registry;
    use crate::tables::Game;
    use crate::types::{Player, PlayerSet};

    fn game() -> &'static Game<4> {
        registry::compiled::<4>(crate::games::definition("honeycomb3").expect("honeycomb3"))
    }

    fn position(men: &[(&str, usize, &str)], to_move: usize, active: u8) -> Position<4> {
        let g = game();
        let mut p = Position::empty(g);
        for &(c, owner, code) in men {
            let cell = g.geometry().cell_by_name(c).expect("cell");
            let owner = Player::new(owner);
            p.put(cell, Man::new(g.def.piece_by_code(code).expect("code"), owner, owner));
        }
        p.set_active(PlayerSet::from_bits(active));
        p.set_to_move(Player::new(to_move));
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
        assert!(!p.in_check(Player::new(1)));
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        assert_eq!(moves, vec![Move::PASS]);
        assert_eq!(p.perft(1), 1);
        let undo = p.make(Move::PASS);
        assert_eq!((p.to_move(), p.halfmove_clock()), (Player::new(2), 1));
        p.unmake(Move::PASS, undo);
        assert_eq!(p.to_move(), Player::new(1));
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
        assert_eq!(p.winner(), Some(Player::new(0)));
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        assert!(moves.is_empty());
    }
}

mod reference {
    //! The legality filter (pins, shortcuts) against a plain reference: every pseudo-legal move
    //! played on a copy and the mover's King tested, over random 3-player games; and `make` /
    //! `unmake` (start-of-turn checkmates included) restoring the position exactly.
    use crate::attacks::Facing;
    use crate::bitboard::Bitboard;
    use crate::position::{InputWeights, Move, PieceSquare, Position};
    use crate::registry;
    use crate::tables::Game;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    fn reference_moves(p: &Position<4>) -> Vec<Move> {
        let game = p.game;
        let me = p.to_move;
        let own = p.by_owner[me];
        let enemies = p.opponents(me);
        let mut out = Vec::new();
        for from in own {
            let m = p.man_at(from);
            for to in p.piece_targets(from, m.kind(), m.orientation(), own) {
                let mut q = p.clone();
                q.take(from);
                if q.man_at(to).is_some() {
                    q.take(to);
                }
                q.put(to, m);
                let king = q.royal_cell(me).expect("the mover has a King");
                if !q.attacked(king, q.occ, enemies, Bitboard::EMPTY, Facing::Counted) {
                    if game.types[m.kind()].pawn {
                        p.push_pawn_move(m.kind(), m.orientation(), Move::new(from, to), &mut out);
                    } else {
                        out.push(Move::new(from, to));
                    }
                }
            }
        }
        if out.is_empty() && p.active.len() > 2 {
            out.push(Move::PASS);
        }
        out.sort_by_key(|m| m.raw());
        out
    }

    /// The network sums `p` keeps are those summed afresh, from every perspective.
    fn assert_input_sums(p: &Position<4>, weights: &std::sync::Arc<InputWeights>) {
        for perspective in p.game().players() {
            let mut fresh = vec![0; weights.hidden()];
            weights.sums_from_scratch(p, perspective, &mut fresh);
            assert_eq!(p.input_sums(weights, perspective), Some(&fresh[..]), "{}", crate::notation::position_string(p));
        }
    }

    fn random_games(id: &str, games: usize, plies: usize) -> (usize, usize, usize) {
        let game: &'static Game<4> = registry::compiled::<4>(crate::games::definition(id).expect("game"));
        let mut rng = StdRng::seed_from_u64(0x9E37_79B9_7F4A_7C15);
        let mut rnd = |n: usize| rng.random_range(0..n);
        let (mut positions, mut checks, mut mates) = (0, 0, 0);
        for _ in 0..games {
            let mut p = Position::start(game);
            p.set_piece_square(std::sync::Arc::new(PieceSquare::arbitrary(game.ntypes, game.nplayers, game.ncells)));
            let weights = std::sync::Arc::new(InputWeights::arbitrary(game.nplayers, game.ntypes, game.ncells));
            p.set_input_weights(Some(weights.clone()));
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
                let captures: Vec<Move> = moves.iter().copied().filter(|m| !m.is_pass() && p.man_at(m.to()).is_some()).collect();
                let mv = if !captures.is_empty() && rnd(3) > 0 { captures[rnd(captures.len())] } else { moves[rnd(moves.len())] };
                let before = (crate::notation::position_string(&p), p.hash(), p.mates());
                let undo = p.make(mv);
                assert_eq!(p.hash(), p.compute_hash());
                assert_eq!(p.piece_square_sums(), p.psq_from_scratch());
                assert_input_sums(&p, &weights);
                p.unmake(mv, undo);
                assert_eq!((crate::notation::position_string(&p), p.hash(), p.mates()), before);
                assert_input_sums(&p, &weights);
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
        // The sub-variants: hex-diagonal riders, the Cohen's two curved rings, Pawnouts.
        for id in ["honeycomb3-double", "wildhoney3-double", "honeycomb3-double-pawnless", "wildhoney3-pawnless"] {
            let (positions, checks, mates) = random_games(id, 20, 400);
            assert!(positions > 5_000 && checks > 100 && mates > 0, "{id}: {positions} positions, {checks} checks, {mates} mates");
        }
    }
}

mod modes {
    //! The capture search's generation and the first-move shortcut against the full list, over
    //! random games of every game family (castling, en passant, promotions, Enlightened Moves,
    //! Charges, passes), with a network's sums kept as men move; and both lists with the riders'
    //! and hoppers' cells from a line memo kept over the games, as the search generates them.
    use crate::position::{InputWeights, Move, MoveKind, Position};
    use crate::registry::compiled;
    use crate::tables::LineMemo;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    fn tactical<const W: usize>(pos: &Position<W>, m: Move) -> bool {
        matches!(m.kind(), MoveKind::EnPassant | MoveKind::Charge)
            || (!m.is_pass() && pos.man_at(m.to()).is_some())
            || m.promotion().is_some()
    }

    fn random_games<const W: usize>(id: &str, games: usize, plies: usize) -> usize {
        let game = compiled::<W>(crate::games::definition(id).expect("game"));
        let mut rng = StdRng::seed_from_u64(7);
        let mut tactical_moves = 0;
        let weights = std::sync::Arc::new(InputWeights::arbitrary(game.nplayers, game.ntypes, game.ncells));
        let mut memo = LineMemo::default();
        for _ in 0..games {
            let mut pos = Position::start(game);
            pos.set_input_weights(Some(weights.clone()));
            for _ in 0..plies {
                // The network sums kept as men move are those summed afresh.
                for perspective in game.players() {
                    let mut fresh = vec![0; weights.hidden()];
                    weights.sums_from_scratch(&pos, perspective, &mut fresh);
                    assert_eq!(pos.input_sums(&weights, perspective), Some(&fresh[..]), "{id}");
                }
                let mut all = Vec::new();
                pos.legal_moves(&mut all);
                let mut got = Vec::new();
                pos.legal_tactical_moves(&mut got);
                let want: Vec<Move> = all.iter().copied().filter(|&m| tactical(&pos, m)).collect();
                assert_eq!(got, want, "{id}: {}", crate::notation::position_string(&pos));
                let mut from_memo = Vec::new();
                pos.legal_moves_with(None, &mut memo, &mut from_memo);
                assert_eq!(from_memo, all, "{id}: all moves, the memo's lines");
                pos.legal_tactical_moves_with(None, &mut memo, &mut from_memo);
                assert_eq!(from_memo, got, "{id}: tactical moves, the memo's lines");
                assert_eq!(pos.first_legal_move(&mut Vec::new()), all.first().copied());
                tactical_moves += got.len();
                if all.is_empty() {
                    break;
                }
                // Prefer captures and promotions, so that games open up.
                let pool = if !want.is_empty() && rng.random_range(0..3) > 0 { &want } else { &all };
                pos.make(pool[rng.random_range(0..pool.len())]);
            }
        }
        tactical_moves
    }

    #[test]
    fn tactical_moves_and_the_first_move_agree_with_the_full_list() {
        let counts = [
            random_games::<1>("chess", 30, 200),
            random_games::<1>("cwda-cn", 20, 200),
            random_games::<4>("ninjachess", 6, 150),
            random_games::<3>("honeycomb3", 6, 200),
            random_games::<3>("wildhoney3", 6, 200),
            random_games::<3>("honeycomb3-double", 6, 200),
            random_games::<3>("wildhoney3-double", 6, 200),
            random_games::<4>("guru2", 4, 200),
            random_games::<6>("aof3", 3, 200),
        ];
        assert!(counts.iter().all(|&n| n > 200), "{counts:?}");
    }
}
