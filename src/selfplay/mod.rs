//! Self-play matches (`tessera match`): engine configurations of this same program play games
//! of any game from its start position or from opening lines, seats rotated so that every
//! configuration plays every seat equally often, several games at once.
//!
//! Results per configuration: wins/draws/losses (two players) or placings (three and four),
//! and a score: the share of head-to-head comparisons won against seats held by *other*
//! configurations (a win 1, a tie ½), which for two players is the usual game score. The Elo
//! difference and its 95% margin follow from the per-game scores.

use std::sync::Mutex;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

mod record;
mod stats;

use crate::eval::{EvalParams, PARAMS};
use crate::params::ParamError;
use crate::search::{Control, Limits, MultiSearch, SearchSettings, Strength};
use crate::session::{self, SearchRequest, Session};
use crate::tt::TransTable;
pub use record::{Ending, GameRecord, ranks};
pub use stats::{Tally, elo_from_score, elo_with_margin, summary, tally};

/// Deepest search and most threads and hash an engine setting may ask for.
const MAX_DEPTH: u64 = 100;
const MAX_THREADS: u64 = 512;
const MAX_HASH_MB: u64 = 65_536;

crate::error::message_error!(
    /// Why a match cannot be set up or played.
    MatchError
);

impl From<String> for MatchError {
    fn from(s: String) -> Self {
        MatchError(s)
    }
}

impl From<&str> for MatchError {
    fn from(s: &str) -> Self {
        MatchError(s.to_string())
    }
}

impl From<ParamError> for MatchError {
    fn from(e: ParamError) -> Self {
        MatchError(e.to_string())
    }
}

fn open(game: &str) -> Result<Box<dyn Session>, MatchError> {
    session::open(game).ok_or_else(|| MatchError(format!("unknown game '{game}'")))
}

/// One engine: a name and the search settings it plays with.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    pub name: String,
    /// Per-move limits (`depth`, `nodes`, `movetime`).
    pub limits: Limits,
    pub threads: usize,
    pub hash_mb: usize,
    pub eval: EvalParams,
    /// The search with three or more players, and the search parameters.
    pub search: SearchSettings,
}

impl EngineConfig {
    /// A configuration with no limit per move yet, one thread and 8 MiB of hash.
    pub fn new(name: &str) -> Self {
        EngineConfig {
            name: name.into(),
            limits: Limits::default(),
            threads: 1,
            hash_mb: 8,
            eval: PARAMS,
            search: SearchSettings::default(),
        }
    }

    /// Parses `key=value,key=value,...`. Keys: `name`, `depth`, `nodes`, `movetime` (ms),
    /// `threads`, `hash` (MiB), `search` (`paranoid`, `maxn`, `brs` or `brs+`: the search with three or
    /// more players), `skill` (a playing strength from 0 to 20, as the `Skill Level` option), and any evaluation or search parameter by its name (`tempo=15`,
    /// `aspiration=30`).
    pub fn parse(spec: &str, default_name: &str) -> Result<Self, MatchError> {
        let mut cfg = EngineConfig::new(default_name);
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part.split_once('=').ok_or_else(|| format!("'{part}' is not key=value"))?;
            let (key, value) = (key.trim(), value.trim());
            let number = || value.parse::<u64>().map_err(|_| format!("'{key}' needs a non-negative integer, got '{value}'"));
            match key {
                "name" if !value.is_empty() && !value.contains(char::is_whitespace) => cfg.name = value.into(),
                "name" => return Err(format!("bad engine name '{value}'").into()),
                "depth" => cfg.limits.depth = Some(number()?.clamp(1, MAX_DEPTH) as u32),
                "nodes" => cfg.limits.nodes = Some(number()?.max(1)),
                "movetime" => cfg.limits.movetime = Some(number()?.max(1)),
                "threads" => cfg.threads = number()?.clamp(1, MAX_THREADS) as usize,
                "hash" => cfg.hash_mb = number()?.clamp(1, MAX_HASH_MB) as usize,
                "skill" => {
                    let level = value.parse::<f64>().ok().filter(|l| (0.0..=20.0).contains(l));
                    cfg.search.strength =
                        Strength::level(level.ok_or_else(|| format!("'skill' must be a level from 0 to 20, got '{value}'"))?);
                }
                "search" => {
                    cfg.search.algorithm = MultiSearch::parse(value)
                        .ok_or_else(|| format!("'search' must be one of {}, got '{value}'", MultiSearch::NAMES.join(", ")))?
                }
                _ if cfg.eval.get(key).is_some() => {
                    let v = value.parse::<i32>().map_err(|_| format!("'{key}' needs an integer, got '{value}'"))?;
                    cfg.eval.set(key, v)?;
                }
                _ if cfg.search.params.get(key).is_some() => {
                    let v = value.parse::<i32>().map_err(|_| format!("'{key}' needs an integer, got '{value}'"))?;
                    cfg.search.params.set(key, v)?;
                }
                _ => return Err(format!("unknown engine setting '{key}'").into()),
            }
        }
        if cfg.limits.depth.is_none() && cfg.limits.nodes.is_none() && cfg.limits.movetime.is_none() {
            return Err(format!("engine '{}' needs a limit per move: depth, nodes or movetime", cfg.name).into());
        }
        Ok(cfg)
    }
}

/// Where a game starts: a position string (`None` = the start) and moves played from it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    pub fen: Option<String>,
    pub moves: Vec<String>,
}

impl Opening {
    /// One line of an openings file: moves from the start (`e2e4 e7e5`), or
    /// `fen <position string> [moves <m1> ...]`.
    pub fn parse(line: &str) -> Result<Self, MatchError> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.first() == Some(&"fen") {
            let at = tokens.iter().position(|&t| t == "moves").unwrap_or(tokens.len());
            if at < 2 {
                return Err("'fen' needs a position string".into());
            }
            let moves = tokens.get(at + 1..).unwrap_or(&[]).iter().map(|m| m.to_string()).collect();
            return Ok(Opening { fen: Some(tokens[1..at].join(" ")), moves });
        }
        let moves = tokens.iter().skip_while(|&&t| t == "moves").map(|m| m.to_string()).collect();
        Ok(Opening { fen: None, moves })
    }
}

/// Reads an openings file (one opening per line; empty lines and `#` comments skipped) and checks
/// every line against the game.
pub fn read_openings(game: &str, text: &str) -> Result<Vec<Opening>, MatchError> {
    let base = open(game)?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = Opening::parse(line).map_err(|e| format!("openings line {}: {e}", i + 1))?;
        let mut s = base.boxed_clone();
        let moves: Vec<&str> = opening.moves.iter().map(String::as_str).collect();
        s.set_position(opening.fen.as_deref(), &moves).map_err(|e| format!("openings line {}: {e}", i + 1))?;
        if s.status().is_over() {
            return Err(format!("openings line {}: the game is already over", i + 1).into());
        }
        out.push(opening);
    }
    if out.is_empty() {
        return Err("the openings file has no openings".into());
    }
    Ok(out)
}

/// `count` openings of `plies` uniformly random legal moves from the start, reproducible from
/// `seed`; lines after which the game is over are drawn again.
pub fn random_openings(game: &str, count: usize, plies: usize, seed: u64) -> Result<Vec<Opening>, MatchError> {
    let base = open(game)?;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    let mut attempts = 0;
    while out.len() < count {
        attempts += 1;
        if attempts > count * 100 + 100 {
            return Err(format!("cannot find {count} random openings of {plies} plies that do not end the game").into());
        }
        let mut s = base.boxed_clone();
        let mut moves = Vec::with_capacity(plies);
        for _ in 0..plies {
            let legal = s.legal_moves();
            if legal.is_empty() || s.status().is_over() {
                break;
            }
            let mv = legal[rng.random_range(0..legal.len())];
            moves.push(s.move_text(mv));
            s.play(mv).map_err(|e| e.0)?;
        }
        if moves.len() == plies && !s.status().is_over() {
            out.push(Opening { fen: None, moves });
        }
    }
    Ok(out)
}

/// Every way to give the `players` seats to `engines` configurations such that each
/// configuration has at least one seat, in a fixed order (for two engines and two players:
/// `[0, 1]`, `[1, 0]`). Every configuration holds every seat equally often over the list.
pub fn seat_assignments(players: usize, engines: usize) -> Vec<Vec<usize>> {
    let total = engines.pow(u32::try_from(players).expect("at most four players"));
    (0..total)
        .map(|mut code| {
            let mut seats = vec![0; players];
            for s in seats.iter_mut() {
                *s = code % engines;
                code /= engines;
            }
            seats
        })
        .filter(|seats| (0..engines).all(|e| seats.contains(&e)))
        .collect()
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub game: String,
    pub engines: Vec<EngineConfig>,
    pub games: usize,
    /// Openings used in turn, each for one full rotation of seats; empty = the start position.
    pub openings: Vec<Opening>,
    /// A game still going after this many plies (the opening's included) is a draw among the
    /// players still in it.
    pub max_plies: usize,
    /// Games played at once.
    pub concurrency: usize,
}

/// Plays one game; `seats[p]` is the configuration playing player `p`.
pub fn play_game(cfg: &MatchConfig, index: usize, seats: &[usize], opening_index: usize) -> Result<GameRecord, MatchError> {
    let base = open(&cfg.game)?;
    let players = base.def().players.len();
    let opening = cfg.openings.get(opening_index).cloned().unwrap_or_default();
    let moves: Vec<&str> = opening.moves.iter().map(String::as_str).collect();
    let mut sessions: Vec<Option<Box<dyn Session>>> = (0..cfg.engines.len()).map(|_| None).collect();
    let mut tables: Vec<Option<TransTable>> = (0..cfg.engines.len()).map(|_| None).collect();
    for &e in seats {
        if sessions[e].is_none() {
            let mut s = base.boxed_clone();
            s.set_eval_params(&cfg.engines[e].eval);
            s.set_position(opening.fen.as_deref(), &moves).map_err(|err| format!("opening {opening_index}: {err}"))?;
            sessions[e] = Some(s);
            tables[e] = Some(TransTable::new(cfg.engines[e].hash_mb).map_err(|err| MatchError(err.0))?);
        }
    }
    let mut played = opening.moves.clone();
    let referee = seats[0];
    loop {
        let referee = sessions[referee].as_ref().ok_or("no session")?;
        let status = referee.status();
        if status.is_over() || played.len() >= cfg.max_plies {
            let ending = status.end.map_or(Ending::PlyCap, |e| Ending::Rules(e.reason));
            let ranks = ranks(players, &status);
            return Ok(GameRecord { index, seats: seats.to_vec(), opening: opening_index, moves: played, ending, ranks });
        }
        let e = seats[referee.to_move().index()];
        let engine = &cfg.engines[e];
        let (Some(session), Some(tt)) = (&sessions[e], &tables[e]) else { return Err("missing engine state".into()) };
        let control = Control::default();
        let request = SearchRequest { limits: &engine.limits, control: &control, tt, threads: engine.threads, settings: engine.search };
        let result = session.think(&request, &mut |_| {});
        let mv = result.best.ok_or_else(|| format!("game {index}: '{}' found no move in a game that is not over", engine.name))?;
        let text = session.move_text(mv);
        for s in sessions.iter_mut().flatten() {
            s.play(mv).map_err(|err| format!("game {index}: '{}' played {text}: {err}", engine.name))?;
        }
        played.push(text);
    }
}

/// The games of a match in the order they are numbered: (seats, opening index).
pub fn schedule(cfg: &MatchConfig, players: usize) -> Vec<(Vec<usize>, usize)> {
    let assignments = seat_assignments(players, cfg.engines.len());
    (0..cfg.games)
        .map(|g| (assignments[g % assignments.len()].clone(), g / assignments.len()))
        .map(|(s, o)| (s, o % cfg.openings.len().max(1)))
        .collect()
}

/// Plays the whole match, `cfg.concurrency` games at a time; `progress` sees each game as it
/// ends. The records come back in game order.
pub fn run_match(cfg: &MatchConfig, progress: &(dyn Fn(&GameRecord) + Sync)) -> Result<Vec<GameRecord>, MatchError> {
    let players = open(&cfg.game)?.def().players.len();
    if cfg.engines.is_empty() || cfg.engines.len() > players {
        return Err(format!("{} has {players} players: give 1 to {players} engines", cfg.game).into());
    }
    let games = schedule(cfg, players);
    // Deep searches recurse: the same stack as the protocol's search thread.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.concurrency.max(1))
        .stack_size(64 << 20)
        .build()
        .map_err(|e| format!("cannot start the game threads: {e}"))?;
    let first_error = Mutex::new(None::<MatchError>);
    let records: Vec<Option<GameRecord>> = pool.install(|| {
        games
            .par_iter()
            .enumerate()
            .map(|(i, (seats, opening))| {
                if first_error.lock().map(|e| e.is_some()).unwrap_or(true) {
                    return None;
                }
                match play_game(cfg, i, seats, *opening) {
                    Ok(r) => {
                        progress(&r);
                        Some(r)
                    }
                    Err(e) => {
                        if let Ok(mut slot) = first_error.lock() {
                            slot.get_or_insert(e);
                        }
                        None
                    }
                }
            })
            .collect()
    });
    if let Some(e) = first_error.into_inner().ok().flatten() {
        return Err(e);
    }
    Ok(records.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{SEARCH_PARAMS, SearchParams};

    #[test]
    fn engine_specs() {
        let e = EngineConfig::parse("name=fast, nodes=500 ,threads=2,hash=4", "x").expect("valid");
        assert_eq!((e.name.as_str(), e.limits.nodes, e.threads, e.hash_mb), ("fast", Some(500), 2, 4));
        assert_eq!(EngineConfig::parse("depth=3", "e1").expect("valid").name, "e1");
        let e = EngineConfig::parse("depth=3,tempo=25,pawn_advance=0", "e").expect("valid");
        assert_eq!((e.eval.tempo, e.eval.pawn_advance, e.eval.value_base), (25, 0, PARAMS.value_base));
        assert!(EngineConfig::parse("depth=3,tempo=100000", "e").is_err());
        assert_eq!(EngineConfig::parse("depth=3,search=BRS", "e").expect("valid").search.algorithm, MultiSearch::BestReply);
        assert_eq!(EngineConfig::parse("depth=3,search=maxn", "e").expect("valid").search.algorithm, MultiSearch::MaxN);
        assert!(EngineConfig::parse("depth=3,search=minimax", "e").is_err());
        let e = EngineConfig::parse("depth=3,aspiration=40,tempo=5", "e").expect("valid");
        assert_eq!((e.search.params.aspiration, e.eval.tempo, e.search.params.null_move_r), (40, 5, SEARCH_PARAMS.null_move_r));
        // Engine settings, evaluation and search parameters never share a name.
        let settings = ["name", "depth", "nodes", "movetime", "threads", "hash", "search", "skill"];
        for &(n, _, _) in EvalParams::RANGES {
            assert!(SearchParams::RANGES.iter().all(|r| r.0 != n) && !settings.contains(&n), "{n}");
        }
        for &(n, _, _) in SearchParams::RANGES {
            assert!(!settings.contains(&n), "{n}");
        }
        assert!(EngineConfig::parse("name=x", "e").is_err());
        assert!(EngineConfig::parse("depth=3,colour=red", "e").is_err());
        assert!(EngineConfig::parse("depth=three", "e").is_err());
        assert!(EngineConfig::parse("depth", "e").is_err());
    }

    #[test]
    fn openings() {
        assert_eq!(Opening::parse("e2e4 e7e5").expect("ok").moves, vec!["e2e4", "e7e5"]);
        let o = Opening::parse("fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2").expect("ok");
        assert_eq!((o.fen.as_deref(), o.moves.len()), (Some("8/8/8/8/8/8/8/K6k w - - 0 1"), 1));
        assert!(read_openings("chess", "# comment\ne2e4 e7e5\n\nd2d4\n").is_ok_and(|o| o.len() == 2));
        assert!(read_openings("chess", "e2e5").is_err());
        assert!(read_openings("chess", "fen k7/8/1Q6/8/8/8/8/7K b - - 0 1").is_err(), "stalemate: the game is over");
        let a = random_openings("honeycomb3", 3, 4, 7).expect("openings");
        assert_eq!(a, random_openings("honeycomb3", 3, 4, 7).expect("openings"));
        assert!(a.iter().all(|o| o.moves.len() == 4));
        assert_ne!(a, random_openings("honeycomb3", 3, 4, 8).expect("openings"));
    }

    #[test]
    fn a_short_match_is_reproducible() {
        let engine = |name: &str, depth| {
            let mut e = EngineConfig::new(name);
            e.limits.depth = Some(depth);
            e.hash_mb = 1;
            e
        };
        let cfg = MatchConfig {
            game: "chess".into(),
            engines: vec![engine("a", 1), engine("b", 2)],
            games: 4,
            openings: random_openings("chess", 2, 2, 3).expect("openings"),
            max_plies: 30,
            concurrency: 2,
        };
        let first = run_match(&cfg, &|_| {}).expect("match");
        assert_eq!(first.len(), 4);
        assert_eq!(first.iter().map(|r| r.seats.clone()).collect::<Vec<_>>(), vec![vec![1, 0], vec![0, 1], vec![1, 0], vec![0, 1]]);
        assert_eq!(first.iter().map(|r| r.opening).collect::<Vec<_>>(), vec![0, 0, 1, 1]);
        let second = run_match(&cfg, &|_| {}).expect("match");
        for (a, b) in first.iter().zip(&second) {
            assert_eq!((&a.moves, &a.ranks, &a.ending), (&b.moves, &b.ranks, &b.ending));
            assert!(a.moves.len() <= 30);
            assert!(a.ending == Ending::PlyCap || a.moves.len() < 30);
        }
        // The moves replay legally from the opening.
        let mut s = session::open("chess").expect("chess");
        let moves: Vec<&str> = first[0].moves.iter().map(String::as_str).collect();
        assert!(s.set_position(None, &moves).is_ok());
    }
}
