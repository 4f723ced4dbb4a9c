//! Clocked games played as a GUI plays them: one engine process per seat, the clocks kept here
//! from real elapsed time (from sending `go` to reading `bestmove`), the rules judged by the
//! library. No game may be lost on time.
//!
//! The suite plays a few games; `TESSERA_CLOCKED_GAMES=full` (or a list of game ids) plays the
//! counts of the multi-player issue (20 `guru2` and 20 `aof3` games at 2 s + 20 ms a player, 10
//! `honeycomb3` at 1 s, 100 `chess` at 1 s + 10 ms) and prints a summary line per game kind.

use std::time::{Duration, Instant};

use crate::common::EngineProcess;
use tessera::session;

/// How a clocked game ended.
#[derive(Debug, PartialEq, Eq)]
enum End {
    /// By the rules (the reason as `status` gives it).
    Rules(String),
    PlyCap,
    /// The player (by index) whose clock fell.
    TimeLoss(usize, i64),
}

/// One game from the start: `base_ms` and `inc_ms` per player, at most `max_plies` plies. Returns
/// the end and the least time any player had left after a move.
fn clocked_game(game: &str, base_ms: i64, inc_ms: i64, max_plies: usize, seed_moves: &[&str]) -> (End, i64) {
    let mut arbiter = session::open(game).expect("game");
    let players: Vec<char> = arbiter.def().players.iter().map(|p| p.code).collect();
    let mut seats: Vec<EngineProcess> = players
        .iter()
        .map(|_| {
            let mut e = EngineProcess::start();
            e.command(&format!("setoption name UCI_Variant value {game}"));
            e
        })
        .collect();
    let mut moves: Vec<String> = Vec::new();
    for m in seed_moves {
        arbiter.play_text(m).expect("a legal opening move");
        moves.push(m.to_string());
    }
    let mut clocks = vec![base_ms; players.len()];
    let mut least = base_ms;
    loop {
        let status = arbiter.status();
        if let Some(end) = status.end {
            return (End::Rules(end.reason.name().to_string()), least);
        }
        if moves.len() >= max_plies {
            return (End::PlyCap, least);
        }
        let p = arbiter.to_move().index();
        let e = &mut seats[p];
        let position =
            if moves.is_empty() { "position startpos".to_string() } else { format!("position startpos moves {}", moves.join(" ")) };
        e.send(&position);
        let clock_args: Vec<String> = players.iter().zip(&clocks).map(|(c, t)| format!("{c}time {} {c}inc {inc_ms}", t.max(&0))).collect();
        let start = Instant::now();
        e.send(&format!("go {}", clock_args.join(" ")));
        let out = e.read_until(|l| l.starts_with("bestmove"), Duration::from_secs(60));
        let used = i64::try_from(start.elapsed().as_millis()).unwrap_or(i64::MAX);
        clocks[p] -= used;
        if clocks[p] < 0 {
            return (End::TimeLoss(p, clocks[p]), clocks[p]);
        }
        least = least.min(clocks[p]);
        clocks[p] += inc_ms;
        let mv = out.last().and_then(|l| l.split_whitespace().nth(1)).expect("a move").to_string();
        arbiter.play_text(&mv).unwrap_or_else(|err| panic!("{game}: {mv} after {moves:?}: {err}"));
        moves.push(mv);
    }
}

/// Plays `games` games and asserts that none is lost on time; prints a summary.
fn no_time_losses(game: &str, base_ms: i64, inc_ms: i64, games: usize, max_plies: usize) {
    let mut least = base_ms;
    let mut ends = Vec::new();
    for g in 0..games {
        // Different games: the first player's first move varies.
        let first = {
            let s = session::open(game).expect("game");
            let legal = s.legal_move_texts();
            legal[(g * 7) % legal.len()].clone()
        };
        let (end, left) = clocked_game(game, base_ms, inc_ms, max_plies, &[&first]);
        assert!(!matches!(end, End::TimeLoss(..)), "{game} game {g}: {end:?}");
        least = least.min(left);
        ends.push(end);
    }
    println!("clocked {game} {base_ms}+{inc_ms} ms: {games} games, no time loss, least time left {least} ms, ends {ends:?}");
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
