//! The text protocol, in the manner of UCI (specified for GUI authors in `protocol.md`).
//!
//! Commands are read line by line; `go` starts a search on its own thread, so `stop`,
//! `ponderhit` and `isready` are answered while it runs. Every bad line gets one
//! `info string error: ...` line and changes nothing. The options are in [`options`], the text
//! of the answers in [`format`].

mod format;
pub mod options;

use std::io::{BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crate::search::{Control, Limits, MultiSearch};
use crate::session::{self, SearchRequest, Session};
use crate::tt::TransTable;
use crate::types::MAX_PLAYERS;
pub use format::{bestmove_line, info_line, status_line};
pub use options::DEFAULT_GAME;
use options::{Effect, OptionDef, OptionError, Value, Values};

pub const ENGINE_NAME: &str = concat!("tessera ", env!("CARGO_PKG_VERSION"));
/// Stack of the search thread: deep searches recurse.
const SEARCH_STACK_BYTES: usize = 64 << 20;
/// Deepest `go perft`.
const MAX_PERFT_DEPTH: u32 = 20;
/// Bounds of `go depth` and `go movestogo`.
const MAX_GO_DEPTH: u64 = 100;
const MAX_MOVES_TO_GO: u64 = 1000;

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
    tt: Arc<TransTable>,
    search: Option<Running>,
    options: Vec<OptionDef>,
    values: Values,
}

enum Flow {
    Continue,
    Quit,
}

impl Engine {
    pub fn new(out: Output) -> Self {
        let values = Values::default();
        let session = session::open(&values.game).expect("the default game exists");
        Engine { out, session, tt: Arc::new(TransTable::new(values.hash_mb)), search: None, options: options::table(), values }
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
                    r.control.ponderhit();
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
                for line in crate::describe::piece_lines(self.session.def(), &self.session.piece_values()) {
                    self.say(&line);
                }
            }
            "legal" => self.say(&self.session.legal_move_texts().join(" ")),
            "status" => self.say(&status_line(&*self.session, &self.session.status())),
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
        for o in &self.options {
            self.say(&o.uci_line());
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
        let Some(option) = options::find(&self.options, &name) else {
            return self.error(&format!("unknown option '{name}'"));
        };
        let effect = option.effect;
        match option.parse(value.as_deref()) {
            Ok(v) => {
                if let Err(e) = self.apply(effect, v) {
                    self.error(&e.0);
                }
            }
            Err(e) => self.error(&e.0),
        }
    }

    /// Carries out an option change (the value already checked against the option's type).
    fn apply(&mut self, effect: Effect, value: Value) -> Result<(), OptionError> {
        let error = |e: &dyn std::fmt::Display| OptionError(e.to_string());
        let int = |v: &Value| if let Value::Int(i) = v { *i } else { 0 };
        let choice = |v: &Value| if let Value::Choice(c) = v { c.clone() } else { String::new() };
        match effect {
            Effect::Variant => {
                let id = choice(&value);
                let mut s = session::open(&id).ok_or_else(|| OptionError(format!("unknown variant '{id}'")))?;
                self.stop_search();
                s.set_eval_params(&self.values.eval);
                self.session = s;
                self.values.game = id;
                self.tt.clear();
                self.announce_game();
            }
            Effect::Hash => {
                self.stop_search();
                self.values.hash_mb = usize::try_from(int(&value)).map_err(|e| error(&e))?;
                self.tt = Arc::new(TransTable::new(self.values.hash_mb));
            }
            Effect::Threads => self.values.threads = usize::try_from(int(&value)).map_err(|e| error(&e))?,
            Effect::ClearHash => self.tt.clear(),
            Effect::Ponder => self.values.ponder = value == Value::Bool(true),
            Effect::MultiplayerSearch => {
                self.values.search.algorithm = MultiSearch::parse(&choice(&value)).ok_or_else(|| OptionError("unknown search".into()))?;
            }
            Effect::Eval(param) => {
                let mut next = self.values.eval;
                next.set(param, i32::try_from(int(&value)).map_err(|e| error(&e))?).map_err(|e| error(&e))?;
                self.values.eval = next;
                self.session.set_eval_params(&next);
            }
            Effect::Search(param) => {
                self.values.search.params.set(param, i32::try_from(int(&value)).map_err(|e| error(&e))?).map_err(|e| error(&e))?;
            }
        }
        Ok(())
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

    fn parse_limits(&self, args: &[&str]) -> Result<Limits, String> {
        let def = self.session.def();
        let mut limits = Limits::default();
        let mut i = 0;
        let number = |i: usize| -> Result<u64, String> {
            let tok = args.get(i + 1).ok_or_else(|| format!("'{}' needs a value", args[i]))?;
            tok.parse::<i64>().map(|v| v.max(0).unsigned_abs()).map_err(|_| format!("'{}' needs a number, got '{}'", args[i], tok))
        };
        while i < args.len() {
            let a = args[i];
            // `<letter>time` and `<letter>inc`: a player's clock.
            let player_field = |suffix: &str| -> Option<usize> {
                let mut chars = a.strip_suffix(suffix)?.chars();
                let (Some(c), None) = (chars.next(), chars.next()) else { return None };
                def.player_by_code(c).map(|p| p.index())
            };
            match a {
                "infinite" => limits.infinite = true,
                "ponder" => limits.ponder = true,
                "depth" => limits.depth = Some(number(i)?.clamp(1, MAX_GO_DEPTH) as u32),
                "nodes" => limits.nodes = Some(number(i)?.max(1)),
                "movetime" => limits.movetime = Some(number(i)?),
                "movestogo" => limits.movestogo = Some(number(i)?.clamp(1, MAX_MOVES_TO_GO) as u32),
                "mate" => limits.depth = Some((number(i)?.saturating_mul(2)).clamp(1, MAX_GO_DEPTH) as u32),
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
        let control = Arc::new(Control::new(limits.ponder));
        let out = self.out.clone();
        let session = self.session.boxed_clone();
        let (tt, threads, settings) = (self.tt.clone(), self.values.threads, self.values.search);
        let thread_control = control.clone();
        let answered = Arc::new(AtomicBool::new(false));
        let done = answered.clone();
        let handle = std::thread::Builder::new().stack_size(SEARCH_STACK_BYTES).spawn(move || {
            let session = &*session;
            let request = SearchRequest { limits: &limits, control: &thread_control, tt: &tt, threads, settings };
            let line = catch_unwind(AssertUnwindSafe(|| {
                let result = session.think(&request, &mut |r| emit(&out, &info_line(session, r)));
                bestmove_line(session, &result)
            }))
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
                Ok(d) if d <= MAX_PERFT_DEPTH => d,
                _ => return self.error(&format!("go perft needs a depth from 0 to {MAX_PERFT_DEPTH}")),
            },
            _ => return self.error("go perft needs a depth"),
        };
        if depth == 0 {
            self.say("\nNodes searched: 1");
            return;
        }
        let mut total = 0;
        for (mv, n) in self.session.divide(depth) {
            self.say(&format!("{}: {n}", self.session.move_text(mv)));
            total += n;
        }
        self.say(&format!("\nNodes searched: {total}"));
    }

    fn stop_search(&mut self) {
        if let Some(r) = self.search.take() {
            r.control.stop();
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
