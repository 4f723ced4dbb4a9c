//! Every example session in `protocol.md` is run against the binary, so the document cannot
//! drift from the engine. A session is a fenced block marked `session`: `> ` lines are sent,
//! `< ` lines are expected in order. In an expected line `*` matches any text; a line `< ...`
//! matches any number of lines (up to the next expected line that matches).

use crate::common::EngineProcess;
use std::time::Duration;

fn glob(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let Some(mut rest) = text.strip_prefix(parts[0]) else { return false };
    for (i, part) in parts.iter().enumerate().skip(1) {
        if i == parts.len() - 1 {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

enum Step {
    Send(String),
    Expect(String),
    AnyLines,
}

fn sessions(doc: &str) -> Vec<(usize, Vec<Step>)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, Vec<Step>)> = None;
    for (n, line) in doc.lines().enumerate() {
        let t = line.trim_end();
        if t.trim_start() == "```session" {
            current = Some((n + 1, Vec::new()));
        } else if t.trim_start() == "```" {
            if let Some(s) = current.take() {
                out.push(s);
            }
        } else if let Some((_, steps)) = current.as_mut() {
            if let Some(cmd) = t.strip_prefix("> ") {
                steps.push(Step::Send(cmd.to_string()));
            } else if t == "< ..." {
                steps.push(Step::AnyLines);
            } else if let Some(exp) = t.strip_prefix("< ") {
                steps.push(Step::Expect(exp.to_string()));
            } else if t == "<" {
                steps.push(Step::Expect(String::new()));
            } else if !t.is_empty() {
                panic!("protocol.md line {}: session lines start with '> ' or '< ': {t}", n + 1);
            }
        }
    }
    out
}

fn run(start_line: usize, steps: &[Step]) {
    let mut e = EngineProcess::start();
    let mut skipping = false;
    let mut i = 0;
    while i < steps.len() {
        match &steps[i] {
            Step::Send(cmd) => e.send(cmd),
            Step::AnyLines => skipping = true,
            Step::Expect(pattern) => loop {
                let Some(line) = e.next_line(Duration::from_secs(60)) else {
                    panic!("protocol.md session at line {start_line}: no line arrived, expected '{pattern}'")
                };
                if glob(pattern, &line) {
                    skipping = false;
                    break;
                }
                assert!(skipping, "protocol.md session at line {start_line}: expected '{pattern}', got '{line}'");
            },
        }
        i += 1;
    }
    if matches!(steps.last(), Some(Step::Send(cmd)) if cmd == "quit") {
        assert!(e.wait_exit().success(), "protocol.md session at line {start_line}: bad exit");
        return;
    }
    // Nothing unexpected may follow, unless the session ends with `< ...`.
    let rest = e.sync();
    assert!(skipping || rest.is_empty(), "protocol.md session at line {start_line}: unexpected output {rest:?}");
    assert!(e.quit().success());
}

#[test]
fn glob_matches() {
    assert!(glob("info depth * pv e2e4*", "info depth 3 nodes 5 pv e2e4 e7e5"));
    assert!(glob("bestmove *", "bestmove e2e4"));
    assert!(!glob("bestmove e2e4", "bestmove e2e3"));
    assert!(glob("a*c*e", "abcde"));
    assert!(!glob("a*c*e", "abcdf"));
}

#[test]
fn every_example_session_in_protocol_md() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md")).expect("protocol.md");
    let all = sessions(&doc);
    assert!(all.len() >= 3, "protocol.md should hold example sessions, found {}", all.len());
    for (line, steps) in &all {
        run(*line, steps);
    }
}
