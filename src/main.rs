//! The `tessera` executable: with no subcommand it speaks the protocol on stdin/stdout.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use tessera::bench::{self, BenchKind};
use tessera::eval::{EvalParams, PARAMS};
use tessera::search::Control;
use tessera::selfplay::{self, EngineConfig, MatchConfig, MatchError, Shard, Sprt, TimeControl};
use tessera::{protocol, session};

/// Parameters `tune` leaves alone unless named: derived values (given in chess-like games) and the
/// mop-up terms, which quiet positions of played games barely show.
const UNTUNED: [&str; 10] = [
    "value_per_move",
    "value_base",
    "pawn_value",
    "mopup_edge",
    "mopup_close",
    "mopup_box",
    "mopup_level_box",
    "mopup_cover",
    "mopup_men",
    "elimination",
];

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
        #[arg(value_parser = clap::value_parser!(u32).range(0..=i64::from(protocol::MAX_PERFT_DEPTH)))]
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
    /// A match: configurations of this engine and outside UCI engines play each other, seats
    /// rotated, on clocks or with limits per move; prints results per engine and the Elo
    /// difference. `match merge FILE...` adds up the JSON lines of a match's shards.
    #[command(subcommand_negates_reqs = true, args_conflicts_with_subcommands = true)]
    Match {
        #[command(subcommand)]
        merge: Option<MatchCommand>,
        #[command(flatten)]
        args: Box<MatchArgs>,
    },
    /// Lists the evaluation parameters: name, default (or the game's own value), minimum, maximum
    /// (for `tuning/`).
    EvalParams {
        /// The values of this game.
        #[arg(long)]
        game: Option<String>,
    },
    /// Fits evaluation parameters to the results of recorded games, or to labels of positions
    /// (Texel's method): prints the fitted values as `name=value,...`, with the error before and
    /// after.
    Tune {
        #[arg(long, default_value = "chess")]
        game: String,
        /// JSON-lines files of `tessera match` games of the game (several runs are pooled).
        #[arg(long = "data", num_args = 1.., required_unless_present = "labels")]
        data: Vec<String>,
        /// Files of labelled positions, a line each: the expected score of the player to move
        /// (0 to 1), a space, the position string (`tuning/label_stockfish.py` writes them).
        #[arg(long = "labels", num_args = 1..)]
        labels: Vec<String>,
        /// Parameters to fit, comma-separated (default: all but the mop-up and derived values).
        #[arg(long)]
        params: Option<String>,
        /// Values to start from, `name=value,...` over the game's own (an earlier fit's, to go
        /// on from it).
        #[arg(long, default_value = "")]
        start: String,
        /// Leave out the positions of each game's first plies.
        #[arg(long, default_value_t = 8)]
        skip_plies: usize,
        /// At most this many positions, drawn at random.
        #[arg(long, default_value_t = 500_000)]
        positions: usize,
        /// Halvings of the steps before the fit stops.
        #[arg(long, default_value_t = 3)]
        rounds: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// The board in the browser: serves a page on 127.0.0.1 that plays and analyses every game
    /// with this engine. The first line printed is the page's address with its access token.
    Serve {
        /// Port to listen on (0: any free port).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Open the address in the default browser.
        #[arg(long)]
        open: bool,
        /// Pages open at once; each page's engine gets an even share of the cores and memory.
        #[arg(long, default_value_t = tessera::serve::DEFAULT_PAGES, value_parser = clap::value_parser!(u16).range(1..=64))]
        pages: u16,
    },
}

#[derive(Subcommand)]
enum MatchCommand {
    /// Reads the JSON lines (`--jsonl`) of the shards of one match and prints the totals as the
    /// whole match would.
    Merge {
        /// The JSON lines files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Also print where this SPRT stands: `elo0=<e0>,elo1=<e1>,alpha=<a>,beta=<b>`.
        #[arg(long)]
        sprt: Option<String>,
        /// The files are separate runs of the match (an SPRT continued with another seed), each
        /// numbering its games from 1, instead of shards of one run.
        #[arg(long)]
        runs: bool,
        /// Merge the shards there are even when games of the match are missing (saying how many).
        #[arg(long)]
        allow_partial: bool,
    },
}

#[derive(Args)]
struct MatchArgs {
    /// Game id.
    #[arg(long, default_value = protocol::DEFAULT_GAME)]
    game: String,
    /// One engine, `key=value,...`: `name`; `depth`, `nodes`, `movetime` (ms) or `tc`
    /// (`<base>+<inc>` seconds); `threads`, `hash` (MiB); for this engine `search` =
    /// `paranoid`/`maxn`/`brs`/`brs+`, `skill` = 0 to 20, evaluation parameters by name (see
    /// `eval-params`) and search parameters by name (the `Search_` options of `uci`); for an
    /// outside engine `cmd` (its command line) and `option.<name>=<value>`. Give it once per
    /// engine (at most one per player).
    #[arg(long = "engine", required = true)]
    engines: Vec<String>,
    /// Number of games (the most, with `--sprt`).
    #[arg(long, default_value_t = 10)]
    games: usize,
    /// Every engine's clock, `<base>+<inc>` in seconds (`10+0.1`), kept from real time; an
    /// engine's own `tc=` overrides it.
    #[arg(long)]
    tc: Option<String>,
    /// Milliseconds every engine keeps back from its clock (its `Move Overhead` option).
    #[arg(long, default_value_t = 50)]
    move_overhead: u64,
    /// Openings: `random:<plies>` (random legal moves, seeded) or a file with one opening per
    /// line (moves from the start, or `fen <position> [moves ...]`). Without it every game
    /// starts from the start position.
    #[arg(long)]
    openings: Option<String>,
    /// Seed for random openings, and for the order of a file's with `--shuffle-openings`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Plays a file's openings in an order drawn from `--seed` instead of the file's (the runs of
    /// one SPRT with different seeds then start from different openings). The records' `opening`
    /// is the index in the order played.
    #[arg(long)]
    shuffle_openings: bool,
    /// Games still going after this many plies are drawn among the players left.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Games still going at `--max-plies` place the players left by their material (the
    /// evaluation's piece values; equal material shares a place) instead of drawing.
    #[arg(long)]
    cap_by_material: bool,
    /// Games played at once (default: the machine's cores divided by the engines' threads).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Appends each game to this file as PGN when it ends.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Appends each game to this file as one JSON object per line when it ends.
    #[arg(long)]
    jsonl: Option<PathBuf>,
    /// Stops when a sequential probability ratio test decides: `elo0=<e0>,elo1=<e1>,alpha=<a>,beta=<b>`.
    #[arg(long)]
    sprt: Option<String>,
    /// Plays only the K-th of N slices of the match (`--shard 2/4`), for running it on N machines.
    #[arg(long)]
    shard: Option<String>,
    /// Print nothing per game, only the summary.
    #[arg(long)]
    quiet: bool,
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
            // Depth 0 counts the position itself, as `go perft 0` does.
            let mut total = u64::from(depth == 0);
            for (mv, n) in if depth == 0 { Vec::new() } else { s.divide(depth) } {
                println!("{}: {n}", s.move_text(mv));
                total += n;
            }
            let ms = t.elapsed().as_millis();
            println!("\nNodes searched: {total}");
            println!("Time: {ms} ms ({} nodes/s)", (total as u128 * 1000 / ms.max(1)) as u64);
        }
        Some(Command::Match { merge, args }) => {
            let done = match merge {
                Some(MatchCommand::Merge { files, sprt, runs, allow_partial }) => {
                    merge_shards(&files, sprt.as_deref(), runs, allow_partial)
                }
                None => run_match(*args),
            };
            if let Err(e) = done {
                eprintln!("error: {e}");
                std::process::exit(2);
            }
        }
        Some(Command::EvalParams { game }) => {
            let values = match game.as_deref().map(|id| tessera::games::profile(id).ok_or(id)) {
                None => PARAMS,
                Some(Ok(profile)) => profile.eval.params,
                Some(Err(id)) => {
                    eprintln!("error: unknown game '{id}'");
                    std::process::exit(2);
                }
            };
            for &(name, min, max) in EvalParams::RANGES {
                println!("{name} {} {min} {max}", values.get(name).unwrap_or(0));
            }
        }
        Some(Command::Tune { game, data, labels, params, start, skip_plies, positions, rounds, seed }) => {
            let params: Vec<String> = match params {
                Some(list) => list.split(',').map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect(),
                None => EvalParams::RANGES.iter().map(|r| r.0.to_string()).filter(|n| !UNTUNED.contains(&n.as_str())).collect(),
            };
            let cfg = selfplay::TuneConfig { game, files: data, labels, params, start, skip_plies, max_positions: positions, rounds, seed };
            match selfplay::tune(&cfg, &mut |line| eprintln!("{line}")) {
                Ok(r) => {
                    println!(
                        "games {} positions {} k {:.4} error {:.6} -> {:.6}",
                        r.games, r.positions, r.k, r.error_before, r.error_after
                    );
                    let fitted: Vec<String> = cfg.params.iter().map(|n| format!("{n}={}", r.params.get(n).unwrap_or(0))).collect();
                    println!("tuned: {}", fitted.join(","));
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    std::process::exit(2);
                }
            }
        }
        Some(Command::Serve { port, open, pages }) => {
            if let Err(e) = tessera::serve::run(port, open, usize::from(pages)) {
                eprintln!("error: cannot serve on 127.0.0.1:{port}: {e}");
                std::process::exit(2);
            }
        }
        Some(Command::Bench { game }) => {
            if let Some(game) = game.as_deref().filter(|g| !bench::has_game(g)) {
                eprintln!("error: no bench positions for '{game}'");
                std::process::exit(2);
            }
            let lines = bench::run(game.as_deref(), &Control::default(), |l| println!("{}", protocol::bench_line(l)));
            for s in protocol::bench_summary(&bench::totals(&lines, BenchKind::Perft), &bench::totals(&lines, BenchKind::Search)) {
                println!("{s}");
            }
        }
    }
}

/// Appends to a file, reporting the first failure only.
struct RecordFile {
    path: PathBuf,
    file: Option<std::fs::File>,
}

impl RecordFile {
    fn open(path: Option<PathBuf>) -> Result<Option<Self>, MatchError> {
        let Some(path) = path else { return Ok(None) };
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| format!("cannot open '{}': {e}", path.display()))?;
        Ok(Some(RecordFile { path, file: Some(file) }))
    }

    fn append(&mut self, text: Result<String, MatchError>) {
        let Some(file) = self.file.as_mut() else { return };
        let written = text.map_err(|e| e.0).and_then(|t| file.write_all(t.as_bytes()).map_err(|e| e.to_string()));
        if let Err(e) = written {
            eprintln!("error: cannot write '{}': {e}; no more games are written to it", self.path.display());
            self.file = None;
        }
    }
}

/// `1m05s` from seconds.
fn duration_text(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    if s >= 3600 { format!("{}h{:02}m", s / 3600, s % 3600 / 60) } else { format!("{}m{:02}s", s / 60, s % 60) }
}

fn run_match(args: MatchArgs) -> Result<(), MatchError> {
    let game = args.game;
    let base = session::open(&game).ok_or_else(|| format!("unknown game '{game}'"))?;
    let players: Vec<String> = base.def().players.iter().map(|p| p.name.clone()).collect();
    let tc = args.tc.as_deref().map(TimeControl::parse).transpose()?;
    let mut engines = Vec::new();
    for (i, spec) in args.engines.iter().enumerate() {
        let cfg = EngineConfig::parse(spec, &format!("engine{}", i + 1), tc)?;
        if engines.iter().any(|e: &EngineConfig| e.name == cfg.name) {
            return Err(format!("two engines are named '{}'", cfg.name).into());
        }
        engines.push(cfg);
    }
    let mut cfg = MatchConfig::new(&game, engines, args.games);
    cfg.max_plies = args.max_plies;
    cfg.cap_by_material = args.cap_by_material;
    cfg.move_overhead = args.move_overhead;
    cfg.sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    cfg.shard = args.shard.as_deref().map(Shard::parse).transpose()?;
    let opening_count = args.games.div_ceil(cfg.block_len()?);
    cfg.openings = match args.openings.as_deref() {
        None => Vec::new(),
        Some(spec) => match spec.strip_prefix("random:") {
            Some(plies) => {
                let plies = plies.parse::<usize>().map_err(|_| format!("'random:{plies}' needs a number of plies"))?;
                selfplay::random_openings(&game, opening_count, plies, args.seed)?
            }
            None => {
                let text = std::fs::read_to_string(spec).map_err(|e| format!("cannot read '{spec}': {e}"))?;
                let mut book = selfplay::read_openings(&game, &text)?;
                if args.shuffle_openings {
                    selfplay::shuffle_openings(&mut book, args.seed);
                }
                book
            }
        },
    };
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let threads = cfg.engines.iter().map(|e| e.threads).max().unwrap_or(1);
    let total = selfplay::schedule(&cfg)?.len();
    cfg.concurrency = args.concurrency.unwrap_or((cores / threads).max(1)).clamp(1, total.max(1));
    let names = cfg.engine_names();
    let shard = cfg.shard.map(|s| format!(" (shard {}/{} of {})", s.index, s.count, cfg.games)).unwrap_or_default();
    println!("match {}: {total} games{shard}, engines {}, {} at a time", cfg.game, names.join(" "), cfg.concurrency);
    let time_control = tc.map(TimeControl::text);
    let openings = match args.openings.as_deref() {
        None => "start".to_string(),
        Some(spec) if spec.starts_with("random:") => format!("{spec} seed {}", args.seed),
        Some(_) if args.shuffle_openings => format!("a file, shuffled with seed {}", args.seed),
        Some(_) => "a file".to_string(),
    };
    let identity = selfplay::MatchIdentity {
        id: String::new(),
        games: args.games,
        engines: args.engines.clone(),
        clock: args.tc.clone(),
        openings: selfplay::MatchIdentity::openings_text(&openings, &cfg.openings),
        max_plies: cfg.max_plies,
        cap_by_material: cfg.cap_by_material,
        move_overhead: cfg.move_overhead,
    }
    .identified();
    let files = std::sync::Mutex::new((RecordFile::open(args.pgn)?, RecordFile::open(args.jsonl)?));
    let block_len = cfg.block_len()?;
    let start = std::time::Instant::now();
    let quiet = args.quiet;
    let progress = |r: &selfplay::GameRecord, all: &[selfplay::GameRecord]| {
        if let Ok(mut files) = files.lock() {
            let (pgn, jsonl) = &mut *files;
            if let Some(f) = pgn.as_mut() {
                f.append(selfplay::pgn(&cfg.game, &names, r, time_control.as_deref()));
            }
            if let Some(f) = jsonl.as_mut() {
                f.append(selfplay::json_line(&cfg.game, &names, Some(&identity), r).map(|l| l + "\n"));
            }
        }
        if quiet {
            return;
        }
        let seats: Vec<String> =
            r.seats.iter().zip(&r.ranks).zip(&players).map(|((&e, rank), p)| format!("{}={}:{}", p, names[e], rank + 1)).collect();
        let n = all.len();
        let t = &selfplay::tally(all, names.len(), base.def())[0];
        let mut line = format!(
            "game {:>4} [{n}/{total}] opening {:>3}: {}  {} after {} plies | {} {:.1}%",
            r.index + 1,
            r.opening + 1,
            seats.join(" "),
            r.ending.name(),
            r.moves.len(),
            names[0],
            100.0 * t.score()
        );
        if let Some((elo, margin)) = selfplay::elo_with_margin(&t.game_scores) {
            line.push_str(&format!(" elo {elo:+.0} +/- {margin:.0}"));
        }
        if let Some(test) = cfg.sprt {
            line.push_str(&format!(" llr {:.2}", test.llr(&selfplay::block_scores(all, block_len))));
        }
        let elapsed = start.elapsed().as_secs_f64();
        line.push_str(&format!(" | eta {}", duration_text(elapsed / n as f64 * (total - n) as f64)));
        println!("{line}");
    };
    let records = selfplay::run_match(&cfg, &progress)?;
    for line in selfplay::summary(base.def(), &names, &records) {
        println!("{line}");
    }
    if let Some(test) = cfg.sprt {
        println!("{}", test.report(&selfplay::block_scores(&records, block_len)));
    }
    println!("time {:.1} s", start.elapsed().as_secs_f64());
    Ok(())
}

fn merge_shards(files: &[PathBuf], sprt: Option<&str>, runs: bool, allow_partial: bool) -> Result<(), MatchError> {
    let sprt = sprt.map(Sprt::parse).transpose()?;
    let mut texts = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("cannot read '{}': {e}", f.display()))?;
        texts.push((f.display().to_string(), text));
    }
    // Shards are one run; separate runs are read one by one and joined.
    let parts = if runs {
        texts.iter().map(|t| selfplay::read_json_lines(std::slice::from_ref(t))).collect::<Result<Vec<_>, _>>()?
    } else {
        vec![selfplay::read_json_lines(&texts)?]
    };
    let (game, names, _) = parts.first().ok_or("no games in the input")?;
    let base = session::open(game).ok_or_else(|| format!("unknown game '{game}'"))?;
    let block_len = selfplay::seat_assignments(base.def(), names.len()).len().max(1);
    let (game, names, records) = selfplay::join_runs(parts, block_len)?;
    // The shards of one run must hold every game of the match (separate runs may each have been
    // stopped by their test).
    if let Some(identity) = selfplay::match_identity(&texts).filter(|_| !runs) {
        let (missing, which) = selfplay::missing_games(&records, identity.games);
        if missing > 0 && !allow_partial {
            return Err(format!(
                "{missing} of the match's {} games are missing ({which}); --allow-partial merges the rest",
                identity.games
            )
            .into());
        }
        if missing > 0 {
            println!("merge: {missing} of the match's {} games are missing ({which}), merged without them", identity.games);
        }
    }
    println!("merge {game}: {} games from {} files, engines {}", records.len(), files.len(), names.join(" "));
    for line in selfplay::summary(base.def(), &names, &records) {
        println!("{line}");
    }
    if let Some(test) = sprt {
        println!("{}", test.report(&selfplay::block_scores(&records, block_len)));
    }
    Ok(())
}
