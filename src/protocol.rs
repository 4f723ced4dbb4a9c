//! The text protocol, in the manner of UCI (specified for GUI authors in `protocol.md`).
//!
//! Commands are read line by line; `go` starts a search on its own thread, so `stop`,
//! `ponderhit` and `isready` are answered while it runs. Every bad line gets one
//! `info string error: ...` line and changes nothing.

use std::io::{BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crate::eval::{EvalParams, PARAMS};
use crate::games;
use crate::search::{Control, Limits, MultiSearch, SEARCH_PARAMS, SearchParams};
use crate::session::{self, Session};
use crate::tables::MAX_PLAYERS;
use crate::tt::TransTable;

pub const ENGINE_NAME: &str = concat!("tessera ", env!("CARGO_PKG_VERSION"));
pub const DEFAULT_GAME: &str = "chess";
const DEFAULT_HASH_MB: usize = 16;
const MAX_HASH_MB: usize = 65_536;
const MAX_THREADS: usize = 512;
/// Evaluation parameters are the options `Eval_<parameter>`.
const EVAL_OPTION_PREFIX: &str = "Eval_";
/// Search parameters are the options `Search_<parameter>`.
const SEARCH_OPTION_PREFIX: &str = "Search_";

/// Where protocol output goes (stdout in the binary, a buffer in tests).
pub type Output = Arc<Mutex<dyn Write + Send>>;

fn emit(out: &Output, line: &str) {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

struct Running {
    control: Arc<Control>,
    /// Set just before `bestmove` is printed, so that a `go` right after it is accepted.
    answered: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

pub struct Engine {
    out: Output,
    session: Box<dyn Session>,
    threads: usize,
    tt: Arc<TransTable>,
    search: Option<Running>,
    /// Evaluation parameters and the search for three or more players, kept across changes of
    /// game.
    eval: EvalParams,
    multi: MultiSearch,
    search_params: SearchParams,
}

enum Flow {
    Continue,
    Quit,
}

impl Engine {
    pub fn new(out: Output) -> Self {
        let session = session::open(DEFAULT_GAME).expect("the default game exists");
        Engine {
            out,
            session,
            threads: 1,
            tt: Arc::new(TransTable::new(DEFAULT_HASH_MB)),
            search: None,
            eval: PARAMS,
            multi: MultiSearch::default(),
            search_params: SEARCH_PARAMS,
        }
    }

    fn say(&self, line: &str) {
        emit(&self.out, line);
    }

    fn error(&self, msg: &str) {
        self.say(&format!("info string error: {msg}"));
    }

    /// Reads commands until `quit` or end of input.
    pub fn run(&mut self, input: impl BufRead) {
        for line in input.lines() {
            let Ok(line) = line else {
                self.error("input is not valid UTF-8");
                continue;
            };
            let flow = catch_unwind(AssertUnwindSafe(|| self.command(&line)));
            match flow {
                Ok(Flow::Quit) => break,
                Ok(Flow::Continue) => {}
                Err(_) => self.error("internal error while handling the command; state kept"),
            }
        }
        self.stop_search();
    }

    fn command(&mut self, line: &str) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = tokens.first() else { return Flow::Continue };
        let args = &tokens[1..];
        match cmd {
            "uci" => self.uci(),
            "isready" => self.say("readyok"),
            "ucinewgame" => {
                self.stop_search();
                self.tt.clear();
                let _ = self.session.set_position(None, &[]);
            }
            "setoption" => self.setoption(args),
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" => self.stop_search(),
            "ponderhit" => {
                if let Some(r) = &self.search {
                    r.control.pondering.store(false, Ordering::Relaxed);
                }
            }
            "d" => {
                let text = self.session.board_text();
                self.say(text.trim_end());
            }
            "fen" => self.say(&self.session.position_string()),
            "geometry" => {
                for line in crate::describe::geometry_lines(self.session.def()) {
                    self.say(&line);
                }
            }
            "pieces" => {
                for line in crate::describe::piece_lines(self.session.def()) {
                    self.say(&line);
                }
            }
            "legal" => self.say(&self.session.legal_moves().join(" ")),
            "status" => self.status(),
            "bench" => match args.first() {
                Some(game) if !crate::bench::has_game(game) => self.error(&format!("no bench positions for '{game}'")),
                game => {
                    self.stop_search();
                    let lines = crate::bench::run(game.copied(), |l| self.say(&crate::bench::format_line(l)));
                    for line in crate::bench::summary(&lines) {
                        self.say(&line);
                    }
                }
            },
            "quit" => {
                self.stop_search();
                return Flow::Quit;
            }
            _ => self.error(&format!("unknown command '{cmd}'")),
        }
        Flow::Continue
    }

    fn uci(&self) {
        self.say(&format!("id name {ENGINE_NAME}"));
        self.say("id author the tessera developers");
        let ids = games::ids();
        let vars: Vec<String> = ids.iter().map(|i| format!("var {i}")).collect();
        self.say(&format!("option name UCI_Variant type combo default {DEFAULT_GAME} {}", vars.join(" ")));
        self.say(&format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"));
        self.say(&format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"));
        self.say("option name Clear Hash type button");
        self.say("option name Ponder type check default false");
        let vars: Vec<String> = MultiSearch::NAMES.iter().map(|n| format!("var {n}")).collect();
        self.say(&format!("option name MultiplayerSearch type combo default {} {}", MultiSearch::default().name(), vars.join(" ")));
        for &(name, min, max) in EvalParams::RANGES {
            let default = PARAMS.get(name).unwrap_or(0);
            self.say(&format!("option name {EVAL_OPTION_PREFIX}{name} type spin default {default} min {min} max {max}"));
        }
        for &(name, min, max) in SearchParams::RANGES {
            let default = SEARCH_PARAMS.get(name).unwrap_or(0);
            self.say(&format!("option name {SEARCH_OPTION_PREFIX}{name} type spin default {default} min {min} max {max}"));
        }
        self.say("uciok");
    }

    fn announce_game(&self) {
        let def = self.session.def();
        let players: Vec<String> = def.players.iter().map(|p| format!("{}:{}", p.code, p.name)).collect();
        self.say(&format!(
            "info string game {} players {} cells {} levels {}",
            def.id,
            players.join(","),
            def.geometry.len(),
            def.geometry.levels
        ));
    }

    fn setoption(&mut self, args: &[&str]) {
        // setoption name <id...> [value <x...>]
        if args.first() != Some(&"name") {
            return self.error("setoption needs 'name <option> [value <value>]'");
        }
        let value_at = args.iter().position(|&a| a == "value");
        let name = args[1..value_at.unwrap_or(args.len())].join(" ");
        let value = value_at.map(|i| args[i + 1..].join(" "));
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                let Some(v) = value else { return self.error("UCI_Variant needs a value") };
                match session::open(&v) {
                    Some(mut s) => {
                        self.stop_search();
                        s.set_eval_params(&self.eval);
                        s.set_multiplayer_search(self.multi);
                        s.set_search_params(&self.search_params);
                        self.session = s;
                        self.tt.clear();
                        self.announce_game();
                    }
                    None => self.error(&format!("unknown variant '{v}'")),
                }
            }
            "hash" => match value.as_deref().map(str::parse::<usize>) {
                Some(Ok(mb)) if (1..=MAX_HASH_MB).contains(&mb) => {
                    self.stop_search();
                    self.tt = Arc::new(TransTable::new(mb));
                }
                _ => self.error(&format!("Hash must be an integer from 1 to {MAX_HASH_MB}")),
            },
            "threads" => match value.as_deref().map(str::parse::<usize>) {
                Some(Ok(n)) if (1..=MAX_THREADS).contains(&n) => self.threads = n,
                _ => self.error(&format!("Threads must be an integer from 1 to {MAX_THREADS}")),
            },
            "clear hash" => self.tt.clear(),
            "multiplayersearch" => match value.as_deref().and_then(MultiSearch::parse) {
                Some(m) => {
                    self.multi = m;
                    self.session.set_multiplayer_search(m);
                }
                None => self.error(&format!("MultiplayerSearch must be one of {}", MultiSearch::NAMES.join(", "))),
            },
            "ponder" => match value.as_deref() {
                Some("true") | Some("false") => {}
                _ => self.error("Ponder must be true or false"),
            },
            lower => {
                let named = |prefix: &str, ranges: &'static [(&'static str, i32, i32)]| {
                    ranges.iter().copied().find(|(p, _, _)| format!("{prefix}{p}").to_ascii_lowercase() == lower)
                };
                let number = value.as_deref().and_then(|v| v.parse::<i32>().ok());
                if let Some((param, min, max)) = named(EVAL_OPTION_PREFIX, EvalParams::RANGES) {
                    let mut next = self.eval;
                    match number.map(|v| next.set(param, v)) {
                        Some(Ok(())) => {
                            self.eval = next;
                            self.session.set_eval_params(&next);
                        }
                        _ => self.error(&format!("{EVAL_OPTION_PREFIX}{param} must be an integer from {min} to {max}")),
                    }
                } else if let Some((param, min, max)) = named(SEARCH_OPTION_PREFIX, SearchParams::RANGES) {
                    let mut next = self.search_params;
                    match number.map(|v| next.set(param, v)) {
                        Some(Ok(())) => {
                            self.search_params = next;
                            self.session.set_search_params(&next);
                        }
                        _ => self.error(&format!("{SEARCH_OPTION_PREFIX}{param} must be an integer from {min} to {max}")),
                    }
                } else {
                    self.error(&format!("unknown option '{name}'"));
                }
            }
        }
    }

    fn position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|&a| a == "moves");
        let (spec, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &args[args.len()..]),
        };
        let fen = match spec.first() {
            Some(&"startpos") if spec.len() == 1 => None,
            Some(&"fen") if spec.len() > 1 => Some(spec[1..].join(" ")),
            _ => return self.error("position needs 'startpos' or 'fen <position>', then optionally 'moves ...'"),
        };
        if let Err(e) = self.session.set_position(fen.as_deref(), moves) {
            self.error(&e.0);
        }
    }

    fn status(&self) {
        let s = self.session.status();
        let mut line = format!("status {}", if s.over { "over" } else { "playing" });
        line.push_str(&format!(" tomove {}", self.session.to_move_name()));
        if !s.reason.is_empty() {
            line.push_str(&format!(" reason {}", s.reason.replace(' ', "-")));
        }
        if let Some(w) = &s.winner {
            line.push_str(&format!(" winner {w}"));
        }
        line.push_str(&format!(" active {}", s.active.join(",")));
        if !s.eliminated.is_empty() {
            let e: Vec<String> = s.eliminated.iter().map(|(v, m)| format!("{v}:{m}")).collect();
            line.push_str(&format!(" eliminated {}", e.join(",")));
        }
        if !s.placings.is_empty() {
            line.push_str(&format!(" placings {}", s.placings.join(",")));
        }
        self.say(&line);
    }

    fn parse_limits(&self, args: &[&str]) -> Result<Limits, String> {
        let def = self.session.def();
        let mut limits = Limits::default();
        let mut i = 0;
        let number = |i: usize| -> Result<u64, String> {
            let tok = args.get(i + 1).ok_or_else(|| format!("'{}' needs a value", args[i]))?;
            tok.parse::<i64>().map(|v| v.max(0) as u64).map_err(|_| format!("'{}' needs a number, got '{}'", args[i], tok))
        };
        while i < args.len() {
            let a = args[i];
            let player_field = |suffix: &str| -> Option<usize> {
                let code = a.strip_suffix(suffix)?;
                let mut chars = code.chars();
                let c = chars.next()?;
                if chars.next().is_some() {
                    return None;
                }
                def.players.iter().position(|p| p.code == c)
            };
            match a {
                "infinite" => limits.infinite = true,
                "ponder" => limits.ponder = true,
                "depth" => limits.depth = Some(number(i)?.clamp(1, 100) as u32),
                "nodes" => limits.nodes = Some(number(i)?.max(1)),
                "movetime" => limits.movetime = Some(number(i)?),
                "movestogo" => limits.movestogo = Some(number(i)?.clamp(1, 1000) as u32),
                "mate" => limits.depth = Some((number(i)? * 2).clamp(1, 100) as u32),
                _ => {
                    if let Some(p) = player_field("time") {
                        limits.time[p] = Some(number(i)?);
                    } else if let Some(p) = player_field("inc") {
                        limits.inc[p] = number(i)?;
                    } else {
                        return Err(format!("unknown go parameter '{a}'"));
                    }
                }
            }
            i += if matches!(a, "infinite" | "ponder") { 1 } else { 2 };
        }
        debug_assert!(limits.time.len() == MAX_PLAYERS);
        Ok(limits)
    }

    fn go(&mut self, args: &[&str]) {
        if args.first() == Some(&"perft") {
            return self.perft(&args[1..]);
        }
        if self.search.as_ref().is_some_and(|r| !r.answered.load(Ordering::SeqCst)) {
            return self.error("a search is already running; send 'stop' first");
        }
        self.stop_search();
        let limits = match self.parse_limits(args) {
            Ok(l) => l,
            Err(e) => return self.error(&e),
        };
        let control = Arc::new(Control::default());
        control.pondering.store(limits.ponder, Ordering::Relaxed);
        let out = self.out.clone();
        let info_out = self.out.clone();
        let job =
            self.session.search_job(limits, control.clone(), self.tt.clone(), self.threads, Box::new(move |line| emit(&info_out, &line)));
        let answered = Arc::new(AtomicBool::new(false));
        let done = answered.clone();
        let handle = std::thread::Builder::new().stack_size(64 << 20).spawn(move || {
            let line = catch_unwind(AssertUnwindSafe(job))
                .unwrap_or_else(|_| "info string error: internal error in search\nbestmove (none)".into());
            done.store(true, Ordering::SeqCst);
            emit(&out, &line);
        });
        match handle {
            Ok(handle) => self.search = Some(Running { control, answered, handle }),
            Err(e) => self.error(&format!("cannot start the search thread: {e}")),
        }
    }

    fn perft(&mut self, args: &[&str]) {
        let depth = match args {
            [d] => match d.parse::<u32>() {
                Ok(d) if d <= 20 => d,
                _ => return self.error("go perft needs a depth from 0 to 20"),
            },
            _ => return self.error("go perft needs a depth"),
        };
        if depth == 0 {
            self.say("\nNodes searched: 1");
            return;
        }
        let mut total = 0;
        for (mv, n) in self.session.divide(depth) {
            self.say(&format!("{mv}: {n}"));
            total += n;
        }
        self.say(&format!("\nNodes searched: {total}"));
    }

    fn stop_search(&mut self) {
        if let Some(r) = self.search.take() {
            r.control.stop.store(true, Ordering::Relaxed);
            r.control.pondering.store(false, Ordering::Relaxed);
            let _ = r.handle.join();
        }
    }
}

/// Runs the protocol on stdin/stdout.
pub fn run_stdio() {
    let out: Output = Arc::new(Mutex::new(std::io::stdout()));
    let mut engine = Engine::new(out);
    let stdin = std::io::stdin();
    engine.run(stdin.lock());
}
