//! A match as `tessera match` runs it: the engines, clock and openings from the command's
//! settings, each game appended to the record files as it ends, a progress line per game and the
//! summary; and `tessera match merge`, the shards' records added up as one match.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::*;

/// What `tessera match` was asked for: its command-line settings, parsed no further.
#[derive(Args, Clone, Debug)]
pub struct MatchRequest {
    /// Game id.
    #[arg(long, default_value = crate::games::DEFAULT_GAME)]
    pub game: String,
    /// One engine, `key=value,...`: `name`; `depth`, `nodes`, `movetime` (ms) or `tc`
    /// (`<base>+<inc>` seconds); `threads`, `hash` (MiB); for this engine `search` =
    /// `paranoid`/`maxn`/`brs`/`brs+`, `skill` = 0 to 20, evaluation parameters by name (see
    /// `eval-params`) and search parameters by name (the `Search_` options of `uci`); for an
    /// outside engine `cmd` (its command line) and `option.<name>=<value>`. Give it once per
    /// engine (at most one per player).
    #[arg(long = "engine", required = true)]
    pub engines: Vec<String>,
    /// Number of games (the most, with `--sprt`).
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// Every engine's clock, `<base>+<inc>` in seconds (`10+0.1`), kept from real time; an
    /// engine's own `tc=` overrides it.
    #[arg(long)]
    pub tc: Option<String>,
    /// Milliseconds every engine keeps back from its clock (its `Move Overhead` option).
    #[arg(long, default_value_t = 50)]
    pub move_overhead: u64,
    /// Openings: `random:<plies>` (random legal moves, seeded) or a file with one opening per
    /// line (moves from the start, or `fen <position> [moves ...]`). Without it every game
    /// starts from the start position.
    #[arg(long)]
    pub openings: Option<String>,
    /// Seed for random openings, and for the order of a file's with `--shuffle-openings`.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Plays a file's openings in an order drawn from `--seed` instead of the file's (the runs of
    /// one SPRT with different seeds then start from different openings). The records' `opening`
    /// is the index in the order played.
    #[arg(long)]
    pub shuffle_openings: bool,
    /// Games still going after this many plies are drawn among the players left.
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Games still going at `--max-plies` place the players left by their material (the
    /// evaluation's piece values; equal material shares a place) instead of drawing.
    #[arg(long)]
    pub cap_by_material: bool,
    /// Games played at once (default: the machine's cores divided by the engines' threads).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Appends each game to this file as PGN when it ends.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Appends each game to this file as one JSON object per line when it ends.
    #[arg(long)]
    pub jsonl: Option<PathBuf>,
    /// Two players: ends a game as a win once the searches of this process's engines have put the
    /// same player at least CP centipawns ahead for PLIES plies in a row (`1000:8`).
    #[arg(long, value_name = "CP:PLIES")]
    pub adjudicate: Option<String>,
    /// Appends, as each game ends, the positions this process's engines searched (not in check,
    /// best move quiet) with every player's score and the game's ranks, a line each: training
    /// data (`tuning/README.md` documents the format).
    #[arg(long)]
    pub positions: Option<PathBuf>,
    /// Stops when a sequential probability ratio test decides: `elo0=<e0>,elo1=<e1>,alpha=<a>,beta=<b>`.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Plays only the K-th of N slices of the match (`--shard 2/4`), for running it on N machines.
    #[arg(long)]
    pub shard: Option<String>,
    /// Print nothing per game, only the summary.
    #[arg(long)]
    pub quiet: bool,
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

/// Plays the match `args` asks for, as `tessera match` does: `say` gets the first line, a
/// progress line per game (unless `quiet`) and the summary.
pub fn play(args: MatchRequest, say: &(dyn Fn(&str) + Sync)) -> Result<(), MatchError> {
    let game = args.game;
    let base = crate::session::open(&game).ok_or_else(|| format!("unknown game '{game}'"))?;
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
    cfg.sample_positions = args.positions.is_some();
    cfg.adjudicate = args.adjudicate.as_deref().map(Adjudication::parse).transpose()?;
    let opening_count = args.games.div_ceil(cfg.block_len()?);
    cfg.openings = match args.openings.as_deref() {
        None => Vec::new(),
        Some(spec) => match spec.strip_prefix("random:") {
            Some(plies) => {
                let plies = plies.parse::<usize>().map_err(|_| format!("'random:{plies}' needs a number of plies"))?;
                random_openings(&game, opening_count, plies, args.seed)?
            }
            None => {
                let text = std::fs::read_to_string(spec).map_err(|e| format!("cannot read '{spec}': {e}"))?;
                let mut book = read_openings(&game, &text)?;
                if args.shuffle_openings {
                    shuffle_openings(&mut book, args.seed);
                }
                book
            }
        },
    };
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let threads = cfg.engines.iter().map(|e| e.threads).max().unwrap_or(1);
    let total = schedule(&cfg)?.len();
    cfg.concurrency = args.concurrency.unwrap_or((cores / threads).max(1)).clamp(1, total.max(1));
    let names = cfg.engine_names();
    let shard = cfg.shard.map(|s| format!(" (shard {}/{} of {})", s.index, s.count, cfg.games)).unwrap_or_default();
    say(&format!("match {}: {total} games{shard}, engines {}, {} at a time", cfg.game, names.join(" "), cfg.concurrency));
    let time_control = tc.map(TimeControl::text);
    let openings = match args.openings.as_deref() {
        None => "start".to_string(),
        Some(spec) if spec.starts_with("random:") => format!("{spec} seed {}", args.seed),
        Some(_) if args.shuffle_openings => format!("a file, shuffled with seed {}", args.seed),
        Some(_) => "a file".to_string(),
    };
    let identity = MatchIdentity {
        id: String::new(),
        games: args.games,
        engines: args.engines.clone(),
        clock: args.tc.clone(),
        openings: MatchIdentity::openings_text(&openings, &cfg.openings),
        max_plies: cfg.max_plies,
        cap_by_material: cfg.cap_by_material,
        move_overhead: cfg.move_overhead,
    }
    .identified();
    let files = std::sync::Mutex::new((RecordFile::open(args.pgn)?, RecordFile::open(args.jsonl)?, RecordFile::open(args.positions)?));
    let block_len = cfg.block_len()?;
    let start = std::time::Instant::now();
    let quiet = args.quiet;
    let progress = |r: &GameRecord, all: &[GameRecord]| {
        if let Ok(mut files) = files.lock() {
            let (pgn, jsonl, positions) = &mut *files;
            if let Some(f) = pgn.as_mut() {
                f.append(super::pgn(&cfg.game, &names, r, time_control.as_deref()));
            }
            if let Some(f) = jsonl.as_mut() {
                f.append(json_line(&cfg.game, &names, Some(&identity), r).map(|l| l + "\n"));
            }
            if let Some(f) = positions.as_mut() {
                f.append(Ok(r.samples.iter().map(|s| s.line(&r.ranks) + "\n").collect()));
            }
        }
        if quiet {
            return;
        }
        let seats: Vec<String> =
            r.seats.iter().zip(&r.ranks).zip(&players).map(|((&e, rank), p)| format!("{}={}:{}", p, names[e], rank + 1)).collect();
        let n = all.len();
        let t = &tally(all, names.len(), base.def())[0];
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
        if let Some((elo, margin)) = elo_with_margin(&t.game_scores) {
            line.push_str(&format!(" elo {elo:+.0} +/- {margin:.0}"));
        }
        if let Some(test) = cfg.sprt {
            line.push_str(&format!(" llr {:.2}", test.llr(&block_scores(all, block_len))));
        }
        let elapsed = start.elapsed().as_secs_f64();
        line.push_str(&format!(" | eta {}", duration_text(elapsed / n as f64 * (total - n) as f64)));
        say(&line);
    };
    let records = run_match(&cfg, &progress)?;
    for line in summary(base.def(), &names, &records) {
        say(&line);
    }
    if let Some(test) = cfg.sprt {
        say(&test.report(&block_scores(&records, block_len)));
    }
    say(&format!("time {:.1} s", start.elapsed().as_secs_f64()));
    Ok(())
}

/// Adds up the JSON lines of a match's shards (or, with `runs`, of separate runs of it) and gives
/// `say` the totals as the whole match would print them (`tessera match merge`).
pub fn merge(files: &[PathBuf], sprt: Option<&str>, runs: bool, allow_partial: bool, say: &dyn Fn(&str)) -> Result<(), MatchError> {
    let sprt = sprt.map(Sprt::parse).transpose()?;
    let mut texts = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("cannot read '{}': {e}", f.display()))?;
        texts.push((f.display().to_string(), text));
    }
    // Shards are one run; separate runs are read one by one and joined.
    let parts = if runs {
        texts.iter().map(|t| read_json_lines(std::slice::from_ref(t))).collect::<Result<Vec<_>, _>>()?
    } else {
        vec![read_json_lines(&texts)?]
    };
    let (game, names, _) = parts.first().ok_or("no games in the input")?;
    let base = crate::session::open(game).ok_or_else(|| format!("unknown game '{game}'"))?;
    let block_len = seat_assignments(base.def(), names.len()).len().max(1);
    let (game, names, records) = join_runs(parts, block_len)?;
    // The shards of one run must hold every game of the match (separate runs may each have been
    // stopped by their test).
    if let Some(identity) = match_identity(&texts).filter(|_| !runs) {
        let (missing, which) = missing_games(&records, identity.games);
        if missing > 0 && !allow_partial {
            return Err(format!(
                "{missing} of the match's {} games are missing ({which}); --allow-partial merges the rest",
                identity.games
            )
            .into());
        }
        if missing > 0 {
            say(&format!("merge: {missing} of the match's {} games are missing ({which}), merged without them", identity.games));
        }
    }
    say(&format!("merge {game}: {} games from {} files, engines {}", records.len(), files.len(), names.join(" ")));
    for line in summary(base.def(), &names, &records) {
        say(&line);
    }
    if let Some(test) = sprt {
        say(&test.report(&block_scores(&records, block_len)));
    }
    Ok(())
}
