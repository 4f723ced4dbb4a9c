//! 3-player Honeycomb and Wildhoney Chess (`shared/rules/honeycomb3.md`): perft anchors, the
//! Finch, and the N-player turn model (start-of-turn checkmates, recruiting, the pass, the
//! two-player end) on positions whose outcomes are worked out by hand in the comments.

use std::io::Cursor;
use std::sync::{Arc, Mutex};

use crate::common::{self, SessionText};
use tessera::protocol::{Engine, Output};
use tessera::session::{self, Session};

const LEVELS: [char; 5] = ['a', 'b', 'c', 'd', 'e'];

/// The placement field for the given men (cell, token), in the documented order.
fn placement(men: &[(&str, &str)]) -> String {
    let def = tessera::games::definition("honeycomb3").expect("honeycomb3");
    tessera::notation::placement_from(&def.geometry, men).expect("men on cells of the board")
}

/// A full position string: placement, player to move, active players, counters, mate history.
fn fen(men: &[(&str, &str)], to_move: &str, active: &str, halfmove: u32, fullmove: u32, mates: &str) -> String {
    format!("{} {to_move} {active} - - {halfmove} {fullmove} {mates}", placement(men))
}

fn open(id: &str, position: Option<&str>) -> Box<dyn Session> {
    let mut s = session::open(id).expect("game exists");
    s.set_position(position, &[]).expect("valid position");
    s
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn moves_from(s: &dyn Session, from: &str) -> Vec<String> {
    sorted(s.legal_move_texts().into_iter().filter(|m| m.starts_with(from)).collect())
}

fn strings(v: &[&str]) -> Vec<String> {
    sorted(v.iter().map(|s| s.to_string()).collect())
}

// ---------------------------------------------------------------------------------------------
// Perft (rules §8)

#[test]
fn perft_start_depth_1_to_3() {
    for (id, expected) in [("honeycomb3", [46, 2_116, 97_336]), ("wildhoney3", [58, 3_366, 195_460])] {
        let s = open(id, None);
        for (d, n) in (1..=3).zip(expected) {
            assert_eq!(s.perft(d), n, "{id} depth {d}");
        }
    }
}

#[test]
fn perft_start_depth_4() {
    assert_eq!(open("honeycomb3", None).perft(4), 4_917_676);
    assert_eq!(open("wildhoney3", None).perft(4), 12_295_172);
}

#[test]
fn perft_1_per_player_at_the_start() {
    // §3.4: each player has 46 (basic) or 58 (Wildhoney) moves in the start position.
    for (id, n) in [("honeycomb3", 46), ("wildhoney3", 58)] {
        let mut s = open(id, None);
        for (mv, who) in [("1a31a4", "Yellow"), ("3a84a8", "Blue")] {
            s.play_text(mv).expect("legal");
            assert_eq!(s.to_move_name(), who);
            assert_eq!(s.legal_move_texts().len(), n, "{id} {who}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The Finch (rules §4.1)

/// The source's example: Red's Finch on 1c2 can use the circuit 1c2-1c3-2c4-3c4-3c3-2c2 once
/// the pawns on 1c3 and 3c3 have moved, though the pawn on 2c3 (the encircled cell) stays.
#[test]
fn finch_worked_example() {
    let mut s = open("honeycomb3", None);
    // At the start both Finches are boxed in by their own men.
    assert!(moves_from(&*s, "1c2").is_empty());
    assert!(moves_from(&*s, "2c2").is_empty());
    // 1c3 moves to 1c4: the circuit opens as far as the pawn on 3c3. The circuit's other sense
    // starts on 2c2 (the other Finch), and the paths starting on 2c3 or ending on 1c4 are
    // blocked by the 2c3 pawn.
    s.set_position(None, &["1c31c4", "3a84a8", "6a85a8"]).expect("legal moves");
    assert_eq!(moves_from(&*s, "1c2"), strings(&["1c21c3", "1c22c4", "1c23c4"]));
    // 3c3 moves to 4c4: now 1c3, 2c4, 3c4 and 3c3, then the circuit ends at the other Finch.
    s.set_position(None, &["1c31c4", "3a84a8", "6a85a8", "3c34c4", "3e84e8", "6e85e8"]).expect("legal moves");
    assert_eq!(moves_from(&*s, "1c2"), strings(&["1c21c3", "1c22c4", "1c23c4", "1c23c3"]));
    // The 2c2 Finch runs the same circuit the other way round (2c2-3c3-3c4-2c4-1c3-1c2).
    assert_eq!(moves_from(&*s, "2c2"), strings(&["2c23c3", "2c23c4", "2c22c4", "2c21c3"]));
    s.play_text("1c23c3").expect("the Finch goes round the 2c3 pawn");
}

/// Red's Finch on 1c2 with Red's pawn on 2c3, Red's Knight on 2c2 and a Yellow pawn on 3c4.
/// Its paths (first direction, turning sense): 1c3-2c4-3c4 stops by capturing on 3c4, so 3c3
/// behind it is out of reach on that circuit, and the other circuit to 3c3 (2c2-3c3) starts on
/// the Knight; 1c4 lies only behind the 2c3 pawn (2c3-2c4-1c4); 1c1 and the vertical steps are
/// free. Without the Knight, 2c2, 3c3 become reachable the other way round.
#[test]
fn finch_blocked_mid_path() {
    let mut men = vec![("1a1", "rK"), ("1c2", "rF"), ("2c3", "rP"), ("2c2", "rN"), ("3c4", "yP"), ("1a8", "yK"), ("8a8", "bK")];
    let s = open("honeycomb3", Some(&fen(&men, "r", "ryb", 0, 1, "0:")));
    assert_eq!(moves_from(&*s, "1c2"), strings(&["1c21c3", "1c22c4", "1c23c4", "1c21c1", "1c21b2", "1c21d2"]));
    men.retain(|m| m.0 != "2c2");
    let s = open("honeycomb3", Some(&fen(&men, "r", "ryb", 0, 1, "0:")));
    assert_eq!(moves_from(&*s, "1c2"), strings(&["1c21c3", "1c22c4", "1c23c4", "1c21c1", "1c21b2", "1c21d2", "1c22c2", "1c23c3"]));
}

/// Red's Finch on 1c2 checks Yellow's King on 3c3 round the pawn on 2c3 (1c3-2c4-3c4-3c3); its
/// other paths to 3c3 start on the pawn (2c3-3c3) or on the Knight on 2c2 (2c2-3c3). The
/// King's escapes: 3c4 is on the open path, 2c3 and 2c2 would be taken by the Finch (first cells
/// of its paths), 3b4 3d4 are the pawn's captures, 4b4 4d4 the Knight's leaps, 2b2 is next to
/// Red's King on 1a1; 4c4, 3b3, 3d3, 2b3, 2d3 and 2d2 are free. A Blue man on 2c4 closes the path: no check.
#[test]
fn finch_checks_along_open_paths_only() {
    let mut men = vec![("1a1", "rK"), ("1c2", "rF"), ("2c2", "rN"), ("2c3", "rP"), ("3c3", "yK"), ("8a8", "bK")];
    let s = open("honeycomb3", Some(&fen(&men, "y", "ryb", 0, 1, "0:")));
    assert!(s.board_text().contains("Checkers: 1c2\n"));
    assert_eq!(sorted(s.legal_move_texts()), strings(&["3c34c4", "3c33b3", "3c33d3", "3c32b3", "3c32d3", "3c32d2"]));
    men.push(("2c4", "bP"));
    let s = open("honeycomb3", Some(&fen(&men, "y", "ryb", 0, 1, "0:")));
    assert!(s.board_text().contains("Checkers: \n"));
}

// ---------------------------------------------------------------------------------------------
// Start-of-turn checkmates and recruiting (rules §5.2, README turn structure)

/// Red's Queen goes 2b4-2b8, defended by the Rook on 2e8: Yellow's King on the vertex 1a8 is
/// attacked and its five cells (2a8, 1a7, 1b8, 1b7, and 2b8 itself) are all covered. Yellow's
/// pawn and Knight cannot capture on 2b8, and an adjacent check cannot be blocked, so Yellow
/// must pass. Blue moves its King; at the start of Red's turn Yellow is checkmated by Red, who
/// recruits the pawn (still moving Yellow's way: +10 and −1) and the Knight.
#[test]
fn checkmate_at_start_of_turn_with_recruiting() {
    let start = fen(
        &[("1a1", "rK"), ("2b4", "rQ"), ("2e8", "rR"), ("1a8", "yK"), ("3c5", "yP"), ("5c6", "yN"), ("8a8", "bK")],
        "r",
        "ryb",
        0,
        1,
        "0:",
    );
    let mut s = open("honeycomb3", Some(&start));
    s.play_text("2b42b8").expect("legal");
    assert_eq!(s.to_move_name(), "Yellow");
    assert_eq!(s.legal_move_texts(), vec!["0000"]);
    assert!(!s.status_text().over);
    s.play_text("0000").expect("the pass is Yellow's only move");
    assert_eq!(s.to_move_name(), "Blue");
    assert!(s.play_text("0000").is_err(), "Blue has moves, so no pass");
    s.play_text("8a87a8").expect("legal");

    // Yellow is gone; Red, who recruited its men, is to move.
    let after =
        fen(&[("1a1", "rK"), ("2b8", "rQ"), ("2e8", "rR"), ("3c5", "rP(y)"), ("5c6", "rN"), ("7a8", "bK")], "r", "rb", 0, 2, "1:yr");
    assert_eq!(s.position_string(), after);
    let st = s.status_text();
    assert!(!st.over);
    assert_eq!(st.active, vec!["Red", "Blue"]);
    assert_eq!(st.eliminated, vec![("Yellow".to_string(), "Red".to_string())]);
    assert_eq!(moves_from(&*s, "3c5"), strings(&["3c54c5", "3c53c4"]));
    // The recruited Knight on 5c6: two hex steps and a level to 3b6 3d6 5b8 5d8 7b8 7d8 3b4 3d4
    // (7c6 and 5c4 are off the board), one hex step and two levels to 4a6 4e6 5a7 5e7 6a7 6e7
    // 6a6 6e6 5a5 5e5 4a5 4e5.
    assert_eq!(moves_from(&*s, "5c6").len(), 20);
    // The string parses back to the same position.
    let again = open("honeycomb3", Some(&after));
    assert_eq!(again.position_string(), after);
    assert_eq!(again.hash(), s.hash());
}

/// As above, but Blue has a Rook on 8b8: after Yellow's pass it takes Red's Queen on 2b8 along
/// the row y = 8 of level b. The attack on Yellow's King is lifted (the Rook on 2e8 now stops
/// at 2b8), so nobody is checkmated at the start of Red's turn and all three play on.
#[test]
fn attack_lifted_by_the_third_player_is_no_checkmate() {
    let start = fen(
        &[("1a1", "rK"), ("2b4", "rQ"), ("2e8", "rR"), ("1a8", "yK"), ("3c5", "yP"), ("8a8", "bK"), ("8b8", "bR")],
        "r",
        "ryb",
        0,
        1,
        "0:",
    );
    let mut s = open("honeycomb3", Some(&start));
    s.set_position(Some(&start), &["2b42b8", "0000", "8b82b8"]).expect("legal moves");
    let st = s.status_text();
    assert_eq!(st.active, vec!["Red", "Yellow", "Blue"]);
    assert!(st.eliminated.is_empty());
    assert!(s.position_string().ends_with(" r ryb - - 0 2 0:"));
}

/// Red's Knight on 5a8 shields Blue's King on 8a8 from Yellow's Rook on 1a8. When Red moves it
/// away, Blue is checkmated at the start of Yellow's turn, never having had a chance to
/// respond, and Yellow recruits Blue's pawn (which keeps moving Blue's way: −10 and −11, and
/// captures Red's Knight on 5b6 the way Blue's pawns capture: −10 one level down).
#[test]
fn third_players_move_exposes_a_king() {
    let start = fen(&[("1c1", "rK"), ("5a8", "rN"), ("1c8", "yK"), ("1a8", "yR"), ("8a8", "bK"), ("6c6", "bP")], "r", "ryb", 0, 1, "0:");
    let mut s = open("honeycomb3", Some(&start));
    s.play_text("5a85b6").expect("legal");
    let after = fen(&[("1c1", "rK"), ("5b6", "rN"), ("1c8", "yK"), ("1a8", "yR"), ("6c6", "yP(b)")], "y", "ry", 0, 1, "1:by");
    assert_eq!(s.position_string(), after);
    assert_eq!(moves_from(&*s, "6c6"), strings(&["6c65c6", "6c65c5", "6c65b6"]));
    // Perft sees the same: after 5a8-5b6 it is Yellow's move with the recruited pawn.
    let s = open("honeycomb3", Some(&start));
    let divide = s.divide(2);
    let (_, n) = divide.iter().find(|(m, _)| s.move_text(*m) == "5a85b6").expect("the Knight move");
    assert_eq!(*n as usize, open("honeycomb3", Some(&after)).legal_move_texts().len());
}

/// Red's Queen goes 3b7-4a8 and attacks both Kings on the row y = 8 of level a; Rooks on 4b8,
/// 4a7 and 4b7 cover the other cells of both vertices. Yellow and Blue must pass, and at the
/// start of Red's turn both are checkmated, Yellow first (next after Red), then Blue: Red wins,
/// Blue second, Yellow third.
#[test]
fn double_checkmate_ends_the_game() {
    let start = fen(
        &[("1e1", "rK"), ("3b7", "rQ"), ("4b8", "rR"), ("4a7", "rR"), ("4b7", "rR"), ("1a8", "yK"), ("8a8", "bK")],
        "r",
        "ryb",
        0,
        1,
        "0:",
    );
    let mut s = open("honeycomb3", Some(&start));
    s.play_text("3b74a8").expect("legal");
    assert_eq!((s.perft(2), s.perft(3)), (1, 0), "two passes, then the game is over");
    assert_eq!(s.legal_move_texts(), vec!["0000"]);
    s.play_text("0000").expect("Yellow passes");
    assert_eq!(s.legal_move_texts(), vec!["0000"]);
    s.play_text("0000").expect("Blue passes");
    assert!(s.legal_move_texts().is_empty());
    let st = s.status_text();
    assert!(st.over);
    assert_eq!(st.reason, "elimination");
    assert_eq!(st.winner.as_deref(), Some("Red"));
    assert_eq!(st.placings, vec!["Red", "Blue", "Yellow"]);
    assert!(s.position_string().ends_with(" r r - - 0 2 2:yrbr"));
}

// ---------------------------------------------------------------------------------------------
// The two-player phase (Yellow was checkmated by Red earlier)

/// Red's Queen goes 3b8-7b8, defended by the Rook on 7e8: Blue's King on 8a8 is attacked and
/// 7a8, 7a7, 8b8, 7b7 and 7b8 are covered. With two players left that is checkmate.
#[test]
fn two_player_phase_ends_in_checkmate() {
    let start = fen(&[("1e1", "rK"), ("3b8", "rQ"), ("7e8", "rR"), ("8a8", "bK")], "r", "rb", 0, 30, "1:yr");
    let mut s = open("honeycomb3", Some(&start));
    s.play_text("3b87b8").expect("legal");
    assert!(s.legal_move_texts().is_empty(), "no pass with two players");
    let st = s.status_text();
    assert!(st.over);
    assert_eq!(st.reason, "checkmate");
    assert_eq!(st.winner.as_deref(), Some("Red"));
    assert_eq!(st.placings, vec!["Red", "Blue", "Yellow"]);
}

/// Red's Rook goes 1b3-1b7: Blue's King on 8a8 is not attacked, but 7a8 and 7b8 (Rook 7e8),
/// 7a7 (Rook 1a7), 7b7 (Rook 1b7) and 8b8 (Bishop 7c7) are. With two players left: stalemate.
#[test]
fn two_player_phase_ends_in_stalemate() {
    let men = [("1e1", "rK"), ("1a7", "rR"), ("1b3", "rR"), ("7e8", "rR"), ("7c7", "rB"), ("8a8", "bK")];
    let mut s = open("honeycomb3", Some(&fen(&men, "r", "rb", 0, 30, "1:yr")));
    s.play_text("1b31b7").expect("legal");
    assert!(s.legal_move_texts().is_empty());
    let st = s.status_text();
    assert!(st.over);
    assert_eq!(st.reason, "stalemate");
    assert_eq!(st.winner, None);
    // The same cage with Yellow still playing is no stalemate: Blue passes.
    let mut men3 = men.to_vec();
    men3.push(("3e5", "yK"));
    let mut s = open("honeycomb3", Some(&fen(&men3, "r", "ryb", 0, 30, "0:")));
    s.play_text("1b31b7").expect("legal");
    s.play_text("3e53e6").expect("Yellow's King");
    assert_eq!(s.legal_move_texts(), vec!["0000"]);
    assert!(!s.status_text().over);
}

// ---------------------------------------------------------------------------------------------
// Position strings, the text board and the protocol

#[test]
fn position_strings_round_trip_and_bad_input_is_an_error() {
    for id in ["honeycomb3", "wildhoney3"] {
        let mut s = open(id, None);
        let start = s.position_string();
        s.set_position(Some(&start), &[]).expect("start string parses");
        assert_eq!(s.position_string(), start);
        assert_eq!(s.perft(2), open(id, None).perft(2));
    }
    let s = session::open("honeycomb3").expect("game");
    let king_only = [("1a1", "rK"), ("1a8", "yK"), ("8a8", "bK")];
    let bad = [
        "".to_string(),
        "rK r ryb - - 0 1 0:".to_string(),
        fen(&[("1a1", "rK"), ("1a8", "yK"), ("8a8", "xK")], "r", "ryb", 0, 1, "0:"),
        fen(&[("1a1", "rK"), ("1a8", "yK"), ("8a8", "bk")], "r", "ryb", 0, 1, "0:"),
        fen(&[("1a1", "rK"), ("1a8", "yK"), ("8a8", "bZ")], "r", "ryb", 0, 1, "0:"),
        fen(&[("1a1", "rK"), ("1a8", "yK"), ("8a8", "bK"), ("3c3", "rP(q)")], "r", "ryb", 0, 1, "0:"),
        fen(&king_only, "x", "ryb", 0, 1, "0:"),
        fen(&king_only, "y", "rb", 0, 1, "1:yr"),
        fen(&king_only, "r", "rb", 0, 1, "1:yr"),
        fen(&[("1a1", "rK"), ("8a8", "bK")], "r", "rb", 0, 1, "0:"),
        fen(&[("1a1", "rK"), ("8a8", "bK")], "r", "rb", 0, 1, "2:yr"),
        fen(&[("1a1", "rK"), ("8a8", "bK")], "r", "rb", 0, 1, "1:yy"),
        fen(&[("1a1", "rK"), ("8a8", "bK")], "r", "rb", 0, 1, "1:y"),
        fen(&[("1a1", "rK"), ("1a8", "yK")], "r", "ryb", 0, 1, "0:"),
        // Red to move attacks Yellow's King: Yellow would already have been checkmated.
        fen(&[("1a1", "rK"), ("1a7", "rR"), ("1a8", "yK"), ("8a8", "bK")], "r", "ryb", 0, 1, "0:"),
        format!("{} r ryb - - 0 1 0: extra", placement(&king_only)),
    ];
    for text in bad {
        let mut t = s.boxed_clone();
        assert!(t.set_position(Some(&text), &[]).is_err(), "accepted: {text}");
    }
    // The same check given by Yellow with Yellow not to move is a legal position.
    let checked = fen(&[("1a1", "rK"), ("1a7", "rR"), ("1a8", "yK"), ("8a8", "bK")], "y", "ryb", 0, 1, "0:");
    assert!(s.boxed_clone().set_position(Some(&checked), &[]).is_ok());
    let mut t = s.boxed_clone();
    for mv in ["", "1a1", "1a11a2x", "9a91a1", "1c11c1", "1c32c4q"] {
        assert!(t.play_text(mv).is_err(), "accepted move '{mv}'");
    }
}

#[test]
fn promotion_is_compulsory_to_every_type() {
    // Red pawn on 2c7 (not attacking anything), Kings far away.
    let men = [("1a1", "rK"), ("2c7", "rP"), ("1e8", "yK"), ("8e8", "bK")];
    let s = open("honeycomb3", Some(&fen(&men, "r", "ryb", 0, 1, "0:")));
    assert_eq!(
        moves_from(&*s, "2c7"),
        strings(&["2c72c8q", "2c72c8r", "2c72c8b", "2c72c8n", "2c72c8f", "2c73c8q", "2c73c8r", "2c73c8b", "2c73c8n", "2c73c8f"])
    );
    let s = open("wildhoney3", Some(&fen(&men, "r", "ryb", 0, 1, "0:")));
    assert_eq!(moves_from(&*s, "2c7").len(), 12);
    assert!(moves_from(&*s, "2c7").contains(&"2c73c8g".to_string()));
}

#[test]
fn text_board_draws_five_hex_triangles() {
    let s = open("honeycomb3", None);
    let text = s.board_text();
    for l in LEVELS {
        assert!(text.contains(&format!("Level {l}:\n")));
    }
    let lines: Vec<&str> = text.lines().collect();
    let c = lines.iter().position(|l| *l == "Level c:").expect("level c");
    // Rows from y = 8 (8 cells) to y = 1 (one cell); each row starts half a cell further right;
    // the row labels are aligned.
    assert_eq!(lines[c + 1], " bK  bF  bP  .   .   yP  yF  yK   8c8..1c8");
    assert_eq!(lines[c + 2], "   bF  bP  .   .   .   yP  yF     7c7..1c7");
    assert_eq!(lines[c + 8], "               rK                 1c1..1c1");
}

fn protocol(input: &str) -> String {
    let buf = Arc::new(Mutex::new(Vec::<u8>::new()));
    let out: Output = buf.clone();
    let mut engine = Engine::new(out);
    engine.run(Cursor::new(input.to_string()));
    let bytes = buf.lock().expect("output").clone();
    String::from_utf8(bytes).expect("utf-8")
}

#[test]
fn perft_and_go_through_the_protocol() {
    for (id, d2) in [("honeycomb3", 2_116), ("wildhoney3", 3_366)] {
        let out = protocol(&format!("uci\nsetoption name UCI_Variant value {id}\nposition startpos\ngo perft 2\nd\n"));
        assert!(out.contains(&format!("info string game {id} players r:Red,y:Yellow,b:Blue cells 180 levels 5")));
        assert!(out.contains(&format!("Nodes searched: {d2}\n")), "{out}");
        assert!(out.contains(" r ryb - - 0 1 0:"));
    }
    // A search from a position after a few moves returns one of the legal moves.
    for id in ["honeycomb3", "wildhoney3"] {
        let mut s = open(id, None);
        s.set_position(None, &["1c31c4", "3a84a8"]).expect("legal");
        let limits = tessera::search::Limits { depth: Some(3), ..Default::default() };
        let result = common::think(&*s, &limits, tessera::search::MultiSearch::default());
        let mv = common::best_text(&*s, &result).expect("a move");
        assert!(s.legal_move_texts().contains(&mv), "{id}: {mv}");
    }
    // With only the pass, the engine passes.
    let boxed = fen(&[("1a1", "rK"), ("2b8", "rQ"), ("2e8", "rR"), ("1a8", "yK"), ("8a8", "bK")], "y", "ryb", 0, 1, "0:");
    let out = protocol(&format!("setoption name UCI_Variant value honeycomb3\nposition fen {boxed}\ngo depth 2\nisready\n"));
    assert!(out.contains("bestmove 0000"), "{out}");
    let out = protocol(&format!("setoption name UCI_Variant value honeycomb3\nposition fen {boxed}\nlegal\nstatus\n"));
    assert!(out.contains("\n0000\n"), "{out}");
    assert!(out.contains("status playing tomove Yellow active Red,Yellow,Blue"), "{out}");
}

/// Mangled position strings and moves are errors, never panics.
#[test]
fn mangled_input_never_panics() {
    let start = open("honeycomb3", None).position_string();
    let after_mate = fen(&[("1a1", "rK"), ("2b8", "rQ"), ("3c5", "rP(y)"), ("7a8", "bK")], "r", "rb", 0, 2, "1:yr");
    let pieces = ["€", "(", ")", "(y", "[", "]", "[Q]", "/", "0", "9", "99", " ", ":", "rP(y)*", "y", "Z", "-", "1:", "é"];
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut s = session::open("honeycomb3").expect("game");
    for bad in ["b€€€", "b[€€€", "bR(€)", "bR(y€", "€", "b€", "bR*€€€"] {
        let text = start.replacen("bR", bad, 1);
        assert!(s.set_position(Some(&text), &[]).is_err(), "{text}");
        assert!(s.play_text(bad).is_err(), "{bad}");
    }
    for base in [&start, &after_mate] {
        for _ in 0..400 {
            let chars: Vec<char> = base.chars().collect();
            let at = next(chars.len());
            let cut = (at + next(4)).min(chars.len());
            let text: String =
                chars[..at].iter().collect::<String>() + pieces[next(pieces.len())] + &chars[cut..].iter().collect::<String>();
            if s.set_position(Some(&text), &[]).is_ok() {
                // Whatever parsed must print and parse back to itself.
                let again = s.position_string();
                s.set_position(Some(&again), &[]).expect("printed strings parse");
                assert_eq!(s.position_string(), again);
            }
            let _ = s.play_text(&text[..text.char_indices().nth(6).map_or(text.len(), |(i, _)| i)]);
        }
    }
}
