//! Clocked games played as a GUI plays them: `tessera match` with one engine process per seat
//! (`cmd=` this binary), the clocks kept by the match runner from real elapsed time (from sending
//! the position to reading `bestmove`), the rules judged by the library. No game may be lost on
//! time.
//!
//! The suite plays a few games; `TESSERA_CLOCKED_GAMES=full` (or a list of game ids) plays the
//! counts of the multi-player issue (20 `guru2` and 20 `aof3` games at 2 s + 20 ms a player, 10
//! `honeycomb3` at 1 s, 100 `chess` at 1 s + 10 ms) and prints the match's summary per game kind.

use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::EngineProcess;

/// Plays `games` games from one-ply random openings, one at a time, and asserts that none is
/// lost on time (nor forfeited otherwise); prints the summary.
fn no_time_losses(game: &str, base_ms: u64, inc_ms: u64, games: usize, max_plies: usize) {
    let jsonl = std::env::temp_dir().join(format!("tessera-clocked-{game}-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&jsonl);
    let engine = format!("name=tessera,cmd={}", env!("CARGO_BIN_EXE_tessera"));
    let tc = format!("{}+{}", base_ms as f64 / 1000.0, inc_ms as f64 / 1000.0);
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["match", "--game", game, "--engine", &engine, "--tc", &tc, "--openings", "random:1", "--concurrency", "1"])
        .args(["--games", &games.to_string(), "--max-plies", &max_plies.to_string(), "--quiet", "--jsonl"])
        .arg(&jsonl)
        .output()
        .expect("tessera runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&jsonl).expect("the games' records");
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    assert_eq!(lines.len(), games, "{stdout}");
    for l in &lines {
        assert!(l["loser"].is_null(), "{game}: {} {}: {}", l["end"], l["loser"], l["detail"]);
    }
    let least = lines.iter().flat_map(|l| l["clocks_ms"].as_array().cloned().unwrap_or_default()).filter_map(|c| c.as_i64()).min();
    println!("clocked {game} {tc}: {games} games, no time loss, least clock at a game's end {least:?} ms\n{stdout}");
    let _ = std::fs::remove_file(&jsonl);
}

/// The games of the full counts to play: all with `TESSERA_CLOCKED_GAMES=full`, some with a list
/// of game ids (`TESSERA_CLOCKED_GAMES=honeycomb3,chess`), none otherwise.
fn full_counts() -> Vec<String> {
    match std::env::var("TESSERA_CLOCKED_GAMES") {
        Ok(v) if v == "full" => ["guru2", "aof3", "honeycomb3", "chess"].map(String::from).to_vec(),
        Ok(v) => v.split(',').map(String::from).collect(),
        Err(_) => Vec::new(),
    }
}

#[test]
fn clocked_games_lose_no_time() {
    let full = full_counts();
    if !full.is_empty() {
        for game in &full {
            match game.as_str() {
                "guru2" | "aof3" => no_time_losses(game, 2000, 20, 20, 400),
                "honeycomb3" => no_time_losses(game, 1000, 0, 10, 400),
                "chess" => no_time_losses(game, 1000, 10, 100, 300),
                other => panic!("no full count for '{other}'"),
            }
        }
    } else {
        no_time_losses("chess", 1000, 10, 1, 120);
        no_time_losses("guru2", 2000, 20, 1, 60);
        no_time_losses("aof3", 2000, 20, 1, 60);
        no_time_losses("honeycomb3", 1000, 0, 1, 90);
    }
}

/// An increment larger than the clock: the engine answers within the clock it has.
#[test]
fn increments_larger_than_the_clock() {
    for (game, go) in [
        ("chess", "go wtime 300 btime 300 winc 1000 binc 1000"),
        ("aof3", "go rtime 300 otime 300 gtime 300 btime 300 rinc 1000 oinc 1000 ginc 1000 binc 1000"),
    ] {
        let mut e = EngineProcess::start();
        e.command(&format!("setoption name UCI_Variant value {game}"));
        e.command("position startpos");
        let start = Instant::now();
        e.send(go);
        let out = e.read_until(|l| l.starts_with("bestmove"), Duration::from_secs(10));
        let used = start.elapsed();
        assert!(used < Duration::from_millis(300), "{game}: {used:?} of a 300 ms clock");
        assert!(out.last().is_some_and(|l| l != "bestmove (none)"), "{out:?}");
        assert!(e.quit().success());
    }
}
