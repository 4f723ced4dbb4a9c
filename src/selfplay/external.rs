//! An outside engine in a match: a program started by command that speaks UCI (or this engine's
//! own protocol, which is UCI extended to more players). Its output is read on a thread of its own
//! so that the match can wait for an answer with a deadline and judge a silent engine.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Longest wait for `uciok` and `readyok`.
const HANDSHAKE: Duration = Duration::from_secs(30);
/// How long a `quit` engine has to exit before it is killed.
const EXIT_WAIT: Duration = Duration::from_secs(1);

/// The lines of `output`, read on a thread of its own until it ends; the channel disconnects then.
pub fn line_reader(output: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(output).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

/// Why an outside engine gave no move.
#[derive(Debug)]
pub enum NoAnswer {
    /// Nothing by the deadline.
    Timeout,
    /// It exited or closed its output; the text says what it last did.
    Gone(String),
}

/// A running outside engine.
pub struct ExternalEngine {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Option names it declared in answer to `uci`, lower case.
    options: Vec<String>,
    /// The values of its `UCI_Variant` option, where it has one.
    variants: Vec<String>,
}

impl ExternalEngine {
    /// Starts `command` (the program and its arguments) and completes the `uci` handshake.
    pub fn start(name: &str, command: &[String]) -> Result<Self, String> {
        let (program, args) = command.split_first().ok_or_else(|| format!("engine '{name}': empty command"))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("engine '{name}': cannot start '{program}': {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let mut engine =
            ExternalEngine { name: name.to_string(), child, stdin, lines: line_reader(stdout), options: Vec::new(), variants: Vec::new() };
        engine.send("uci").map_err(|e| engine.failed(&e))?;
        let declared = engine.read_until("uciok", Instant::now() + HANDSHAKE).map_err(|e| engine.failed(&format!("{e:?}")))?;
        for line in declared {
            let Some(rest) = line.strip_prefix("option name ") else { continue };
            let option = rest.split(" type ").next().unwrap_or(rest).trim().to_lowercase();
            if option == "uci_variant" {
                let tokens: Vec<&str> = rest.split_whitespace().collect();
                engine.variants = tokens.windows(2).filter(|w| w[0] == "var").map(|w| w[1].to_string()).collect();
            }
            engine.options.push(option);
        }
        Ok(engine)
    }

    fn failed(&self, what: &str) -> String {
        format!("engine '{}': {what}", self.name)
    }

    /// Whether it declared the option `name` (case-insensitive, as UCI option names are).
    pub fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    /// Whether its `UCI_Variant` option offers `game`.
    pub fn offers_variant(&self, game: &str) -> bool {
        self.variants.iter().any(|v| v.eq_ignore_ascii_case(game))
    }

    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// `ucinewgame`, then waits until it is ready.
    pub fn new_game(&mut self) -> Result<(), String> {
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.read_until("readyok", Instant::now() + HANDSHAKE).map(|_| ()).map_err(|e| self.failed(&format!("no readyok: {e:?}")))
    }

    pub fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush()).map_err(|e| self.failed(&format!("cannot write to it: {e}")))
    }

    /// Lines up to and including the first whose first word is `word`.
    fn read_until(&mut self, word: &str, deadline: Instant) -> Result<Vec<String>, NoAnswer> {
        let mut out = Vec::new();
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(wait) {
                Ok(line) => {
                    let done = line.split_whitespace().next() == Some(word);
                    out.push(line);
                    if done {
                        return Ok(out);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err(NoAnswer::Timeout),
                Err(RecvTimeoutError::Disconnected) => {
                    let last = out.last().cloned().unwrap_or_default();
                    return Err(NoAnswer::Gone(format!("exited (last line: '{last}')")));
                }
            }
        }
    }

    /// Sends `position` and `go`, and returns the move of its `bestmove` line (`(none)` when it
    /// has none), waiting until `deadline`.
    pub fn best_move(&mut self, position: &str, go: &str, deadline: Instant) -> Result<String, NoAnswer> {
        self.send(position).and_then(|()| self.send(go)).map_err(NoAnswer::Gone)?;
        let lines = self.read_until("bestmove", deadline)?;
        let last = lines.last().map(String::as_str).unwrap_or_default();
        Ok(last.split_whitespace().nth(1).unwrap_or("(none)").to_string())
    }
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        let _ = self.send("stop");
        let _ = self.send("quit");
        let until = Instant::now() + EXIT_WAIT;
        while Instant::now() < until {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
