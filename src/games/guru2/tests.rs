use super::*;
use crate::attacks::Facing;
use crate::bitboard::Bitboard;
use crate::notation;
use crate::position::{Man, Position};
use crate::registry;
use crate::tables::Game;
use crate::types::PlayerSet;

fn game() -> &'static Game<4> {
    registry::compiled::<4>(build())
}

/// Moves of a lone Red man of `kind` on `cell`.
fn lone_moves(kind: PieceType, cell: &str) -> usize {
    let g = game();
    let mut pos = Position::empty(g);
    let red = Player::new(0);
    pos.put(g.def.cell(cell), Man::new(kind, red, red));
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.len()
}

#[test]
fn empty_board_move_counts() {
    let expected = [
        (KING, 13, 6),
        (EMPEROR, 17, 7),
        (ROOK, 19, 19),
        (VICEREINE, 23, 20),
        (KNIGHT, 12, 4),
        (CAVALLANDER, 16, 5),
        (ELEPHANT, 4, 1),
        (WILFUL, 8, 2),
        (FERZ, 8, 3),
        (BARON, 12, 4),
        (GURU, 16, 6),
        (IGTIVLANDER, 20, 7),
        (ARCHDUKE, 17, 7),
    ];
    for (kind, centre, corner) in expected {
        let name = &game().def.pieces[kind].name;
        assert_eq!(lone_moves(kind, "Ue5"), centre, "{name} from Ue5");
        assert_eq!(lone_moves(kind, "Ua1"), corner, "{name} from Ua1");
    }
    // Red's pawn on Ue5: two steps (no captures on an empty board).
    assert_eq!(lone_moves(PAWN, "Ue5"), 2);
}

#[test]
fn cell_names_and_indices() {
    let g = game();
    assert_eq!(g.def.cell("La1"), Cell::new(0));
    assert_eq!(g.def.cell("Uj10"), Cell::new(199));
    assert_eq!(g.def.cell("Ue5"), Cell::new(144));
    assert_eq!(g.def.geometry.name(Cell::new(100)), "Ua1");
}

#[test]
fn start_array() {
    let g = game();
    let pos = Position::start(g);
    let all: Vec<_> = g.def.setup.iter().map(|s| s.cell).collect();
    assert_eq!(all.len(), 136);
    assert_eq!(pos.occupied().count(), 136, "two men on one cell");
    for p in g.players() {
        for z in [LOWER, UPPER] {
            let on_level = pos.pieces_of(p).iter().filter(|&c| g.def.geometry.coord(c)[2] == z).count();
            assert_eq!(on_level, 17, "{p:?} level {z}");
        }
        assert!(!pos.in_check(p), "{p:?} in check at the start");
        // Ferzes on opposite colours.
        let colours: Vec<i32> =
            (pos.pieces_of(p) & pos.pieces_of_type(FERZ)).iter().map(|c| g.def.geometry.coord(c).iter().sum::<i32>() % 2).collect();
        assert_eq!(colours.len(), 2);
        assert_ne!(colours[0], colours[1]);
        // Every pawn is protected by a friendly man.
        for c in pos.pieces_of(p) & pos.pieces_of_type(PAWN) {
            assert!(
                pos.attacked(c, pos.occupied(), PlayerSet::only(p), Bitboard::from_cell(c), Facing::Ignored),
                "pawn on {} unprotected",
                g.def.geometry.name(c)
            );
        }
    }
    assert_eq!(notation::position_string(&pos), START);
}

/// §2.1/§2.3: on each level a player's four Elephants hold four different bindings; each
/// Elephant shares its binding with exactly one Elephant of the two neighbouring armies and
/// with none of the opposite army's.
#[test]
fn start_elephant_bindings() {
    let g = game();
    let binding = |c: Cell| {
        let [x, y, z] = g.def.geometry.coord(c);
        (z, x % 2, y % 2, (x / 2 + y / 2) % 2)
    };
    let elephants: Vec<(usize, (i32, i32, i32, i32))> =
        g.def.setup.iter().filter(|s| s.kind == ELEPHANT).map(|s| (s.owner.index(), binding(s.cell))).collect();
    assert_eq!(elephants.len(), 32);
    for &(p, b) in &elephants {
        let same = |q: usize| elephants.iter().filter(|&&(o, ob)| o == q && ob == b).count();
        assert_eq!(same(p), 1, "player {p} has two Elephants on binding {b:?}");
        assert_eq!(same((p + 1) % 4) + same((p + 3) % 4), 1, "player {p} binding {b:?}: neighbours");
        assert_eq!(same((p + 2) % 4), 0, "player {p} binding {b:?}: opposite army");
    }
    // §4.2: Red's face promotions to an Elephant on a binding none of its array Elephants holds.
    let PromotionChoices::ByCell(table) = g.types[PAWN].promo_choices.clone().expect("pawn promotes") else { panic!("promotion by cell") };
    let red_bindings: Vec<_> = elephants.iter().filter(|e| e.0 == 0).map(|e| e.1).collect();
    let new_binding: Vec<&str> = g.types[PAWN].promo_zone[Player::new(0)]
        .iter()
        .filter(|&c| table[c] == Some(ELEPHANT) && !red_bindings.contains(&binding(c)))
        .map(|c| g.def.geometry.name(c))
        .collect();
    assert_eq!(new_binding, vec!["Lj4", "Lj7", "Ld10", "Uj4", "Ud10", "Ug10"]);
}

/// Random games from the start: every legal move is made and unmade exactly, the incremental
/// hash matches a full recomputation, and the written position parses back to the same one.
#[test]
fn random_games_make_and_unmake_exactly() {
    let g = game();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut moves = Vec::new();
    for _ in 0..6 {
        let mut pos = Position::start(g);
        for _ in 0..300 {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let before = notation::position_string(&pos);
            for &mv in &moves {
                let undo = pos.make(mv);
                assert_eq!(pos.hash(), pos.compute_hash(), "{before} {}", notation::move_string(g, mv));
                pos.unmake(mv, undo);
                assert_eq!(notation::position_string(&pos), before);
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mv = moves[(seed % moves.len() as u64) as usize];
            pos.make(mv);
            let text = notation::position_string(&pos);
            let parsed = notation::parse_position(g, &text).unwrap_or_else(|e| panic!("{e}: {text}"));
            assert_eq!(parsed.hash(), pos.hash(), "{text}");
        }
    }
}

/// `guru2-teams` from the start to depth 4, derived from `guru2`, whose counts are the rules
/// file's anchors (49, 2,404, 115,728, 5,579,111). At every node of the team game's tree the
/// team game's moves are `guru2`'s moves in the same position, less the captures of a
/// partner's man, plus the moves `guru2` refuses only because a partner's man would attack the
/// mover's King afterwards; every difference is checked against that rule, and no player to
/// move attacks a King (so the start-of-turn checkmates of the two games agree). The first two
/// plies touch nobody's partner: 49 and 2,404 as in `guru2`. At ply 3 Green may not take the
/// Red men that Red's first move brought within reach: 115,728 − 461 = 115,267. At ply 4 the
/// team tree lacks the 461 positions after those captures, where Orange has 22,849 moves in
/// `guru2`, and Orange may not take Blue's men (19,356 moves): 5,579,111 − 22,849 − 19,356 =
/// 5,536,906. No move is legal only because partners do not give check this early.
#[test]
fn team_perft_from_the_start_is_guru2_less_partner_captures() {
    let solo = game();
    let teams = registry::compiled::<4>(super::teams());
    #[derive(Default, Debug, PartialEq)]
    struct Ply {
        moves: u64,
        solo_moves: u64,
        partner_captures: u64,
        partner_attacks_only: u64,
        /// `guru2`'s moves after the partner captures (the subtrees the team game lacks).
        replies_after_partner_captures: u64,
    }
    fn walk(pos: &Position<4>, solo: &'static Game<4>, ply: usize, plies: &mut [Ply]) {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let text = notation::position_string(pos);
        let same = notation::parse_position(solo, &text).unwrap_or_else(|e| panic!("{e}: {text}"));
        let mut solo_moves = Vec::new();
        same.legal_moves(&mut solo_moves);
        let mover = pos.to_move();
        let mut solo_replies = Vec::new();
        let row = &mut plies[ply];
        row.moves += moves.len() as u64;
        row.solo_moves += solo_moves.len() as u64;
        for m in solo_moves.iter().filter(|m| !moves.contains(m)) {
            let victim = pos.man_at(m.to());
            assert!(victim.is_some() && victim.owner() != mover && pos.side_of(mover).has(victim.owner()), "{text}: {m:?}");
            row.partner_captures += 1;
            let mut after = same.clone();
            after.make(*m);
            after.legal_moves(&mut solo_replies);
            row.replies_after_partner_captures += solo_replies.len() as u64;
        }
        for m in moves.iter().filter(|m| !solo_moves.contains(m)) {
            let mut after = pos.clone();
            after.make(*m);
            let king = after.royal_cell(mover).expect("a King");
            let partner = pos.side_of(mover).without(mover);
            assert!(after.attacked(king, after.occupied(), partner, Bitboard::EMPTY, Facing::Counted), "{text}: {m:?}");
            row.partner_attacks_only += 1;
        }
        if ply + 1 < plies.len() {
            for &m in &moves {
                let mut child = pos.clone();
                child.make(m);
                walk(&child, solo, ply + 1, plies);
            }
        }
    }
    let mut plies: Vec<Ply> = (0..4).map(|_| Ply::default()).collect();
    walk(&Position::start(teams), solo, 0, &mut plies);
    let counts: Vec<u64> = plies.iter().map(|p| p.moves).collect();
    assert_eq!(counts, [49, 2_404, 115_267, 5_536_906]);
    for p in &plies {
        assert_eq!(p.moves, p.solo_moves - p.partner_captures + p.partner_attacks_only);
    }
    let guru2_anchors = [49, 2_404, 115_728, 5_579_111];
    for d in 0..4 {
        let lost = if d == 0 { 0 } else { plies[d - 1].replies_after_partner_captures };
        assert_eq!(plies[d].solo_moves, guru2_anchors[d] - lost, "ply {}", d + 1);
        assert_eq!(plies[d].partner_attacks_only, 0);
    }
    assert_eq!([plies[2].partner_captures, plies[2].replies_after_partner_captures, plies[3].partner_captures], [461, 22_849, 19_356]);
    let mut start = Position::start(teams);
    assert_eq!((1..=4).map(|d| start.perft(d)).collect::<Vec<_>>(), counts, "perft agrees with the tree walked");
}

/// In 1,000 positions of random `guru2-teams` games no legal move (no leg of a Charge)
/// captures a partner's man, and making and unmaking every move restores the position.
#[test]
fn random_team_games_never_capture_a_partner() {
    let g = registry::compiled::<4>(super::teams());
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut moves = Vec::new();
    let mut positions = 0;
    while positions < 1000 {
        let mut pos = Position::start(g);
        for _ in 0..250 {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            positions += 1;
            let mover = pos.to_move();
            let before = notation::position_string(&pos);
            for &mv in &moves {
                let legs = g.charge_legs(mv);
                let targets: Vec<Cell> = if legs.is_empty() { vec![mv.to()] } else { legs.iter().map(|l| l.to).collect() };
                for t in targets {
                    let victim = pos.man_at(t);
                    assert!(victim.is_none() || !pos.side_of(mover).has(victim.owner()), "{before}: {}", notation::move_string(g, mv));
                }
                let undo = pos.make(mv);
                pos.unmake(mv, undo);
            }
            assert_eq!(notation::position_string(&pos), before);
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            pos.make(moves[(seed % moves.len() as u64) as usize]);
        }
    }
}

#[test]
fn face_promotion_table() {
    let g = game();
    let PromotionChoices::ByCell(table) = g.types[PAWN].promo_choices.clone().expect("pawn promotes") else { panic!("promotion by cell") };
    let along_rank_10: Vec<PieceType> = "abcdefghij".chars().map(|f| table[g.def.cell(&format!("U{f}10"))].expect("face cell")).collect();
    assert_eq!(along_rank_10, vec![GURU, ROOK, KNIGHT, ELEPHANT, FERZ, FERZ, ELEPHANT, KNIGHT, ROOK, GURU]);
    let along_file_a: Vec<PieceType> = (1..=10).map(|r| table[g.def.cell(&format!("La{r}"))].expect("face cell")).collect();
    assert_eq!(along_file_a, along_rank_10);
    assert_eq!(table[g.def.cell("Ue5")], None);
}
