//! The engine's options: one table of name, type and range, what a change does, and the one
//! place their values are kept.

use std::fmt::Write;

use crate::eval::{EvalParams, PARAMS};
use crate::games;
use crate::search::{MultiSearch, SEARCH_PARAMS, SearchParams, SearchSettings};

pub const DEFAULT_GAME: &str = "chess";
const DEFAULT_HASH_MB: i64 = 16;
const MAX_HASH_MB: i64 = 65_536;
const MAX_THREADS: i64 = 512;
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
    ClearHash,
    Ponder,
    MultiplayerSearch,
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

/// Every option, in the order `uci` lists them.
pub fn table() -> Vec<OptionDef> {
    let option = |name: &str, kind, effect| OptionDef { name: name.to_string(), kind, effect };
    let mut out = vec![
        option("UCI_Variant", Kind::Combo { default: DEFAULT_GAME.into(), values: games::ids() }, Effect::Variant),
        option("Hash", Kind::Spin { default: DEFAULT_HASH_MB, min: 1, max: MAX_HASH_MB }, Effect::Hash),
        option("Threads", Kind::Spin { default: 1, min: 1, max: MAX_THREADS }, Effect::Threads),
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
    ];
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
    /// The `option name ...` line of `uci`.
    pub fn uci_line(&self) -> String {
        let mut line = format!("option name {} type ", self.name);
        match &self.kind {
            Kind::Spin { default, min, max } => {
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

/// The current value of every option (each kept here only).
#[derive(Clone, Debug)]
pub struct Values {
    pub game: String,
    pub hash_mb: usize,
    pub threads: usize,
    pub ponder: bool,
    pub eval: EvalParams,
    pub search: SearchSettings,
}

impl Default for Values {
    fn default() -> Self {
        Values {
            game: DEFAULT_GAME.into(),
            hash_mb: usize::try_from(DEFAULT_HASH_MB).expect("a positive size"),
            threads: 1,
            ponder: false,
            eval: PARAMS,
            search: SearchSettings::default(),
        }
    }
}

/// The option with this name (case-insensitive).
pub fn find<'a>(table: &'a [OptionDef], name: &str) -> Option<&'a OptionDef> {
    table.iter().find(|o| o.name.eq_ignore_ascii_case(name))
}
