//! Texel's method (`tessera tune`): evaluation parameters fitted to game results. The positions
//! come from recorded games (the JSON lines of `tessera match`); each is labelled with the score
//! its player to move finally made (1 a win, ½ a draw, 0 a loss; with more players the share of
//! the others it placed above). Positions may also come labelled (`--labels`): each with an
//! expected score given, such as a stronger engine's search turned into one, a label far less
//! noisy than the result of a long game. The error is the mean square difference between that
//! score and the evaluation turned into an expected score, `1 / (1 + 10^(-k·eval/400))`; the
//! parameters move one at a time, a step up or down, while the error falls, the steps halving when
//! none does (coordinate descent, as Texel's author did it).
//!
//! Only quiet positions are used (the player to move not in check, no capture that wins material
//! by static exchange), where the static evaluation is what a search would return.

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rayon::prelude::*;

use super::{MatchError, read_json_lines};
use crate::eval::{EvalParams, Evaluator, LearnedTexts};
use crate::games::Profile;
use crate::notation::{parse_move, parse_position};
use crate::position::Position;
use crate::registry::{self, with_width};
use crate::search::see_ge;
use crate::tables::Game;

/// What to fit and with what.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    pub game: String,
    /// JSON-lines files of matches of the game, each read as a match of its own.
    pub files: Vec<String>,
    /// Files of labelled positions: per line the expected score of the player to move (0 to 1),
    /// a space and the position string.
    pub labels: Vec<String>,
    /// The parameters to fit (names); the rest keep the game's own values.
    pub params: Vec<String>,
    /// `name=value,...` laid over the game's own values before the fit (empty: none), to go on
    /// from an earlier fit's values.
    pub start: String,
    /// Positions of a game's first plies are left out (the openings are given).
    pub skip_plies: usize,
    /// At most this many positions, drawn at random.
    pub max_positions: usize,
    /// Halvings of the steps before the fit stops.
    pub rounds: u32,
    pub seed: u64,
}

/// What a fit found.
#[derive(Clone, Debug)]
pub struct TuneReport {
    pub games: usize,
    pub positions: usize,
    /// The scale of the expected score.
    pub k: f64,
    pub error_before: f64,
    pub error_after: f64,
    pub params: EvalParams,
}

/// A quiet position with the final score of its player to move.
struct Sample<const W: usize> {
    pos: Position<W>,
    score: f64,
}

/// Fits the parameters; `progress` gets a line per improvement.
pub fn tune(cfg: &TuneConfig, progress: &mut dyn FnMut(&str)) -> Result<TuneReport, MatchError> {
    let unknown = || format!("unknown game '{}'", cfg.game);
    let (def, profile) = (crate::games::definition(&cfg.game).ok_or_else(unknown)?, crate::games::profile(&cfg.game).ok_or_else(unknown)?);
    with_width!(def.geometry.len(), W => tune_in(registry::compiled::<W>(def), &profile, cfg, progress))
}

fn tune_in<const W: usize>(
    game: &'static Game<W>,
    profile: &Profile,
    cfg: &TuneConfig,
    progress: &mut dyn FnMut(&str),
) -> Result<TuneReport, MatchError> {
    let learned = profile.eval.learned;
    let mut params = profile.eval.params.with_overrides(&cfg.start).map_err(|e| format!("--start: {}", e.0))?;
    for name in &cfg.params {
        params.get(name).ok_or_else(|| format!("unknown evaluation parameter '{name}'"))?;
    }
    // Each file is read as a match of its own: data from several runs (whose games are numbered
    // from 1 alike) is pooled.
    let mut records = Vec::new();
    for (k, file) in cfg.files.iter().enumerate() {
        if cfg.files[..k].contains(file) {
            return Err(format!("{file} is given twice").into());
        }
        let text = std::fs::read_to_string(file).map_err(|e| MatchError(format!("{file}: {e}")))?;
        let (id, _, games) = read_json_lines(&[(file.clone(), text)])?;
        if id != cfg.game {
            return Err(format!("{file}: the games are of {id}, not {}", cfg.game).into());
        }
        records.extend(games);
    }
    let values = Evaluator::with_learned(game, &params, &learned).values().clone();
    let mut samples = Vec::new();
    for r in &records {
        let mut pos = match &r.start {
            Some(fen) => parse_position(game, fen).map_err(|e| format!("game {}: {}", r.index + 1, e.0))?,
            None => Position::start(game),
        };
        let n = r.ranks.len();
        for (ply, text) in r.moves.iter().enumerate() {
            let mover = pos.to_move();
            if ply >= cfg.skip_plies && !pos.in_check(mover) && quiet(&pos, &values) {
                let place = r.ranks[mover.index()];
                // The share of the other players it finished above (ties count half).
                let above = r
                    .ranks
                    .iter()
                    .map(|&q| {
                        if q > place {
                            1.0
                        } else if q == place {
                            0.5
                        } else {
                            0.0
                        }
                    })
                    .sum::<f64>()
                    - 0.5;
                samples.push(Sample { pos: pos.clone(), score: above / (n - 1) as f64 });
            }
            let mv = parse_move(&pos, text).map_err(|e| format!("game {}, ply {}: {}", r.index + 1, ply + 1, e.0))?;
            pos.make(mv);
        }
    }
    let mut labelled = 0;
    for file in &cfg.labels {
        let text = std::fs::read_to_string(file).map_err(|e| MatchError(format!("{file}: {e}")))?;
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let at = || format!("{file}:{}", n + 1);
            let (score, position) = line.trim().split_once(' ').ok_or_else(|| format!("{}: no position after the score", at()))?;
            let score: f64 = score
                .parse()
                .ok()
                .filter(|s| (0.0..=1.0).contains(s))
                .ok_or_else(|| format!("{}: the score '{score}' is not 0 to 1", at()))?;
            let pos = parse_position(game, position).map_err(|e| format!("{}: {}", at(), e.0))?;
            labelled += 1;
            if !pos.in_check(pos.to_move()) && quiet(&pos, &values) {
                samples.push(Sample { pos, score });
            }
        }
    }
    let mut rng = StdRng::seed_from_u64(cfg.seed);
    samples.shuffle(&mut rng);
    samples.truncate(cfg.max_positions);
    if samples.is_empty() {
        return Err("no quiet positions in the games".into());
    }
    progress(&format!("{} games and {labelled} labelled positions, {} quiet positions used", records.len(), samples.len()));

    let k = fit_k(game, &params, &learned, &mut samples);
    let error_before = error(game, &params, &learned, k, &mut samples);
    progress(&format!("k {k:.3}, error {error_before:.6}"));
    let mut best = error_before;
    let mut steps: Vec<i32> = cfg
        .params
        .iter()
        .map(|name| {
            let &(_, min, max) = EvalParams::RANGES.iter().find(|(n, _, _)| n == name).expect("checked");
            ((max - min) / 40).max(1)
        })
        .collect();
    for round in 0..=cfg.rounds {
        let mut improved = true;
        while improved {
            improved = false;
            for (i, name) in cfg.params.iter().enumerate() {
                let v = params.get(name).expect("checked");
                for delta in [steps[i], -steps[i]] {
                    let mut trial = params;
                    if trial.set(name, v + delta).is_err() {
                        continue;
                    }
                    let e = error(game, &trial, &learned, k, &mut samples);
                    if e < best {
                        best = e;
                        params = trial;
                        improved = true;
                        progress(&format!("round {round}: {name} {v} -> {}, error {e:.6}", v + delta));
                        break;
                    }
                }
            }
        }
        for s in &mut steps {
            *s = (*s / 2).max(1);
        }
    }
    Ok(TuneReport { games: records.len(), positions: samples.len(), k, error_before, error_after: best, params })
}

/// Quiet: no capture or promotion gains material by static exchange.
fn quiet<const W: usize>(pos: &Position<W>, values: &crate::types::Table<crate::types::PieceType, i32>) -> bool {
    let mut moves = Vec::new();
    pos.legal_tactical_moves(&mut moves);
    !moves.iter().any(|&m| see_ge(pos, m, 1, values))
}

fn expected(eval: i32, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * f64::from(eval) / 400.0))
}

/// The evaluation of every sample under `params`, for its player to move.
fn evaluations<const W: usize>(game: &'static Game<W>, params: &EvalParams, learned: &LearnedTexts, samples: &mut [Sample<W>]) -> Vec<i32> {
    let eval = Evaluator::with_learned(game, params, learned);
    samples
        .par_iter_mut()
        .map(|s| {
            eval.prepare(&mut s.pos);
            eval.evaluate_for(&s.pos, s.pos.to_move())
        })
        .collect()
}

/// The mean square error of the expected scores of `evals` with scale `k`.
fn error_of<const W: usize>(evals: &[i32], samples: &[Sample<W>], k: f64) -> f64 {
    let total: f64 = evals.par_iter().zip(samples).map(|(&e, s)| (s.score - expected(e, k)).powi(2)).sum();
    total / samples.len() as f64
}

/// The mean square error under `params` with scale `k`.
fn error<const W: usize>(game: &'static Game<W>, params: &EvalParams, learned: &LearnedTexts, k: f64, samples: &mut [Sample<W>]) -> f64 {
    let evals = evaluations(game, params, learned, samples);
    error_of(&evals, samples, k)
}

/// The scale that fits the current parameters best (golden-section search).
fn fit_k<const W: usize>(game: &'static Game<W>, params: &EvalParams, learned: &LearnedTexts, samples: &mut [Sample<W>]) -> f64 {
    let evals = evaluations(game, params, learned, samples);
    // Wide enough below for games whose derived piece values run large: ninjachess's self-play
    // fits 0.058, and at the old bound of 0.1 its fits ran parameters to their limits.
    let (mut lo, mut hi) = (0.005f64, 3.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error_of(&evals, samples, a) < error_of(&evals, samples, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}
