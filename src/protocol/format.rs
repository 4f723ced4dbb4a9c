//! The text of the protocol's output lines, made from the session's typed answers.

use crate::bench::{self, BenchLine};
use crate::eval::Breakdown;
use crate::search::{Report, Score};
use crate::session::{SearchResult, Session, Status};
use crate::types::{PerPlayer, PlayerSet};

/// An `info` line for a completed iteration.
pub fn info_line(session: &dyn Session, r: &Report) -> String {
    let score = match r.score {
        Score::Centipawns(cp) => format!("cp {cp}"),
        Score::Mate(m) => format!("mate {m}"),
    };
    let nps = (r.nodes * 1000).checked_div(r.time_ms).unwrap_or(r.nodes * 1000);
    let pv: Vec<String> = r.pv.iter().map(|&m| session.move_text(m)).collect();
    let players = &session.def().players;
    let scores = if players.len() > 2 {
        let parts: Vec<String> = players.entries().map(|(p, def)| format!("{}:{}", def.code, r.scores[p])).collect();
        format!(" scores {}", parts.join(","))
    } else {
        String::new()
    };
    format!(
        "info depth {} seldepth {} score {}{} nodes {} nps {} hashfull {} time {} pv {}",
        r.depth,
        r.seldepth,
        score,
        scores,
        r.nodes,
        nps,
        r.hashfull,
        r.time_ms,
        pv.join(" ")
    )
}

/// The `bestmove` line of a finished search.
pub fn bestmove_line(session: &dyn Session, result: &SearchResult) -> String {
    match (result.best, result.ponder) {
        (None, _) => "bestmove (none)".to_string(),
        (Some(b), None) => format!("bestmove {}", session.move_text(b)),
        (Some(b), Some(p)) => format!("bestmove {} ponder {}", session.move_text(b), session.move_text(p)),
    }
}

/// Players' names joined by `,`.
fn names(session: &dyn Session, players: PlayerSet) -> String {
    players.iter().map(|p| session.player_name(p)).collect::<Vec<_>>().join(",")
}

/// The `status` line.
pub fn status_line(session: &dyn Session, s: &Status) -> String {
    let mut line = format!("status {}", if s.is_over() { "over" } else { "playing" });
    line.push_str(&format!(" tomove {}", session.player_name(s.to_move)));
    if let Some(end) = s.end {
        line.push_str(&format!(" reason {}", end.reason.name().replace(' ', "-")));
        if let Some(w) = end.winner {
            line.push_str(&format!(" winner {}", session.player_name(w)));
        }
    }
    line.push_str(&format!(" active {}", names(session, s.active)));
    if !s.eliminated.is_empty() {
        let e: Vec<String> = s.eliminated.iter().map(|&(v, m)| format!("{}:{}", session.player_name(v), session.player_name(m))).collect();
        line.push_str(&format!(" eliminated {}", e.join(",")));
    }
    if !s.placings.is_empty() {
        let places: Vec<String> =
            s.placings.iter().map(|&set| set.iter().map(|p| session.player_name(p)).collect::<Vec<_>>().join("=")).collect();
        line.push_str(&format!(" placings {}", places.join(",")));
    }
    line
}

/// The lines of `eval`: each term per player, each player's total and the score the search uses
/// (its total and tempo less the average of its active opponents' totals).
pub fn eval_lines(session: &dyn Session, b: &Breakdown) -> Vec<String> {
    let players = &session.def().players;
    let per_player = |values: &PerPlayer<i32>| -> String {
        players.entries().map(|(p, def)| format!("{}:{}", def.code, values[p])).collect::<Vec<_>>().join(" ")
    };
    let mut out = vec![format!("eval game {} tomove {}", session.def().id, session.player_name(session.to_move()))];
    for (name, values) in
        [("material", &b.material), ("placement", &b.placement), ("mobility", &b.mobility), ("king-safety", &b.king_safety), ("tempo", &b.tempo)]
    {
        out.push(format!("eval term {name} {}", per_player(values)));
    }
    out.push(format!("eval total {}", per_player(&b.total)));
    out.push(format!("eval score {}", per_player(&b.score)));
    out.push("eval end".to_string());
    out
}

/// One line of `bench`.
pub fn bench_line(l: &BenchLine) -> String {
    format!(
        "{:<8} {:<6} depth {:>2} nodes {:>12} time {:>7} ms nps {:>11}  {}",
        l.game,
        l.kind.name(),
        l.depth,
        l.nodes,
        l.millis,
        l.nps(),
        l.position
    )
}

/// The closing lines of `bench`: totals of the perfts and of the searches (nodes, milliseconds),
/// then of both in the form benchmark tools read from Stockfish.
pub fn bench_summary(perft: &(u64, u128), search: &(u64, u128)) -> Vec<String> {
    let line = |kind: &str, &(n, ms): &(u64, u128)| format!("total {kind}: nodes {n} time {ms} ms nps {}", bench::nps(n, ms));
    let (nodes, ms) = (perft.0 + search.0, perft.1 + search.1);
    vec![
        line("perft", perft),
        line("search", search),
        "===========================".to_string(),
        format!("Total time (ms) : {ms}"),
        format!("Nodes searched  : {nodes}"),
        format!("Nodes/second    : {}", bench::nps(nodes, ms)),
    ]
}
