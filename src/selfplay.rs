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

use crate::eval::{EvalParams, PARAMS};
use crate::search::{Control, Limits, MultiSearch, SEARCH_PARAMS, SearchParams};
use crate::session::{self, Session, Status};
use crate::tt::TransTable;

/// One engine: a name and the search settings it plays with.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    pub name: String,
    /// Per-move limits (`depth`, `nodes`, `movetime`).
    pub limits: Limits,
    pub threads: usize,
    pub hash_mb: usize,
    pub eval: EvalParams,
    /// The search while three or more players are in the game.
    pub multi: MultiSearch,
    pub search: SearchParams,
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
            multi: MultiSearch::default(),
            search: SEARCH_PARAMS,
        }
    }

    /// Parses `key=value,key=value,...`. Keys: `name`, `depth`, `nodes`, `movetime` (ms),
    /// `threads`, `hash` (MiB), `search` (`paranoid`, `maxn` or `brs`: the search with three or
    /// more players), and any evaluation or search parameter by its name (`tempo=15`,
    /// `aspiration=30`).
    pub fn parse(spec: &str, default_name: &str) -> Result<Self, String> {
        let mut cfg = EngineConfig::new(default_name);
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part.split_once('=').ok_or_else(|| format!("'{part}' is not key=value"))?;
            let (key, value) = (key.trim(), value.trim());
            let number = || value.parse::<u64>().map_err(|_| format!("'{key}' needs a non-negative integer, got '{value}'"));
            match key {
                "name" if !value.is_empty() && !value.contains(char::is_whitespace) => cfg.name = value.into(),
                "name" => return Err(format!("bad engine name '{value}'")),
                "depth" => cfg.limits.depth = Some(number()?.clamp(1, 100) as u32),
                "nodes" => cfg.limits.nodes = Some(number()?.max(1)),
                "movetime" => cfg.limits.movetime = Some(number()?.max(1)),
                "threads" => cfg.threads = number()?.clamp(1, 512) as usize,
                "hash" => cfg.hash_mb = number()?.clamp(1, 65_536) as usize,
                "search" => {
                    cfg.multi = MultiSearch::parse(value)
                        .ok_or_else(|| format!("'search' must be one of {}, got '{value}'", MultiSearch::NAMES.join(", ")))?
                }
                _ if cfg.eval.get(key).is_some() => {
                    let v = value.parse::<i32>().map_err(|_| format!("'{key}' needs an integer, got '{value}'"))?;
                    cfg.eval.set(key, v)?;
                }
                _ if cfg.search.get(key).is_some() => {
                    let v = value.parse::<i32>().map_err(|_| format!("'{key}' needs an integer, got '{value}'"))?;
                    cfg.search.set(key, v)?;
                }
                _ => return Err(format!("unknown engine setting '{key}'")),
            }
        }
        if cfg.limits.depth.is_none() && cfg.limits.nodes.is_none() && cfg.limits.movetime.is_none() {
            return Err(format!("engine '{}' needs a limit per move: depth, nodes or movetime", cfg.name));
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
    pub fn parse(line: &str) -> Result<Self, String> {
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
pub fn read_openings(game: &str, text: &str) -> Result<Vec<Opening>, String> {
    let base = session::open(game).ok_or_else(|| format!("unknown game '{game}'"))?;
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
        if s.status().over {
            return Err(format!("openings line {}: the game is already over", i + 1));
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
pub fn random_openings(game: &str, count: usize, plies: usize, seed: u64) -> Result<Vec<Opening>, String> {
    let base = session::open(game).ok_or_else(|| format!("unknown game '{game}'"))?;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    let mut attempts = 0;
    while out.len() < count {
        attempts += 1;
        if attempts > count * 100 + 100 {
            return Err(format!("cannot find {count} random openings of {plies} plies that do not end the game"));
        }
        let mut s = base.boxed_clone();
        let mut moves = Vec::with_capacity(plies);
        for _ in 0..plies {
            let legal = s.legal_moves();
            if legal.is_empty() || s.status().over {
                break;
            }
            let mv = legal[rng.random_range(0..legal.len())].clone();
            s.play(&mv).map_err(|e| e.0)?;
            moves.push(mv);
        }
        if moves.len() == plies && !s.status().over {
            out.push(Opening { fen: None, moves });
        }
    }
    Ok(out)
}

/// Every way to give the `players` seats to `engines` configurations such that each
/// configuration has at least one seat, in a fixed order (for two engines and two players:
/// `[0, 1]`, `[1, 0]`). Every configuration holds every seat equally often over the list.
pub fn seat_assignments(players: usize, engines: usize) -> Vec<Vec<usize>> {
    let total = engines.pow(players as u32);
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

/// Ranks per player from a finished game (0 = best; tied players share a rank and the next rank
/// skips past them, as in 1st, 1st, 3rd): the winner,
/// then the players still in the game (tied), then the eliminated, last eliminated first.
pub fn ranks(players: &[String], status: &Status) -> Vec<u32> {
    let index = |name: &str| players.iter().position(|p| p == name);
    let mut ranks = vec![0; players.len()];
    let mut next = 0;
    let winner = status.winner.as_deref().and_then(index);
    if let Some(w) = winner {
        ranks[w] = 0;
        next = 1;
    }
    let survivors: Vec<usize> = status.active.iter().filter_map(|n| index(n)).filter(|&p| Some(p) != winner).collect();
    for &p in &survivors {
        ranks[p] = next;
    }
    next += survivors.len() as u32;
    for (victim, _) in status.eliminated.iter().rev() {
        if let Some(p) = index(victim)
            && Some(p) != winner
            && !survivors.contains(&p)
        {
            ranks[p] = next;
            next += 1;
        }
    }
    ranks
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Number of the game in the match (from 0).
    pub index: usize,
    /// Configuration playing each seat (player in turn order).
    pub seats: Vec<usize>,
    pub opening: usize,
    pub moves: Vec<String>,
    /// `checkmate`, `stalemate`, ..., or `ply cap` when adjudicated as a draw.
    pub reason: String,
    /// Rank per seat (0 = best, ties share).
    pub ranks: Vec<u32>,
}

impl GameRecord {
    /// Head-to-head points and comparisons of configuration `engine` against seats held by other
    /// configurations in this game (a better rank 1 point, a tie ½).
    pub fn pair_points(&self, engine: usize) -> (f64, u32) {
        let mut points = 0.0;
        let mut pairs = 0;
        for (s, &e) in self.seats.iter().enumerate() {
            if e != engine {
                continue;
            }
            for (t, &f) in self.seats.iter().enumerate() {
                if f == engine {
                    continue;
                }
                pairs += 1;
                points += match self.ranks[s].cmp(&self.ranks[t]) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
            }
        }
        (points, pairs)
    }
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
pub fn play_game(cfg: &MatchConfig, index: usize, seats: &[usize], opening_index: usize) -> Result<GameRecord, String> {
    let base = session::open(&cfg.game).ok_or_else(|| format!("unknown game '{}'", cfg.game))?;
    let players: Vec<String> = base.def().players.iter().map(|p| p.name.clone()).collect();
    let opening = cfg.openings.get(opening_index).cloned().unwrap_or_default();
    let moves: Vec<&str> = opening.moves.iter().map(String::as_str).collect();
    let mut sessions: Vec<Option<Box<dyn Session>>> = (0..cfg.engines.len()).map(|_| None).collect();
    let mut tables: Vec<Option<TransTable>> = (0..cfg.engines.len()).map(|_| None).collect();
    for &e in seats {
        if sessions[e].is_none() {
            let mut s = base.boxed_clone();
            s.set_eval_params(&cfg.engines[e].eval);
            s.set_multiplayer_search(cfg.engines[e].multi);
            s.set_search_params(&cfg.engines[e].search);
            s.set_position(opening.fen.as_deref(), &moves).map_err(|err| format!("opening {opening_index}: {err}"))?;
            sessions[e] = Some(s);
            tables[e] = Some(TransTable::new(cfg.engines[e].hash_mb));
        }
    }
    let mut played = opening.moves.clone();
    let referee = seats[0];
    loop {
        let status = sessions[referee].as_ref().map(|s| s.status()).ok_or("no session")?;
        if status.over || played.len() >= cfg.max_plies {
            let reason = if status.over { status.reason.clone() } else { "ply cap".to_string() };
            let ranks = ranks(&players, &status);
            return Ok(GameRecord { index, seats: seats.to_vec(), opening: opening_index, moves: played, reason, ranks });
        }
        let mover_name = sessions[referee].as_ref().map(|s| s.to_move_name()).unwrap_or_default();
        let mover = players.iter().position(|p| *p == mover_name).ok_or("unknown player to move")?;
        let e = seats[mover];
        let engine = &cfg.engines[e];
        let (Some(session), Some(tt)) = (&sessions[e], &tables[e]) else { return Err("missing engine state".into()) };
        let result = session.think(&engine.limits, &Control::default(), tt, engine.threads, &mut |_| {});
        let mv = result.best.ok_or_else(|| format!("game {index}: '{}' found no move in a game that is not over", engine.name))?;
        for s in sessions.iter_mut().flatten() {
            s.play(&mv).map_err(|err| format!("game {index}: '{}' played {mv}: {err}", engine.name))?;
        }
        played.push(mv);
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
pub fn run_match(cfg: &MatchConfig, progress: &(dyn Fn(&GameRecord) + Sync)) -> Result<Vec<GameRecord>, String> {
    let base = session::open(&cfg.game).ok_or_else(|| format!("unknown game '{}'", cfg.game))?;
    let players = base.def().players.len();
    if cfg.engines.is_empty() || cfg.engines.len() > players {
        return Err(format!("{} has {players} players: give 1 to {players} engines", cfg.game));
    }
    let games = schedule(cfg, players);
    // Deep searches recurse: the same stack as the protocol's search thread.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.concurrency.max(1))
        .stack_size(64 << 20)
        .build()
        .map_err(|e| format!("cannot start the game threads: {e}"))?;
    let first_error = Mutex::new(None::<String>);
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

/// Results of one configuration over a match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub games: u32,
    /// Two players: games won, drawn, lost.
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// How often each place (1st, 2nd, ...; ties share the better place) was taken, per seat.
    pub placings: Vec<u32>,
    /// Head-to-head points and comparisons against other configurations.
    pub points: f64,
    pub pairs: u32,
    /// Per game: the share of head-to-head points (for the error margin).
    pub game_scores: Vec<f64>,
}

impl Tally {
    pub fn score(&self) -> f64 {
        if self.pairs == 0 { 0.5 } else { self.points / self.pairs as f64 }
    }
}

/// Sums the records per configuration.
pub fn tally(records: &[GameRecord], engines: usize, players: usize) -> Vec<Tally> {
    let mut out = vec![Tally { placings: vec![0; players], ..Tally::default() }; engines];
    for r in records {
        for (e, t) in out.iter_mut().enumerate() {
            let seats: Vec<usize> = (0..r.seats.len()).filter(|&s| r.seats[s] == e).collect();
            if seats.is_empty() {
                continue;
            }
            t.games += 1;
            for &s in &seats {
                t.placings[r.ranks[s] as usize] += 1;
            }
            let (points, pairs) = r.pair_points(e);
            t.points += points;
            t.pairs += pairs;
            if pairs > 0 {
                t.game_scores.push(points / pairs as f64);
            }
            if players == 2 {
                let other = 1 - seats[0];
                match r.ranks[seats[0]].cmp(&r.ranks[other]) {
                    std::cmp::Ordering::Less => t.wins += 1,
                    std::cmp::Ordering::Equal => t.draws += 1,
                    std::cmp::Ordering::Greater => t.losses += 1,
                }
            }
        }
    }
    out
}

/// Elo difference equivalent to an expected score `s` (0 < s < 1).
pub fn elo_from_score(s: f64) -> f64 {
    let s = s.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Elo difference and its 95% margin from per-game scores in [0, 1] (`None` without games).
pub fn elo_with_margin(game_scores: &[f64]) -> Option<(f64, f64)> {
    let n = game_scores.len();
    if n == 0 {
        return None;
    }
    let mean = game_scores.iter().sum::<f64>() / n as f64;
    let var = game_scores.iter().map(|s| (s - mean) * (s - mean)).sum::<f64>() / n as f64;
    let sigma = (var / n as f64).sqrt();
    let low = elo_from_score(mean - 1.959_964 * sigma);
    let high = elo_from_score(mean + 1.959_964 * sigma);
    Some((elo_from_score(mean), (high - low) / 2.0))
}

/// The summary printed at the end of a match (one line per configuration, then the Elo lines).
pub fn summary(cfg: &MatchConfig, records: &[GameRecord], players: usize) -> Vec<String> {
    let tallies = tally(records, cfg.engines.len(), players);
    let mut lines = Vec::new();
    let width = cfg.engines.iter().map(|e| e.name.len()).max().unwrap_or(0);
    for (e, t) in cfg.engines.iter().zip(&tallies) {
        let mut line = format!("{:<width$}  games {:>4}  score {:>5.1}%", e.name, t.games, 100.0 * t.score());
        if players == 2 {
            line.push_str(&format!("  wins {} draws {} losses {}", t.wins, t.draws, t.losses));
        } else {
            let places: Vec<String> = t.placings.iter().map(u32::to_string).collect();
            let seats: u32 = t.placings.iter().sum();
            let avg = t.placings.iter().enumerate().map(|(i, &c)| (i as u32 + 1) * c).sum::<u32>() as f64 / seats.max(1) as f64;
            let ordinals: Vec<&str> = ["1st", "2nd", "3rd", "4th"].into_iter().take(players).collect();
            line.push_str(&format!("  places {} ({})  average place {avg:.2}", places.join("/"), ordinals.join("/")));
        }
        line.push_str(&format!("  points {:.1}/{}", t.points, t.pairs));
        lines.push(line);
    }
    // With two configurations one line says it all; with more, each against the rest.
    let shown = if cfg.engines.len() == 2 { 1 } else { cfg.engines.len() };
    for (e, t) in cfg.engines.iter().zip(&tallies).take(shown) {
        if let Some((elo, margin)) = elo_with_margin(&t.game_scores) {
            let against = if cfg.engines.len() == 2 { cfg.engines[1].name.as_str() } else { "the others" };
            lines.push(format!("elo {} vs {against}: {elo:+.1} +/- {margin:.1} (95%, {} games)", e.name, t.game_scores.len()));
        }
    }
    let mut reasons: Vec<(String, usize)> = Vec::new();
    for r in records {
        match reasons.iter_mut().find(|(k, _)| *k == r.reason) {
            Some((_, n)) => *n += 1,
            None => reasons.push((r.reason.clone(), 1)),
        }
    }
    let plies: usize = records.iter().map(|r| r.moves.len()).sum();
    let reasons: Vec<String> = reasons.iter().map(|(k, n)| format!("{k} {n}")).collect();
    lines.push(format!("endings: {}; average length {:.1} plies", reasons.join(", "), plies as f64 / records.len().max(1) as f64));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(winner: Option<&str>, active: &[&str], eliminated: &[&str]) -> Status {
        Status {
            over: true,
            reason: String::new(),
            winner: winner.map(String::from),
            active: active.iter().map(|s| s.to_string()).collect(),
            eliminated: eliminated.iter().map(|s| (s.to_string(), String::new())).collect(),
            placings: Vec::new(),
        }
    }

    fn names(n: &[&str]) -> Vec<String> {
        n.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn seats_rotate_evenly() {
        assert_eq!(seat_assignments(2, 2), vec![vec![1, 0], vec![0, 1]]);
        let three = seat_assignments(3, 2);
        assert_eq!(three.len(), 6);
        for seat in 0..3 {
            assert_eq!(three.iter().filter(|a| a[seat] == 0).count(), 3);
        }
        assert_eq!(seat_assignments(4, 4).len(), 24);
        assert_eq!(seat_assignments(4, 2).len(), 14);
        assert_eq!(seat_assignments(3, 1), vec![vec![0, 0, 0]]);
    }

    #[test]
    fn ranks_from_game_ends() {
        let two = names(&["White", "Black"]);
        assert_eq!(ranks(&two, &status(Some("Black"), &["White", "Black"], &[])), vec![1, 0]);
        assert_eq!(ranks(&two, &status(None, &["White", "Black"], &[])), vec![0, 0]);
        let three = names(&["Red", "Yellow", "Blue"]);
        // Yellow eliminated first, then Red mated by Blue in the two-player phase.
        assert_eq!(ranks(&three, &status(Some("Blue"), &["Red", "Blue"], &["Yellow"])), vec![1, 2, 0]);
        // Elimination of both others: the last eliminated ranks above the first.
        assert_eq!(ranks(&three, &status(Some("Red"), &["Red"], &["Blue", "Yellow"])), vec![0, 1, 2]);
        // A draw with two left: the survivors tie for first, the eliminated player is third.
        assert_eq!(ranks(&three, &status(None, &["Red", "Blue"], &["Yellow"])), vec![0, 2, 0]);
        let four = names(&["Red", "Blue", "Green", "Orange"]);
        // A win rule with three still on the board: two tie for second, the eliminated is fourth.
        assert_eq!(ranks(&four, &status(Some("Green"), &["Red", "Blue", "Green"], &["Orange"])), vec![1, 1, 0, 3]);
    }

    fn record(seats: &[usize], ranks: &[u32]) -> GameRecord {
        GameRecord { index: 0, seats: seats.to_vec(), opening: 0, moves: Vec::new(), reason: "test".into(), ranks: ranks.to_vec() }
    }

    #[test]
    fn head_to_head_points() {
        // Engine 0 holds seats 0 and 2; it beats engine 1 from seat 0 and loses from seat 2.
        let r = record(&[0, 1, 0], &[0, 1, 2]);
        assert_eq!(r.pair_points(0), (1.0, 2));
        assert_eq!(r.pair_points(1), (1.0, 2));
        let r = record(&[1, 0], &[0, 0]);
        assert_eq!(r.pair_points(0), (0.5, 1));
    }

    #[test]
    fn tallies_and_elo() {
        // Engine 0: a win as White, a draw as Black, a loss as White, a win as Black.
        let records = [record(&[0, 1], &[0, 1]), record(&[1, 0], &[0, 0]), record(&[0, 1], &[1, 0]), record(&[1, 0], &[1, 0])];
        let t = tally(&records, 2, 2);
        assert_eq!((t[0].games, t[0].wins, t[0].draws, t[0].losses), (4, 2, 1, 1));
        assert_eq!((t[1].wins, t[1].draws, t[1].losses), (1, 1, 2));
        assert_eq!((t[0].points, t[0].pairs), (2.5, 4));
        assert_eq!(t[0].placings, vec![3, 1]);
        assert_eq!(t[0].game_scores, vec![1.0, 0.5, 0.0, 1.0]);
        assert!((elo_from_score(0.75) - 190.848).abs() < 1e-3);
        assert_eq!(elo_from_score(0.5), 0.0);
        let (elo, margin) = elo_with_margin(&t[0].game_scores).expect("games");
        assert!((elo - elo_from_score(0.625)).abs() < 1e-9);
        // sigma = sqrt(0.171875 / 4); the margin is half the Elo width of mean +/- 1.96 sigma.
        let sigma = (0.171_875f64 / 4.0).sqrt();
        let expected = (elo_from_score(0.625 + 1.959_964 * sigma) - elo_from_score(0.625 - 1.959_964 * sigma)) / 2.0;
        assert!((margin - expected).abs() < 1e-9);
        assert!(elo_with_margin(&[]).is_none());
        let three = tally(&[record(&[0, 1, 0], &[0, 1, 2])], 2, 3);
        assert_eq!(three[0].placings, vec![1, 0, 1]);
        assert_eq!(three[1].placings, vec![0, 1, 0]);
    }

    #[test]
    fn engine_specs() {
        let e = EngineConfig::parse("name=fast, nodes=500 ,threads=2,hash=4", "x").expect("valid");
        assert_eq!((e.name.as_str(), e.limits.nodes, e.threads, e.hash_mb), ("fast", Some(500), 2, 4));
        assert_eq!(EngineConfig::parse("depth=3", "e1").expect("valid").name, "e1");
        let e = EngineConfig::parse("depth=3,tempo=25,pawn_advance=0", "e").expect("valid");
        assert_eq!((e.eval.tempo, e.eval.pawn_advance, e.eval.value_base), (25, 0, PARAMS.value_base));
        assert!(EngineConfig::parse("depth=3,tempo=100000", "e").is_err());
        assert_eq!(EngineConfig::parse("depth=3,search=BRS", "e").expect("valid").multi, MultiSearch::BestReply);
        assert_eq!(EngineConfig::parse("depth=3,search=maxn", "e").expect("valid").multi, MultiSearch::MaxN);
        assert!(EngineConfig::parse("depth=3,search=minimax", "e").is_err());
        let e = EngineConfig::parse("depth=3,aspiration=40,tempo=5", "e").expect("valid");
        assert_eq!((e.search.aspiration, e.eval.tempo, e.search.null_move_r), (40, 5, SEARCH_PARAMS.null_move_r));
        // Engine settings, evaluation and search parameters never share a name.
        let settings = ["name", "depth", "nodes", "movetime", "threads", "hash", "search"];
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
            assert_eq!((&a.moves, &a.ranks, &a.reason), (&b.moves, &b.ranks, &b.reason));
            assert!(a.moves.len() <= 30);
            assert!(a.reason == "ply cap" || a.moves.len() < 30);
        }
        // The moves replay legally from the opening.
        let mut s = session::open("chess").expect("chess");
        let moves: Vec<&str> = first[0].moves.iter().map(String::as_str).collect();
        assert!(s.set_position(None, &moves).is_ok());
    }
}
