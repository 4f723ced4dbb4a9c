//! Matches (`tessera match`): engines — configurations of this program played in-process, and
//! outside engines started by command — play games of any game from its start position or from
//! opening lines, seats rotated so that every engine plays every seat equally often, several games
//! at once, on clocks or with limits per move. tessera is the arbiter. Games are written as PGN and
//! JSON lines as they end; a match can stop at an SPRT decision, and be split into shards for many
//! machines whose JSON lines `merge` adds up.
//!
//! Results per engine: wins/draws/losses (two players) or placings (three and four), and a
//! score: the share of head-to-head comparisons won against seats held by *other* engines (a win
//! 1, a tie ½), which for two players is the usual game score. The Elo difference and its 95%
//! margin follow from the per-game scores.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

mod engine;
mod external;
mod features;
mod game;
mod output;
mod record;
mod runner;
mod sprt;
mod stats;
mod texel;

use crate::game::GameDef;
use crate::params::ParamError;
use crate::session::{self, Session};
pub use engine::{EngineConfig, TimeControl};
pub use external::line_reader;
pub use features::features;
pub use game::play_game;
pub use output::{GameLine, MatchIdentity, join_runs, json_line, match_identity, missing_games, pgn, read_json_lines};
pub use record::{Ending, GameRecord, ranks};
pub use runner::{MatchRequest, merge, play};
pub use sprt::{Decision, Sprt};
pub use stats::{Tally, elo_from_score, elo_with_margin, summary, tally, winning_team};
pub use texel::{TuneConfig, TuneReport, tune};

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

/// A book's openings in an order drawn from `seed` (cutechess's `order=random`): runs of one
/// test with different seeds then start from different openings instead of replaying the same
/// sequence.
pub fn shuffle_openings(openings: &mut [Opening], seed: u64) {
    openings.shuffle(&mut StdRng::seed_from_u64(seed));
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

/// Every way to give the game's seats to `engines` configurations such that each configuration
/// has at least one seat, in a fixed order (for two engines and two players: `[1, 0]`, `[0, 1]`).
/// Every configuration holds every seat equally often over the list. In a team game with as many
/// engines as teams each engine takes a whole team, the teams rotated (`guru2-teams`:
/// `[0, 1, 0, 1]`, `[1, 0, 1, 0]`).
pub fn seat_assignments(def: &GameDef, engines: usize) -> Vec<Vec<usize>> {
    let players = def.players.len();
    if let Some(rule) = &def.rules.teams
        && engines == rule.teams.len()
    {
        let by_team = |shift: usize| {
            let mut seats = vec![0; players];
            for (t, team) in rule.teams.iter().enumerate() {
                for p in team {
                    seats[p.index()] = (t + shift) % engines;
                }
            }
            seats
        };
        return (0..engines).map(by_team).collect();
    }
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

/// The K-th (from 1) of N slices of a match: the games of every N-th opening from the K-th.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// `K/N` with 1 ≤ K ≤ N.
    pub fn parse(text: &str) -> Result<Self, MatchError> {
        match number_pair::<usize, usize>(text, '/') {
            Some((index, count)) if index >= 1 && index <= count => Ok(Shard { index, count }),
            _ => Err(MatchError(format!("shard '{text}': want K/N with 1 <= K <= N"))),
        }
    }
}

/// Two numbers written `A<sep>B` (spaces around them allowed).
fn number_pair<A: std::str::FromStr, B: std::str::FromStr>(text: &str, sep: char) -> Option<(A, B)> {
    let (a, b) = text.split_once(sep)?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
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
    /// At the ply cap, place the players left by material instead of drawing.
    pub cap_by_material: bool,
    /// Games played at once.
    pub concurrency: usize,
    /// Milliseconds every engine keeps back from its clock (`Move Overhead`).
    pub move_overhead: u64,
    /// Only this slice of the match's games.
    pub shard: Option<Shard>,
    /// Stop when this test decides (two engines).
    pub sprt: Option<Sprt>,
    /// Keep the positions this process's engines search as training data ([`record::Sample`]).
    pub sample_positions: bool,
    /// Two players: a game whose engines' searches have said for this many plies in a row that
    /// the same player leads by at least this many centipawns ends as that player's win.
    pub adjudicate: Option<Adjudication>,
}

/// When a two-player game counts as decided: `plies` searches in a row, of either engine, put the
/// same player ahead by at least `cp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    pub cp: i32,
    pub plies: usize,
}

impl Adjudication {
    /// `CP:PLIES` (`1000:8`).
    pub fn parse(text: &str) -> Result<Adjudication, MatchError> {
        match number_pair::<i32, usize>(text, ':') {
            Some((cp, plies)) if cp > 0 && plies > 0 => Ok(Adjudication { cp, plies }),
            _ => Err(MatchError(format!("adjudication '{text}': want CP:PLIES, both positive (1000:8)"))),
        }
    }
}

impl MatchConfig {
    /// A match of `games` games between `engines` from the start position, one game at a time.
    pub fn new(game: &str, engines: Vec<EngineConfig>, games: usize) -> Self {
        MatchConfig {
            game: game.to_string(),
            engines,
            games,
            openings: Vec::new(),
            max_plies: 400,
            cap_by_material: false,
            concurrency: 1,
            move_overhead: 50,
            shard: None,
            sprt: None,
            sample_positions: false,
            adjudicate: None,
        }
    }

    pub fn def(&self) -> Result<&'static GameDef, MatchError> {
        Ok(open(&self.game)?.def())
    }

    pub fn players(&self) -> Result<usize, MatchError> {
        Ok(self.def()?.players.len())
    }

    pub fn engine_names(&self) -> Vec<String> {
        self.engines.iter().map(|e| e.name.clone()).collect()
    }

    /// The seat assignments of one block (every seat assignment once, with one opening); an
    /// error unless there are 1 to `players` engines.
    fn assignments(&self) -> Result<Vec<Vec<usize>>, MatchError> {
        let def = self.def()?;
        let players = def.players.len();
        if self.engines.is_empty() || self.engines.len() > players {
            return Err(format!("{} has {players} players: give 1 to {players} engines", self.game).into());
        }
        Ok(seat_assignments(def, self.engines.len()))
    }

    /// Games in one block.
    pub fn block_len(&self) -> Result<usize, MatchError> {
        Ok(self.assignments()?.len())
    }
}

/// One scheduled game: its number in the whole match, the engine of each seat, the opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scheduled {
    pub index: usize,
    pub seats: Vec<usize>,
    pub opening: usize,
}

/// The games of a match (of its shard, if it has one) in the order they are numbered. Game `g`
/// is in block `g / block_len`, which plays opening `block % openings` with the block's seat
/// assignments in turn; a shard K/N plays the blocks `b` with `b % N == K - 1`.
pub fn schedule(cfg: &MatchConfig) -> Result<Vec<Scheduled>, MatchError> {
    let assignments = cfg.assignments()?;
    let block_len = assignments.len();
    Ok((0..cfg.games)
        .filter(|g| cfg.shard.is_none_or(|s| (g / block_len) % s.count == s.index - 1))
        .map(|g| Scheduled { index: g, seats: assignments[g % block_len].clone(), opening: (g / block_len) % cfg.openings.len().max(1) })
        .collect())
}

/// The SPRT's samples: per block whose games are all in `records`, the first engine's
/// head-to-head score against the second over the block.
pub fn block_scores(records: &[GameRecord], block_len: usize) -> Vec<f64> {
    let mut blocks: std::collections::BTreeMap<usize, (usize, f64, u32)> = std::collections::BTreeMap::new();
    for r in records {
        let (points, pairs) = r.pair_points(0);
        let b = blocks.entry(r.index / block_len).or_default();
        *b = (b.0 + 1, b.1 + points, b.2 + pairs);
    }
    blocks
        .values()
        .filter(|(games, _, pairs)| *games == block_len && *pairs > 0)
        .map(|(_, points, pairs)| points / f64::from(*pairs))
        .collect()
}

/// Plays the match, `cfg.concurrency` games at a time in the order of [`schedule`]; `progress`
/// sees each game as it ends, with every game ended so far. With an SPRT no game starts after the
/// test has decided (games already going are finished). The records come back in game order.
pub fn run_match(cfg: &MatchConfig, progress: &(dyn Fn(&GameRecord, &[GameRecord]) + Sync)) -> Result<Vec<GameRecord>, MatchError> {
    if cfg.sprt.is_some() && cfg.engines.len() != 2 {
        return Err("an SPRT needs exactly two engines".into());
    }
    let games = schedule(cfg)?;
    let block_len = cfg.block_len()?;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let done: Mutex<Vec<GameRecord>> = Mutex::new(Vec::new());
    let first_error = Mutex::new(None::<MatchError>);
    let worker = || {
        loop {
            let i = next.fetch_add(1, Ordering::SeqCst);
            if i >= games.len() || stop.load(Ordering::SeqCst) {
                return;
            }
            let g = &games[i];
            match play_game(cfg, g.index, &g.seats, g.opening) {
                Ok(r) => {
                    let Ok(mut all) = done.lock() else { return };
                    all.push(r);
                    let r = all.last().expect("just pushed");
                    if cfg.sprt.is_some_and(|t| t.decision(&block_scores(&all, block_len)).is_some()) {
                        stop.store(true, Ordering::SeqCst);
                    }
                    progress(r, &all);
                }
                Err(e) => {
                    stop.store(true, Ordering::SeqCst);
                    if let Ok(mut slot) = first_error.lock() {
                        slot.get_or_insert(e);
                    }
                    return;
                }
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.clamp(1, games.len().max(1)) {
            // Deep searches recurse: the same stack as the protocol's search thread.
            let spawned = std::thread::Builder::new().stack_size(64 << 20).spawn_scoped(scope, worker);
            if let Err(e) = spawned
                && let Ok(mut slot) = first_error.lock()
            {
                slot.get_or_insert(MatchError(format!("cannot start a game thread: {e}")));
            }
        }
    });
    if let Some(e) = first_error.into_inner().ok().flatten() {
        return Err(e);
    }
    let mut records = done.into_inner().map_err(|_| "a game thread failed")?;
    records.sort_by_key(|r| r.index);
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        // A shuffled book keeps every opening, in an order fixed by the seed.
        let book = read_openings("chess", "e2e4\nd2d4\nc2c4\ng1f3\nb2b3\nf2f4\ng2g3\nb1c3\n").expect("openings");
        let shuffled = |seed| {
            let mut b = book.clone();
            shuffle_openings(&mut b, seed);
            b
        };
        assert_eq!(shuffled(5), shuffled(5));
        assert_ne!(shuffled(5), shuffled(6));
        let mut sorted = shuffled(5);
        sorted.sort_by(|a, b| a.moves.cmp(&b.moves));
        let mut original = book.clone();
        original.sort_by(|a, b| a.moves.cmp(&b.moves));
        assert_eq!(sorted, original);
    }

    fn engine(name: &str, depth: u32) -> EngineConfig {
        let mut e = EngineConfig::new(name);
        e.limits.depth = Some(depth);
        e.hash_mb = 1;
        e
    }

    #[test]
    fn a_short_match_is_reproducible() {
        let mut cfg = MatchConfig::new("chess", vec![engine("a", 1), engine("b", 2)], 4);
        cfg.openings = random_openings("chess", 2, 2, 3).expect("openings");
        cfg.max_plies = 30;
        cfg.concurrency = 2;
        let first = run_match(&cfg, &|_, _| {}).expect("match");
        assert_eq!(first.len(), 4);
        assert_eq!(first.iter().map(|r| r.seats.clone()).collect::<Vec<_>>(), vec![vec![1, 0], vec![0, 1], vec![1, 0], vec![0, 1]]);
        assert_eq!(first.iter().map(|r| r.opening).collect::<Vec<_>>(), vec![0, 0, 1, 1]);
        let second = run_match(&cfg, &|_, _| {}).expect("match");
        for (a, b) in first.iter().zip(&second) {
            assert_eq!((&a.moves, &a.ranks, &a.ending), (&b.moves, &b.ranks, &b.ending));
            assert!(a.moves.len() <= 30);
            assert!(a.ending == Ending::PlyCap || a.moves.len() < 30);
        }
        // The moves replay legally from the start: the opening's moves are in the record.
        let mut s = session::open("chess").expect("chess");
        let moves: Vec<&str> = first[0].moves.iter().map(String::as_str).collect();
        assert!(s.set_position(None, &moves).is_ok());
        assert_eq!(first[0].moves[..2], cfg.openings[0].moves[..]);
    }

    #[test]
    fn shards_split_the_match_by_blocks() {
        let mut cfg = MatchConfig::new("honeycomb3", vec![engine("a", 1), engine("b", 1)], 20);
        assert_eq!(cfg.block_len().expect("game"), 6);
        let whole = schedule(&cfg).expect("schedule");
        let mut parts = Vec::new();
        for k in 1..=3 {
            cfg.shard = Some(Shard::parse(&format!("{k}/3")).expect("valid"));
            let part = schedule(&cfg).expect("schedule");
            assert!(part.iter().all(|g| (g.index / 6) % 3 == k - 1));
            parts.extend(part);
        }
        parts.sort_by_key(|g| g.index);
        assert_eq!(parts, whole);
        for bad in ["0/2", "3/2", "1", "a/b"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        let three = MatchConfig::new("chess", vec![engine("a", 1), engine("b", 1), engine("c", 1)], 2);
        assert!(schedule(&three).is_err(), "more engines than players");
    }

    #[test]
    fn block_scores_count_complete_blocks() {
        let r = |index, seats: &[usize], ranks: &[u32]| GameRecord { index, ..record::tests::record(seats, ranks) };
        // Block 0: engine 0 loses one game and draws one; block 1 lacks its second game.
        let records = [r(0, &[1, 0], &[0, 1]), r(1, &[0, 1], &[0, 0]), r(2, &[1, 0], &[1, 0])];
        assert_eq!(block_scores(&records, 2), vec![0.25]);
    }
}
