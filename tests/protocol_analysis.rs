//! Analysis and robustness through the binary: several principal variations, chosen root moves,
//! counts that do not hold the input up, and input that cannot break the engine.

use std::time::{Duration, Instant};

use crate::common::EngineProcess;

const GAMES: [&str; 7] = ["chess", "cwda-cn", "ninjachess", "honeycomb3", "wildhoney3", "guru2", "aof3"];

/// Sends `go ...` and returns its `info` lines of the last completed depth and the `bestmove`.
fn search(e: &mut EngineProcess, go: &str) -> (Vec<String>, String) {
    e.send(go);
    let out = e.read_until(|l| l.starts_with("bestmove"), Duration::from_secs(120));
    let lines: Vec<String> = out.iter().filter(|l| l.starts_with("info depth") && l.contains(" multipv ")).cloned().collect();
    let depth = lines.last().and_then(|l| l.split_whitespace().nth(2)).unwrap_or("0").to_string();
    let last = lines.into_iter().filter(|l| l.split_whitespace().nth(2) == Some(depth.as_str())).collect();
    (last, out.last().cloned().unwrap_or_default())
}

fn field<'a>(line: &'a str, name: &str) -> &'a str {
    line.split_whitespace().skip_while(|&w| w != name).nth(1).unwrap_or("")
}

/// The score of a line in centipawns (mates far beyond any centipawn value).
fn score(line: &str) -> i64 {
    let mut words = line.split_whitespace().skip_while(|&w| w != "score").skip(1);
    match (words.next(), words.next().and_then(|n| n.parse::<i64>().ok())) {
        (Some("cp"), Some(cp)) => cp,
        (Some("mate"), Some(m)) if m > 0 => 100_000 - m,
        (Some("mate"), Some(m)) => -100_000 - m,
        _ => panic!("no score in {line}"),
    }
}

fn first_move(line: &str) -> &str {
    field(line, "pv")
}

#[test]
fn multipv_gives_distinct_lines_best_first() {
    for (game, moves, go) in [("chess", "e2e4 e7e5", "go depth 5"), ("guru2", "", "go depth 1"), ("aof3", "", "go depth 2")] {
        let mut e = EngineProcess::start();
        e.command(&format!("setoption name UCI_Variant value {game}"));
        assert!(e.command("setoption name MultiPV value 3").is_empty());
        let position = if moves.is_empty() { "position startpos".to_string() } else { format!("position startpos moves {moves}") };
        assert!(e.command(&position).is_empty());
        let (lines, best) = search(&mut e, go);
        assert_eq!(lines.len(), 3, "{game}: {lines:?}");
        for (k, line) in lines.iter().enumerate() {
            assert_eq!(field(line, "multipv"), (k + 1).to_string(), "{game}: {line}");
            assert_eq!(line.contains(" scores "), game != "chess", "{game}: {line}");
        }
        let firsts: Vec<&str> = lines.iter().map(|l| first_move(l)).collect();
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2], "{game}: {firsts:?}");
        assert!(score(&lines[0]) >= score(&lines[1]) && score(&lines[1]) >= score(&lines[2]), "{game}: {lines:?}");
        assert_eq!(best.split_whitespace().nth(1), Some(firsts[0]), "{game}: {best}");
        assert!(e.quit().success());
    }
}

/// With three or four players the principal variation is a line of play: in BRS+ the opponents
/// who do not give the best reply play their static moves, and those are in the line, so that a
/// search three plies deep shows at least a whole round, every move legal in turn (the engine
/// takes it as a position's moves), and the ponder move is the next player's.
#[test]
fn best_reply_lines_are_whole_rounds_of_play() {
    for (game, players) in [("honeycomb3", 3), ("wildhoney3", 3), ("guru2", 4), ("aof3", 4)] {
        let mut e = EngineProcess::start();
        e.command(&format!("setoption name UCI_Variant value {game}"));
        let (lines, best) = search(&mut e, "go depth 3");
        let pv: Vec<&str> = lines[0].split_whitespace().skip_while(|&w| w != "pv").skip(1).collect();
        assert!(pv.len() >= players, "{game}: {pv:?}");
        assert_eq!(best, format!("bestmove {} ponder {}", pv[0], pv[1]), "{game}");
        assert!(e.command(&format!("position startpos moves {}", pv.join(" "))).is_empty(), "{game}: {pv:?}");
        assert!(e.quit().success());
    }
}

#[test]
fn searchmoves_restricts_the_root_in_every_game() {
    for game in GAMES {
        let mut e = EngineProcess::start();
        e.command(&format!("setoption name UCI_Variant value {game}"));
        let legal: Vec<String> = e.command("legal")[0].split_whitespace().map(String::from).collect();
        // The last two legal moves: rarely the ones the engine would choose unasked.
        let chosen = [legal[legal.len() - 1].clone(), legal[legal.len() - 2].clone()];
        let (_, best) = search(&mut e, &format!("go depth 1 searchmoves {} {}", chosen[0], chosen[1]));
        let mv = best.split_whitespace().nth(1).unwrap_or("").to_string();
        assert!(chosen.contains(&mv), "{game}: {best} not in {chosen:?}");
        assert!(e.quit().success());
    }
}

#[test]
fn counts_do_not_hold_the_input_up() {
    let mut e = EngineProcess::start();
    e.send("go perft 20");
    let t = Instant::now();
    assert!(e.command("isready").is_empty(), "isready answers during the count");
    assert!(t.elapsed() < Duration::from_secs(5));
    assert_eq!(e.until("stop", "info string perft stopped").last().map(String::as_str), Some("info string perft stopped"));
    // The count finished, the engine goes on.
    assert_eq!(e.command("fen"), vec!["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]);
    e.send("bench");
    assert!(e.command("isready").is_empty());
    let out = e.until("stop", "info string bench stopped");
    assert!(out.iter().all(|l| !l.starts_with("Nodes searched")), "{out:?}");
    // `quit` during a count exits at once.
    e.send("go perft 20");
    e.send("quit");
    assert!(e.wait_exit().success());
}

#[test]
fn go_infinite_on_a_finished_game_waits_for_stop() {
    let mut e = EngineProcess::start();
    assert!(e.command("position startpos moves f2f3 e7e5 g2g4 d8h4").is_empty());
    e.send("go infinite");
    assert!(e.next_line(Duration::from_millis(500)).is_none(), "no answer before stop");
    assert_eq!(e.until("stop", "bestmove"), vec!["bestmove (none)"]);
    assert!(e.quit().success());
}

#[test]
fn hash_sizes_and_clearing() {
    let mut e = EngineProcess::start();
    // A table larger than the memory available is refused and the old one kept.
    let available_mib = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| m.lines().find(|l| l.starts_with("MemAvailable:")).and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok()))
        .map(|kib| kib / 1024);
    if available_mib.is_some_and(|mib| mib < 65_536) {
        let out = e.command("setoption name Hash value 65536");
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(out[0].starts_with("info string error: "), "{out:?}");
    }
    // Resizing and clearing a large table answer at once (the memory is had lazily).
    let t = Instant::now();
    assert!(e.command("setoption name Hash value 1024").is_empty());
    assert!(e.command("setoption name Clear Hash").is_empty());
    assert!(e.command("ucinewgame").is_empty());
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    let (_, best) = search(&mut e, "go depth 4");
    assert!(best.starts_with("bestmove "));
    assert!(e.quit().success());
}

#[test]
fn odd_input_is_answered_briefly() {
    let mut e = EngineProcess::start();
    let huge = "x".repeat(5_000_000);
    let out = e.command(&huge);
    assert_eq!(out.len(), 1);
    assert!(out[0].len() < 120, "{} characters", out[0].len());
    for line in ["setoption name Ponder value True", "setoption name UCI_AnalyseMode value TRUE", "debug on", "debug off"] {
        assert!(e.command(line).is_empty(), "{line}");
    }
    assert_eq!(e.command("setoption name UCI_Variant value Honeycomb3").len(), 1, "the game line");
    assert!(e.command("fen")[0].ends_with(" r ryb - - 0 1 0:"));
    assert_eq!(e.command("setoption name Skill Level value 21"), vec!["info string error: Skill Level must be an integer from 0 to 20"]);
    assert!(e.quit().success());
}

#[test]
fn progress_is_reported_every_second() {
    let mut e = EngineProcess::start();
    e.send("go infinite");
    // Iterations soon take longer than a second; a silent second brings a progress line. Read until
    // one comes (the wait is long so that a loaded machine does not fail the test).
    let mut out = e.read_until(|l| l.contains(" currmove "), Duration::from_secs(30));
    out.extend(e.until("stop", "bestmove"));
    let progress: Vec<&String> = out.iter().filter(|l| l.contains(" currmove ")).collect();
    assert!(!progress.is_empty(), "{out:?}");
    assert!(progress.iter().all(|l| l.contains(" currmovenumber ") && l.contains(" nps ") && l.contains(" time ")), "{progress:?}");
    assert!(e.quit().success());
}

/// For every game: each cell of `geometry` has an outline of 4 or 6 corners around its centre,
/// neighbours in a row share corners, and `board` lists exactly the men of the position string.
#[test]
fn outlines_and_board_in_every_game() {
    for game in GAMES {
        let mut e = EngineProcess::start();
        e.command(&format!("setoption name UCI_Variant value {game}"));
        let geometry = e.command("geometry");
        let head: Vec<&str> = geometry[0].split_whitespace().collect();
        let after = |name: &str| head[head.iter().position(|w| *w == name).unwrap_or_else(|| panic!("{game}: no {name}")) + 1];
        let shape = after("shape").to_string();
        // The axes: two steps of one cell's width in the drawing (a cell's neighbours).
        for axis in [after("axes"), head[head.len() - 1]] {
            let (a, b) = axis.split_once(',').expect("x,y");
            let length = a.parse::<f64>().expect("x").hypot(b.parse().expect("y"));
            assert!((length - 1.0).abs() < 1e-3, "{game}: axis {axis}");
        }
        let corners_wanted = if shape == "hexagon" { 6 } else { 4 };
        let cells: usize = geometry[0].split_whitespace().nth(4).and_then(|n| n.parse().ok()).expect("cell count");
        assert_eq!(geometry.len(), cells + 2, "{game}");
        for line in &geometry[1..=cells] {
            let words: Vec<&str> = line.split_whitespace().collect();
            let (x, y): (f64, f64) = (words[7].parse().expect("x"), words[9].parse().expect("y"));
            let outline = line.split(" outline ").nth(1).unwrap_or_else(|| panic!("{game}: no outline in {line}"));
            let corners: Vec<(f64, f64)> = outline
                .split(' ')
                .map(|p| {
                    let (a, b) = p.split_once(',').expect("x,y");
                    (a.parse().expect("x"), b.parse().expect("y"))
                })
                .collect();
            assert_eq!(corners.len(), corners_wanted, "{game}: {line}");
            // The corners surround the centre at equal distance.
            let r: Vec<f64> = corners.iter().map(|(a, b)| ((a - x).powi(2) + (b - y).powi(2)).sqrt()).collect();
            assert!(r.iter().all(|d| (d - r[0]).abs() < 1e-3 && *d > 0.4 && *d < 0.8), "{game}: {line}");
        }
        // A few moves in, the men of `board` make the placement of the position string.
        let legal: Vec<String> = e.command("legal")[0].split_whitespace().map(String::from).collect();
        e.command(&format!("position startpos moves {}", legal[legal.len() / 3]));
        let fen = e.command("fen").pop().expect("fen");
        let board = e.command("board");
        assert_eq!(board.last().map(String::as_str), Some("board end"));
        let def = tessera::games::definition(game).expect("game");
        let two = def.players.len() == 2;
        let men: Vec<(String, String)> = board[..board.len() - 1]
            .iter()
            .map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                assert_eq!((w.len(), w[0]), (4, "man"), "{l}");
                let code = if w[3].len() > 1 { format!("[{}]", w[3]) } else { w[3].to_string() };
                let token = if !two {
                    format!("{}{code}", w[2])
                } else if w[2] == def.players.iter().next().map(|p| p.code.to_string()).unwrap_or_default() {
                    code.to_uppercase()
                } else {
                    code.to_lowercase()
                };
                (w[1].to_string(), token)
            })
            .collect();
        let pairs: Vec<(&str, &str)> = men.iter().map(|(c, t)| (c.as_str(), t.as_str())).collect();
        let placement = tessera::notation::placement_from(&def.geometry, &pairs).expect("cells of the board");
        assert_eq!(fen.split(' ').next(), Some(placement.as_str()), "{game}");
        assert!(e.quit().success());
    }
}
