//! The text protocol, in the manner of UCI (specified for GUI authors in `protocol.md`).
//!
//! Commands are read line by line. Long work (`go`, `go perft`, `bench`) runs as a job on its
//! own thread, so `stop`, `ponderhit`, `isready` and `quit` are answered while it runs. Other
//! commands wait for a running count (`go perft`, `bench`) to finish, as if it ran on the input
//! thread, and are answered during a search. Every bad line gets one `info string error: ...`
//! line and changes nothing. The options are in
//! [`options`], `go`'s parameters in [`go`], the text of the answers in [`format`].

mod format;
mod go;
pub mod options;

use std::io::{BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crate::bench::{self, BenchKind};
use crate::moves::{Man, Move};
use crate::search::{Control, HelperPool, Heuristics, Limits, MultiSearch};
use crate::session::{self, SearchRequest, Session};
use crate::tt::TransTable;
pub use format::{InfoStyle, bench_line, bench_summary, bestmove_line, eval_lines, info_line, status_line, wdl};
pub use options::EngineLimits;
use options::{Effect, OptionDef, OptionError, Value, Values};

pub const ENGINE_NAME: &str = concat!("tessera ", env!("CARGO_PKG_VERSION"));
/// Stack of the job thread: deep searches recurse.
const JOB_STACK_BYTES: usize = 64 << 20;
/// Deepest `go perft` (and `tessera perft`).
pub const MAX_PERFT_DEPTH: u32 = 20;
/// Longest quotation of the input in an error line, in characters.
const MAX_QUOTE_CHARS: usize = 60;

/// Where protocol output goes (stdout in the binary, a buffer in tests).
pub type Output = Arc<Mutex<dyn Write + Send>>;

fn emit(out: &Output, text: &str) {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(w, "{text}");
    let _ = w.flush();
}

/// Shortens every `'quoted'` part of an error message to at most [`MAX_QUOTE_CHARS`] characters,
/// so that a long line of input does not come back whole.
fn limit_quotes(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len().min(4 * MAX_QUOTE_CHARS));
    for (i, part) in msg.split('\'').enumerate() {
        if i > 0 {
            out.push('\'');
        }
        if i % 2 == 1 && part.chars().count() > MAX_QUOTE_CHARS {
            out.extend(part.chars().take(MAX_QUOTE_CHARS - 3));
            out.push_str("...");
        } else {
            out.push_str(part);
        }
    }
    out
}

/// Control characters (NUL, ESC, line breaks) written as Rust escapes (`\u{1b}`), so that an error
/// line quoting the input is one line of plain text.
fn printable(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len());
    for c in msg.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// What a job does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum JobKind {
    Search,
    /// `go perft` or `bench`: commands that follow wait for it.
    Count,
}

/// Long work on its own thread: a search, a perft or the benchmark.
struct Job {
    kind: JobKind,
    control: Arc<Control>,
    /// Set just before the job's last answer is printed, so that a `go` right after it is
    /// accepted.
    answered: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

/// A job's work: it may print as it goes, and returns its last answer.
type Work = Box<dyn FnOnce(&Output, &Control) -> String + Send>;

pub struct Engine {
    out: Output,
    session: Box<dyn Session>,
    tt: Arc<TransTable>,
    /// What the searches of the game learned about moves, kept and emptied with the table.
    heuristics: Arc<Heuristics>,
    /// The search's helper threads, started at `setoption name Threads` and kept.
    helpers: Arc<HelperPool>,
    job: Option<Job>,
    options: Vec<OptionDef>,
    values: Values,
    /// The position as the last `position` command gave it: its base (`None`: the start) and the
    /// moves played from there, for `record`.
    line: (Option<String>, Vec<String>),
}

enum Flow {
    Continue,
    Quit,
}

impl Engine {
    pub fn new(out: Output) -> Self {
        Engine::with_limits(out, EngineLimits::default())
    }

    /// An engine whose `Threads` and `Hash` stay within `limits`.
    pub fn with_limits(out: Output, limits: EngineLimits) -> Self {
        let mut values = Values::default();
        values.hash_mb = values.hash_mb.min(limits.max_hash_mb).max(1);
        let session = session::open(&values.game).expect("the default game exists");
        let tt = TransTable::new(values.hash_mb).expect("the default table fits");
        Engine {
            out,
            session,
            tt: Arc::new(tt),
            heuristics: Arc::default(),
            helpers: Arc::default(),
            job: None,
            options: options::table(limits),
            values,
            line: (None, Vec::new()),
        }
    }

    fn say(&self, line: &str) {
        emit(&self.out, line);
    }

    fn error(&self, msg: &str) {
        self.say(&format!("info string error: {}", printable(&limit_quotes(msg))));
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
        // The end of the input: a count finishes, a search stops.
        self.finish_count();
        self.stop_job();
    }

    fn command(&mut self, line: &str) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = tokens.first() else { return Flow::Continue };
        let args = &tokens[1..];
        if !matches!(cmd, "isready" | "stop" | "quit" | "ponderhit" | "debug") {
            self.finish_count();
        }
        match cmd {
            "uci" => self.uci(),
            "isready" => self.say("readyok"),
            "debug" => match args {
                ["on" | "off"] => {}
                _ => self.error("debug needs 'on' or 'off'"),
            },
            "ucinewgame" => {
                self.stop_job();
                self.clear_memory();
                let _ = self.session.set_position(None, &[]);
                self.line = (None, Vec::new());
            }
            "record" if args.is_empty() => self.replay_line("record", |s, mv| s.move_record(mv)),
            "played" if args.is_empty() => self.replay_line("played", |s, mv| s.move_text(mv)),
            "reach" => self.reach(args),
            "setoption" => self.setoption(args),
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" => self.stop_job(),
            "ponderhit" => {
                if let Some(job) = &self.job {
                    job.control.ponderhit();
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
            "board" => {
                for line in crate::describe::board_lines(self.session.def(), &self.session.men()) {
                    self.say(&line);
                }
            }
            "eval" => {
                for line in eval_lines(&*self.session, &self.session.eval_breakdown()) {
                    self.say(&line);
                }
            }
            "status" => self.say(&status_line(&*self.session, &self.session.status())),
            "bench" => self.bench(args),
            "quit" => {
                self.stop_job();
                return Flow::Quit;
            }
            _ => self.error(&format!("unknown command '{cmd}'")),
        }
        Flow::Continue
    }

    fn uci(&self) {
        self.say(&format!("id name {ENGINE_NAME}"));
        self.say("id author the tessera developers");
        let own = self.session.profile().eval.params;
        for o in &self.options {
            self.say(&o.uci_line(&own));
        }
        self.say("uciok");
    }

    fn announce_game(&self) {
        let def = self.session.def();
        let players: Vec<String> = def.players.iter().map(|p| format!("{}:{}", p.code, p.name)).collect();
        let mut line = format!(
            "info string game {} players {} cells {} levels {}",
            def.id,
            players.join(","),
            def.geometry.len(),
            def.geometry.levels
        );
        if let Some(rule) = &def.rules.teams {
            let teams: Vec<String> =
                rule.teams.iter().map(|t| t.iter().map(|&p| def.players[p].code.to_string()).collect::<Vec<_>>().join("+")).collect();
            line.push_str(&format!(" teams {}", teams.join(",")));
        }
        self.say(&line);
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
        if let Err(e) = option.parse(value.as_deref()).and_then(|v| self.apply(effect, v)) {
            self.error(&e.0);
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
                self.stop_job();
                s.set_eval_overrides(&self.values.eval);
                self.session = s;
                self.line = (None, Vec::new());
                self.values.game = id;
                self.clear_memory();
                self.announce_game();
            }
            Effect::Hash => {
                let mb = usize::try_from(int(&value)).map_err(|e| error(&e))?;
                self.stop_job();
                // The new table is had lazily from the system, so this is quick whatever the size;
                // if it cannot be had the old one stays.
                self.tt = Arc::new(TransTable::new(mb).map_err(|e| error(&e))?);
                self.values.hash_mb = mb;
            }
            Effect::Threads => {
                let threads = usize::try_from(int(&value)).map_err(|e| error(&e))?;
                if threads != self.helpers.threads() {
                    self.stop_job();
                    self.helpers = Arc::new(HelperPool::new(threads).map_err(OptionError)?);
                }
            }
            Effect::MoveOverhead => self.values.move_overhead = int(&value).unsigned_abs(),
            Effect::SlowMover => self.values.slow_mover = int(&value).unsigned_abs(),
            Effect::ClearHash => self.clear_memory(),
            Effect::Ponder => self.values.ponder = value == Value::Bool(true),
            Effect::MultiPv => self.values.search.multi_pv = usize::try_from(int(&value)).map_err(|e| error(&e))?,
            Effect::LimitStrength => self.values.limit_strength = value == Value::Bool(true),
            Effect::Elo => self.values.elo = int(&value),
            Effect::SkillLevel => self.values.skill_level = int(&value),
            Effect::ShowWdl => self.values.show_wdl = value == Value::Bool(true),
            Effect::AnalyseMode => self.values.analyse_mode = value == Value::Bool(true),
            Effect::MultiplayerSearch => {
                self.values.search.algorithm = MultiSearch::parse(&choice(&value)).ok_or_else(|| OptionError("unknown search".into()))?;
            }
            Effect::Eval(param) => {
                let mut next = self.values.eval.clone();
                next.set(param, i32::try_from(int(&value)).map_err(|e| error(&e))?).map_err(|e| error(&e))?;
                self.session.set_eval_overrides(&next);
                self.values.eval = next;
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
        match self.session.set_position(fen.as_deref(), moves) {
            Ok(()) => self.line = (fen, moves.iter().map(|m| m.to_string()).collect()),
            Err(e) => self.error(&e.0),
        }
    }

    /// `record`: the moves of the position as a record shows them to a reader, replayed from its
    /// base.
    /// `record` (the moves as a record writes them) and `played` (as move strings): the moves of
    /// the last `position` command, replayed from its base.
    fn replay_line(&self, answer: &str, write: impl Fn(&dyn Session, Move) -> String) {
        let (base, moves) = &self.line;
        let Some(mut replay) = session::open(&self.session.def().id) else { return };
        let mut texts = Vec::with_capacity(moves.len());
        if replay.set_position(base.as_deref(), &[]).is_ok() {
            for text in moves {
                let Ok(mv) = replay.parse_move(text) else { break };
                texts.push(write(&*replay, mv));
                if replay.play(mv).is_err() {
                    break;
                }
            }
        }
        self.say(&format!("{answer}{}", texts.iter().map(|t| format!(" {t}")).collect::<String>()));
    }

    /// `reach <cell> [<player letter> <piece code>]`: the cells the man on `cell` (or the man
    /// named) reaches from there on an otherwise empty board.
    fn reach(&self, args: &[&str]) {
        let def = self.session.def();
        let man = match args {
            [cell] => def.geometry.cell_by_name(cell).ok_or(format!("unknown cell '{cell}'")).and_then(|c| {
                let man = self.session.men().into_iter().find(|&(at, _)| at == c).map(|(_, m)| m);
                man.map(|m| (c, m)).ok_or(format!("no man on {cell}"))
            }),
            [cell, player, code] => (|| {
                let c = def.geometry.cell_by_name(cell).ok_or(format!("unknown cell '{cell}'"))?;
                let owner =
                    player.parse::<char>().ok().and_then(|p| def.player_by_code(p)).ok_or(format!("'{player}' is not a player letter"))?;
                let kind = def.piece_by_code(code).ok_or(format!("unknown piece '{code}'"))?;
                Ok((c, Man::new(kind, owner, owner)))
            })(),
            _ => Err("reach needs a cell, or a cell, a player letter and a piece code".to_string()),
        };
        match man {
            Ok((from, man)) => {
                let cells: String = self.session.reach(from, man).into_iter().map(|c| format!(" {}", def.geometry.name(c))).collect();
                self.say(&format!("reach {}{cells}", def.geometry.name(from)));
            }
            Err(e) => self.error(&e),
        }
    }

    /// Whether a job is still working (a new one must wait for `stop`).
    fn busy(&self) -> bool {
        self.job.as_ref().is_some_and(|j| !j.answered.load(Ordering::SeqCst))
    }

    /// Runs `work` as the job; its returned text is printed last. `on_panic` is printed instead
    /// if it fails.
    fn start_job(&mut self, kind: JobKind, control: Control, on_panic: &'static str, work: Work) {
        if self.busy() {
            return self.error("a command is still running; send 'stop' first");
        }
        self.stop_job();
        let control = Arc::new(control);
        let job_control = control.clone();
        let out = self.out.clone();
        let answered = Arc::new(AtomicBool::new(false));
        let done = answered.clone();
        let handle = std::thread::Builder::new().stack_size(JOB_STACK_BYTES).spawn(move || {
            let last = catch_unwind(AssertUnwindSafe(|| work(&out, &job_control))).unwrap_or_else(|_| on_panic.to_string());
            done.store(true, Ordering::SeqCst);
            emit(&out, &last);
        });
        match handle {
            Ok(handle) => self.job = Some(Job { kind, control, answered, handle }),
            Err(e) => self.error(&format!("cannot start a thread: {e}")),
        }
    }

    /// Forgets what the searches of the game stored and learned (the table, the heuristics).
    fn clear_memory(&self) {
        self.tt.clear();
        self.heuristics.clear();
    }

    fn go(&mut self, args: &[&str]) {
        if args.first() == Some(&"perft") {
            return self.perft(&args[1..]);
        }
        if self.busy() {
            return self.error("a command is still running; send 'stop' first");
        }
        let go = go::parse(&*self.session, args);
        if let Some(line) = go.warning_line() {
            self.error(&line);
        }
        let session = self.session.boxed_clone();
        let (tt, heuristics) = (self.tt.clone(), self.heuristics.clone());
        let (helpers, settings) = (self.helpers.clone(), self.values.search_settings());
        let style = InfoStyle { show_wdl: self.values.show_wdl, ply: session.game_ply() };
        let limits = Limits { move_overhead: self.values.move_overhead, slow_mover: Some(self.values.slow_mover), ..go.limits };
        let control = Control::new(limits.ponder);
        let work: Work = Box::new(move |out, control| {
            let session = &*session;
            let request = SearchRequest { limits: &limits, control, tt: &tt, heuristics: &heuristics, helpers: &helpers, settings };
            let result = session.think(&request, &mut |info| emit(out, &info_line(session, info, style)));
            bestmove_line(session, &result)
        });
        self.start_job(JobKind::Search, control, "info string error: internal error in search\nbestmove (none)", work);
    }

    fn perft(&mut self, args: &[&str]) {
        let depth = match args {
            [d] => match d.parse::<u32>() {
                Ok(d) if d <= MAX_PERFT_DEPTH => d,
                _ => return self.error(&format!("go perft needs a depth from 0 to {MAX_PERFT_DEPTH}")),
            },
            _ => return self.error("go perft needs a depth"),
        };
        let session = self.session.boxed_clone();
        let work: Work = Box::new(move |out, control| {
            if depth == 0 {
                return "\nNodes searched: 1".to_string();
            }
            let mut total = 0;
            let done = session.divide_until(depth, control.stop_flag(), &mut |mv, n| {
                emit(out, &format!("{}: {n}", session.move_text(mv)));
                total += n;
            });
            if done { format!("\nNodes searched: {total}") } else { "info string perft stopped".to_string() }
        });
        self.start_job(JobKind::Count, Control::default(), "info string error: internal error in perft", work);
    }

    fn bench(&mut self, args: &[&str]) {
        let game = match args {
            [] => None,
            [game] if bench::has_game(game) => Some(game.to_string()),
            [game] => return self.error(&format!("no bench positions for '{game}'")),
            _ => return self.error("bench takes at most a game id"),
        };
        let work: Work = Box::new(move |out, control| {
            let lines = bench::run(game.as_deref(), control, |l| emit(out, &bench_line(l)));
            if control.is_stopped() {
                return "info string bench stopped".to_string();
            }
            bench_summary(&bench::totals(&lines, BenchKind::Perft), &bench::totals(&lines, BenchKind::Search)).join("\n")
        });
        self.start_job(JobKind::Count, Control::default(), "info string error: internal error in bench", work);
    }

    fn stop_job(&mut self) {
        if let Some(job) = self.job.take() {
            job.control.stop();
            let _ = job.handle.join();
        }
    }

    /// Waits for a running count (`go perft`, `bench`) to finish.
    fn finish_count(&mut self) {
        if self.job.as_ref().is_some_and(|j| j.kind == JobKind::Count)
            && let Some(job) = self.job.take()
        {
            let _ = job.handle.join();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_quotes_are_shortened() {
        let long = "x".repeat(5000);
        let msg = limit_quotes(&format!("unknown command '{long}'"));
        assert_eq!(msg.len(), "unknown command ''".len() + MAX_QUOTE_CHARS);
        assert!(msg.ends_with("...'"));
        assert_eq!(limit_quotes("illegal move 'e1e3'"), "illegal move 'e1e3'");
    }

    #[test]
    fn control_bytes_are_escaped() {
        assert_eq!(printable("unknown command 'a\0b\u{1b}[2Jc\td'"), "unknown command 'a\\u{0}b\\u{1b}[2Jc\\td'");
        assert_eq!(printable("illegal move 'é1e3'"), "illegal move 'é1e3'");
    }
}
