use super::*;
use crate::notation::{parse_move, parse_position};
use crate::registry;

fn chess() -> &'static Game<1> {
    registry::compiled::<1>(crate::games::definition("chess").expect("chess"))
}

/// A game's own evaluation profile.
fn profile(id: &str) -> EvalProfile {
    crate::games::profile(id).expect("a game").eval
}

/// `params` over the game's own learned texts (chess's square values are on at the defaults).
fn evaluator<const W: usize>(game: &Game<W>, params: &EvalParams) -> Evaluator {
    Evaluator::with_learned(game, params, &profile(&game.def.id).learned)
}

/// Only the named weights set: every other term off.
fn only(weights: &str) -> EvalParams {
    let mut p = PARAMS;
    for &(name, min, max) in EvalParams::RANGES {
        if !["value_per_move", "value_base", "pawn_value"].contains(&name) {
            p.set(name, 0.clamp(min, max)).expect("0 or the range's edge");
        }
    }
    p.with_overrides(weights).expect("valid weights")
}

fn chess_position(fen: &str) -> Position<1> {
    parse_position(chess(), fen).expect("fen")
}

fn two(v: &PerPlayer<Tapered>) -> [(i32, i32); 2] {
    [(v.0[0].mg, v.0[0].eg), (v.0[1].mg, v.0[1].eg)]
}

/// Thirty-one Queens against a bare King, each paid `mopup_men` at its most, are worth more than
/// any mate score: the evaluation stops at [`EVAL_LIMIT`], below the search's mate scores.
#[test]
fn the_evaluation_is_bounded() {
    let pos = chess_position("7k/8/8/8/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQK b - - 0 1");
    let (_, _, most) = EvalParams::RANGES.iter().copied().find(|r| r.0 == "mopup_men").expect("a weight");
    let eval = evaluator(chess(), &PARAMS.with_overrides(&format!("mopup_men={most}")).expect("in range"));
    let white = eval.evaluate_for(&pos, Player::new(0));
    let black = eval.evaluate_for(&pos, Player::new(1));
    assert_eq!((white, black), (EVAL_LIMIT, -EVAL_LIMIT));
    let sums = eval.breakdown(&pos);
    assert!(sums.total[Player::new(0)] > EVAL_LIMIT, "{:?}", sums.total);
}

#[test]
fn parameters_by_name() {
    let mut p = PARAMS;
    assert_eq!(p.get("tempo"), Some(PARAMS.tempo));
    assert_eq!(p.get("nonsense"), None);
    p.set("tempo", 42).expect("in range");
    assert_eq!(p.tempo, 42);
    assert!(p.set("tempo", 101).is_err());
    assert!(p.set("nonsense", 1).is_err());
    assert_eq!(p.overrides(), "tempo=42");
    let q = PARAMS.with_overrides("tempo=42, pawn_advance=9").expect("valid");
    assert_eq!((q.tempo, q.pawn_advance, q.value_base), (42, 9, PARAMS.value_base));
    assert_eq!(q.overrides(), "pawn_advance=9,tempo=42");
    assert!(PARAMS.with_overrides("tempo").is_err());
    assert!(PARAMS.with_overrides("tempo=x").is_err());
    assert_eq!(PARAMS.with_overrides("").expect("nothing to change"), PARAMS);
    // Every default lies in its range, and every game's own values are valid.
    for &(name, min, max) in EvalParams::RANGES {
        assert!((min..=max).contains(&PARAMS.get(name).expect("known")), "{name}");
    }
    for id in crate::games::ids() {
        let own = profile(&id).params;
        for &(name, min, max) in EvalParams::RANGES {
            assert!((min..=max).contains(&own.get(name).expect("known")), "{id}: {name}");
        }
    }
}

#[test]
fn overrides_lie_over_a_games_own_values() {
    let mut o = EvalOverrides::default();
    o.set("tempo", 30).expect("valid");
    o.set("passed", 40).expect("valid");
    o.set("tempo", 20).expect("valid");
    assert!(o.set("tempo", 1000).is_err() && o.set("nonsense", 1).is_err());
    let base = PARAMS.with_overrides("tempo=5,isolated=7").expect("valid");
    let p = o.apply(base);
    assert_eq!((p.tempo, p.passed, p.isolated), (20, 40, 7));
}

#[test]
fn the_phase_falls_with_the_pieces() {
    let e = evaluator(chess(), &PARAMS);
    let start = Position::start(chess());
    assert_eq!(e.phase(&start), PHASE_FULL);
    // A Knight of the start's 6400 of pieces (4 N, 4 B, 4 R, 2 Q).
    assert_eq!(e.phase(&chess_position("4k3/8/8/4N3/8/8/8/4K3 w - - 0 1")), 320 * PHASE_FULL / 6400);
    assert_eq!(e.phase(&chess_position("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1")), 0);
}

#[test]
fn mobility_and_king_safety() {
    let e = evaluator(chess(), &only("mobility_quarter=4,mobility_eg_quarter=8,king_attack=10,king_danger=8"));
    let pos = chess_position("4k3/8/8/4N3/8/8/8/4K3 w - - 0 1");
    // The Knight on e5 has 8 moves, 3 more than a Knight's average on the empty board (336 / 64,
    // rounded down to 5): 3 × 4 and 3 × 8 quarter centipawns. Two of its moves (d7, f7) are next
    // to Black's King, by one piece: 2 × 10 + 2 × 1 × 8 / 8 off Black in the middle game.
    assert_eq!(e.tables.average_moves[chess().def.piece_by_code("N").expect("knight")], 5);
    let a = activity::activity(&e.tables, &pos, None);
    assert_eq!((two(&a.mobility), two(&a.king_safety)), ([(3, 6), (0, 0)], [(0, 0), (-22, 0)]));
    // Mobility leaves out the cells enemy pawns attack: of the Knight's, c6 (the pawns on b7 and
    // e7 attack a6, c6, d6 and f6).
    let a = activity::activity(&e.tables, &chess_position("4k3/1p2p3/8/4N3/8/8/8/4K3 w - - 0 1"), None);
    assert_eq!(two(&a.mobility)[0], ((7 - 5) * 4 / 4, (7 - 5) * 8 / 4));
    // The breakdown blends every term by the phase and adds them up.
    let b = e.breakdown(&pos);
    let phase = e.phase(&pos);
    assert_eq!(b.phase, phase);
    assert_eq!((b.mobility.0[0], b.king_safety.0[1]), (Tapered::new(3, 6).blend(phase), Tapered::new(-22, 0).blend(phase)));
    assert_eq!(b.total.0[0], b.material.0[0] + b.placement.0[0] + b.mobility.0[0]);
    assert_eq!(b.score.0[0], e.evaluate_for(&pos, Player::new(0)));
}

#[test]
fn the_pawn_shield() {
    let e = evaluator(chess(), &only("king_shield=10"));
    // Next to the King on g1 or a step ahead of such a cell: f2, g2 and g3, not a2.
    let a = activity::activity(&e.tables, &chess_position("4k3/8/8/8/8/6P1/P4PP1/6K1 w - - 0 1"), None);
    assert_eq!(two(&a.king_safety)[0], (30, 0));
}

#[test]
fn the_royal_piece_exposed_on_rider_lines() {
    let e = evaluator(chess(), &only("king_exposure=10"));
    // Black's Rook rides the ranks and files: from White's King on e1, e2 to e7 (the Rook's cell
    // counted: the first man on the line) and d1 to a1, 10 cells; f1 holds White's own Bishop.
    // White's only rider is that Bishop: its diagonals from Black's King on e8 run d7-a4 and
    // f7-h5, 7 cells.
    let a = activity::activity(&e.tables, &chess_position("4k3/4r3/8/8/8/8/8/4KB2 w - - 0 1"), None);
    assert_eq!(two(&a.king_safety), [(-100, 0), (-70, 0)]);
}

#[test]
fn pawn_structure() {
    // White: a3 and a2 (doubled), d5 (stopped by c7), h2; Black: c7 (stopped by d5). Every pawn
    // but the supported b3 of the last position is isolated.
    let pos = chess_position("4k3/2p5/8/3P4/8/P7/P6P/4K3 w - - 0 1");
    let structure = |weights: &str, pos: &Position<1>| two(&pawns::structure(&evaluator(chess(), &only(weights)).tables, pos, None));
    // Passed: a3 has made 2 of its 7 steps, a2 and h2 one each: 49 × (4 + 1 + 1) / 49.
    assert_eq!(structure("passed=49,passed_eg=98", &pos), [(6, 12), (0, 0)]);
    assert_eq!(structure("isolated=10,isolated_eg=20", &pos), [(-40, -80), (-10, -20)]);
    assert_eq!(structure("doubled=5,doubled_eg=7", &pos), [(-5, -7), (0, 0)]);
    // d3 stands behind c4 and e4, and Black's c5 and e5 hold d4: backward. c4 and e4 are not (d3
    // could still protect c5 and e5), Black's pawns are isolated instead; with d4 free of Black's
    // pawns d3 is no longer backward.
    let backward = "backward=10,backward_eg=20";
    assert_eq!(structure(backward, &chess_position("4k3/8/8/2p1p3/2P1P3/3P4/8/4K3 w - - 0 1")), [(-10, -20), (0, 0)]);
    assert_eq!(structure(backward, &chess_position("4k3/8/8/8/2P1P3/3P4/8/4K3 w - - 0 1")), [(0, 0), (0, 0)]);
    assert_eq!(structure("supported=3,supported_eg=4", &chess_position("4k3/8/8/8/8/1P6/P7/4K3 w - - 0 1")), [(3, 4), (0, 0)]);
    // The passed a5 (4 of 7 steps made) steps to a6: the black King is 7 steps from it, the white
    // one 5: (7 × 49 − 5 × 14) × 16 / 49.
    let kings = "passed_enemy_king_eg=49,passed_king_eg=14";
    assert_eq!(structure(kings, &chess_position("7k/8/8/P7/8/8/8/4K3 w - - 0 1")), [(0, (7 * 49 - 5 * 14) * 16 / 49), (0, 0)]);
}

#[test]
fn a_blocked_passed_pawn_is_worth_less() {
    let structure = |fen: &str| {
        two(&pawns::structure(&evaluator(chess(), &only("passed=49,passed_eg=98,passed_blocked=25")).tables, &chess_position(fen), None))
    };
    // The passed a5 (4 of 7 steps made: 16 / 49 of the bonus) is free; a Knight on a6, of
    // either side, blocks it: a quarter less.
    assert_eq!(structure("7k/8/8/P7/8/8/8/4K3 w - - 0 1")[0], (16, 32));
    assert_eq!(structure("7k/8/n7/P7/8/8/8/4K3 w - - 0 1")[0], (12, 24));
    assert_eq!(structure("7k/8/N7/P7/8/8/8/4K3 w - - 0 1")[0], (12, 24));
}

#[test]
fn piece_terms() {
    let pieces = |weights: &str, fen: &str| {
        two(&activity::activity(&evaluator(chess(), &only(weights)).tables, &chess_position(fen), None).pieces)[0]
    };
    // Bishops on c1 and f1 stand on both colours; on c1 and g1 on one.
    assert_eq!(pieces("pair=30,pair_eg=50", "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1"), (30, 50));
    assert_eq!(pieces("pair=30,pair_eg=50", "4k3/8/8/8/8/8/8/2B1K1B1 w - - 0 1"), (0, 0));
    // Two Rooks are one redundant pair, three are three; two Queens one, and the colour-bound
    // Bishops none.
    assert_eq!(pieces("redundancy=20", "4k3/8/8/8/8/8/8/R3K2R w - - 0 1"), (-20, 0));
    assert_eq!(pieces("redundancy=20", "4k3/8/8/8/8/8/R7/R3K2R w - - 0 1"), (-60, 0));
    assert_eq!(pieces("redundancy=20", "4k3/8/8/8/8/8/8/Q1BBK1Q1 w - - 0 1"), (-20, 0));
    // A Rook's file: open, half-open (only an enemy pawn), closed by its own pawn; the first
    // rank does not count.
    let lines = "open_line=20,half_open_line=7";
    assert_eq!(pieces(lines, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), (20, 0));
    assert_eq!(pieces(lines, "4k3/p7/8/8/8/8/8/R3K3 w - - 0 1"), (7, 0));
    assert_eq!(pieces(lines, "4k3/8/8/8/8/8/P7/R3K3 w - - 0 1"), (0, 0));
    // A Knight on d5 protected by c4: an outpost until a black pawn could come to attack it.
    assert_eq!(pieces("outpost=15,outpost_eg=5", "4k3/8/8/3N4/2P5/8/8/4K3 w - - 0 1"), (15, 5));
    assert_eq!(pieces("outpost=15,outpost_eg=5", "4k3/4p3/8/3N4/2P5/8/8/4K3 w - - 0 1"), (0, 0));
    // A Bishop on a7 hemmed in by the pawn on b6 has one move (b8; b6 is its own pawn's): two
    // short of three. On the open board it is not trapped.
    assert_eq!(pieces("trapped=10,trapped_eg=4", "4k3/B7/1P6/8/8/8/8/4K3 w - - 0 1"), (-20, -8));
    assert_eq!(pieces("trapped=10,trapped_eg=4", "4k3/8/8/3B4/8/8/8/4K3 w - - 0 1"), (0, 0));
}

#[test]
fn threats_against_men() {
    let threats = |fen: &str| {
        let e = evaluator(chess(), &only("threat_pawn=40,threat_pawn_eg=20,threat_lesser=10,threat_lesser_eg=5,hanging=3,hanging_eg=1"));
        two(&activity::activity(&e.tables, &chess_position(fen), None).pieces)
    };
    // White's Knight on d5 is attacked by the pawn on e6 and defended by the pawn on c4: a pawn
    // threat; Black's pawn is no victim (pawns are not counted).
    assert_eq!(threats("4k3/8/4p3/3N4/2P5/8/8/4K3 w - - 0 1"), [(-40, -20), (0, 0)]);
    // Undefended, it is hanging too.
    assert_eq!(threats("4k3/8/4p3/3N4/8/8/8/4K3 w - - 0 1"), [(-43, -21), (0, 0)]);
    // A Rook attacked by a Bishop (lesser) and defended by the King. The Kings are no victims.
    assert_eq!(threats("4k3/1b6/8/8/8/8/6R1/5K2 w - - 0 1"), [(-10, -5), (0, 0)]);
    // The Bishop attacked by a Rook (not lesser) and defended by nothing: hanging.
    assert_eq!(threats("4k3/1b6/8/8/8/8/1R6/4K3 w - - 0 1"), [(0, 0), (-3, -1)]);
}

#[test]
fn tables_follow_the_parameters() {
    let game = chess();
    let own = profile("chess");
    let none = EvalOverrides::default();
    let default = Evaluator::of_profile(game, &own, &none);
    assert!(Arc::ptr_eq(&default.tables, &Evaluator::of_profile(game, &own, &none).tables), "a game's own tables are built once");
    let own = own.params;
    let params = own
        .with_overrides(
            "value_base=150,tempo=30,pawn_advance=0,pawn_advance_eg=0,pawn_centre_quarter=0,square_values_permille=0,network_permille=0",
        )
        .expect("valid");
    let e = evaluator(game, &params);
    assert!(Arc::ptr_eq(&e.tables, &evaluator(game, &params).tables), "shared while in use");
    let pawn = game.def.piece_by_code("P").expect("pawn");
    let (white, black) = (Player::new(0), Player::new(1));
    let cell = crate::types::Cell::new;
    // Chess gives every value, so `value_base` changes nothing; without advance and centre
    // bonuses and the learned square values a pawn is worth the same on every cell.
    assert_eq!(e.values(), default.values());
    assert_eq!(e.tables.psq.value(pawn, white, cell(8)), e.tables.psq.value(pawn, white, cell(48)));
    // The advance bonus raises a pawn's end-game value with its rank (chess's fitted value is 0).
    let advancing = evaluator(game, &own.with_overrides("pawn_advance_eg=8").expect("valid"));
    assert!(advancing.tables.psq.value(pawn, white, cell(48)).eg > advancing.tables.psq.value(pawn, white, cell(8)).eg);
    // Honeycomb's pieces have derived values: each moves up with `value_base`.
    let honey = registry::compiled::<4>(crate::games::definition("honeycomb3").expect("honeycomb3"));
    let (h, h0) = (evaluator(honey, &params), evaluator(honey, &PARAMS));
    for (t, info) in honey.def.pieces.entries() {
        let shift = if info.royal || info.value != 0 { 0 } else { 50 };
        assert_eq!(h.values()[t], h0.values()[t] + shift, "{}", info.name);
    }

    let mut pos = chess_position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    default.prepare(&mut pos);
    let before = default.evaluate_for(&pos, white);
    e.prepare(&mut pos);
    assert_eq!(pos.piece_square_sums(), pos.psq_from_scratch());
    // Symmetric position: only the tempo of the player to move is left (and chess's network, for
    // the player to move, where it is on).
    let network = default.breakdown(&pos).network[white];
    assert_eq!((before, e.evaluate_for(&pos, white), e.evaluate_for(&pos, black)), (own.tempo + network, 30, 0));
    // The sums stay exact through make/unmake with the new tables.
    for m in ["g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6"] {
        let mv = parse_move(&pos, m).expect("legal");
        pos.make(mv);
        assert_eq!(pos.piece_square_sums(), pos.psq_from_scratch(), "after {m}");
    }
}

/// The royal piece's line centrality: in chess the centrality of a file is the mean over its cells
/// of the Knight's, Bishop's, Rook's and Queen's moves against their averages. The Rook's never
/// change and the Queen's are the Bishop's plus the Rook's, so a file counts the Knight's mean
/// and twice the Bishop's: a 3.25 + 2 × 7, b and g 4.75 + 2 × 8.5, c and f 6.5 + 2 × 9.5, d and
/// e 6.5 + 2 × 10.
#[test]
fn the_royal_piece_on_a_central_line() {
    let game = chess();
    let king = game.def.piece_by_code("K").expect("king");
    let white = Player::new(0);
    let king_mg = |e: &Evaluator, name: &str| e.tables.psq.value(king, white, game.geometry().cell_by_name(name).expect("a cell")).mg;
    let e = evaluator(game, &only("royal_line_centrality_quarter=-16"));
    let at = |name: &str| king_mg(&e, name);
    // -16 quarters are 4 cp a unit: g1 is 4.75 units less central than e1, h1 9.25, f1 1.
    assert_eq!([at("g1") - at("e1"), at("h1") - at("e1"), at("f1") - at("e1"), at("g8") - at("g1")], [19, 37, 4, 0]);
    let off = evaluator(game, &only(""));
    assert_eq!(king_mg(&off, "g1"), king_mg(&off, "e1"));
}

/// The evaluation's material moves with the shape shifts (riders by their reach) and the scale,
/// while the exchange values, which the static exchange and the game phase use, stay the
/// definition's.
#[test]
fn material_shifts_by_shape_and_reach() {
    let game = chess();
    let base = evaluator(game, &PARAMS);
    let with = |overrides: &str| evaluator(game, &PARAMS.with_overrides(overrides).expect("valid"));
    // A piece's material under `e` less its material under the defaults: (middle game, end game).
    let shift = |e: &Evaluator, code: &str| {
        let t = game.def.piece_by_code(code).expect("a chess piece");
        let (a, b) = (e.tables.material[t], base.tables.material[t]);
        (a.mg - b.mg, a.eg - b.eg)
    };
    let shifted = with("leaper_value=40,rider_value=10,rider_move_value_quarter=4,rider_move_value_eg_quarter=-8");
    assert_eq!(shifted.values(), base.values());
    // On the empty board a Knight averages 5.25 moves, a Bishop 8.75, a Rook 14 and a Queen
    // 22.75, counted in whole moves.
    assert_eq!([shift(&shifted, "P"), shift(&shifted, "N"), shift(&shifted, "K")], [(0, 0), (40, 0), (0, 0)]);
    assert_eq!([shift(&shifted, "B"), shift(&shifted, "R"), shift(&shifted, "Q")], [(10 + 8, -16), (10 + 14, -28), (10 + 22, -44)]);
    // In proportion to the exchange values (Knight 320, Rook 500, Queen 900); not for pawns.
    let scaled = with("material_scale_permille=100,material_scale_eg_permille=-50");
    assert_eq!(scaled.values(), base.values());
    assert_eq!(
        [shift(&scaled, "P"), shift(&scaled, "N"), shift(&scaled, "R"), shift(&scaled, "Q")],
        [(0, 0), (32, -16), (50, -25), (90, -45)]
    );
}

/// Chess's learned square values (`src/games/chess-squares.txt`) go into the piece-square table:
/// White's as written (cell order, a1 first), Black's mirrored top to bottom, in
/// `square_values_permille` of the written centipawns.
#[test]
fn learned_square_values_mirrored_and_scaled() {
    let game = chess();
    let with = |permille: i32| evaluator(game, &PARAMS.with_overrides(&format!("square_values_permille={permille}")).expect("valid"));
    let (off, on, half) = (with(0), with(1000), with(500));
    // The written values of a block, read apart from the engine's reader.
    let written = |header: &str| -> Vec<i32> {
        let mut lines = profile("chess").learned.squares.lines().skip_while(|l| *l != header).skip(1);
        lines.by_ref().take(8).flat_map(|l| l.split_whitespace().map(|w| w.parse::<i32>().expect("a number"))).collect()
    };
    let added = |e: &Evaluator, code: &str, owner: usize, cell: &str| {
        let t = game.def.piece_by_code(code).expect("a chess piece");
        let (o, c) = (Player::new(owner), game.def.cell(cell));
        let (a, b) = (e.tables.psq.value(t, o, c), off.tables.psq.value(t, o, c));
        (a.mg - b.mg, a.eg - b.eg)
    };
    for (code, white, black, index) in [("P", "e2", "e7", 12), ("N", "g1", "g8", 6), ("K", "c1", "c8", 2), ("R", "a7", "a2", 48)] {
        let (mg, eg) = (written(&format!("{code} mg"))[index], written(&format!("{code} eg"))[index]);
        assert_eq!(added(&on, code, 0, white), (mg, eg), "{code} {white}");
        assert_eq!(added(&on, code, 1, black), (mg, eg), "{code} {black}");
        assert_eq!(added(&half, code, 1, black), (mg * 500 / 1000, eg * 500 / 1000), "{code} {black}");
    }
    assert!(
        profile("chess").learned.squares.lines().filter(|l| l.ends_with(" mg") || l.ends_with(" eg")).count() == 12,
        "every chess type, both phases"
    );
}

/// Chess's learned royal-pawn values (`src/games/chess-royal-pawns.txt`): each pawn adds the
/// value of its square (from its owner's side) in the block of its own King's bucket and in that
/// of the enemy King's bucket (the enemy's square read from the enemy's side), in
/// `royal_pawn_values_permille` of the written centipawns.
#[test]
fn learned_royal_pawn_values_by_both_kings() {
    let game = chess();
    let with = |permille: i32| evaluator(game, &PARAMS.with_overrides(&format!("royal_pawn_values_permille={permille}")).expect("valid"));
    // The written values of a block, read apart from the engine's reader.
    let written = |header: &str| -> Vec<i32> {
        let mut lines = profile("chess").learned.royal_pawns.lines().skip_while(|l| *l != header).skip(1);
        let values: Vec<i32> =
            lines.by_ref().take(8).flat_map(|l| l.split_whitespace().map(|w| w.parse::<i32>().expect("a number"))).collect();
        assert_eq!(values.len(), 64, "{header}");
        values
    };
    let buckets = written("buckets");
    // White: King g1, pawns f2 g2 h3; Black: King c8 (c1 from its side), pawns a7 b6 (a2 b3).
    let pos = chess_position("2k5/p7/1p6/8/8/7P/5PP1/6K1 w - - 0 1");
    let (white_king, black_king) = (buckets[6], buckets[2]);
    let expected = |permille: i32, own: i32, enemy: i32, squares: &[usize]| {
        let part = |side: &str, b: i32, phase: &str, sq: usize| written(&format!("{side} {b} {phase}"))[sq] * permille / 1000;
        let sum = |phase: &str| squares.iter().map(|&sq| part("own", own, phase, sq) + part("enemy", enemy, phase, sq)).sum::<i32>();
        (sum("mg"), sum("eg"))
    };
    for permille in [1000, 500] {
        let terms = with(permille).tables.royal_pawns.as_ref().expect("chess has them").terms(&pos);
        assert_eq!(
            two(&terms),
            [expected(permille, white_king, black_king, &[13, 14, 23]), expected(permille, black_king, white_king, &[8, 17])],
            "at {permille}"
        );
    }
    assert!(with(0).tables.royal_pawns.is_none());
    assert!(
        profile("chess").learned.royal_pawns.lines().filter(|l| l.ends_with(" mg") || l.ends_with(" eg")).count() == 128,
        "both Kings, 32 buckets, both phases"
    );
}

#[test]
fn tables_of_other_parameters_are_freed_when_unused() {
    let game = chess();
    let params = PARAMS.with_overrides("tempo=77").expect("valid");
    let weak = Arc::downgrade(&evaluator(game, &params).tables);
    assert!(weak.upgrade().is_none(), "no evaluator holds them any more");
}

/// Plays random games in `id`: at every position the evaluation with a cache (pawn structures and
/// riders' lines, kept over the game, so that they come back) equals the one without, for every
/// player.
fn eval_cache_agrees<const W: usize>(id: &str, games: u64, plies: usize) {
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};
    let game = registry::compiled::<W>(crate::games::definition(id).expect("a game"));
    let eval = evaluator(game, &profile(id).params.with_overrides("passed_blocked=30,backward=9,supported=7").expect("valid"));
    let mut cache = EvalCache::default();
    let mut moves = Vec::new();
    for seed in 0..games {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut pos = Position::start(game);
        eval.prepare(&mut pos);
        for _ in 0..plies {
            for p in game.players() {
                assert_eq!(eval.evaluate_for_cached(&pos, p, &mut cache), eval.evaluate_for(&pos, p), "{id}, seed {seed}");
            }
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.make(moves[rng.random_range(0..moves.len())]);
            pos.settle();
        }
    }
}

/// Plays random games in `id`: every man of a type whose moves are taken as its attacks less its
/// own men's cells (`moves_are_attacks`) has exactly those moves.
fn moves_are_attacks_holds<const W: usize>(id: &str, plies: usize) {
    use crate::movegen::targets::{attack_targets, piece_targets};
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};
    let game = registry::compiled::<W>(crate::games::definition(id).expect("a game"));
    let tables = evaluator(game, &profile(id).params).tables;
    assert!(tables.moves_are_attacks.iter().any(|&b| b), "{id}: some type is tested");
    let mut rng = StdRng::seed_from_u64(5);
    let mut pos = Position::start(game);
    let mut moves = Vec::new();
    for _ in 0..plies {
        for c in pos.occupied() {
            let m = pos.man_at(c);
            if tables.moves_are_attacks[m.kind()] {
                let own = pos.pieces_of(m.owner());
                let attacks = attack_targets(game, c, m.kind(), m.orientation(), pos.occupied());
                assert_eq!(piece_targets(game, c, m.kind(), m.orientation(), pos.occupied(), own), attacks & !own, "{id}");
            }
        }
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        pos.make(moves[rng.random_range(0..moves.len())]);
        pos.settle();
    }
}

#[test]
fn moves_are_attacks_where_the_tables_say_so() {
    moves_are_attacks_holds::<1>("chess", 200);
    moves_are_attacks_holds::<3>("honeycomb3", 300);
    moves_are_attacks_holds::<3>("wildhoney3", 300);
    moves_are_attacks_holds::<4>("ninjachess", 200);
    moves_are_attacks_holds::<4>("guru2", 300);
    moves_are_attacks_holds::<6>("aof3", 300);
}

#[test]
fn the_eval_cache_changes_nothing() {
    eval_cache_agrees::<1>("chess", 20, 200);
    eval_cache_agrees::<4>("ninjachess", 4, 150);
    eval_cache_agrees::<3>("honeycomb3", 4, 300);
    eval_cache_agrees::<4>("guru2", 3, 400);
    eval_cache_agrees::<6>("aof3", 2, 300);
}

/// Chess's learned network (`src/games/chess.network`), read apart from the engine's reader: a
/// header (magic, version, game id, fingerprint, types, cells, hidden units H, buckets B over M
/// men, perspectives P, flags), then i16 values: biases, per bucket and perspective the output
/// weights, per bucket the output bias, per (relation, type, square) a column of H weights. Per
/// perspective (the mover's, then with P = 2 the other player's) the columns of the men seen from
/// that player (with `mirror`, the board mirrored left to right where that player's King is on
/// files a-d) summed with the biases, each unit clipped to 0..1024, weighted by that
/// perspective's part of the bucket's output row; plus the bucket's output bias, in sixteenths of
/// a centipawn.
fn written_network(fen: &str) -> i32 {
    let bytes = profile("chess").learned.network;
    let id_len = usize::from(bytes[6]);
    let at = 7 + id_len + 8;
    let u16_at = |i: usize| usize::from(u16::from_le_bytes([bytes[i], bytes[i + 1]]));
    let (ntypes, hidden) = (u16_at(at), u16_at(at + 4));
    let (buckets, bucket_men, perspectives, mirror) =
        (usize::from(bytes[at + 6]), usize::from(bytes[at + 7]), usize::from(bytes[at + 8]), bytes[at + 9] == 1);
    let values_at = at + 10;
    let numbers = |from: usize, n: usize| -> Vec<i64> {
        (from..from + n).map(|i| i64::from(i16::from_le_bytes([bytes[values_at + 2 * i], bytes[values_at + 2 * i + 1]]))).collect()
    };
    let pos = chess_position(fen);
    let men = pos.occupied().count() as usize;
    let bucket = ((men - 1) * buckets / bucket_men).min(buckets - 1);
    let output = numbers(hidden + bucket * perspectives * hidden, perspectives * hidden);
    let output_bias = numbers(hidden + buckets * perspectives * hidden + bucket, 1)[0];
    let columns = hidden + buckets * perspectives * hidden + buckets;
    let mut sum = 0;
    for (k, viewer) in [pos.to_move(), Player::new(1 - pos.to_move().index())].into_iter().take(perspectives).enumerate() {
        // The men from the viewer's side (Black's board mirrored top to bottom), as python-chess
        // writes them: `tuning/network.py`'s inputs.
        let mut acc = numbers(0, hidden);
        // With `mirror`, files mirrored where the viewer's King is on files a to d.
        let files = if mirror && pos.royal_cell(viewer).expect("a King").index() % 8 < 4 { 7 } else { 0 };
        for c in pos.occupied() {
            let man = pos.man_at(c);
            let input = usize::from(man.owner() != viewer) * ntypes + man.kind().index();
            let square = (if viewer == Player::new(1) { c.index() ^ 56 } else { c.index() }) ^ files;
            let column = numbers(columns + (input * 64 + square) * hidden, hidden);
            for (a, w) in acc.iter_mut().zip(column) {
                *a += w;
            }
        }
        sum += acc.iter().zip(&output[k * hidden..]).map(|(&a, &w)| a.clamp(0, 1024) * w).sum::<i64>();
    }
    ((sum / 1024 + output_bias) / 16) as i32
}

#[test]
fn learned_network_as_written_for_either_mover() {
    let with = |permille: i32| evaluator(chess(), &PARAMS.with_overrides(&format!("network_permille={permille}")).expect("valid"));
    let net = with(1000);
    let network = net.tables.network.as_ref().expect("chess has one");
    for (fen, mirrored) in [
        (
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9",
            "r2qkb1r/pp2bppp/2n2n2/2pp4/3P4/2N1PN2/PP2BPPP/R1BQ1RK1 b kq - 0 9",
        ),
        ("8/5pk1/6p1/8/3R4/6P1/r4PK1/8 b - - 0 40", "8/R4pk1/6p1/3r4/8/6P1/5PK1/8 w - - 0 40"),
    ] {
        let value = network.value(&chess_position(fen));
        assert_eq!(value, written_network(fen), "{fen}");
        // The same men seen from the other side: the same value for the mover.
        assert_eq!(network.value(&chess_position(mirrored)), value, "{mirrored}");
        assert_eq!(net.breakdown(&chess_position(fen)).network[chess_position(fen).to_move()], value);
    }
    // A prepared position keeps the first layer's sums as men move, to the same values.
    let mut pos = chess_position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    net.prepare(&mut pos);
    for text in [
        "e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6", "c1e3", "e7e5", "d4b3", "f8e7", "d1d2", "e8g8",
        "e1c1", "g8h8", "c1b1",
    ] {
        let mv = parse_move(&pos, text).expect("legal");
        let undo = pos.make(mv);
        let fen = crate::notation::position_string(&pos);
        assert_eq!(network.value(&pos), written_network(&fen), "{fen}");
        pos.unmake(mv, undo);
        pos.make(mv);
    }
    assert!(with(0).tables.network.is_none());
    let half = with(500).tables.network.as_ref().expect("on").value(&chess_position("8/5pk1/6p1/8/3R4/6P1/r4PK1/8 b - - 0 40"));
    assert!((2 * half - written_network("8/5pk1/6p1/8/3R4/6P1/r4PK1/8 b - - 0 40")).abs() <= 1, "{half}");
}

/// `activity_off` zeroes every weight the activity terms read: from every parameter at its
/// largest value, it leaves the terms off.
#[test]
fn activity_off_turns_every_activity_weight_off() {
    let mut params = PARAMS;
    for &(name, _, max) in EvalParams::RANGES.iter() {
        params.set(name, max).expect("in range");
    }
    assert!(activity::enabled(&params));
    assert!(!activity::enabled(&activity_off(params)));
}
