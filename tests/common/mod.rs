//! Drives the `tessera` binary through the protocol.

pub mod server;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use tessera::search::{Control, HelperPool, Heuristics, Limits, MultiSearch, SearchSettings};
use tessera::selfplay::line_reader;
use tessera::session::{SearchRequest, SearchResult, Session};
use tessera::tt::TransTable;

pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl EngineProcess {
    pub fn start() -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start tessera");
        let stdin = child.stdin.take().expect("stdin");
        let stdout: ChildStdout = child.stdout.take().expect("stdout");
        EngineProcess { child, stdin, lines: line_reader(stdout) }
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("engine accepts input");
        self.stdin.flush().expect("flush");
    }

    /// Lines up to and including the first one for which `done` holds.
    pub fn read_until(&mut self, done: impl Fn(&str) -> bool, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let stop = done(&l);
                    out.push(l);
                    if stop {
                        return out;
                    }
                }
                Err(_) => panic!("engine did not answer in time; got so far: {out:#?}"),
            }
        }
    }

    /// The next output line, if one arrives in time.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        self.lines.recv_timeout(timeout).ok()
    }

    /// Sends `line`, then `isready`, and returns everything printed before `readyok`.
    pub fn command(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.sync()
    }

    /// Sends `line` and returns everything printed up to and including the first line that
    /// starts with `last` (for commands that answer on their own thread: `go perft`, `bench`).
    pub fn until(&mut self, line: &str, last: &str) -> Vec<String> {
        self.send(line);
        self.read_until(|l| l.starts_with(last), Duration::from_secs(120))
    }

    /// Sends `isready` and returns everything printed before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut out = self.read_until(|l| l == "readyok", Duration::from_secs(60));
        out.pop();
        out
    }

    pub fn quit(mut self) -> std::process::ExitStatus {
        self.send("quit");
        self.wait_exit()
    }

    /// A figure of the engine process's `/proc/PID/status` (`VmHWM` in KiB, `Threads`).
    pub fn status(&self, field: &str) -> u64 {
        proc_status(self.child.id(), field)
    }

    /// Waits (at most 10 s) for the engine to exit.
    pub fn wait_exit(mut self) -> std::process::ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "engine did not quit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// A figure of process `pid`'s `/proc/PID/status` (`VmRSS`, `VmHWM` in KiB, `Threads`; Linux).
pub fn proc_status(pid: u32, field: &str) -> u64 {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the process's status");
    let line = text.lines().find_map(|l| l.strip_prefix(field)?.strip_prefix(':')).expect("the field");
    line.split_whitespace().next().and_then(|v| v.parse().ok()).expect("a number")
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

/// A session's status with players named, as the protocol's `status` line gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusText {
    pub over: bool,
    /// `checkmate`, `fifty-move rule`, ..., empty while the game goes on.
    pub reason: String,
    pub winner: Option<String>,
    pub active: Vec<String>,
    /// (eliminated player, eliminated by), in order of elimination.
    pub eliminated: Vec<(String, String)>,
    /// Best first; players sharing a place joined by `=`.
    pub placings: Vec<String>,
}

/// Text views of a session for the tests: moves, players and the status by name.
pub trait SessionText {
    fn status_text(&self) -> StatusText;
    fn to_move_name(&self) -> String;
}

impl SessionText for Box<dyn Session> {
    fn status_text(&self) -> StatusText {
        let s = self.status();
        let name = |p| self.player_name(p).to_string();
        StatusText {
            over: s.is_over(),
            reason: s.end.map(|e| e.reason.name().to_string()).unwrap_or_default(),
            winner: s.winner().map(name),
            active: s.active.iter().map(name).collect(),
            eliminated: s.eliminated.iter().map(|&(v, m)| (name(v), name(m))).collect(),
            placings: s.placings.iter().map(|set| set.iter().map(name).collect::<Vec<_>>().join("=")).collect(),
        }
    }

    fn to_move_name(&self) -> String {
        self.player_name(self.to_move()).to_string()
    }
}

/// Searches a session's position with `limits`, one thread, a small table and the default
/// settings (`algorithm` with three or more players).
pub fn think(s: &dyn Session, limits: &Limits, algorithm: MultiSearch) -> SearchResult {
    think_with(s, limits, algorithm, &TransTable::new(4).expect("a small table"), &Heuristics::default())
}

/// [`think`] with a given table and heuristics, which a game keeps from move to move as the
/// engine does.
pub fn think_with(s: &dyn Session, limits: &Limits, algorithm: MultiSearch, tt: &TransTable, heuristics: &Heuristics) -> SearchResult {
    let control = Control::default();
    let settings = SearchSettings { algorithm, ..SearchSettings::default() };
    s.think(&SearchRequest { limits, control: &control, tt, heuristics, helpers: &HelperPool::default(), settings }, &mut |_| {})
}

/// The best move found, as text.
pub fn best_text(s: &dyn Session, result: &SearchResult) -> Option<String> {
    result.best.map(|m| s.move_text(m))
}

/// A fresh directory for one test's files, removed when the test passes (kept for its logs when
/// it fails), so that test runs do not pile up directories in the system's temporary folder.
pub fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("tessera-match-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    Scratch(dir)
}

/// See [`scratch`].
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Runs `tessera match ARGS`; returns its output, failing on a non-zero exit.
pub fn tessera_match(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tessera")).arg("match").args(args).output().expect("tessera runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "tessera match {args:?}\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    stdout
}

/// The summary lines of a match or merge: everything after its first line, less the time.
pub fn totals(output: &str) -> Vec<String> {
    let lines: Vec<&str> = output.lines().filter(|l| !l.starts_with("game ") && !l.starts_with("time ")).collect();
    lines[1..].iter().map(|l| l.to_string()).collect()
}

pub fn json_lines(path: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).expect("JSON lines written");
    text.lines().map(|l| serde_json::from_str(l).expect("one JSON object per line")).collect()
}
