//! The `tessera` executable: with no subcommand it speaks the protocol on stdin/stdout.

use clap::{Parser, Subcommand};

use tessera::bench::{self, BenchKind};
use tessera::eval::{EvalParams, PARAMS};
use tessera::search::Control;
use tessera::selfplay::{self, EngineConfig, MatchConfig, MatchError};
use tessera::{protocol, session};

#[derive(Parser)]
#[command(name = "tessera", version, about = "An engine for multi-player and three-dimensional chess variants")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Counts the move sequences of a given depth (split by first move).
    Perft {
        depth: u32,
        /// Game id (see `uci`'s UCI_Variant option).
        #[arg(long, default_value = protocol::DEFAULT_GAME)]
        game: String,
        /// Position string; the game's start position if omitted.
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play from the position first.
        #[arg(long, num_args = 1.., value_delimiter = ' ')]
        moves: Vec<String>,
    },
    /// Perft and fixed-depth searches over a fixed set of positions: nodes and nodes per second.
    Bench {
        /// Only this game's positions.
        #[arg(long)]
        game: Option<String>,
    },
    /// Self-play: configurations of this engine play each other, seats rotated; prints results per
    /// configuration and the Elo difference.
    Match {
        /// Game id.
        #[arg(long, default_value = protocol::DEFAULT_GAME)]
        game: String,
        /// One engine configuration, `key=value,...` (`name`, `depth`, `nodes`, `movetime`,
        /// `threads`, `hash`, `search` = `paranoid`/`maxn`/`brs`/`brs+`, `skill` = 0 to 20, evaluation parameters by name (see
        /// `eval-params`) and search parameters by name (the `Search_` options of `uci`)); give it once
        /// per configuration (at most one per player).
        #[arg(long = "engine", required = true)]
        engines: Vec<String>,
        /// Number of games.
        #[arg(long, default_value_t = 10)]
        games: usize,
        /// Openings: `random:<plies>` (random legal moves, seeded) or a file with one opening per
        /// line (moves from the start, or `fen <position> [moves ...]`). Without it every game
        /// starts from the start position.
        #[arg(long)]
        openings: Option<String>,
        /// Seed for random openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games still going after this many plies are drawn among the players left.
        #[arg(long, default_value_t = 400)]
        max_plies: usize,
        /// Games played at once (default: the machine's cores divided by the engines' threads).
        #[arg(long)]
        concurrency: Option<usize>,
        /// Print nothing per game, only the summary.
        #[arg(long)]
        quiet: bool,
    },
    /// Lists the evaluation parameters: name, default, minimum, maximum (for `tuning/`).
    EvalParams,
    /// The board in the browser: serves a page on 127.0.0.1 that plays and analyses every game
    /// with this engine. The first line printed is the page's address with its access token.
    Serve {
        /// Port to listen on (0: any free port).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Open the address in the default browser.
        #[arg(long)]
        open: bool,
    },
}

fn main() {
    let cli = Cli::parse();
    match cli.command {
        None => protocol::run_stdio(),
        Some(Command::Perft { depth, game, fen, moves }) => {
            let Some(mut s) = session::open(&game) else {
                eprintln!("error: unknown game '{game}'");
                std::process::exit(2);
            };
            let moves: Vec<&str> = moves.iter().map(String::as_str).filter(|m| !m.is_empty()).collect();
            if let Err(e) = s.set_position(fen.as_deref(), &moves) {
                eprintln!("error: {e}");
                std::process::exit(2);
            }
            let t = std::time::Instant::now();
            let mut total = 0;
            for (mv, n) in s.divide(depth) {
                println!("{}: {n}", s.move_text(mv));
                total += n;
            }
            let ms = t.elapsed().as_millis();
            println!("\nNodes searched: {total}");
            println!("Time: {ms} ms ({} nodes/s)", (total as u128 * 1000 / ms.max(1)) as u64);
        }
        Some(Command::Match { game, engines, games, openings, seed, max_plies, concurrency, quiet }) => {
            if let Err(e) = run_match(game, &engines, games, openings, seed, max_plies, concurrency, quiet) {
                eprintln!("error: {e}");
                std::process::exit(2);
            }
        }
        Some(Command::EvalParams) => {
            for &(name, min, max) in EvalParams::RANGES {
                println!("{name} {} {min} {max}", PARAMS.get(name).unwrap_or(0));
            }
        }
        Some(Command::Serve { port, open }) => {
            if let Err(e) = tessera::serve::run(port, open) {
                eprintln!("error: cannot serve on 127.0.0.1:{port}: {e}");
                std::process::exit(2);
            }
        }
        Some(Command::Bench { game }) => {
            let lines = bench::run(game.as_deref(), &Control::default(), |l| println!("{}", protocol::bench_line(l)));
            for s in protocol::bench_summary(&bench::totals(&lines, BenchKind::Perft), &bench::totals(&lines, BenchKind::Search)) {
                println!("{s}");
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn run_match(
    game: String,
    specs: &[String],
    games: usize,
    openings: Option<String>,
    seed: u64,
    max_plies: usize,
    concurrency: Option<usize>,
    quiet: bool,
) -> Result<(), MatchError> {
    let base = session::open(&game).ok_or_else(|| format!("unknown game '{game}'"))?;
    let players: Vec<String> = base.def().players.iter().map(|p| p.name.clone()).collect();
    let mut engines = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let cfg = EngineConfig::parse(spec, &format!("engine{}", i + 1))?;
        if engines.iter().any(|e: &EngineConfig| e.name == cfg.name) {
            return Err(format!("two engines are named '{}'", cfg.name).into());
        }
        engines.push(cfg);
    }
    let rotation = selfplay::seat_assignments(players.len(), engines.len().clamp(1, players.len())).len().max(1);
    let opening_count = games.div_ceil(rotation);
    let openings = match openings.as_deref() {
        None => Vec::new(),
        Some(spec) => match spec.strip_prefix("random:") {
            Some(plies) => {
                let plies = plies.parse::<usize>().map_err(|_| format!("'random:{plies}' needs a number of plies"))?;
                selfplay::random_openings(&game, opening_count, plies, seed)?
            }
            None => {
                let text = std::fs::read_to_string(spec).map_err(|e| format!("cannot read '{spec}': {e}"))?;
                selfplay::read_openings(&game, &text)?
            }
        },
    };
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let threads = engines.iter().map(|e| e.threads).max().unwrap_or(1);
    let concurrency = concurrency.unwrap_or((cores / threads).max(1)).clamp(1, games.max(1));
    let cfg = MatchConfig { game, engines, games, openings, max_plies, concurrency };
    let names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
    println!("match {}: {} games, engines {}, {} at a time", cfg.game, cfg.games, names.join(" "), cfg.concurrency);
    let start = std::time::Instant::now();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let progress = |r: &selfplay::GameRecord| {
        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if quiet {
            return;
        }
        let seats: Vec<String> = r
            .seats
            .iter()
            .zip(&r.ranks)
            .zip(&players)
            .map(|((&e, rank), p)| format!("{}={}:{}", p, cfg.engines[e].name, rank + 1))
            .collect();
        println!(
            "game {:>4} ({n}/{}) opening {:>3}: {}  {} after {} plies",
            r.index + 1,
            cfg.games,
            r.opening + 1,
            seats.join(" "),
            r.ending.name(),
            r.moves.len()
        );
    };
    let records = selfplay::run_match(&cfg, &progress)?;
    for line in selfplay::summary(&cfg, &records, players.len()) {
        println!("{line}");
    }
    println!("time {:.1} s", start.elapsed().as_secs_f64());
    Ok(())
}
