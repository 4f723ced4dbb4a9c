//! Won endings are won: from hand-built positions with a decisive advantage, the engine playing
//! every seat converts within the fifty-move rule (with three or four players: eliminates every
//! remaining opponent), helped by the evaluation's mop-up term. The suite searches a fixed number
//! of nodes a move (60,000, or `TESSERA_ENDINGS=<nodes>`); `TESSERA_ENDINGS=full` plays 100 ms a
//! move, as the multi-player issue asks.

use tessera::notation::placement_from;
use tessera::search::{Heuristics, Limits, MultiSearch, Score};
use tessera::session;
use tessera::tt::TransTable;

use crate::common;

fn limits() -> Limits {
    let setting = std::env::var("TESSERA_ENDINGS").unwrap_or_default();
    if setting == "full" {
        Limits { movetime: Some(100), ..Limits::default() }
    } else {
        Limits { nodes: Some(setting.parse().unwrap_or(60_000)), ..Limits::default() }
    }
}

/// A position string of `game` from (cell, man token) pairs and the fields after the placement.
fn fen(game: &str, men: &[(&str, &str)], rest: &str) -> String {
    let def = tessera::games::definition(game).expect("game");
    format!("{} {rest}", placement_from(&def.geometry, men).expect("men on cells of the board"))
}

/// Plays the position out: the plies it took `winner` to win, or what went wrong.
fn convert(game: &str, position: &str, winner: &str) -> Result<usize, String> {
    let mut s = session::open(game).expect("game");
    s.set_position(Some(position), &[]).unwrap_or_else(|e| panic!("{game}: {e}: {position}"));
    let limits = limits();
    // One table and one set of heuristics for the whole game, as the engine keeps them from move
    // to move.
    let tt = TransTable::new(16).expect("a table");
    let heuristics = Heuristics::default();
    for ply in 0.. {
        if let Some(end) = s.status().end {
            let got = end.winner.map(|w| s.player_name(w).to_string());
            return if got.as_deref() == Some(winner) {
                Ok(ply)
            } else {
                Err(format!("{} after {ply} plies, winner {got:?}", end.reason.name()))
            };
        }
        let result = common::think_with(&*s, &limits, MultiSearch::default(), &tt, &heuristics);
        let mv = result.best.expect("a move in a game that is not over");
        s.play(mv).expect("the engine's move is legal");
    }
    unreachable!("the fifty-move rule ends every game")
}

/// A won ending: the men (cell, token), the fields after the placement, the winner's name.
type Case<'a> = (&'a [(&'a str, &'a str)], &'a str, &'a str);

fn check(game: &str, cases: &[Case]) {
    let mut failures = Vec::new();
    for (men, rest, winner) in cases {
        let position = fen(game, men, rest);
        match convert(game, &position, winner) {
            Ok(plies) => println!("{game}: {winner} wins in {plies} plies from {position}"),
            Err(e) => failures.push(format!("{position}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{game}: not converted:\n{}", failures.join("\n"));
}

#[test]
fn chess_endings() {
    check(
        "chess",
        &[
            (&[("a1", "K"), ("b1", "Q"), ("e5", "k")], "w - - 0 1", "White"),
            (&[("a1", "K"), ("h1", "R"), ("e5", "k")], "w - - 0 1", "White"),
            (&[("a1", "K"), ("c1", "B"), ("f1", "B"), ("e5", "k")], "w - - 0 1", "White"),
            (&[("a1", "K"), ("a2", "R"), ("h1", "R"), ("e5", "k")], "w - - 0 1", "White"),
            (&[("h8", "k"), ("e8", "q"), ("d4", "K"), ("a7", "p")], "b - - 0 1", "Black"),
        ],
    );
}

#[test]
fn ninjachess_endings() {
    // White's King keeps to ranks 1–5, Black's to 6–10 (the Kings never meet).
    check(
        "ninjachess",
        &[
            (&[("m1", "K"), ("h3", "Q"), ("a2", "R"), ("c2", "N"), ("n8", "k")], "w - - 0 1", "White"),
            (&[("m1", "K"), ("h3", "Q"), ("a2", "R"), ("n8", "k")], "w - - 0 1", "White"),
            (&[("m10", "k"), ("h8", "q"), ("a9", "r"), ("y9", "r"), ("n3", "K")], "b - - 0 1", "Black"),
            (&[("m1", "K"), ("h3", "Q"), ("r3", "Q"), ("n8", "k")], "w - - 0 1", "White"),
            (&[("m1", "K"), ("h3", "Q"), ("a2", "R"), ("y2", "R"), ("n8", "k")], "w - - 0 1", "White"),
        ],
    );
}

/// In the 5×5×5 cube a King, Queen and Rook mate a King in lines of 13 plies or more. Positions
/// from self-play of the K+Q+R ending above, 13 plies before its mate: the hunt's ordering (the
/// moves that leave the bare King fewest steps first) and the bare King's forced replies searched a
/// ply deeper find each mate within the budget; without them the search needed 0.8 to 2.7 million
/// nodes.
#[test]
fn ninjachess_mates_in_the_cube_are_found_within_a_node_budget() {
    let limits = Limits { nodes: Some(200_000), ..Limits::default() };
    for men in [
        &[("q5", "K"), ("h7", "Q"), ("f9", "R"), ("a7", "k")],
        &[("q5", "K"), ("r8", "Q"), ("p10", "R"), ("w10", "k")],
        &[("v5", "K"), ("l9", "Q"), ("v10", "R"), ("u9", "k")],
    ] {
        let position = fen("ninjachess", men, "w - - 0 1");
        let mut s = session::open("ninjachess").expect("game");
        s.set_position(Some(&position), &[]).unwrap_or_else(|e| panic!("{e}: {position}"));
        let score = common::think(&*s, &limits, MultiSearch::default()).last.map(|r| r.score);
        assert!(matches!(score, Some(Score::Mate(n)) if n > 0), "{position}: {score:?}");
    }
}

/// Honeycomb and Wildhoney share the board and these pieces.
const HONEYCOMB_ENDINGS: &[Case] = &[
    // Red with Queens and a Rook against two bare Kings.
    (&[("1c1", "rK"), ("1b1", "rQ"), ("1d1", "rQ"), ("1e1", "rR"), ("1c8", "yK"), ("8c8", "bK")], "r ryb - - 0 1 0:", "Red"),
    // One bare King left, Blue out.
    (&[("1c1", "rK"), ("3c3", "rQ"), ("2a2", "rR"), ("2e2", "rR"), ("1c8", "yK")], "r ry - - 0 1 1:br", "Red"),
    (&[("1c1", "rK"), ("3c3", "rQ"), ("2e2", "rR"), ("8c8", "bK")], "b rb - - 0 1 1:yr", "Red"),
    // Rooks only against two bare Kings.
    (&[("1c1", "rK"), ("2a2", "rR"), ("2e2", "rR"), ("3c3", "rR"), ("1c8", "yK"), ("8c8", "bK")], "y ryb - - 0 1 0:", "Red"),
    // Yellow strong, Red bare, Blue out.
    (&[("1c1", "yK"), ("3c3", "yQ"), ("2a2", "yR"), ("1c8", "rK")], "y ry - - 0 1 1:by", "Yellow"),
];

#[test]
fn honeycomb_endings() {
    check("honeycomb3", HONEYCOMB_ENDINGS);
}

#[test]
fn wildhoney_endings() {
    check("wildhoney3", HONEYCOMB_ENDINGS);
}

#[test]
fn guru2_endings() {
    check(
        "guru2",
        &[
            (&[("Ue5", "rK"), ("Ud5", "rV"), ("Uf5", "rR"), ("Uj10", "gK")], "r rg - - 0 1 2:bror", "Red"),
            (&[("Ue5", "rK"), ("Ua2", "rV"), ("Ub1", "rR"), ("La10", "oK")], "r ro - - 0 1 2:brgr", "Red"),
            (&[("Ue5", "rK"), ("Ub1", "rR"), ("Uc1", "rR"), ("Ud1", "rR"), ("Uj10", "gK"), ("La10", "oK")], "r rgo - - 0 1 1:br", "Red"),
            (&[("Ue5", "rK"), ("Ua2", "rV"), ("Ub1", "rR"), ("Uc1", "rR"), ("Uj10", "gK"), ("La10", "oK")], "r rgo - - 0 1 1:br", "Red"),
            (&[("Uf6", "gK"), ("Ug6", "gV"), ("Ue6", "gR"), ("Ua1", "rK")], "r rg - - 0 1 2:bgog", "Green"),
        ],
    );
}

/// From a self-play game drawn by the fifty-move rule: every player in, Green far ahead of
/// three bare Kings, Red's with no move in the corner. Green read each mate as a loss on the
/// scale of places (`search::placing`) and the search reduced the mating checks: it won in 371
/// plies at this node budget, after the capture-free 200 plies of the game.
#[test]
fn guru2_far_ahead_mates_without_delay() {
    let men = [
        ("Ua10", "rK"),
        ("Ug9", "bK"),
        ("Uc8", "gK"),
        ("Ud7", "gR"),
        ("Ug4", "gE"),
        ("Lb9", "gF"),
        ("Le9", "gR"),
        ("Li9", "gF"),
        ("Lc8", "gN"),
        ("Li7", "oK"),
    ];
    let plies = convert("guru2", &fen("guru2", &men, "g rbgo - - 0 1 0:"), "Green").expect("Green wins");
    println!("far ahead: {plies} plies");
    assert!(plies <= 120, "three mates took {plies} plies");
}

#[test]
fn aof3_endings() {
    check(
        "aof3",
        &[
            (&[("ec3", "rK"), ("ec1", "rQ"), ("ec5", "rQ"), ("jh3", "gK")], "r rg - - 0 1 2:brog", "Red"),
            (&[("ec3", "rK"), ("ec1", "rQ"), ("ec5", "rQ"), ("qa3", "bK")], "b rb - - 0 1 2:orgr", "Red"),
            (&[("ec3", "rK"), ("ec1", "rQ"), ("ec5", "rQ"), ("jh3", "gK"), ("qa3", "bK")], "r rgb - - 0 1 1:or", "Red"),
            (
                &[("ec3", "rK"), ("ec1", "rQ"), ("ec5", "rQ"), ("ec2", "rQ"), ("da1", "oK"), ("jh3", "gK"), ("qa3", "bK")],
                "r rogb - - 0 1 0:",
                "Red",
            ),
            (&[("jh3", "gK"), ("jh1", "gQ"), ("jh5", "gQ"), ("ec3", "rK")], "g rg - - 0 1 2:brog", "Green"),
        ],
    );
}
