//! The `tessera` executable: with no subcommand it speaks the protocol on stdin/stdout; the
//! subcommands (`cli`) each return their one error line, printed here with exit status 2.

mod cli;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

use cli::{Cli, Command, MatchCommand, UNTUNED};
use tessera::bench::{self, BenchKind};
use tessera::eval::network_file::NetworkFile;
use tessera::eval::{EvalParams, PARAMS};
use tessera::search::Control;
use tessera::{games, protocol, selfplay, serve, session};

fn main() -> ExitCode {
    let outcome = match Cli::parse().command {
        None => {
            protocol::run_stdio();
            Ok(())
        }
        Some(Command::Perft { depth, game, fen, moves }) => perft(depth, &game, fen.as_deref(), &moves),
        Some(Command::Match { merge: Some(MatchCommand::Merge { files, sprt, runs, allow_partial }), .. }) => {
            selfplay::merge(&files, sprt.as_deref(), runs, allow_partial, &say).map_err(|e| e.0)
        }
        Some(Command::Match { merge: None, args }) => selfplay::play(*args, &say).map_err(|e| e.0),
        Some(Command::EvalParams { game }) => eval_params(game.as_deref()),
        Some(Command::Tune { game, data, labels, params, start, skip_plies, positions, rounds, seed }) => {
            let params: Vec<String> = match params {
                Some(list) => list.split(',').map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect(),
                None => EvalParams::RANGES.iter().map(|r| r.0.to_string()).filter(|n| !UNTUNED.contains(&n.as_str())).collect(),
            };
            let cfg = selfplay::TuneConfig { game, files: data, labels, params, start, skip_plies, max_positions: positions, rounds, seed };
            tune(&cfg)
        }
        Some(Command::Serve { port, open, pages }) => {
            serve::run(port, open, usize::from(pages)).map_err(|e| format!("cannot serve on 127.0.0.1:{port}: {e}"))
        }
        Some(Command::Bench { game }) => run_bench(game.as_deref()),
        Some(Command::Network { game, text, out }) => convert_network(&game, &text, &out),
        Some(Command::Features { game, positions }) => {
            let text = std::fs::read_to_string(&positions).map_err(|e| format!("cannot read '{}': {e}", positions.display()));
            text.and_then(|t| selfplay::features(&game, &t)).map(|lines| lines.iter().for_each(|l| say(l)))
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// A line to standard output. A reader that has gone (`tessera bench | head`) is no error: the
/// lines it did not read are dropped.
fn say(line: &str) {
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

fn perft(depth: u32, game: &str, fen: Option<&str>, moves: &[String]) -> Result<(), String> {
    let mut s = session::open(game).ok_or_else(|| format!("unknown game '{game}'"))?;
    let moves: Vec<&str> = moves.iter().map(String::as_str).filter(|m| !m.is_empty()).collect();
    s.set_position(fen, &moves).map_err(|e| e.to_string())?;
    let t = std::time::Instant::now();
    // Depth 0 counts the position itself, as `go perft 0` does.
    let mut total = u64::from(depth == 0);
    for (mv, n) in if depth == 0 { Vec::new() } else { s.divide(depth) } {
        say(&format!("{}: {n}", s.move_text(mv)));
        total += n;
    }
    let ms = t.elapsed().as_millis();
    say(&format!("\nNodes searched: {total}"));
    say(&format!("Time: {ms} ms ({} nodes/s)", (total as u128 * 1000 / ms.max(1)) as u64));
    Ok(())
}

fn eval_params(game: Option<&str>) -> Result<(), String> {
    let values = match game {
        None => PARAMS,
        Some(id) => games::profile(id).ok_or_else(|| format!("unknown game '{id}'"))?.eval.params,
    };
    for &(name, min, max) in EvalParams::RANGES {
        say(&format!("{name} {} {min} {max}", values.get(name).unwrap_or(0)));
    }
    Ok(())
}

/// `tessera network`: the trainer's text read for `game`'s definition, written in binary.
fn convert_network(game: &str, text: &std::path::Path, out: &std::path::Path) -> Result<(), String> {
    let def = games::definition(game).ok_or_else(|| format!("unknown game '{game}'"))?;
    let text = std::fs::read_to_string(text).map_err(|e| format!("cannot read '{}': {e}", text.display()))?;
    // The text's reader reports a malformed line by panicking (compiled-in texts are the
    // definition's); here that is the user's one error line, without the panic's own report.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let file = std::panic::catch_unwind(|| NetworkFile::from_text(&def, &text));
    std::panic::set_hook(hook);
    let file = file.map_err(|p| p.downcast_ref::<String>().cloned().unwrap_or_else(|| "a malformed network text".to_string()))?;
    let bytes = file.to_bytes(&def);
    std::fs::write(out, &bytes).map_err(|e| format!("cannot write '{}': {e}", out.display()))?;
    say(&format!("network {game}: {} hidden units, {} buckets, {} bytes", file.hidden, file.buckets, bytes.len()));
    Ok(())
}

fn tune(cfg: &selfplay::TuneConfig) -> Result<(), String> {
    let r = selfplay::tune(cfg, &mut |line| eprintln!("{line}")).map_err(|e| e.0)?;
    say(&format!("games {} positions {} k {:.4} error {:.6} -> {:.6}", r.games, r.positions, r.k, r.error_before, r.error_after));
    let fitted: Vec<String> = cfg.params.iter().map(|n| format!("{n}={}", r.params.get(n).unwrap_or(0))).collect();
    say(&format!("tuned: {}", fitted.join(",")));
    Ok(())
}

fn run_bench(game: Option<&str>) -> Result<(), String> {
    if let Some(game) = game.filter(|g| !bench::has_game(g)) {
        return Err(format!("no bench positions for '{game}'"));
    }
    let lines = bench::run(game, &Control::default(), |l| say(&protocol::bench_line(l)));
    for s in protocol::bench_summary(&bench::totals(&lines, BenchKind::Perft), &bench::totals(&lines, BenchKind::Search)) {
        say(&s);
    }
    Ok(())
}
