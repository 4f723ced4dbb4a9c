//! Bad input through the binary: one clear `info string error: ...` line, the previous position
//! unchanged, and the engine still answering.

use crate::common::EngineProcess;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

fn single_error(out: &[String], what: &str) {
    assert_eq!(out.len(), 1, "{what}: expected exactly one line, got {out:?}");
    assert!(out[0].starts_with("info string error: "), "{what}: {out:?}");
}

#[test]
fn bad_input_is_reported_and_changes_nothing() {
    let mut e = EngineProcess::start();
    assert!(e.command("position startpos moves e2e4").is_empty());
    assert_eq!(e.command("fen"), vec![AFTER_E4]);

    let bad_lines = [
        // malformed FENs
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBXR w KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - zero 1",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen",
        "position",
        "position somewhere",
        // illegal and malformed moves
        "position startpos moves e2e5",
        "position startpos moves e2e4 e7e5 e1e3",
        "position startpos moves e2e4 xyz",
        "position startpos moves e7e8q",
        // unknown commands and bad option values
        "frobnicate",
        "setoption name UCI_Variant value no-such-game",
        "setoption name Hash value lots",
        "setoption name Hash value 0",
        "setoption name Threads value -3",
        "setoption name NoSuchOption value 1",
        "setoption value 3",
        "go perft",
        "go perft many",
    ];
    for line in bad_lines {
        let out = e.command(line);
        single_error(&out, line);
        assert_eq!(e.command("fen"), vec![AFTER_E4], "position changed after: {line}");
    }
    // Error texts name what was wrong.
    let out = e.command("position startpos moves e2e4 e7e5 e1e3");
    assert!(out[0].contains("e1e3") && out[0].contains("illegal"), "{out:?}");
    let out = e.command("position startpos moves e2e4 xyz");
    assert!(out[0].contains("xyz") && out[0].contains("malformed"), "{out:?}");
    let out = e.command("frobnicate");
    assert!(out[0].contains("frobnicate"), "{out:?}");

    // The engine still works.
    assert!(e.command("position startpos").is_empty());
    assert_eq!(e.command("fen"), vec![START]);
    e.send("go depth 3");
    let out = e.read_until(|l| l.starts_with("bestmove"), std::time::Duration::from_secs(60));
    assert!(out.last().unwrap().starts_with("bestmove "));
    assert!(e.quit().success());
}

#[test]
fn binary_garbage_does_not_kill_the_engine() {
    let mut e = EngineProcess::start();
    for line in ["\u{0}\u{1}\u{2}", "position fen \u{7f}\u{7f}", "go perft 99999999999999999999", "setoption name", "   ", "\t\t"] {
        let out = e.command(line);
        assert!(out.len() <= 1, "{line:?}: {out:?}");
        assert!(out.iter().all(|l| l.starts_with("info string error: ")), "{line:?}: {out:?}");
    }
    assert_eq!(e.command("fen"), vec![START]);
    assert!(e.quit().success());
}

#[test]
fn extreme_numbers_in_position_strings() {
    let mut e = EngineProcess::start();
    let out = e.command("position fen rnbqkbnr/pppppppp/18446744073709551615/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
    assert_eq!(out.len(), 1);
    assert!(out[0].starts_with("info string error: "), "{out:?}");
    // Counters at their largest still allow moves (they saturate rather than wrap).
    assert!(e.command("position fen 4k3/8/8/8/8/8/8/4K3 w - - 4294967295 4294967295 moves e1e2 e8e7").is_empty());
    assert_eq!(e.command("fen"), vec!["8/4k3/8/8/8/8/4K3/8 w - - 4294967295 4294967295"]);
    assert!(e.quit().success());
}

/// Every `go` ends in a `bestmove`: bad or unknown parameters are skipped, named in one error
/// line per `go` however many there are, out-of-range values are clamped.
#[test]
fn every_go_answers() {
    let mut e = EngineProcess::start();
    assert!(e.command("position startpos moves e2e4").is_empty());
    for (line, warnings) in [
        ("go wtime soon depth 2", 1),
        ("go a b c d e f g h depth 2", 1),
        ("go depth 99999999999999999999 movetime 100", 0),
        ("go frobnicate depth 2", 1),
        ("go searchmoves e2e5 d7d5 depth 2", 1),
        ("go movestogo 0 wtime 300 btime 300", 0),
        ("go nodes -5", 0),
    ] {
        e.send(line);
        let out = e.read_until(|l| l.starts_with("bestmove"), std::time::Duration::from_secs(60));
        let errors = out.iter().filter(|l| l.starts_with("info string error: ")).count();
        assert_eq!(errors, warnings, "{line}: {out:?}");
        assert!(out.last().is_some_and(|l| l.starts_with("bestmove ") && l != "bestmove (none)"), "{line}: {out:?}");
    }
    // `searchmoves` restricts the root: only d7d5 was legal among those given.
    e.send("go searchmoves d7d5 e7e5 depth 3");
    let out = e.read_until(|l| l.starts_with("bestmove"), std::time::Duration::from_secs(60));
    let best = out.last().expect("bestmove");
    assert!(best.starts_with("bestmove d7d5") || best.starts_with("bestmove e7e5"), "{best}");
    e.send("go searchmoves g8f6 depth 3");
    let out = e.read_until(|l| l.starts_with("bestmove"), std::time::Duration::from_secs(60));
    assert!(out.last().is_some_and(|l| l.starts_with("bestmove g8f6")), "{out:?}");
    // A `go` without a value searches until `stop`.
    e.send("go depth");
    std::thread::sleep(std::time::Duration::from_millis(300));
    e.send("stop");
    let out = e.read_until(|l| l.starts_with("bestmove"), std::time::Duration::from_secs(10));
    assert!(out.last().is_some_and(|l| l.starts_with("bestmove ")), "{out:?}");
    assert!(e.quit().success());
}

/// Control bytes in bad input come back escaped, on one line.
#[test]
fn control_bytes_in_errors_are_escaped() {
    let mut e = EngineProcess::start();
    let out = e.command("frob\u{1b}[2J\u{7}nicate");
    single_error(&out, "control bytes");
    assert!(out[0].contains("frob\\u{1b}[2J\\u{7}nicate") && !out[0].chars().any(char::is_control), "{out:?}");
    assert!(e.quit().success());
}

/// The command line's bad arguments: an error and exit status 2, no endless count.
#[test]
fn command_line_bounds() {
    let run = |args: &[&str]| std::process::Command::new(env!("CARGO_BIN_EXE_tessera")).args(args).output().expect("runs");
    for args in [&["perft", "99"][..], &["perft", "21"], &["bench", "--game", "nope"], &["bench", "--game", "honeycomb3-double"]] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("error"), "{args:?}");
    }
    let out = run(&["perft", "0"]);
    assert!(out.status.success() && String::from_utf8_lossy(&out.stdout).starts_with("\nNodes searched: 1\n"), "{out:?}");
}

/// What the position-string reader accepts beyond the standard (protocol.md, `position`).
#[test]
fn lenient_position_strings_as_documented() {
    let mut e = EngineProcess::start();
    for (input, read) in [
        ("position fen 4k3/8/8/8/8/8/8/4K3", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        ("position fen 4k3/8/8/8/8/8/8/4K3 b - - 7", "4k3/8/8/8/8/8/8/4K3 b - - 7 1"),
        ("position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 0", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        ("position fen P3k3/8/8/8/8/8/8/4K2p w - - 0 1", "P3k3/8/8/8/8/8/8/4K2p w - - 0 1"),
        ("position startpos moves E2E4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
    ] {
        assert!(e.command(input).is_empty(), "{input}");
        assert_eq!(e.command("fen"), vec![read.to_string()], "{input}");
    }
    assert!(e.quit().success());
}
