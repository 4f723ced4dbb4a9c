//! A scripted session per game through the binary, covering every command of `protocol.md`:
//! game selection, options, positions (start, string, moves), every form of `go`, `go perft`,
//! `stop`, `ponderhit`, `d`, `fen`, `legal`, `status`, `geometry`, `pieces`, `bench`, `quit`.

use crate::common::EngineProcess;
use std::time::Duration;

const GAMES: &[&str] = &["chess", "cwda-nr", "ninjachess", "honeycomb3", "wildhoney3", "guru2", "aof3"];

fn bestmove(e: &mut EngineProcess, go: &str) -> String {
    e.send(go);
    let out = e.read_until(|l| l.starts_with("bestmove"), Duration::from_secs(120));
    let last = out.last().expect("bestmove line");
    assert!(out[..out.len() - 1].iter().all(|l| l.starts_with("info ")), "{go}: {out:?}");
    last.split_whitespace().nth(1).expect("a move").to_string()
}

fn session(game: &str) {
    let mut e = EngineProcess::start();
    e.send("uci");
    let uci = e.read_until(|l| l == "uciok", Duration::from_secs(10));
    assert!(uci.iter().any(|l| l.starts_with("option name UCI_Variant") && l.contains(&format!("var {game} ")) || l.ends_with(&format!("var {game}"))));

    let out = e.command(&format!("setoption name UCI_Variant value {game}"));
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].starts_with(&format!("info string game {game} players ")), "{out:?}");
    for opt in
        ["setoption name Hash value 4", "setoption name Threads value 2", "setoption name Clear Hash", "setoption name Ponder value true"]
    {
        assert!(e.command(opt).is_empty(), "{opt}");
    }
    assert!(e.command("ucinewgame").is_empty());
    assert!(e.command("position startpos").is_empty());
    let start = e.command("fen").pop().expect("fen");

    // Legal moves, perft 1 and `d` agree with each other.
    let legal: Vec<String> = e.command("legal")[0].split_whitespace().map(String::from).collect();
    assert!(!legal.is_empty());
    let perft = e.until("go perft 1", "Nodes searched");
    assert_eq!(perft.last().map(String::as_str), Some(format!("Nodes searched: {}", legal.len()).as_str()));
    assert_eq!(perft.len(), legal.len() + 2);
    let board = e.command("d");
    assert!(board.iter().any(|l| *l == format!("Position: {start}")), "{board:?}");
    assert!(board.iter().any(|l| l.starts_with("Key: ")) && board.iter().any(|l| l.starts_with("Checkers:")));

    // Position by moves, then by string: the same position.
    let first = legal[legal.len() / 2].clone();
    assert!(e.command(&format!("position startpos moves {first}")).is_empty());
    let after = e.command("fen").pop().expect("fen");
    assert_ne!(after, start);
    assert!(e.command(&format!("position fen {after}")).is_empty());
    assert_eq!(e.command("fen"), vec![after.clone()]);
    let status = e.command("status");
    assert_eq!(status.len(), 1);
    assert!(status[0].starts_with("status playing tomove "), "{status:?}");

    // Every form of go returns a legal move.
    let legal_now: Vec<String> = e.command("legal")[0].split_whitespace().map(String::from).collect();
    let header = e.command("geometry");
    assert_eq!(header.last().map(String::as_str), Some("geometry end"));
    let cells: usize = header[0].split_whitespace().nth(4).and_then(|n| n.parse().ok()).expect("cell count");
    assert_eq!(header.len(), cells + 2);
    // The game line names each player's letter, which prefixes its clock parameters.
    let players: Vec<&str> = out[0].split(" players ").nth(1).and_then(|r| r.split(' ').next()).expect("players").split(',').collect();
    let players: Vec<char> = players.iter().map(|p| p.chars().next().expect("letter")).collect();
    let clocks: Vec<String> = players.iter().map(|p| format!("{p}time 3000 {p}inc 20")).collect();
    for go in [
        "go depth 2".to_string(),
        "go nodes 2000".to_string(),
        "go movetime 100".to_string(),
        format!("go {} movestogo 10", clocks.join(" ")),
        "go mate 1".to_string(),
    ] {
        let mv = bestmove(&mut e, &go);
        assert!(legal_now.contains(&mv), "{game} {go}: {mv} not legal");
    }
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let mv = bestmove(&mut e, "stop");
    assert!(legal_now.contains(&mv));
    e.send(&format!("go ponder {}", clocks.join(" ")));
    std::thread::sleep(Duration::from_millis(100));
    let mv = bestmove(&mut e, "ponderhit");
    assert!(legal_now.contains(&mv));
    // stop and ponderhit without a search do nothing.
    assert!(e.command("stop").is_empty());
    assert!(e.command("ponderhit").is_empty());

    let pieces = e.command("pieces");
    let count: usize = pieces[0].split_whitespace().nth(4).and_then(|n| n.parse().ok()).expect("piece count");
    assert_eq!(pieces.len(), count + 2);
    assert!(pieces[1..=count].iter().all(|l| l.starts_with("piece code ") && l.contains(" moves ")), "{pieces:?}");

    let bench = e.until(&format!("bench {game}"), "Nodes/second");
    assert!(bench.iter().any(|l| l.starts_with("total perft: nodes ")), "{bench:?}");
    assert!(bench.iter().any(|l| l.starts_with("total search: nodes ")), "{bench:?}");

    assert!(e.quit().success());
}

#[test]
fn every_command_in_every_game() {
    for game in GAMES {
        session(game);
    }
}

/// `reach` against the empty-board move counts of the guru2 rules (`shared/rules/guru2level.md`
/// §3, from Ue5 and Ua1), and against chess: a lone man's cells, an error leaving the position.
#[test]
fn reach_gives_the_rules_empty_board_moves() {
    let mut e = EngineProcess::start();
    e.command("setoption name UCI_Variant value guru2");
    // Piece code, then its count from Ue5 and from Ua1.
    for (code, centre, corner) in [("K", 13, 6), ("R", 19, 19), ("N", 12, 4), ("E", 4, 1), ("F", 8, 3), ("G", 16, 6)] {
        for (cell, want) in [("Ue5", centre), ("Ua1", corner)] {
            let out = e.command(&format!("reach {cell} r {code}"));
            let words: Vec<&str> = out[0].split_whitespace().collect();
            assert_eq!(&words[..2], ["reach", cell], "{out:?}");
            assert_eq!(words.len() - 2, want, "{code} on {cell}: {out:?}");
        }
    }
    e.command("setoption name UCI_Variant value chess");
    e.command("position startpos moves e2e4");
    assert_eq!(e.command("reach g1"), ["reach g1 e2 f3 h3"]);
    assert_eq!(e.command("reach a7"), ["reach a7 a5 a6 b6"]);
    assert_eq!(e.command("reach d4 w Q").len(), 1);
    assert_eq!(e.command("reach d4 w Q")[0].split_whitespace().count(), 2 + 27);
    for bad in ["reach", "reach e3", "reach i9", "reach d4 x Q", "reach d4 w Z", "reach d4 w"] {
        let out = e.command(bad);
        assert_eq!(out.len(), 1, "{bad}: {out:?}");
        assert!(out[0].starts_with("info string error: "), "{bad}: {out:?}");
    }
    assert_eq!(e.command("fen"), ["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]);
    e.quit();
}

/// A game's record reads back: the moves `record` writes, given to `position`, are the same moves
/// (`played`), in every game; a wrong one is refused with the position kept.
#[test]
fn records_read_back_in_every_game() {
    for game in GAMES {
        let mut e = EngineProcess::start();
        e.command(&format!("setoption name UCI_Variant value {game}"));
        // Twenty plies, each the middle one of the legal moves.
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..20 {
            e.command(&format!("position startpos moves {}", moves.join(" ")));
            let legal = e.command("legal");
            let legal: Vec<&str> = legal[0].split_whitespace().collect();
            moves.push(legal[legal.len() / 2].to_string());
        }
        e.command(&format!("position startpos moves {}", moves.join(" ")));
        let record = e.command("record")[0].clone();
        let fen = e.command("fen");
        e.command("position startpos");
        let replay = format!("position startpos moves {}", record.strip_prefix("record ").expect("record"));
        assert!(e.command(&replay).is_empty(), "{game}: {replay}");
        assert_eq!(e.command("played"), [format!("played {}", moves.join(" "))], "{game}: {record}");
        assert_eq!(e.command("fen"), fen, "{game}");
        let out = e.command("position startpos moves Zz9-z10");
        assert!(out.len() == 1 && out[0].starts_with("info string error: "), "{game}: {out:?}");
        assert_eq!(e.command("fen"), fen, "{game}: an error changed the position");
        e.quit();
    }
}
