//! The pawnless and double-strength sub-variants of 3-player Honeycomb / Wildhoney Chess
//! (`shared/rules/honeycomb3-subvariants.md`): perft anchors by piece, the Cohen's worked example
//! and blocking, the Pawnout's promotions through the protocol.

use std::collections::BTreeMap;

use crate::common::EngineProcess;
use tessera::session::{self, Session};

fn open(id: &str, position: Option<&str>) -> Box<dyn Session> {
    let mut s = session::open(id).expect("game exists");
    s.set_position(position, &[]).expect("valid position");
    s
}

/// A position string of `id` with the given men (cell, token) and Red to move, all three in.
fn fen(id: &str, men: &[(&str, &str)]) -> String {
    let def = tessera::games::definition(id).expect("game");
    let placement = tessera::notation::placement_from(&def.geometry, men).expect("men on cells of the board");
    format!("{placement} r ryb - - 0 1 0:")
}

/// Red's legal moves counted by the code of the man that moves.
fn moves_by_piece(s: &dyn Session) -> BTreeMap<String, usize> {
    let code_at: BTreeMap<_, _> = s.men().into_iter().map(|(c, m)| (c, s.def().pieces[m.kind()].code.clone())).collect();
    let mut counts = BTreeMap::new();
    for mv in s.legal_moves() {
        *counts.entry(code_at[&mv.from()].clone()).or_insert(0) += 1;
    }
    counts
}

fn moves_from(s: &dyn Session, from: &str) -> Vec<String> {
    let mut v: Vec<String> = s.legal_move_texts().into_iter().filter(|m| m.starts_with(from)).collect();
    v.sort();
    v
}

fn strings(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// A game id, its perft(1) from the start and that count split by the moving man's code.
type Anchor = (&'static str, u64, &'static [(&'static str, usize)]);

/// Sub-variants §8: perft(1) from each start, by piece.
#[test]
fn perft_1_by_piece_from_every_start() {
    let anchors: [Anchor; 6] = [
        ("honeycomb3-pawnless", 68, &[("B", 32), ("N", 24), ("F", 12)]),
        ("wildhoney3-pawnless", 80, &[("B", 32), ("C", 24), ("N", 16), ("G", 8)]),
        ("honeycomb3-double", 91, &[("P", 45), ("N", 28), ("B", 12), ("H", 6)]),
        ("wildhoney3-double", 109, &[("P", 45), ("C", 28), ("N", 16), ("B", 12), ("G", 8)]),
        ("honeycomb3-double-pawnless", 129, &[("B", 48), ("N", 40), ("H", 18), ("Q", 14), ("R", 6), ("K", 3)]),
        ("wildhoney3-double-pawnless", 146, &[("B", 48), ("C", 40), ("N", 28), ("G", 14), ("Q", 7), ("R", 6), ("K", 3)]),
    ];
    for (id, total, by_piece) in anchors {
        let s = open(id, None);
        assert_eq!(s.perft(1), total, "{id}");
        let want: BTreeMap<String, usize> = by_piece.iter().map(|&(c, n)| (c.to_string(), n)).collect();
        assert_eq!(moves_by_piece(&*s), want, "{id}");
    }
}

/// Sub-variants §5, worked example: in the start position only the Cohens' Rabbi paths are
/// open, one first diagonal step each, then turning either way; circuits round off-board
/// centres count.
#[test]
fn cohen_worked_example() {
    let s = open("honeycomb3-double", None);
    assert_eq!(moves_from(&*s, "1c2"), strings(&["1c22c4", "1c24c5", "1c21c5"]));
    assert_eq!(moves_from(&*s, "2c2"), strings(&["2c23c4", "2c25c5", "2c22c5"]));
    // With an enemy man on 2c4, 1c2's only move is to take it; with a Red man there, none.
    let with_man_on_2c4 = |token: &str| {
        let mut men: Vec<(String, String)> = Vec::new();
        for (c, m) in s.men() {
            let owner = s.def().players[m.owner()].code;
            men.push((s.def().geometry.name(c).to_string(), format!("{owner}{}", s.def().pieces[m.kind()].code)));
        }
        men.push(("2c4".into(), token.into()));
        let men: Vec<(&str, &str)> = men.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        fen("honeycomb3-double", &men)
    };
    assert_eq!(moves_from(&*open("honeycomb3-double", Some(&with_man_on_2c4("yN"))), "1c2"), strings(&["1c22c4"]));
    assert!(moves_from(&*open("honeycomb3-double", Some(&with_man_on_2c4("rN"))), "1c2").is_empty());
}

/// Sub-variants §5: from 2c3, 4c7 lies on two Rabbi paths (2c3-4c4-5c6-4c7 turning right,
/// 2c3-1c4-2c6-4c7 turning left); it is lost only when both are blocked.
#[test]
fn cohen_cell_on_two_paths() {
    let kings = [("1a1", "rK"), ("1a8", "yK"), ("8a8", "bK"), ("2c3", "rH")];
    let reaches = |blockers: &[&str]| {
        let mut men = kings.to_vec();
        men.extend(blockers.iter().map(|&c| (c, "rP")));
        moves_from(&*open("honeycomb3-double", Some(&fen("honeycomb3-double", &men))), "2c3").contains(&"2c34c7".to_string())
    };
    assert!(reaches(&[]));
    assert!(reaches(&["4c4"]));
    assert!(reaches(&["2c6"]));
    assert!(reaches(&["4c4", "5c6"]));
    assert!(!reaches(&["4c4", "2c6"]));
    assert!(!reaches(&["5c6", "1c4"]));
}

/// Sub-variants §6: a Pawnout promotes on its far edge, arriving by an orthogonal step or by the
/// diagonal step from two rows away, to every capturable type of its game (the Cohen `h` in
/// `honeycomb3-double`), and `legal` lists every choice.
#[test]
fn pawnout_promotions_in_legal() {
    let men = [("1a1", "rK"), ("2c7", "rP"), ("5c6", "rP"), ("1e8", "yK"), ("8e8", "bK")];
    let mut engine = EngineProcess::start();
    for (id, choices) in [("honeycomb3-double", "qrbnh"), ("wildhoney3-double", "qrbncg")] {
        engine.command(&format!("setoption name UCI_Variant value {id}"));
        let legal = engine.command(&format!("position fen {}\nlegal", fen(id, &men)));
        let legal: Vec<&str> = legal.last().expect("legal's line").split(' ').collect();
        for (from, to) in [("2c7", "2c8"), ("2c7", "3c8"), ("5c6", "6c8")] {
            for c in choices.chars() {
                let mv = format!("{from}{to}{c}");
                assert!(legal.contains(&mv.as_str()), "{id}: {mv} missing from {legal:?}");
            }
            assert!(!legal.contains(&format!("{from}{to}").as_str()), "{id}: promotion is compulsory");
        }
        // 2c7's diagonal step (to 3c9) leaves the board: two targets, each with every choice.
        let from_2c7 = legal.iter().filter(|m| m.starts_with("2c7")).count();
        assert_eq!(from_2c7, 2 * choices.len(), "{id}");
        // 5c6 steps to 5c7 and 6c7 without promoting.
        assert!(legal.contains(&"5c65c7") && legal.contains(&"5c66c7"), "{id}");
    }
    engine.quit();
}

/// A middle game of `honeycomb3-double`: Pawnouts of all three players one step from their far
/// edges (Red's on 5c6 by the diagonal step to 6c8), two recruited ones (`rP(y)` moving as
/// Yellow's, `bP(r)` as Red's), Cohens, a Queen, Knights. The same with a Camel and a Gnu for the
/// Cohens in `wildhoney3-double`, and without the Pawnouts in `honeycomb3-double-pawnless`.
const MIDDLE_GAME: &str = "8/4yR2/6/5/4/3/2/1/8/7/bN5/5/4/rN2/2/rQ/bK6yK/bH4rP1/1rP4/1yP3/4/3/rH1/rK/8/7/2rP(y)3/5/2bP1/3/2/1/6yB1/7/6/bP(r)4/4/3/2/1 r ryb - - 0 20 0:";
const MIDDLE_GAME_PAWNLESS: &str =
    "8/4yR2/6/5/4/3/2/1/8/7/bN5/5/4/rN2/2/rQ/bK6yK/bH6/6/5/4/3/rH1/rK/8/7/6/5/4/3/2/1/6yB1/7/6/5/4/3/2/1 r ryb - - 0 20 0:";

/// Counts the independent script `tests/python/honeycomb_perft.py` (written from the rules files)
/// gave for depths 1 to 3: from every start, and from the middle games above.
#[test]
fn perft_2_and_3_against_the_independent_script() {
    let starts = [
        ("honeycomb3-pawnless", [4_610, 311_576]),
        ("wildhoney3-pawnless", [6_376, 506_240]),
        ("honeycomb3-double", [8_279, 753_018]),
        ("wildhoney3-double", [11_673, 1_227_826]),
        ("honeycomb3-double-pawnless", [16_451, 2_074_085]),
        ("wildhoney3-double-pawnless", [20_951, 2_954_328]),
    ];
    for (id, [d2, d3]) in starts {
        let s = open(id, None);
        assert_eq!((s.perft(2), s.perft(3)), (d2, d3), "{id}");
    }
    let wild = MIDDLE_GAME.replace("rH", "rC").replace("bH", "bG");
    for (id, position, counts) in [
        ("honeycomb3-double", MIDDLE_GAME, [90, 4_472, 206_766]),
        ("wildhoney3-double", wild.as_str(), [89, 4_710, 262_565]),
        ("honeycomb3-double-pawnless", MIDDLE_GAME_PAWNLESS, [60, 2_742, 104_048]),
    ] {
        let s = open(id, Some(position));
        for (d, n) in (1..=3).zip(counts) {
            assert_eq!(s.perft(d), n, "{id} depth {d}");
        }
    }
}

/// The script itself agrees with the engine at depth 2 from the middle game (so that a change
/// to either shows), and with the base game's published depth-2 anchor.
#[test]
fn the_independent_script_agrees() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/honeycomb_perft.py");
    let run = |args: &[&str]| -> u64 {
        let out = std::process::Command::new("python3").arg(script).args(args).output().expect("python3 runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().parse().expect("a count")
    };
    assert_eq!(run(&["honeycomb3", "2"]), 2_116);
    assert_eq!(run(&["honeycomb3-double", "2", MIDDLE_GAME]), open("honeycomb3-double", Some(MIDDLE_GAME)).perft(2));
    assert_eq!(run(&["honeycomb3-double", "2", MIDDLE_GAME]), 4_472);
}
