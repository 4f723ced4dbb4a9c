//! The engines of a match: configurations of this engine, played in-process, and outside engines
//! started by command; their limits per move and their clocks.

use super::MatchError;
use crate::eval::{EvalOverrides, PARAMS};
use crate::search::{Limits, MAX_THREADS, MultiSearch, SearchSettings, Strength};

/// Deepest search and most threads and hash an engine setting may ask for.
const MAX_DEPTH: u64 = 100;
const MAX_HASH_MB: u64 = 65_536;
/// The longest clock a time control may give (a day).
const MAX_CLOCK_MS: f64 = 86_400_000.0;

/// A clock: base time and increment per move, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base_ms: u64,
    pub inc_ms: u64,
}

impl TimeControl {
    /// `<base>+<inc>` or `<base>`, in seconds (`10+0.1`, `60`), as cutechess writes it.
    pub fn parse(text: &str) -> Result<Self, MatchError> {
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let ms = |s: &str| {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0 && v * 1000.0 <= MAX_CLOCK_MS)
                .map(|v| (v * 1000.0).round() as u64)
                .ok_or_else(|| MatchError(format!("time control '{text}': want <base>+<increment> in seconds, e.g. 10+0.1")))
        };
        let tc = TimeControl { base_ms: ms(base)?, inc_ms: ms(inc)? };
        if tc.base_ms == 0 && tc.inc_ms == 0 {
            return Err(format!("time control '{text}' gives no time").into());
        }
        Ok(tc)
    }

    /// The form `parse` reads and PGN's `TimeControl` tag uses (seconds).
    pub fn text(self) -> String {
        let secs = |ms: u64| {
            let s = format!("{:.3}", ms as f64 / 1000.0);
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        if self.inc_ms == 0 { secs(self.base_ms) } else { format!("{}+{}", secs(self.base_ms), secs(self.inc_ms)) }
    }
}

/// One engine of a match: this engine with its search settings, or an outside engine.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    pub name: String,
    /// Per-move limits (`depth`, `nodes`, `movetime`).
    pub limits: Limits,
    /// Its clock, where the games are played on clocks.
    pub tc: Option<TimeControl>,
    pub threads: usize,
    pub hash_mb: usize,
    /// Evaluation parameters set for this engine, over each game's own values.
    pub eval: EvalOverrides,
    /// The search with three or more players, and the search parameters.
    pub search: SearchSettings,
    /// An outside engine: the program and its arguments.
    pub command: Option<Vec<String>>,
    /// Options set on an outside engine (`option.<name>=<value>`).
    pub options: Vec<(String, String)>,
}

impl EngineConfig {
    /// A configuration with no limit per move yet, one thread and 8 MiB of hash.
    pub fn new(name: &str) -> Self {
        EngineConfig {
            name: name.into(),
            limits: Limits::default(),
            tc: None,
            threads: 1,
            hash_mb: 8,
            eval: EvalOverrides::default(),
            search: SearchSettings::default(),
            command: None,
            options: Vec::new(),
        }
    }

    /// Parses `key=value,key=value,...`. Keys: `name`; limits `depth`, `nodes`, `movetime` (ms)
    /// and `tc` (`<base>+<inc>` seconds; `default_tc` where absent); `threads`, `hash` (MiB);
    /// for this engine `search` (`paranoid`, `maxn`, `brs` or `brs+`: the search with three or
    /// more players), `skill` (0 to 20, as the `Skill Level` option) and any evaluation or search
    /// parameter by its name (`tempo=15`, `aspiration=30`); for an outside engine `cmd` (the
    /// program and its arguments, separated by spaces) and `option.<name>=<value>`.
    pub fn parse(spec: &str, default_name: &str, default_tc: Option<TimeControl>) -> Result<Self, MatchError> {
        let mut cfg = EngineConfig::new(default_name);
        cfg.tc = default_tc;
        let mut own_settings = Vec::new();
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part.split_once('=').ok_or_else(|| format!("'{part}' is not key=value"))?;
            let (key, value) = (key.trim(), value.trim());
            let number = || value.parse::<u64>().map_err(|_| format!("'{key}' needs a non-negative integer, got '{value}'"));
            if let Some(option) = key.strip_prefix("option.") {
                if option.is_empty() {
                    return Err("'option.' needs an option name".into());
                }
                cfg.options.push((option.to_string(), value.to_string()));
                continue;
            }
            match key {
                "name" if !value.is_empty() && !value.contains(char::is_whitespace) => cfg.name = value.into(),
                "name" => return Err(format!("bad engine name '{value}'").into()),
                "cmd" if !value.is_empty() => cfg.command = Some(value.split_whitespace().map(String::from).collect()),
                "cmd" => return Err("'cmd' needs a command".into()),
                "tc" => cfg.tc = Some(TimeControl::parse(value)?),
                "depth" => cfg.limits.depth = Some(number()?.clamp(1, MAX_DEPTH) as u32),
                "nodes" => cfg.limits.nodes = Some(number()?.max(1)),
                "movetime" => cfg.limits.movetime = Some(number()?.max(1)),
                "threads" => cfg.threads = number()?.clamp(1, MAX_THREADS as u64) as usize,
                "hash" => cfg.hash_mb = number()?.clamp(1, MAX_HASH_MB) as usize,
                "skill" => {
                    let level = value.parse::<f64>().ok().filter(|l| (0.0..=20.0).contains(l));
                    cfg.search.strength =
                        Strength::level(level.ok_or_else(|| format!("'skill' must be a level from 0 to 20, got '{value}'"))?);
                    own_settings.push(key);
                }
                "search" => {
                    cfg.search.algorithm = MultiSearch::parse(value)
                        .ok_or_else(|| format!("'search' must be one of {}, got '{value}'", MultiSearch::NAMES.join(", ")))?;
                    own_settings.push(key);
                }
                _ if PARAMS.get(key).is_some() => {
                    let v = value.parse::<i32>().map_err(|_| format!("'{key}' needs an integer, got '{value}'"))?;
                    cfg.eval.set(key, v)?;
                    own_settings.push(key);
                }
                _ if cfg.search.params.get(key).is_some() => {
                    let v = value.parse::<i32>().map_err(|_| format!("'{key}' needs an integer, got '{value}'"))?;
                    cfg.search.params.set(key, v)?;
                    own_settings.push(key);
                }
                _ => return Err(format!("unknown engine setting '{key}'").into()),
            }
        }
        if cfg.command.is_some() {
            if let Some(key) = own_settings.first() {
                return Err(format!(
                    "engine '{}': '{key}' is a setting of this engine; give an outside engine option.<name>=<value>",
                    cfg.name
                )
                .into());
            }
        } else if !cfg.options.is_empty() {
            return Err(format!("engine '{}': option.<name> is for outside engines (cmd=...)", cfg.name).into());
        }
        if cfg.limits.depth.is_none() && cfg.limits.nodes.is_none() && cfg.limits.movetime.is_none() && cfg.tc.is_none() {
            return Err(format!("engine '{}' needs a limit per move (depth, nodes or movetime) or a clock (tc)", cfg.name).into());
        }
        Ok(cfg)
    }

    /// The `go` parameters of its limits per move (` depth 3`, ` movetime 100`), for an outside
    /// engine.
    pub fn go_limits(&self) -> String {
        let mut go = String::new();
        let limits = [("depth", self.limits.depth.map(u64::from)), ("nodes", self.limits.nodes), ("movetime", self.limits.movetime)];
        for (key, value) in limits {
            if let Some(v) = value {
                go.push_str(&format!(" {key} {v}"));
            }
        }
        go
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::EvalParams;
    use crate::search::{SEARCH_PARAMS, SearchParams};

    #[test]
    fn engine_specs() {
        let parse = |spec: &str| EngineConfig::parse(spec, "e", None);
        let e = EngineConfig::parse("name=fast, nodes=500 ,threads=2,hash=4", "x", None).expect("valid");
        assert_eq!((e.name.as_str(), e.limits.nodes, e.threads, e.hash_mb), ("fast", Some(500), 2, 4));
        assert_eq!(EngineConfig::parse("depth=3", "e1", None).expect("valid").name, "e1");
        let e = parse("depth=3,tempo=25,pawn_advance=0").expect("valid");
        let params = e.eval.apply(PARAMS);
        assert_eq!((params.tempo, params.pawn_advance, params.value_base), (25, 0, PARAMS.value_base));
        assert!(parse("depth=3,tempo=100000").is_err());
        assert_eq!(parse("depth=3,search=BRS").expect("valid").search.algorithm, MultiSearch::BestReply);
        assert_eq!(parse("depth=3,search=maxn").expect("valid").search.algorithm, MultiSearch::MaxN);
        assert!(parse("depth=3,search=minimax").is_err());
        let e = parse("depth=3,aspiration=40,tempo=5").expect("valid");
        assert_eq!(
            (e.search.params.aspiration, e.eval.apply(PARAMS).tempo, e.search.params.null_move_r),
            (40, 5, SEARCH_PARAMS.null_move_r)
        );
        // Engine settings, evaluation and search parameters never share a name.
        let settings = ["name", "depth", "nodes", "movetime", "threads", "hash", "search", "skill", "cmd", "tc"];
        for &(n, _, _) in EvalParams::RANGES {
            assert!(SearchParams::RANGES.iter().all(|r| r.0 != n) && !settings.contains(&n), "{n}");
        }
        for &(n, _, _) in SearchParams::RANGES {
            assert!(!settings.contains(&n), "{n}");
        }
        assert!(parse("name=x").is_err());
        assert!(parse("depth=3,colour=red").is_err());
        assert!(parse("depth=three").is_err());
        assert!(parse("depth").is_err());
    }

    #[test]
    fn outside_engines_and_clocks() {
        let tc = TimeControl::parse("10+0.1").expect("valid");
        assert_eq!((tc.base_ms, tc.inc_ms, tc.text()), (10_000, 100, "10+0.1".to_string()));
        assert_eq!(TimeControl::parse("1.5").expect("valid"), TimeControl { base_ms: 1500, inc_ms: 0 });
        assert!(TimeControl::parse("0+0").is_err() && TimeControl::parse("ten").is_err() && TimeControl::parse("-1+1").is_err());
        let e = EngineConfig::parse("name=sf,cmd=/usr/games/stockfish -q,option.UCI_Elo=2000,option.Skill Level=3", "e", Some(tc))
            .expect("valid");
        assert_eq!(e.command, Some(vec!["/usr/games/stockfish".to_string(), "-q".to_string()]));
        assert_eq!(e.options, vec![("UCI_Elo".into(), "2000".into()), ("Skill Level".into(), "3".into())]);
        assert_eq!(e.tc, Some(tc), "the match's clock where the engine gives none");
        assert_eq!(EngineConfig::parse("tc=5+0", "e", Some(tc)).expect("valid").tc, Some(TimeControl { base_ms: 5000, inc_ms: 0 }));
        assert_eq!(EngineConfig::parse("cmd=x,depth=4,movetime=50", "e", None).expect("valid").go_limits(), " depth 4 movetime 50");
        assert!(EngineConfig::parse("cmd=x,depth=3,tempo=5", "e", None).is_err(), "an evaluation weight of this engine");
        assert!(EngineConfig::parse("depth=3,option.Hash=4", "e", None).is_err(), "options are for outside engines");
        assert!(EngineConfig::parse("cmd=x", "e", None).is_err(), "no limit and no clock");
    }
}
