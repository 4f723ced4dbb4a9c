//! Ecumenical Eurasian Ninjachess (`shared/rules/ninjachess.md`): perft anchors of §7 and
//! positions whose move lists are derived by hand from the rules.
//!
//! Cells are `(c, w, r)` = (column, row, rank) as in the rules file: file letter index `5·w + c`.

use std::io::Cursor;
use std::sync::{Arc, Mutex};

use crate::common::{self, SessionText};
use tessera::protocol::{Engine, Output};
use tessera::search::{Limits, MultiSearch};
use tessera::session::{self, Session};

const LETTERS: &[u8; 25] = b"abcdefghijklmnopqrstuvwxy";

/// The documented start position string (see `src/games/ninjachess.rs`).
const START: &str = "[rn][rm]r[rl][rj]/[bn][bm]q[bl][bj]/rgkuc/[an][am]t[al][aj]/[cn][cm]c[cl][cj]/\
yybyy/n[bm]b[bl]j/mm1ll/n[am]a[al]j/yyayy/\
ppppp/2p2/ppp1p/2p2/ppppp/\
5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/\
PPPPP/2P2/PPP1P/2P2/PPPPP/\
YYBYY/N[BM]B[BL]J/MM1LL/N[AM]A[AL]J/YYAYY/\
[RN][RM]R[RL][RJ]/[BN][BM]Q[BL][BJ]/RGKUC/[AN][AM]T[AL][AJ]/[CN][CM]C[CL][CJ] w - - 0 1";

/// A position string in the game's format from (cell, man token) pairs; `rest` is everything
/// after the placement (side to move, castling, en passant, clocks).
fn fen(men: &[(&str, &str)], rest: &str) -> String {
    let def = tessera::games::definition("ninjachess").expect("ninjachess");
    let placement = tessera::notation::placement_from(&def.geometry, men).expect("men on cells of the board");
    format!("{placement} {rest}")
}

fn open(fen: Option<&str>, moves: &[&str]) -> Box<dyn Session> {
    let mut s = session::open("ninjachess").expect("ninjachess exists");
    s.set_position(fen, moves).expect("valid position");
    s
}

fn at(men: &[(&str, &str)], rest: &str) -> Box<dyn Session> {
    open(Some(&fen(men, rest)), &[])
}

/// The from-cell of a move string: a letter and the digits after it.
fn from_cell(mv: &str) -> &str {
    let digits = mv[1..].bytes().take_while(u8::is_ascii_digit).count();
    &mv[..1 + digits]
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn moves_from(s: &dyn Session, cell: &str) -> Vec<String> {
    sorted(s.legal_move_texts().into_iter().filter(|m| from_cell(m) == cell).collect())
}

fn list(moves: &[&str]) -> Vec<String> {
    sorted(moves.iter().map(|m| m.to_string()).collect())
}

/// Every type a pawn may become (all but King, Pawn and Yeoman), as promotion suffixes.
const ALL_PROMOTIONS: [&str; 28] = [
    "r", "b", "q", "c", "a", "t", "n", "m", "g", "j", "l", "u", "rn", "bn", "rm", "bm", "rj", "bj", "rl", "bl", "cn", "an", "cm", "am",
    "cj", "aj", "cl", "al",
];

// ---------------------------------------------------------------- perft (§7)

#[test]
fn perft_depth_1_and_2() {
    let s = open(None, &[]);
    assert_eq!(s.perft(1), 163);
    assert_eq!(s.perft(2), 26_240);
}

#[test]
fn perft_depth_3() {
    assert_eq!(open(None, &[]).perft(3), 4_518_189);
}

#[test]
fn black_also_has_163_first_moves() {
    // §3.4: 163 for Black as well; White's Pawn step m3m4 blocks nothing of Black's.
    assert_eq!(open(None, &["m3m4"]).perft(1), 163);
}

// ---------------------------------------------------------------- position strings

#[test]
fn documented_start_string_is_the_start_position() {
    let s = open(None, &[]);
    assert_eq!(s.position_string(), START);
    let parsed = open(Some(START), &[]);
    assert_eq!(parsed.hash(), s.hash());
    assert_eq!(parsed.perft(2), 26_240);
}

#[test]
fn position_strings_round_trip() {
    let s = open(None, &["c3c5", "b8b6", "o2i6", "m10m9"]);
    let text = s.position_string();
    let again = open(Some(&text), &[]);
    assert_eq!(again.position_string(), text);
    assert_eq!(again.hash(), s.hash());
}

#[test]
fn bad_position_strings_are_errors() {
    let mut s = session::open("ninjachess").expect("ninjachess exists");
    let good = fen(&[("a1", "K"), ("y10", "k")], "w - - 0 1");
    assert!(s.set_position(Some(&good), &[]).is_ok());
    for bad in [
        String::new(),
        "5/5/5 w - - 0 1".to_string(),
        good.replacen("K", "[KX]", 1),
        good.replacen("K", "[RN", 1),
        good.replacen("K", "Z", 1),
        good.replacen("/5/", "/6/", 1),
        good.replacen("/5/", "/4/", 1),
        good.replacen(" w ", " x ", 1),
        good.replacen("w - -", "w - q9", 1),
        fen(&[("a1", "K")], "w - - 0 1"),
        fen(&[("a1", "K"), ("y10", "k"), ("b1", "K")], "w - - 0 1"),
    ] {
        assert!(s.set_position(Some(&bad), &[]).is_err(), "accepted: {bad}");
    }
    assert!(s.set_position(None, &["m3m5"]).is_ok());
    for bad in ["m3m6", "m1h2", "zz", "m3", "a9a10q", ""] {
        assert!(s.set_position(None, &[bad]).is_err(), "accepted move '{bad}'");
    }
}

// ---------------------------------------------------------------- hoppers

#[test]
fn cannon_captures_over_exactly_one_screen() {
    // Cannon m4 = (2,2,4). Up the m-file: m5 empty, Black Pawn m6 is the screen, m7 empty, Black
    // Rook m8 is taken. Towards w4 (+w): own Pawn r4 is the screen, Black Knight w4 adjacent to it
    // beyond is taken. Other lines are empty: k4 l4 n4 o4 c4 h4 m3 m2 m1 are plain moves.
    let s = at(&[("a1", "K"), ("y10", "k"), ("m4", "C"), ("m6", "p"), ("m8", "r"), ("r4", "P"), ("w4", "n")], "w - - 0 1");
    assert_eq!(
        moves_from(&*s, "m4"),
        list(&["m4c4", "m4h4", "m4k4", "m4l4", "m4m1", "m4m2", "m4m3", "m4m5", "m4m8", "m4n4", "m4o4", "m4w4"])
    );
}

#[test]
fn hopper_cannot_take_an_adjacent_man() {
    // Arrow m4 = (2,2,4) with its 12 diagonal lines of two cells each. Black Pawn n5 = (3,2,5) is
    // adjacent with nothing behind it (o6 empty): no capture, no move that way. Black Pawn r5 is
    // adjacent too, but Black Pawn w6 behind it is taken over it. The other ten lines are empty:
    // 20 plain moves. Total 21.
    let s = at(&[("a1", "K"), ("y10", "k"), ("m4", "A"), ("n5", "p"), ("r5", "p"), ("w6", "p")], "w - - 0 1");
    let moves = moves_from(&*s, "m4");
    assert_eq!(moves.len(), 21, "{moves:?}");
    for absent in ["m4n5", "m4o6", "m4r5"] {
        assert!(!moves.contains(&absent.to_string()), "{absent} in {moves:?}");
    }
    for present in ["m4w6", "m4y4", "m4a4", "m4e4", "m4u4", "m4o2", "m4k6", "m4k2", "m4w2", "m4c6", "m4c2"] {
        assert!(moves.contains(&present.to_string()), "{present} not in {moves:?}");
    }
}

#[test]
fn check_by_a_hopper() {
    // White Cannon m3 checks the Black King m7 over the White Pawn m5 (m4, m6 empty). The King
    // may not go to m6 or m8 (still one screen between), nor to l6 n6 h6 r6 (the Pawn's capture
    // cells). Its other 12 neighbours are free; nothing can interpose or capture.
    let s = at(&[("a1", "K"), ("m3", "C"), ("m5", "P"), ("m7", "k")], "b - - 0 1");
    assert_eq!(
        sorted(s.legal_move_texts()),
        list(&["m7g7", "m7h7", "m7h8", "m7i7", "m7l7", "m7l8", "m7n7", "m7n8", "m7q7", "m7r7", "m7r8", "m7s7"])
    );
    assert!(s.board_text().contains("Checkers: m3\n"), "{}", s.board_text());
}

// ---------------------------------------------------------------- pawns and yeomen

#[test]
fn en_passant() {
    // White Pawn c3 = (2,0,3) double-steps to c5 over c4. Black Pawns d5 = (3,0,5) and h5 = (2,1,5)
    // both attack c4 (Black captures along (±1,0,−1) and (0,±1,−1)).
    let men = [("a1", "K"), ("y10", "k"), ("c3", "P"), ("d5", "p"), ("h5", "p")];
    let s = at(&men, "w - - 0 1");
    assert!(s.legal_move_texts().contains(&"c3c5".to_string()));
    let after = open(Some(&fen(&men, "w - - 0 1")), &["c3c5"]);
    assert!(after.position_string().ends_with(" b - c4 0 1"), "{}", after.position_string());
    assert_eq!(moves_from(&*after, "d5"), list(&["d5c4", "d5d4"]));
    assert_eq!(moves_from(&*after, "h5"), list(&["h5c4", "h5h4"]));
    // Taking en passant removes the Pawn on c5.
    let taken = open(Some(&fen(&men, "w - - 0 1")), &["c3c5", "d5c4"]);
    assert_eq!(taken.position_string(), fen(&[("a1", "K"), ("y10", "k"), ("c4", "p"), ("h5", "p")], "w - - 0 2"));
    // The right lasts one move only.
    let later = open(Some(&fen(&men, "w - - 0 1")), &["c3c5", "y10y9", "a1a2"]);
    assert_eq!(moves_from(&*later, "d5"), list(&["d5d4"]));
    // A single step gives no right; the same position written with the en passant field does.
    let written = at(&[("a1", "K"), ("y10", "k"), ("c5", "P"), ("d5", "p"), ("h5", "p")], "b - c4 0 1");
    assert_eq!(moves_from(&*written, "d5"), list(&["d5c4", "d5d4"]));
}

#[test]
fn yeoman_steps_diagonally_and_captures_straight() {
    // White Yeoman m4 = (2,2,4): steps to l5 n5 h5 r5 when empty, captures on m5. Black Knight
    // l5 cannot be taken diagonally; own Pawn n5 blocks; Black Pawn m5 is taken straight ahead.
    let s = at(&[("a1", "K"), ("y10", "k"), ("m4", "Y"), ("m5", "p"), ("l5", "n"), ("n5", "P")], "w - - 0 1");
    assert_eq!(moves_from(&*s, "m4"), list(&["m4h5", "m4m5", "m4r5"]));
    // Black Yeoman c7 = (2,0,7) goes down the ranks: steps to b6 d6 h6 (the fourth diagonal is
    // off the board), captures on c6. White Pawn b6 blocks, White Knight c6 is taken.
    let s = at(&[("a1", "K"), ("y10", "k"), ("c7", "y"), ("c6", "N"), ("b6", "P")], "b - - 0 1");
    assert_eq!(moves_from(&*s, "c7"), list(&["c7c6", "c7d6", "c7h6"]));
    // A Yeoman never double-steps: a White Yeoman on rank 3 has its four diagonal steps only.
    let s = at(&[("a1", "K"), ("y10", "k"), ("m3", "Y")], "w - - 0 1");
    assert_eq!(moves_from(&*s, "m3"), list(&["m3h4", "m3l4", "m3n4", "m3r4"]));
}

// ---------------------------------------------------------------- promotion

/// White's full start army with the Pawns of l3 and k3 moved to e9 and x8 and the Yeoman of a2 to
/// a9, minus the men in `missing`; Black has only a King.
fn full_army(missing: &[&str], black_king: &str, rest: &str) -> Box<dyn Session> {
    let start = open(None, &[]);
    let text = start.position_string();
    let mut men: Vec<(String, String)> = Vec::new();
    // Read White's men off the start position (ranks 1..3 are the last 15 rows).
    let rows: Vec<&str> = text.split(' ').next().unwrap_or("").split('/').collect();
    for (i, row) in rows.iter().enumerate().skip(35) {
        let rank = 10 - i / 5;
        let w = i % 5;
        let mut c = 0;
        let mut rest_row = *row;
        while !rest_row.is_empty() {
            if let Some(d) = rest_row.chars().next().and_then(|ch| ch.to_digit(10)) {
                c += d as usize;
                rest_row = &rest_row[1..];
                continue;
            }
            let len = if rest_row.starts_with('[') { rest_row.find(']').expect("closed") + 1 } else { 1 };
            men.push((format!("{}{rank}", LETTERS[5 * w + c] as char), rest_row[..len].to_string()));
            c += 1;
            rest_row = &rest_row[len..];
        }
    }
    assert_eq!(men.len(), 65);
    for (from, to) in [("l3", "e9"), ("k3", "x8"), ("a2", "a9")] {
        let m = men.iter_mut().find(|(c, _)| c == from).expect("man to move");
        m.0 = to.to_string();
    }
    men.retain(|(c, _)| !missing.contains(&c.as_str()));
    men.push((black_king.to_string(), "k".to_string()));
    let refs: Vec<(&str, &str)> = men.iter().map(|(c, t)| (c.as_str(), t.as_str())).collect();
    at(&refs, rest)
}

#[test]
fn no_promotion_without_captured_types() {
    // Every White type is on the board in its start number: nothing to promote to. The Pawn e9
    // may not step to the last rank, the Yeoman a9 may not step to b10 or f10, and the Pawn x8
    // steps into the zone without promoting.
    let s = full_army(&[], "y10", "w - - 0 1");
    assert_eq!(moves_from(&*s, "e9"), Vec::<String>::new());
    assert_eq!(moves_from(&*s, "a9"), Vec::<String>::new());
    assert_eq!(moves_from(&*s, "x8"), list(&["x8x9"]));
}

#[test]
fn promotion_to_captured_types_only() {
    // The Queen h1 and one Caliph (g1) are missing: those are the two choices. On the last rank
    // promotion is compulsory; inside the zone it is optional.
    let s = full_army(&["h1", "g1"], "y10", "w - - 0 1");
    assert_eq!(moves_from(&*s, "e9"), list(&["e9e10bm", "e9e10q"]));
    assert_eq!(moves_from(&*s, "a9"), list(&["a9b10bm", "a9b10q", "a9f10bm", "a9f10q"]));
    assert_eq!(moves_from(&*s, "x8"), list(&["x8x9", "x8x9bm", "x8x9q"]));
    // After promoting to a Queen, only the Caliph is left in the pool.
    let mut s = s;
    s.play_text("e9e10q").expect("legal");
    // The new Queen checks y10 along the column e10 j10 o10 t10 y10.
    s.play_text("y10x10").expect("legal");
    assert_eq!(moves_from(&*s, "a9"), list(&["a9b10bm", "a9f10bm"]));
}

#[test]
fn promotion_with_every_type_captured() {
    // White has only King, Pawns and a Yeoman: all 28 promotable types are in the pool.
    let s = at(&[("a1", "K"), ("y10", "k"), ("e9", "P"), ("d10", "n"), ("a7", "P"), ("s9", "Y")], "w - - 0 1");
    let with = |prefix: &str| -> Vec<String> { sorted(ALL_PROMOTIONS.iter().map(|p| format!("{prefix}{p}")).collect()) };
    // e9 = (4,0,9): step to e10 and capture on d10, both compulsory promotions.
    assert_eq!(moves_from(&*s, "e9"), sorted([with("e9d10"), with("e9e10")].concat()));
    // a7 = (0,0,7): double step not from here; a8 is in the zone, so plain or promoted.
    assert_eq!(moves_from(&*s, "a7"), sorted([vec!["a7a8".to_string()], with("a7a8")].concat()));
    // Yeoman s9 = (3,3,9): diagonal steps r10 t10 n10 x10, all promoting.
    assert_eq!(moves_from(&*s, "s9"), sorted([with("s9n10"), with("s9r10"), with("s9t10"), with("s9x10")].concat()));
}

#[test]
fn pawn_that_cannot_promote_still_gives_check() {
    // The Pawn e9 = (4,0,9) may not move to rank 10 (empty pool) but attacks d10 and j10: the
    // Black King d10 is in check. Its moves: e10 c10 i10 d9 h10 c9 i9 and taking e9; not j10.
    let s = full_army(&[], "d10", "b - - 0 1");
    assert!(s.board_text().contains("Checkers: e9\n"), "{}", s.board_text());
    assert_eq!(sorted(s.legal_move_texts()), list(&["d10c10", "d10c9", "d10d9", "d10e10", "d10e9", "d10h10", "d10i10", "d10i9"]));
}

// ---------------------------------------------------------------- kings

#[test]
fn facing_rule_pins_the_blocker_between_the_kings() {
    // Kings m4 and m8 on the m-file; the White Pawn m6 is the only man between them. It may step
    // to m7 (still between) but not take on l7 or h7. The King has all 18 steps (m5 and m3 keep
    // the Pawn between; no other neighbour is on a line with m8). 19 moves.
    let s = at(&[("m4", "K"), ("m8", "k"), ("m6", "P"), ("l7", "p"), ("h7", "p")], "w - - 0 1");
    assert_eq!(moves_from(&*s, "m6"), list(&["m6m7"]));
    assert_eq!(s.legal_move_texts().len(), 19);
    // With the Black King off the file the Pawn takes freely.
    let s = at(&[("m4", "K"), ("s9", "k"), ("m6", "P"), ("l7", "p"), ("h7", "p")], "w - - 0 1");
    assert_eq!(moves_from(&*s, "m6"), list(&["m6h7", "m6l7", "m6m7"]));
}

#[test]
fn facing_rule_along_a_diagonal() {
    // Kings c4 = (2,0,4) and r7 = (2,3,7) share the diagonal c4 h5 m6 r7; the White Rook h5 is
    // the only man between and cannot leave it (a Rook never moves along a diagonal): no moves.
    // The King's 12 steps (d4 b4 h4 c5 c3 i4 g4 d5 b5 d3 b3 h3) are all legal.
    let s = at(&[("c4", "K"), ("r7", "k"), ("h5", "R")], "w - - 0 1");
    assert_eq!(moves_from(&*s, "h5"), Vec::<String>::new());
    assert_eq!(s.legal_move_texts().len(), 12);
}

#[test]
fn kings_may_face_triagonally_but_not_diagonally() {
    // White King h5 = (2,1,5), Black King s6 = (3,3,6). Of its 18 steps, 5 enter rank 6
    // (confinement); n5 is diagonally adjacent to s6 and i4 sees s6 along the empty diagonal
    // i4 n5 s6 (facing). m5 and g4 are triagonal to s6, which does not count. 11 moves.
    let s = at(&[("h5", "K"), ("s6", "k")], "w - - 0 1");
    assert_eq!(
        sorted(s.legal_move_texts()),
        list(&["h5b5", "h5c4", "h5c5", "h5d5", "h5g4", "h5g5", "h5h4", "h5i5", "h5l5", "h5m4", "h5m5"])
    );
}

#[test]
fn king_confined_to_its_half() {
    // White King m5 = (2,2,5) on the last rank of its half: the five steps to rank 6 are
    // forbidden, including taking the Black Cannon m6 (which, adjacent, gives no check). 13 moves.
    let s = at(&[("m5", "K"), ("y10", "k"), ("m6", "c")], "w - - 0 1");
    assert_eq!(
        sorted(s.legal_move_texts()),
        list(&["m5g5", "m5h4", "m5h5", "m5i5", "m5l4", "m5l5", "m5m4", "m5n4", "m5n5", "m5q5", "m5r4", "m5r5", "m5s5"])
    );
    assert!(s.board_text().contains("Checkers: \n"));
    // The same for Black: from m6 it may not step down to rank 5.
    let s = at(&[("a1", "K"), ("m6", "k")], "b - - 0 1");
    assert!(s.legal_move_texts().iter().all(|m| m.ends_with('6') || m.ends_with('7')), "{:?}", s.legal_move_texts());
    assert_eq!(s.legal_move_texts().len(), 13);
}

#[test]
fn checkmate() {
    // Smothered: the Black King a10 = (0,0,10) is walled in by its own Yeomen (b10 f10 g10 a9
    // b9 f9) and checked by the Knight c9 = (2,0,9); no Yeoman can take c9 (they take straight
    // down only) and a leaper's check cannot be blocked.
    let s = at(
        &[("y1", "K"), ("c9", "N"), ("a10", "k"), ("b10", "y"), ("f10", "y"), ("g10", "y"), ("a9", "y"), ("b9", "y"), ("f9", "y")],
        "b - - 0 1",
    );
    assert_eq!(s.legal_move_texts(), Vec::<String>::new());
    assert_eq!(s.perft(1), 0);
    let st = s.status_text();
    assert!(st.over);
    assert_eq!(st.reason, "checkmate");
    assert_eq!(st.winner.as_deref(), Some("White"));
}

#[test]
fn stalemate_is_a_draw() {
    // Black King a10 = (0,0,10), not in check. b10 faces the White King b5 along the empty
    // b-file; f9 f10 are covered by the Rook f6, a9 b9 by the Queen e9, g10 by the Knight n10.
    let s = at(&[("b5", "K"), ("e9", "Q"), ("f6", "R"), ("n10", "N"), ("a10", "k")], "b - - 0 1");
    assert_eq!(s.legal_move_texts(), Vec::<String>::new());
    let st = s.status_text();
    assert!(st.over);
    assert_eq!(st.reason, "stalemate");
    assert_eq!(st.winner, None);
    // With the White King on the c-file instead, b10 is free.
    let s = at(&[("c5", "K"), ("e9", "Q"), ("f6", "R"), ("n10", "N"), ("a10", "k")], "b - - 0 1");
    assert_eq!(s.legal_move_texts(), list(&["a10b10"]));
    assert!(!s.status_text().over);
}

// ---------------------------------------------------------------- protocol

#[test]
fn perft_and_board_through_the_protocol() {
    let buffer = Arc::new(Mutex::new(Vec::<u8>::new()));
    let out: Output = buffer.clone();
    let mut engine = Engine::new(out);
    engine.run(Cursor::new("setoption name UCI_Variant value ninjachess\nposition startpos moves m3m4\ngo perft 1\nd\n"));
    let text = String::from_utf8(buffer.lock().expect("buffer").clone()).expect("utf-8");
    assert!(text.contains("Nodes searched: 163"), "{text}");
    assert!(text.contains("Level rank 10:"), "{text}");
    assert!(text.contains("\n [RN] [RM] R    [RL] [RJ]   a1..e1\n"), "{text}");
    assert!(text.contains("\n .    .    P    .    .   k4..o4\n"), "{text}");
}

#[test]
fn search_returns_a_legal_move() {
    let s = open(None, &[]);
    let result = common::think(&*s, &Limits { depth: Some(2), ..Limits::default() }, MultiSearch::default());
    let mv = common::best_text(&*s, &result).expect("bestmove has a move");
    assert!(s.legal_move_texts().contains(&mv), "{mv}");
}
