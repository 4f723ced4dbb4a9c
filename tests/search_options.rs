//! Search and evaluation options through the binary: evaluation parameters and (with three or
//! four players) the choice of search.

use std::time::Duration;

use crate::common::{EngineProcess, SessionText};
use tessera::eval::EvalParams;
use tessera::protocol::{InfoStyle, info_line};
use tessera::search::{Control, HelperPool, Heuristics, Info, Limits, MultiSearch, Score, SearchSettings};
use tessera::session::{self, SearchRequest, Session};
use tessera::tt::TransTable;

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
    // The defaults announced are the game's own values (chess's fitted tempo 15 and centrality 20),
    // not the generic table's (tempo 10, centrality 12).
    assert!(out.iter().any(|l| l == "option name Eval_tempo type spin default 15 min 0 max 100"), "{out:?}");
    assert!(out.iter().any(|l| l == "option name Eval_centrality_quarter type spin default 20 min 0 max 200"));
    assert!(out.iter().any(|l| l == "option name Eval_value_per_move type spin default 33 min 0 max 200"));
    // After a change of game, `uci` announces that game's values.
    e.send("setoption name UCI_Variant value ninjachess");
    let out = e.command("uci");
    assert!(out.iter().any(|l| l == "option name Eval_mopup_close type spin default 60 min 0 max 100"), "{out:?}");
    assert!(e.quit().success());
    // From the start position a depth-2 search ends in quiet positions with the root player to
    // move: the tempo is all that changes the score. Chess has its own tempo, which the option
    // replaces.
    let own = tessera::games::profile("chess").expect("chess").eval.params.tempo;
    let base = score_at(&run(&["go depth 2"]), 2);
    assert_eq!(score_at(&run(&["setoption name Eval_tempo value 60", "go depth 2"]), 2), base + 60 - own);
    // Kept across a change of game; option names are case-insensitive.
    let out = run(&["setoption name eval_TEMPO value 60", "setoption name UCI_Variant value chess", "go depth 2"]);
    assert_eq!(score_at(&out, 2), base + 60 - own);
    // With material alone the symmetric start is level.
    let mut lines: Vec<String> = EvalParams::RANGES
        .iter()
        .filter(|(name, _, _)| !["value_per_move", "value_base", "pawn_value"].contains(name))
        .map(|&(name, min, max)| format!("setoption name Eval_{name} value {}", 0.clamp(min, max)))
        .collect();
    lines.push("go depth 2".into());
    assert_eq!(score_at(&run(&lines.iter().map(String::as_str).collect::<Vec<_>>()), 2), 0);
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

// ---------------------------------------------------------------------------------------------
// Searches for three and four players

const SEARCHES: [MultiSearch; 4] = [MultiSearch::Paranoid, MultiSearch::MaxN, MultiSearch::BestReply, MultiSearch::BestReplyPlus];

/// A Honeycomb position string with the given men (cell, token).
fn honeycomb(men: &[(&str, &str)], to_move: &str, active: &str, mates: &str) -> String {
    let def = tessera::games::definition("honeycomb3").expect("honeycomb3");
    let placement = tessera::notation::placement_from(&def.geometry, men).expect("men on cells of the board");
    format!("{placement} {to_move} {active} - - 0 1 {mates}")
}

/// What a search found, in text.
struct Found {
    best: Option<String>,
    ponder: Option<String>,
    score: Option<Score>,
    nodes: u64,
}

/// Searches with `algorithm` and returns the result and the last `info` line.
fn search(s: &dyn Session, algorithm: MultiSearch, limits: Limits) -> (Found, String) {
    let (found, lines) = search_threads(s, algorithm, limits, 1);
    (found, lines.last().cloned().unwrap_or_default())
}

/// Searches with `algorithm` on `threads` threads and returns the result and every `info` line
/// of a principal variation.
fn search_threads(s: &dyn Session, algorithm: MultiSearch, limits: Limits, threads: usize) -> (Found, Vec<String>) {
    let mut lines = Vec::new();
    let control = Control::default();
    let tt = TransTable::new(4).expect("a small table");
    let settings = SearchSettings { algorithm, ..SearchSettings::default() };
    let heuristics = Heuristics::default();
    let helpers = HelperPool::new(threads).expect("the helper threads start");
    let request = SearchRequest { limits: &limits, control: &control, tt: &tt, heuristics: &heuristics, helpers: &helpers, settings };
    let r = s.think(&request, &mut |info| {
        if matches!(info, Info::Line(_)) {
            lines.push(info_line(s, info, InfoStyle::default()));
        }
    });
    let found = Found {
        best: r.best.map(|m| s.move_text(m)),
        ponder: r.ponder.map(|m| s.move_text(m)),
        score: r.last.as_ref().map(|l| l.score),
        nodes: r.last.as_ref().map_or(0, |l| l.nodes),
    };
    (found, lines)
}

fn depth(d: u32) -> Limits {
    Limits { depth: Some(d), ..Limits::default() }
}

/// Red's Queen to 3a8 or 4a8 attacks both Kings on the row y = 8 of level a, the Rooks cover
/// their other cells (`tests/honeycomb3.rs`, `double_checkmate_ends_the_game`): Yellow and Blue
/// must pass and both are checkmated at the start of Red's next turn.
fn double_mate_position() -> String {
    honeycomb(&[("1e1", "rK"), ("3b7", "rQ"), ("4b8", "rR"), ("4a7", "rR"), ("4b7", "rR"), ("1a8", "yK"), ("8a8", "bK")], "r", "ryb", "0:")
}

/// Every search finds a winning move in [`double_mate_position`], scored as mate in 2 (three
/// plies).
#[test]
fn every_search_finds_the_win_in_one_move() {
    let fen = double_mate_position();
    let mut s = session::open("honeycomb3").expect("game");
    s.set_position(Some(&fen), &[]).expect("position");
    for algorithm in SEARCHES {
        let (r, info) = search(&*s, algorithm, depth(3));
        let best = r.best.expect("a move");
        assert!(info.contains(" score mate 2 "), "{algorithm:?}: {info}");
        let mut after = s.boxed_clone();
        after.set_position(Some(&fen), &[&best, "0000", "0000"]).expect("the opponents can only pass");
        let st = after.status_text();
        assert_eq!((st.over, st.winner.as_deref()), (true, Some("Red")), "{algorithm:?} played {best}");
        assert_eq!(r.ponder.as_deref(), Some("0000"), "{algorithm:?}");
    }
}

/// Red to move; its Queen 2b4-2b8 checkmates Yellow (`tests/honeycomb3.rs`,
/// `checkmate_at_start_of_turn_with_recruiting`).
fn recruiting_position() -> Box<dyn Session> {
    let fen = honeycomb(
        &[("1a1", "rK"), ("2b4", "rQ"), ("2e8", "rR"), ("1a8", "yK"), ("3c5", "yP"), ("5c6", "yN"), ("8a8", "bK")],
        "r",
        "ryb",
        "0:",
    );
    let mut s = session::open("honeycomb3").expect("game");
    s.set_position(Some(&fen), &[]).expect("position");
    s
}

/// After 2b4-2b8 Yellow can only pass and is eliminated at the start of Red's turn whatever Blue
/// does: every search sees it as lost for Yellow (mate against the mover), not as a material
/// score of a position Yellow is no longer in.
#[test]
fn every_search_scores_its_own_elimination_as_lost() {
    let mut s = recruiting_position();
    s.play_text("2b42b8").expect("legal");
    for algorithm in SEARCHES {
        let (r, info) = search(&*s, algorithm, depth(3));
        assert_eq!(r.best.as_deref(), Some("0000"), "{algorithm:?}");
        assert!(info.contains(" score mate -1 "), "{algorithm:?}: {info}");
    }
}

/// 2b4-2b8: Yellow must pass, and whatever Blue's King does, Yellow is eliminated at the start of
/// Red's turn and Red recruits its pawn and Knight. Every search plays it (max-n already at depth
/// 3; paranoid needs depth 5 because its late-move reduction shortens the quiet Queen move).
#[test]
fn every_search_eliminates_a_player_when_it_can() {
    let s = recruiting_position();
    for algorithm in SEARCHES {
        let (r, _) = search(&*s, algorithm, depth(5));
        assert_eq!(r.best.as_deref(), Some("2b42b8"), "{algorithm:?}");
    }
    let (r, _) = search(&*s, MultiSearch::MaxN, depth(3));
    assert_eq!(r.best.as_deref(), Some("2b42b8"));
    // The move does eliminate Yellow by force.
    let mut after = s.boxed_clone();
    after.play_text("2b42b8").expect("legal");
    after.play_text("0000").expect("Yellow can only pass");
    for blue in after.legal_move_texts() {
        let mut end = after.boxed_clone();
        end.play_text(&blue).expect("legal");
        assert_eq!(end.status_text().eliminated, vec![("Yellow".to_string(), "Red".to_string())], "after {blue}");
    }
}

/// With two players left the choice does not matter: every search is alpha-beta.
#[test]
fn two_players_left_search_the_same_tree() {
    let fen = honeycomb(&[("1e1", "rK"), ("3b8", "rQ"), ("7e8", "rR"), ("8a8", "bK"), ("3c5", "bR")], "r", "rb", "1:yr");
    let mut s = session::open("honeycomb3").expect("game");
    s.set_position(Some(&fen), &[]).expect("position");
    let (p, _) = search(&*s, MultiSearch::Paranoid, depth(4));
    for algorithm in [MultiSearch::MaxN, MultiSearch::BestReply] {
        let (r, _) = search(&*s, algorithm, depth(4));
        assert_eq!((&r.best, r.nodes, r.score), (&p.best, p.nodes, p.score), "{algorithm:?}");
    }
    let mut chess = session::open("chess").expect("chess");
    chess.set_position(None, &["e2e4", "e7e5"]).expect("moves");
    let (p, _) = search(&*chess, MultiSearch::Paranoid, depth(5));
    let (m, _) = search(&*chess, MultiSearch::MaxN, depth(5));
    assert_eq!((&m.best, m.nodes, m.score), (&p.best, p.nodes, p.score));
}

/// From the start and from a few moves in, every search of every N-player game returns a legal
/// move, and a ponder move that is legal after it.
#[test]
fn every_search_returns_legal_moves() {
    for (id, moves) in [("honeycomb3", vec!["1c31c4", "3a84a8"]), ("wildhoney3", vec![]), ("guru2", vec![])] {
        let mut s = session::open(id).expect("game");
        s.set_position(None, &moves).expect("moves");
        for algorithm in SEARCHES {
            // guru2 opens with dozens of captures: max-n to depth 2 there is almost a million nodes.
            let d = if id == "guru2" { 1 } else { 2 };
            for limits in [depth(d), Limits { nodes: Some(3_000), ..Limits::default() }] {
                let (r, _) = search(&*s, algorithm, limits);
                let best = r.best.expect("a move");
                assert!(s.legal_move_texts().contains(&best), "{id} {algorithm:?}: {best}");
                if let Some(p) = r.ponder {
                    let mut after = s.boxed_clone();
                    after.play_text(&best).expect("legal");
                    assert!(after.legal_move_texts().contains(&p), "{id} {algorithm:?}: {best} {p}");
                }
            }
        }
    }
}

#[test]
fn the_search_is_a_protocol_option() {
    let mut e = EngineProcess::start();
    let out = e.command("uci");
    assert!(
        out.iter().any(|l| l == "option name MultiplayerSearch type combo default auto var auto var paranoid var maxn var brs var brs+")
    );
    assert_eq!(
        e.command("setoption name MultiplayerSearch value minimax"),
        vec!["info string error: MultiplayerSearch must be one of auto, paranoid, maxn, brs, brs+"]
    );
    assert!(e.command("setoption name multiplayersearch value MAXN").is_empty());
    assert!(e.quit().success());
    let fen = double_mate_position();
    for name in MultiSearch::NAMES {
        let out = run(&[
            &format!("setoption name MultiplayerSearch value {name}"),
            "setoption name UCI_Variant value honeycomb3",
            &format!("position fen {fen}"),
            "go depth 3",
        ]);
        assert!(out.iter().any(|l| l.starts_with("info depth 3 ") && l.contains(" score mate 2 ")), "{name}: {out:?}");
        let best = out.last().expect("bestmove");
        assert!(best == "bestmove 3b73a8 ponder 0000" || best == "bestmove 3b74a8 ponder 0000", "{name}: {best}");
    }
}

/// From the start of every game of three or four players, the default search completes depth 4
/// within a million nodes (a second at the slowest game's speed here, `aof3`'s 1.5 M nodes per
/// second): the capture search no longer explodes in dense starts.
#[test]
fn the_default_search_reaches_depth_4_from_every_start() {
    for game in ["honeycomb3", "wildhoney3", "guru2", "aof3"] {
        let s = session::open(game).expect("game");
        let (found, last) = search(&*s, MultiSearch::Auto, Limits { depth: Some(4), nodes: Some(1_000_000), ..Limits::default() });
        assert!(last.starts_with("info depth 4 "), "{game}: {last}");
        assert!(found.nodes <= 1_000_000, "{game}: {last}");
    }
}

/// With two threads a helper may complete a depth first and the main thread takes its line over
/// (src/search/threads.rs), and threads put off what another thread is searching
/// (src/search/abdada.rs): every search still reports deeper and deeper lines, ends at the depth
/// asked for with a legal move, and finds the mate in two.
#[test]
fn two_threads_report_every_depth_they_complete() {
    let fen = double_mate_position();
    let mut mate = session::open("honeycomb3").expect("game");
    mate.set_position(Some(&fen), &[]).expect("position");
    for game in ["chess", "honeycomb3", "guru2"] {
        for algorithm in SEARCHES {
            let s = session::open(game).expect("game");
            // Max-n's capture search takes millions of nodes to depth 3 in these starts.
            let d = if algorithm == MultiSearch::MaxN && game != "chess" { 2 } else { 4 };
            let (found, lines) = search_threads(&*s, algorithm, depth(d), 2);
            let depths: Vec<u32> = lines.iter().map(|l| l.split(' ').nth(2).and_then(|d| d.parse().ok()).expect("a depth")).collect();
            assert!(depths.windows(2).all(|w| w[0] < w[1]) && depths.last() == Some(&d), "{game} {algorithm:?}: {lines:?}");
            let mut after = s.boxed_clone();
            after.set_position(None, &[&found.best.expect("a move")]).expect("a legal move");
        }
    }
    let (found, lines) = search_threads(&*mate, MultiSearch::Auto, depth(5), 2);
    assert!(lines.last().is_some_and(|l| l.contains(" score mate 2 ")), "{lines:?} {:?}", found.best);
}

/// Red's bare King among Yellow's and Blue's armies (ply 162 of a game against 1-ply players):
/// Yellow and Blue check each other in turn. When every check at the horizon was searched out, a
/// depth-1 search of BRS+ ran 126 plies deep and past 3 million nodes; only the root's side's
/// checks are now.
#[test]
fn checks_among_the_opponents_end_at_the_horizon() {
    let mut s = session::open("honeycomb3").expect("game");
    s.set_position(Some("6bR1/bB1bP4/bP1bP3/5/4/3/2/1/2bP3yB1/1bB2yP2/bP3yP1/1bB1bN1/4/3/1bQ/1/bK1bF2yPyF1/bF4yP1/bP2yF2/3yP1/4/bNbQ1/2/1/5yP2/7/1bP1yByK1/5/4/3/2/1/8/1bP1yP3/bRbB3yP/5/3rK/3/2/1 r ryb - - 1 55 0:"), &[]).expect("position");
    for algorithm in SEARCHES {
        let (found, last) = search(&*s, algorithm, Limits { depth: Some(1), nodes: Some(1_000_000), ..Limits::default() });
        assert!(last.starts_with("info depth 1 "), "{}: {last}", algorithm.name());
        assert!(found.nodes < 10_000, "{}: {last}", algorithm.name());
    }
}

#[test]
fn search_parameters_are_options() {
    let mut e = EngineProcess::start();
    let out = e.command("uci");
    assert!(out.iter().any(|l| l == "option name Search_null_move_r type spin default 2 min 0 max 4"), "{out:?}");
    assert_eq!(
        e.command("setoption name Search_null_move_r value 5"),
        vec!["info string error: Search_null_move_r must be an integer from 0 to 4"]
    );
    assert_eq!(e.command("setoption name Search_nothing value 1"), vec!["info string error: unknown option 'Search_nothing'"]);
    assert!(e.quit().success());
    // Without the null move (and the other pruning terms) the same search visits more nodes.
    let nodes = |lines: &[&str]| -> u64 {
        let out = run(lines);
        let line = out.iter().rfind(|l| l.starts_with("info depth 7 ")).expect("depth 7").clone();
        line.split_whitespace().skip_while(|&w| w != "nodes").nth(1).and_then(|n| n.parse().ok()).expect("nodes")
    };
    let position = "position fen r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";
    let pruned = nodes(&[position, "go depth 7"]);
    let full = nodes(&[
        "setoption name Search_null_move_r value 0",
        "setoption name Search_rfp_margin value 0",
        "setoption name Search_futility_margin value 0",
        "setoption name Search_aspiration value 0",
        position,
        "go depth 7",
    ]);
    assert!(full > pruned, "{full} <= {pruned}");
}

/// The selectivity parameters reach the search: each changes the tree of a fixed-depth search
/// (whether a value makes it smaller over many positions is measured in docs/experiments.md, not
/// here: one position's tree can grow either way).
#[test]
fn selectivity_parameters_change_the_search() {
    let nodes = |option: Option<&str>| -> u64 {
        let setting = option.map(|o| format!("setoption name {o}"));
        let position = "position fen r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";
        let mut lines: Vec<&str> = setting.iter().map(String::as_str).collect();
        lines.extend([position, "go depth 7"]);
        let out = run(&lines);
        let line = out.iter().rfind(|l| l.starts_with("info depth 7 ") && l.contains(" pv ")).expect("depth 7").clone();
        line.split_whitespace().skip_while(|&w| w != "nodes").nth(1).and_then(|n| n.parse().ok()).expect("nodes")
    };
    let default = nodes(None);
    for option in [
        "Search_null_move_depth value 2",
        "Search_futility_depth value 5",
        "Search_lmp_depth value 6",
        "Search_rfp_depth value 6",
        "Search_lmr_base value 125",
    ] {
        assert_ne!(nodes(Some(option)), default, "{option}");
    }
}

/// The pruning on by default does not hide short mates in chess.
#[test]
fn default_pruning_finds_short_mates() {
    let mut s = session::open("chess").expect("chess");
    for (fen, mate, moves) in
        [("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", " score mate 1 ", 1), ("2k5/8/2K5/8/8/8/8/1Q6 w - - 0 1", " score mate 2 ", 3)]
    {
        s.set_position(Some(fen), &[]).expect("position");
        let (r, info) = search(&*s, MultiSearch::Paranoid, depth(6));
        assert!(info.contains(mate), "{fen}: {info}");
        // The principal variation ends in checkmate.
        let pv: Vec<&str> = info.split(" pv ").nth(1).expect("pv").split_whitespace().collect();
        assert_eq!((pv.len(), pv.first().copied()), (moves, r.best.as_deref()), "{info}");
        let mut end = s.boxed_clone();
        end.set_position(Some(fen), &pv).expect("legal line");
        assert_eq!(end.status_text().reason, "checkmate", "{fen}");
    }
}

/// Against a bare royal piece the capture search tries quiet checks: a depth-2 search sees a mate
/// in 2 (a quiet move, the King's reply, a quiet check that mates), in chess and in a 3-player
/// game reduced to two players (searched as a two-player game).
#[test]
fn quiet_checks_against_a_bare_royal_piece() {
    for (game, fen) in [
        ("chess", "7k/8/5K2/8/8/8/8/1R6 w - - 0 1"),
        ("chess", "6k1/8/5K2/8/8/8/8/1R6 w - - 0 1"),
        // Blue out; Red's Queen and two Rooks against Yellow's King on level d.
        ("honeycomb3", "8/7/6/5/4/3/2/1/8/5rQ1/6/5/4/3/1rK/1/8/7/4rR1/5/4/3/2/1/7yK/7/6/5/2rR1/3/2/1/8/7/6/5/4/3/2/1 r ry - - 26 14 1:br"),
    ] {
        let mut s = session::open(game).expect("game");
        s.set_position(Some(fen), &[]).expect("position");
        let (_, info) = search(&*s, MultiSearch::Paranoid, depth(2));
        assert!(info.contains(" score mate 2 "), "{game} {fen}: {info}");
    }
}

/// Nodes a fixed-depth search of `s` takes with a fresh table and the given heuristics.
fn nodes_with(s: &dyn Session, depth_limit: u32, heuristics: &Heuristics) -> u64 {
    let tt = TransTable::new(4).expect("a small table");
    let control = Control::default();
    let limits = depth(depth_limit);
    let request = SearchRequest {
        limits: &limits,
        control: &control,
        tt: &tt,
        heuristics,
        helpers: &HelperPool::default(),
        settings: SearchSettings::default(),
    };
    s.think(&request, &mut |_| {}).last.expect("a completed iteration").nodes
}

/// With two players a search starts from what the last one learned about moves (the same search
/// again, with a fresh table, takes other nodes); emptied, the heuristics give the first search's
/// count again. The multi-player searches start afresh every time.
#[test]
fn two_player_searches_keep_what_they_learned() {
    let mut chess = session::open("chess").expect("chess");
    chess.set_position(None, &["e2e4", "e7e5", "g1f3", "b8c6"]).expect("legal");
    let heuristics = Heuristics::default();
    let first = nodes_with(&*chess, 7, &heuristics);
    assert_eq!(nodes_with(&*chess, 7, &Heuristics::default()), first, "a fresh search is repeatable");
    assert_ne!(nodes_with(&*chess, 7, &heuristics), first, "the second search orders by what the first learned");
    heuristics.clear();
    assert_eq!(nodes_with(&*chess, 7, &heuristics), first);
    let honey = session::open("honeycomb3").expect("honeycomb3");
    let first = nodes_with(&*honey, 4, &heuristics);
    assert_eq!(nodes_with(&*honey, 4, &heuristics), first);
}
