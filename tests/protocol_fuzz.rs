//! Protocol fuzzing: 10,000 random and mutated command lines (seeded) across all games. The
//! engine must never panic or exit, and must answer `isready` after every batch.

use crate::common::EngineProcess;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const VALID: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position startpos",
    "position startpos moves e2e4 e7e5 g1f3",
    "position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    "go depth 2",
    "go nodes 500",
    "go movetime 5",
    "go perft 2",
    "go wtime 100 btime 100 winc 1 binc 1",
    "stop",
    "ponderhit",
    "d",
    "fen",
    "legal",
    "status",
    "setoption name Hash value 2",
    "setoption name Threads value 2",
    "setoption name Clear Hash",
];

fn random_token(rng: &mut StdRng, legal: &[String]) -> String {
    match rng.random_range(0..8) {
        0 => rng.random_range(-5i64..100_000).to_string(),
        1 => legal.get(rng.random_range(0..legal.len().max(1))).cloned().unwrap_or_else(|| "0000".into()),
        2 => ["moves", "fen", "startpos", "name", "value", "depth", "perft", "0000", "/", "-"][rng.random_range(0..10)].into(),
        3 => (0..rng.random_range(1..6)).map(|_| rng.random_range(33u8..127) as char).collect(),
        4 => "\u{e9}\u{1F600}".into(),
        _ => {
            let l = VALID[rng.random_range(0..VALID.len())];
            l.split(' ').nth(rng.random_range(0..l.split(' ').count())).unwrap_or("go").into()
        }
    }
}

fn mutate(rng: &mut StdRng, line: &str, legal: &[String]) -> String {
    let mut tokens: Vec<String> = line.split(' ').map(String::from).collect();
    for _ in 0..rng.random_range(1..4) {
        let i = rng.random_range(0..tokens.len().max(1));
        match rng.random_range(0..4) {
            0 if !tokens.is_empty() => {
                tokens.remove(i.min(tokens.len() - 1));
            }
            1 => tokens.insert(i.min(tokens.len()), random_token(rng, legal)),
            2 if !tokens.is_empty() => {
                let j = i.min(tokens.len() - 1);
                tokens[j] = random_token(rng, legal);
            }
            _ => {
                let mut chars: Vec<char> = tokens.join(" ").chars().collect();
                if !chars.is_empty() {
                    let k = rng.random_range(0..chars.len());
                    chars[k] = rng.random_range(32u8..127) as char;
                }
                tokens = chars.iter().collect::<String>().split(' ').map(String::from).collect();
            }
        }
    }
    tokens.join(" ")
}

#[test]
fn ten_thousand_random_lines_across_all_games() {
    let games = tessera::games::ids();
    let mut rng = StdRng::seed_from_u64(0x7e55e7a);
    let mut e = EngineProcess::start();
    let mut legal: Vec<String>;
    let mut sent = 0;
    let mut answered_moves = 0;
    while sent < 10_000 {
        let game = &games[rng.random_range(0..games.len())];
        e.command(&format!("setoption name UCI_Variant value {game}"));
        legal = e.command("legal").last().map(|l| l.split_whitespace().map(String::from).collect()).unwrap_or_default();
        answered_moves += legal.len();
        for _ in 0..50 {
            let line = match rng.random_range(0..10) {
                0..=3 => {
                    let base = VALID[rng.random_range(0..VALID.len())];
                    mutate(&mut rng, base, &legal)
                }
                4..=5 => {
                    let n = rng.random_range(0..4);
                    let moves: Vec<String> = (0..n).map(|_| random_token(&mut rng, &legal)).collect();
                    format!("position startpos moves {}", moves.join(" "))
                }
                6 => (0..rng.random_range(0..6)).map(|_| random_token(&mut rng, &legal)).collect::<Vec<_>>().join(" "),
                _ => VALID[rng.random_range(0..VALID.len())].to_string(),
            };
            // Long searches and perfts would only slow the test down.
            let line = if line.starts_with("go") { format!("{line} depth 1") } else { line };
            let line = if line.contains("perft") { "go perft 1".to_string() } else { line };
            e.send(&line);
            sent += 1;
        }
        e.send("stop");
        let out = e.sync();
        assert!(out.iter().all(|l| !l.contains("panicked")), "{out:?}");
    }
    assert!(answered_moves > 1000, "the engine listed only {answered_moves} legal moves in all");
    assert!(e.quit().success());
}
