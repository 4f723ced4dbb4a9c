//! Search and evaluation options through the binary: evaluation parameters and (with three or
//! four players) the choice of search.

mod common;

use std::time::Duration;

use common::EngineProcess;

/// Sends the lines, then waits for `bestmove`; returns everything printed.
fn run(lines: &[&str]) -> Vec<String> {
    let mut e = EngineProcess::start();
    for l in lines {
        e.send(l);
    }
    let out = e.read_until(|l| l.starts_with("bestmove"), Duration::from_secs(60));
    assert!(e.quit().success());
    out
}

/// The score of the last `info depth <depth>` line.
fn score_at(out: &[String], depth: u32) -> i32 {
    let prefix = format!("info depth {depth} ");
    let line = out.iter().rfind(|l| l.starts_with(&prefix)).unwrap_or_else(|| panic!("no depth {depth} in {out:?}"));
    let mut words = line.split_whitespace().skip_while(|&w| w != "cp");
    words.nth(1).and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("no cp score in {line}"))
}

#[test]
fn evaluation_parameters_are_options() {
    let mut e = EngineProcess::start();
    let out = e.command("uci");
    assert!(out.iter().any(|l| l == "option name Eval_tempo type spin default 10 min 0 max 100"), "{out:?}");
    assert!(out.iter().any(|l| l == "option name Eval_centrality_quarter type spin default 12 min 0 max 200"));
    assert!(e.quit().success());
    // From the start position a depth-2 search ends in quiet positions with the root player to
    // move: the tempo is all that changes the score.
    let base = score_at(&run(&["go depth 2"]), 2);
    assert_eq!(score_at(&run(&["setoption name Eval_tempo value 60", "go depth 2"]), 2), base + 50);
    // Kept across a change of game; option names are case-insensitive.
    let out = run(&["setoption name eval_TEMPO value 60", "setoption name UCI_Variant value chess", "go depth 2"]);
    assert_eq!(score_at(&out, 2), base + 50);
    // Without tempo, centrality and pawn advance the symmetric start is level.
    let out = run(&[
        "setoption name Eval_tempo value 0",
        "setoption name Eval_centrality_quarter value 0",
        "setoption name Eval_pawn_advance value 0",
        "go depth 2",
    ]);
    assert_eq!(score_at(&out, 2), 0);
}

#[test]
fn bad_evaluation_options_are_errors() {
    let base = score_at(&run(&["go depth 2"]), 2);
    for (line, msg) in [
        ("setoption name Eval_tempo value 101", "info string error: Eval_tempo must be an integer from 0 to 100"),
        ("setoption name Eval_tempo value x", "info string error: Eval_tempo must be an integer from 0 to 100"),
        ("setoption name Eval_tempo", "info string error: Eval_tempo must be an integer from 0 to 100"),
        ("setoption name Eval_nothing value 1", "info string error: unknown option 'Eval_nothing'"),
    ] {
        let out = run(&[line, "go depth 2"]);
        assert_eq!(out.first().map(String::as_str), Some(msg), "{line}");
        // Nothing changed.
        assert_eq!(score_at(&out, 2), base, "{line}");
    }
}
