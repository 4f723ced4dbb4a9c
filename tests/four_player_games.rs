//! Four-player games end: the default engine in every seat of `guru2`, at a fixed number of nodes
//! a move (so that the games do not depend on the machine's speed), plays a few games from random
//! openings through the match runner with no ply cap that could hide how they end, and one of them
//! reaches a winner by the rules.

use std::process::Command;

/// Nodes a move: a small budget, at which 2 of these 4 games reach a winner (the rest the
/// fifty-move rule).
const NODES: &str = "2000";

#[test]
fn guru2_between_default_engines_reaches_a_winner() {
    let dir = std::env::temp_dir().join(format!("tessera-four-player-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let jsonl = dir.join("games.jsonl");
    let engine = format!("name=default,nodes={NODES}");
    let args = ["match", "--game", "guru2", "--engine", &engine, "--games", "4", "--openings", "random:4", "--seed", "1"];
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .args(["--max-plies", "3000", "--concurrency", "2", "--quiet", "--jsonl", jsonl.to_str().expect("a UTF-8 path")])
        .output()
        .expect("tessera runs");
    assert!(out.status.success(), "tessera {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&jsonl).expect("the records");
    let records: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).expect("one JSON object a line")).collect();
    assert_eq!(records.len(), 4);
    let mut winners = Vec::new();
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
            winners.push(plies);
        } else {
            // A draw shares first place among the players still in.
            assert!(places.contains(&1), "{end} after {plies} plies with places {places:?}");
        }
    }
    assert!(!winners.is_empty(), "no game of four reached a winner: {text}");
    let _ = std::fs::remove_dir_all(&dir);
}
