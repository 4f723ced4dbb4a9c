//! One game of a match, played as a GUI plays it: tessera's rules are the arbiter, each seat's
//! engine is asked for its move in turn, and each clock loses the real time its engine took.
//! A clock that falls, a move that is not legal and an engine that exits lose the game.

use std::time::{Duration, Instant};

use super::engine::EngineConfig;
use super::external::{ExternalEngine, NoAnswer};
use super::record::{Ending, GameRecord, SAMPLE_SCORE_LIMIT, Sample, forfeit_ranks, material_ranks, ranks};
use super::{MatchConfig, MatchError, open};
use crate::search::{Control, HelperPool, Heuristics, Report, Score};
use crate::session::{SearchRequest, Session};
use crate::tt::TransTable;
use crate::types::Player;

/// How long past its clock (or its `movetime`) an outside engine's answer is waited for: a
/// move that arrives in this time still loses on time, but is recorded as such rather than as
/// silence.
const LATE_ANSWER: Duration = Duration::from_millis(50);
/// How long an outside engine without a clock or `movetime` may think on one move.
const NO_CLOCK_WAIT: Duration = Duration::from_secs(600);

/// The engine in one seat.
enum Seat {
    /// This engine, in-process: its own copy of the game, its own hash table and heuristics.
    Own {
        session: Box<dyn Session>,
        tt: TransTable,
        heuristics: Heuristics,
        helpers: HelperPool,
    },
    Outside(ExternalEngine),
}

impl Seat {
    fn start(cfg: &MatchConfig, engine: &EngineConfig, arbiter: &dyn Session) -> Result<Seat, MatchError> {
        let Some(command) = &engine.command else {
            let mut session = arbiter.boxed_clone();
            session.set_eval_overrides(&engine.eval);
            let tt = TransTable::new(engine.hash_mb).map_err(|e| MatchError(e.0))?;
            let helpers = HelperPool::new(engine.threads).map_err(MatchError)?;
            return Ok(Seat::Own { session, tt, heuristics: Heuristics::default(), helpers });
        };
        let mut e = ExternalEngine::start(&engine.name, command)?;
        let mut options: Vec<(String, String)> = Vec::new();
        if e.offers_variant(&cfg.game) && cfg.game != "chess" {
            options.push(("UCI_Variant".into(), cfg.game.clone()));
        }
        if engine.threads > 1 {
            options.push(("Threads".into(), engine.threads.to_string()));
        }
        if e.has_option("Hash") {
            options.push(("Hash".into(), engine.hash_mb.to_string()));
        }
        if e.has_option("Move Overhead") {
            options.push(("Move Overhead".into(), cfg.move_overhead.to_string()));
        }
        // The user's own options come last and so win.
        options.retain(|(name, _)| !engine.options.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)));
        options.extend(engine.options.iter().cloned());
        for (name, value) in &options {
            e.set_option(name, value)?;
        }
        e.new_game()?;
        Ok(Seat::Outside(e))
    }
}

/// What a game's clocks look like from the mover's side.
struct Clocks<'a> {
    /// Milliseconds left per player (`None`: that player has no clock).
    left: &'a [Option<i64>],
    inc: &'a [u64],
}

/// Every player's score after a search by this engine: the mover's the search's own, the others'
/// the negation in a duel and else each one's evaluation at the principal variation's end; mates
/// and larger scores bounded by [`SAMPLE_SCORE_LIMIT`].
fn sample_scores(report: &Report, players: usize, mover: usize) -> Vec<i32> {
    let bound = |v: i32| v.clamp(-SAMPLE_SCORE_LIMIT, SAMPLE_SCORE_LIMIT);
    let own = match report.score {
        Score::Centipawns(cp) => bound(cp),
        Score::Mate(n) => SAMPLE_SCORE_LIMIT * n.signum(),
    };
    (0..players)
        .map(|p| match p {
            _ if p == mover => own,
            _ if players == 2 => -own,
            _ => bound(report.scores[Player::new(p)]),
        })
        .collect()
}

/// An engine's answer: its move, and every player's score where this process searched it.
struct Answer {
    text: String,
    scores: Option<Vec<i32>>,
}

impl Seat {
    /// The mover's answer: a move, or why there is none.
    fn best_move(
        &mut self,
        engine: &EngineConfig,
        cfg: &MatchConfig,
        arbiter: &dyn Session,
        start: Option<&str>,
        moves: &[String],
        clocks: &Clocks<'_>,
    ) -> Result<Result<Answer, NoAnswer>, MatchError> {
        let mover = arbiter.to_move().index();
        match self {
            Seat::Own { session, tt, heuristics, helpers } => {
                let mut limits = engine.limits.clone();
                if clocks.left[mover].is_some() {
                    for (p, left) in clocks.left.iter().enumerate() {
                        limits.time[p] = left.map(|ms| u64::try_from(ms.max(0)).unwrap_or(0));
                        limits.inc[p] = clocks.inc[p];
                    }
                    limits.move_overhead = cfg.move_overhead;
                }
                let control = Control::default();
                let request = SearchRequest { limits: &limits, control: &control, tt, heuristics, helpers, settings: engine.search };
                let result = session.think(&request, &mut |_| {});
                let mv = result.best.ok_or_else(|| format!("'{}' found no move in a game that is not over", engine.name))?;
                let scores = result.last.as_ref().map(|r| sample_scores(r, arbiter.def().players.len(), mover));
                Ok(Ok(Answer { text: session.move_text(mv), scores }))
            }
            Seat::Outside(e) => {
                let mut position = match start {
                    Some(fen) => format!("position fen {fen}"),
                    None => "position startpos".to_string(),
                };
                if !moves.is_empty() {
                    position.push_str(" moves ");
                    position.push_str(&moves.join(" "));
                }
                let mut go = "go".to_string();
                let mut wait = NO_CLOCK_WAIT;
                if let Some(left) = clocks.left[mover] {
                    for (p, def) in arbiter.def().players.entries() {
                        if let Some(ms) = clocks.left[p.index()] {
                            go.push_str(&format!(" {c}time {} {c}inc {}", ms.max(0), clocks.inc[p.index()], c = def.code));
                        }
                    }
                    wait = Duration::from_millis(u64::try_from(left.max(0)).unwrap_or(0));
                }
                if let Some(ms) = engine.limits.movetime {
                    wait = wait.min(Duration::from_millis(ms) + Duration::from_secs(5));
                }
                go.push_str(&engine.go_limits());
                Ok(e.best_move(&position, &go, Instant::now() + wait + LATE_ANSWER).map(|text| Answer { text, scores: None }))
            }
        }
    }
}

/// Plays one game; `seats[p]` is the engine playing player `p`.
pub fn play_game(cfg: &MatchConfig, index: usize, seats: &[usize], opening_index: usize) -> Result<GameRecord, MatchError> {
    let mut arbiter = open(&cfg.game)?;
    let players = arbiter.def().players.len();
    let opening = cfg.openings.get(opening_index).cloned().unwrap_or_default();
    let opening_moves: Vec<&str> = opening.moves.iter().map(String::as_str).collect();
    arbiter.set_position(opening.fen.as_deref(), &opening_moves).map_err(|err| format!("opening {opening_index}: {err}"))?;
    let mut engines = Vec::with_capacity(players);
    for &e in seats {
        engines.push(Seat::start(cfg, &cfg.engines[e], &*arbiter)?);
    }
    let tcs: Vec<_> = seats.iter().map(|&e| cfg.engines[e].tc).collect();
    let mut left: Vec<Option<i64>> = tcs.iter().map(|tc| tc.map(|t| i64::try_from(t.base_ms).unwrap_or(i64::MAX))).collect();
    let inc: Vec<u64> = tcs.iter().map(|tc| tc.map_or(0, |t| t.inc_ms)).collect();
    // Outside engines get the opening's start; after the opening the moves are this arbiter's.
    let start = if let Some(fen) = &opening.fen {
        let mut s = open(&cfg.game)?;
        s.set_position(Some(fen), &[]).map_err(|err| format!("opening {opening_index}: {err}"))?;
        Some(s.position_string())
    } else {
        None
    };
    let mut played = opening.moves.clone();
    let finish = |ending: Ending, ranks: Vec<u32>, detail: Option<String>, moves: Vec<String>, clocks: Vec<Option<i64>>| GameRecord {
        index,
        seats: seats.to_vec(),
        opening: opening_index,
        start: start.clone(),
        moves,
        ending,
        detail,
        ranks,
        clocks,
        samples: Vec::new(),
    };
    let mut samples = Vec::new();
    // The player the searches have put ahead by the adjudication's margin, and for how many plies.
    let mut leading: (Option<Player>, usize) = (None, 0);
    let record = loop {
        let status = arbiter.status();
        if status.is_over() || played.len() >= cfg.max_plies {
            let ending = status.end.map_or(Ending::PlyCap, |e| Ending::Rules(e.reason));
            if ending == Ending::PlyCap && cfg.cap_by_material {
                let material = arbiter.eval_breakdown().material.0[..players].to_vec();
                let detail = format!("placed by material {}", material.iter().map(i32::to_string).collect::<Vec<_>>().join(" "));
                break finish(ending, material_ranks(&status, &material), Some(detail), played, left);
            }
            break finish(ending, ranks(players, &status), None, played, left);
        }
        let mover = arbiter.to_move();
        let seat = mover.index();
        let engine = &cfg.engines[seats[seat]];
        let began = Instant::now();
        let answer = engines[seat].best_move(engine, cfg, &*arbiter, start.as_deref(), &played, &Clocks { left: &left, inc: &inc })?;
        let used = i64::try_from(began.elapsed().as_millis()).unwrap_or(i64::MAX);
        let forfeit = |ending: Ending, detail: String, left: Vec<Option<i64>>| {
            finish(ending, forfeit_ranks(players, &status, mover), Some(detail), played.clone(), left)
        };
        if let Some(ms) = left[seat].as_mut() {
            *ms -= used;
            if *ms < 0 {
                let detail = format!("{} lost on time: {used} ms used, {} ms over", engine.name, -*ms);
                break forfeit(Ending::TimeForfeit(mover), detail, left);
            }
        }
        let Answer { text, scores } = match answer {
            Ok(answer) => answer,
            Err(NoAnswer::Timeout) => {
                let detail = format!("{} gave no move in {used} ms", engine.name);
                let ending = if left[seat].is_some() { Ending::TimeForfeit(mover) } else { Ending::Disconnect(mover) };
                break forfeit(ending, detail, left);
            }
            Err(NoAnswer::Gone(why)) => break forfeit(Ending::Disconnect(mover), format!("{} {why}", engine.name), left),
        };
        let mv = match arbiter.parse_move(&text) {
            Ok(mv) => mv,
            Err(err) => break forfeit(Ending::IllegalMove(mover), format!("{} played '{text}': {err}", engine.name), left),
        };
        if let Some(rule) = cfg.adjudicate.filter(|_| players == 2) {
            let ahead = scores.as_ref().and_then(|s| (0..2).find(|&p| s[p] >= rule.cp)).map(Player::new);
            leading = match ahead {
                Some(p) if leading.0 == Some(p) => (Some(p), leading.1 + 1),
                Some(p) => (Some(p), 1),
                None => (None, 0),
            };
        }
        if let Some(scores) = scores.filter(|_| cfg.sample_positions && !status.in_check.has(mover) && arbiter.is_quiet(mv)) {
            samples.push(Sample { position: arbiter.position_string(), scores });
        }
        arbiter.play(mv).map_err(|err| MatchError(err.0))?;
        for seat in &mut engines {
            if let Seat::Own { session, .. } = seat {
                session.play(mv).map_err(|err| format!("game {index}: {err}"))?;
            }
        }
        if let Some(ms) = left[seat].as_mut() {
            *ms = ms.saturating_add(i64::try_from(inc[seat]).unwrap_or(0));
        }
        played.push(arbiter.move_text(mv));
        if let (Some(winner), Some(rule)) = (leading.0, cfg.adjudicate)
            && leading.1 >= rule.plies
            && !arbiter.status().is_over()
        {
            let loser = Player::new(1 - winner.index());
            let detail = format!("adjudicated: {} plies in a row at least {} cp ahead", leading.1, rule.cp);
            break finish(Ending::Adjudicated(loser), forfeit_ranks(players, &arbiter.status(), loser), Some(detail), played, left);
        }
    };
    Ok(GameRecord { samples, ..record })
}
