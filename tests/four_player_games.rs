//! Four-player games end: the default engine in every seat of `guru2`, at a fixed number of nodes
//! a move (so that the games do not depend on the machine's speed), plays a few games from random
//! openings through the match runner with no ply cap that could hide how they end, and one of them
//! reaches a winner by the rules.

use crate::common::{json_lines, scratch, tessera_match};

/// Nodes a move: a small budget, at which 2 of these 4 games reach a winner (the rest the
/// fifty-move rule).
const NODES: &str = "2000";

#[test]
fn guru2_between_default_engines_reaches_a_winner() {
    let dir = scratch("four-player");
    let jsonl = dir.join("games.jsonl");
    let engine = format!("name=default,nodes={NODES}");
    let jsonl_arg = jsonl.to_str().expect("a UTF-8 path");
    tessera_match(&[
        "--game",
        "guru2",
        "--engine",
        &engine,
        "--games",
        "4",
        "--openings",
        "random:4",
        "--seed",
        "1",
        "--max-plies",
        "3000",
        "--concurrency",
        "2",
        "--quiet",
        "--jsonl",
        jsonl_arg,
    ]);
    let records = json_lines(&jsonl);
    assert_eq!(records.len(), 4);
    let mut won = 0;
    for r in &records {
        let end = r["end"].as_str().expect("an ending");
        let plies = r["moves"].as_array().expect("the moves").len();
        // Every game ends by a rule of the game, none at the cap.
        assert!(plies < 3000, "a game reached the ply cap: {end} after {plies} plies");
        let places: Vec<u64> = r["places"].as_array().expect("places").iter().map(|p| p.as_u64().expect("a place")).collect();
        if matches!(end, "win rule" | "checkmate" | "elimination") {
            // A winner: one first place, and every other place taken once.
            let mut sorted = places.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, [1, 2, 3, 4], "{end} after {plies} plies with places {places:?}");
            won += 1;
        } else {
            // A draw shares first place among the players still in.
            assert!(places.contains(&1), "{end} after {plies} plies with places {places:?}");
        }
    }
    assert!(won > 0, "no game of four reached a winner: {records:?}");
}
