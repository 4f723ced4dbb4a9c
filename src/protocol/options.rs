//! The engine's options: one table of name, type and range, what a change does, and the one
//! place their values are kept.

use std::fmt::Write;

use crate::eval::{EvalOverrides, EvalParams, PARAMS};
use crate::games::{self, DEFAULT_GAME};
use crate::search::{MAX_MULTI_PV, MAX_THREADS, MultiSearch, SEARCH_PARAMS, SearchParams, SearchSettings, Strength};

const DEFAULT_HASH_MB: i64 = 16;
const MAX_HASH_MB: i64 = 65_536;
/// Milliseconds kept back from the clock on every move for the time between the engine's answer
/// and the GUI's clock (measured with one engine process per seat: see the clocked-game tests).
const DEFAULT_MOVE_OVERHEAD: i64 = 50;
const MAX_MOVE_OVERHEAD: i64 = 5000;
/// `Slow Mover`, percent of the time manager's aim per move (Stockfish 15.1's range).
const DEFAULT_SLOW_MOVER: i64 = 100;
const MIN_SLOW_MOVER: i64 = 10;
const MAX_SLOW_MOVER: i64 = 1000;
/// Evaluation parameters are the options `Eval_<parameter>`.
const EVAL_OPTION_PREFIX: &str = "Eval_";
/// Search parameters are the options `Search_<parameter>`.
const SEARCH_OPTION_PREFIX: &str = "Search_";

/// An option's type, as `uci` announces it.
#[derive(Clone, Debug)]
pub enum Kind {
    Spin { default: i64, min: i64, max: i64 },
    Check { default: bool },
    Combo { default: String, values: Vec<String> },
    Button,
}

/// What setting an option does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Switches the game.
    Variant,
    /// Resizes the transposition table.
    Hash,
    Threads,
    MoveOverhead,
    SlowMover,
    ClearHash,
    Ponder,
    MultiplayerSearch,
    MultiPv,
    LimitStrength,
    Elo,
    SkillLevel,
    ShowWdl,
    AnalyseMode,
    /// One evaluation parameter, by its name.
    Eval(&'static str),
    /// One search parameter, by its name.
    Search(&'static str),
}

pub struct OptionDef {
    pub name: String,
    pub kind: Kind,
    pub effect: Effect,
}

crate::error::message_error!(
    /// Why an option cannot be set: the protocol's error text.
    OptionError
);

/// A parsed option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Int(i64),
    Bool(bool),
    /// A combo choice, spelled as the option lists it.
    Choice(String),
    Press,
}

/// The largest `Threads` and `Hash` an engine accepts: the protocol's own bounds, or less where
/// several engines share the machine (`tessera serve`'s pages).
#[derive(Clone, Copy, Debug)]
pub struct EngineLimits {
    pub max_threads: usize,
    pub max_hash_mb: usize,
}

impl Default for EngineLimits {
    fn default() -> Self {
        EngineLimits { max_threads: MAX_THREADS, max_hash_mb: MAX_HASH_MB as usize }
    }
}

/// Every option, in the order `uci` lists them, `Threads` and `Hash` within `limits`.
pub fn table(limits: EngineLimits) -> Vec<OptionDef> {
    let max_hash = i64::try_from(limits.max_hash_mb).unwrap_or(MAX_HASH_MB).clamp(1, MAX_HASH_MB);
    let max_threads = i64::try_from(limits.max_threads).unwrap_or(1).clamp(1, MAX_THREADS as i64);
    let option = |name: &str, kind, effect| OptionDef { name: name.to_string(), kind, effect };
    let mut out = vec![
        option("UCI_Variant", Kind::Combo { default: DEFAULT_GAME.into(), values: games::ids() }, Effect::Variant),
        option("Hash", Kind::Spin { default: DEFAULT_HASH_MB.min(max_hash), min: 1, max: max_hash }, Effect::Hash),
        option("Threads", Kind::Spin { default: 1, min: 1, max: max_threads }, Effect::Threads),
        option("Move Overhead", Kind::Spin { default: DEFAULT_MOVE_OVERHEAD, min: 0, max: MAX_MOVE_OVERHEAD }, Effect::MoveOverhead),
        option("Slow Mover", Kind::Spin { default: DEFAULT_SLOW_MOVER, min: MIN_SLOW_MOVER, max: MAX_SLOW_MOVER }, Effect::SlowMover),
        option("Clear Hash", Kind::Button, Effect::ClearHash),
        option("Ponder", Kind::Check { default: false }, Effect::Ponder),
        option(
            "MultiplayerSearch",
            Kind::Combo {
                default: MultiSearch::default().name().into(),
                values: MultiSearch::NAMES.iter().map(|n| n.to_string()).collect(),
            },
            Effect::MultiplayerSearch,
        ),
        option("MultiPV", Kind::Spin { default: 1, min: 1, max: MAX_MULTI_PV as i64 }, Effect::MultiPv),
        option("UCI_LimitStrength", Kind::Check { default: false }, Effect::LimitStrength),
        option("UCI_Elo", Kind::Spin { default: MIN_ELO, min: MIN_ELO, max: MAX_ELO }, Effect::Elo),
        option("Skill Level", Kind::Spin { default: MAX_SKILL, min: 0, max: MAX_SKILL }, Effect::SkillLevel),
        option("UCI_ShowWDL", Kind::Check { default: false }, Effect::ShowWdl),
        option("UCI_AnalyseMode", Kind::Check { default: false }, Effect::AnalyseMode),
    ];
    // The generic table's values; `uci` announces the current game's own instead (`uci_line`).
    for &(name, min, max) in EvalParams::RANGES {
        let default = i64::from(PARAMS.get(name).unwrap_or(0));
        let kind = Kind::Spin { default, min: i64::from(min), max: i64::from(max) };
        out.push(option(&format!("{EVAL_OPTION_PREFIX}{name}"), kind, Effect::Eval(name)));
    }
    for &(name, min, max) in SearchParams::RANGES {
        let default = i64::from(SEARCH_PARAMS.get(name).unwrap_or(0));
        let kind = Kind::Spin { default, min: i64::from(min), max: i64::from(max) };
        out.push(option(&format!("{SEARCH_OPTION_PREFIX}{name}"), kind, Effect::Search(name)));
    }
    out
}

impl OptionDef {
    /// The `option name ...` line of `uci`. An evaluation parameter's default is `game`'s own
    /// value, which the engine plays with while the option is not set.
    pub fn uci_line(&self, game: &EvalParams) -> String {
        let mut line = format!("option name {} type ", self.name);
        match &self.kind {
            Kind::Spin { default, min, max } => {
                let default = match self.effect {
                    Effect::Eval(name) => game.get(name).map_or(*default, i64::from),
                    _ => *default,
                };
                let _ = write!(line, "spin default {default} min {min} max {max}");
            }
            Kind::Check { default } => {
                let _ = write!(line, "check default {default}");
            }
            Kind::Combo { default, values } => {
                let _ = write!(line, "combo default {default}");
                for v in values {
                    let _ = write!(line, " var {v}");
                }
            }
            Kind::Button => line.push_str("button"),
        }
        line
    }

    /// Parses `value` for this option.
    pub fn parse(&self, value: Option<&str>) -> Result<Value, OptionError> {
        let name = &self.name;
        let parsed = match &self.kind {
            Kind::Spin { min, max, .. } => value
                .and_then(|v| v.parse::<i64>().ok())
                .filter(|v| (min..=max).contains(&v))
                .map(Value::Int)
                .ok_or_else(|| format!("{name} must be an integer from {min} to {max}")),
            Kind::Check { .. } => match value.map(str::to_ascii_lowercase).as_deref() {
                Some("true") => Ok(Value::Bool(true)),
                Some("false") => Ok(Value::Bool(false)),
                _ => Err(format!("{name} must be true or false")),
            },
            Kind::Combo { values, .. } if self.effect == Effect::Variant => match value {
                None => Err(format!("{name} needs a value")),
                Some(v) => values
                    .iter()
                    .find(|x| x.eq_ignore_ascii_case(v))
                    .map(|x| Value::Choice(x.clone()))
                    .ok_or_else(|| format!("unknown variant '{v}'")),
            },
            Kind::Combo { values, .. } => value
                .and_then(|v| values.iter().find(|x| x.eq_ignore_ascii_case(v)))
                .map(|x| Value::Choice(x.clone()))
                .ok_or_else(|| format!("{name} must be one of {}", values.join(", "))),
            Kind::Button => Ok(Value::Press),
        };
        parsed.map_err(OptionError)
    }
}

/// The current value of every option (each kept here only; `Threads` is the engine's helper pool).
#[derive(Clone, Debug)]
pub struct Values {
    pub game: String,
    pub hash_mb: usize,
    pub move_overhead: u64,
    /// Percent of the time manager's aim per move.
    pub slow_mover: u64,
    pub ponder: bool,
    /// The evaluation parameters set by `Eval_` options, over the game's own values.
    pub eval: EvalOverrides,
    /// The search settings; their strength is derived from the three strength options below.
    pub search: SearchSettings,
    pub limit_strength: bool,
    pub elo: i64,
    pub skill_level: i64,
    pub show_wdl: bool,
    pub analyse_mode: bool,
}

impl Values {
    /// The search settings with the strength the options ask for: `UCI_Elo` while
    /// `UCI_LimitStrength` is on, else `Skill Level`.
    pub fn search_settings(&self) -> SearchSettings {
        let strength = if self.limit_strength { strength_of_elo(self.elo) } else { Strength::level(self.skill_level as f64) };
        SearchSettings { strength, ..self.search }
    }
}

/// `UCI_Elo` on Stockfish's scale (anchored to CCRL 40/4): its range is Stockfish 15.1's.
const MIN_ELO: i64 = 1350;
const MAX_ELO: i64 = 2850;
const MAX_SKILL: i64 = 20;

/// (Elo, level) pairs fitted to games in chess at 10 s + 0.1 s against Stockfish 15.1 limited to
/// the Elo (the pilot run is in `docs/experiments.md`). Between them the level is interpolated;
/// above the last one tessera plays at full strength, below the first at the first's level.
const ELO_ANCHORS: [(i64, f64); 2] = [(MIN_ELO, 7.0), (1870, 20.0)];

/// The level that plays at `elo` on Stockfish's scale.
pub fn strength_of_elo(elo: i64) -> Strength {
    let elo = elo.clamp(MIN_ELO, MAX_ELO);
    let level = ELO_ANCHORS
        .windows(2)
        .find(|w| elo <= w[1].0)
        .map_or(20.0, |w| w[0].1 + (w[1].1 - w[0].1) * (elo - w[0].0).max(0) as f64 / (w[1].0 - w[0].0) as f64);
    Strength::level(level)
}

impl Default for Values {
    fn default() -> Self {
        Values {
            game: DEFAULT_GAME.into(),
            hash_mb: usize::try_from(DEFAULT_HASH_MB).expect("a positive size"),
            move_overhead: DEFAULT_MOVE_OVERHEAD.unsigned_abs(),
            slow_mover: DEFAULT_SLOW_MOVER.unsigned_abs(),
            ponder: false,
            eval: EvalOverrides::default(),
            search: SearchSettings::default(),
            limit_strength: false,
            elo: MIN_ELO,
            skill_level: MAX_SKILL,
            show_wdl: false,
            analyse_mode: false,
        }
    }
}

/// The option with this name (case-insensitive).
pub fn find<'a>(table: &'a [OptionDef], name: &str) -> Option<&'a OptionDef> {
    table.iter().find(|o| o.name.eq_ignore_ascii_case(name))
}
