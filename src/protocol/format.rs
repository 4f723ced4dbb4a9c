//! The text of the protocol's output lines, made from the session's typed answers.

use crate::bench::{self, BenchLine};
use crate::eval::Breakdown;
use crate::position::EndReason;
use crate::search::{Bound, Info, Score};
use crate::session::{SearchResult, Session, Status};
use crate::types::{PerPlayer, Player, PlayerSet};

/// Win, draw and loss chances, per mille, of a score in a game at `ply`: Stockfish 15.1's model,
/// fitted to its self-play games (a pawn up is half the games won at ply 64).
pub fn wdl(score: Score, ply: u32) -> (u32, u32, u32) {
    const AS: [f64; 4] = [-0.582_704_99, 2.685_125_49, 15.246_380_15, 344.497_453_82];
    const BS: [f64; 4] = [-2.657_345_62, 15.965_097_99, -20.690_408_36, 73.610_299_37];
    /// Stockfish's internal units per centipawn (361 to a pawn).
    const UNITS_PER_CP: f64 = 3.61;
    let cp = match score {
        Score::Mate(m) if m > 0 => return (1000, 0, 0),
        Score::Mate(_) => return (0, 0, 1000),
        Score::Centipawns(cp) => f64::from(cp),
    };
    let m = f64::from(ply.min(240)) / 64.0;
    let a = ((AS[0] * m + AS[1]) * m + AS[2]) * m + AS[3];
    let b = ((BS[0] * m + BS[1]) * m + BS[2]) * m + BS[3];
    let x = (cp * UNITS_PER_CP).clamp(-4000.0, 4000.0);
    let rate = |x: f64| (0.5 + 1000.0 / (1.0 + ((a - x) / b).exp())) as u32;
    let (w, l) = (rate(x), rate(-x));
    (w, 1000 - w - l, l)
}

/// How the `info` lines of a search look.
#[derive(Clone, Copy, Debug, Default)]
pub struct InfoStyle {
    /// `wdl W D L` after the score (two-player games).
    pub show_wdl: bool,
    /// The game's ply at the root, for the WDL model.
    pub ply: u32,
}

fn nps(nodes: u64, time_ms: u64) -> u64 {
    (nodes * 1000).checked_div(time_ms).unwrap_or(nodes * 1000)
}

/// The `info` line of a search event: a principal variation (with `multipv`, a bound when the
/// aspiration window failed, `wdl` if asked for, and the per-player `scores` with three or more
/// players), or progress with the root move being searched.
pub fn info_line(session: &dyn Session, info: &Info, style: InfoStyle) -> String {
    let r = match info {
        Info::Line(r) => r,
        Info::Progress(p) => {
            let mut line = format!(
                "info depth {} seldepth {} nodes {} nps {} hashfull {} time {}",
                p.depth,
                p.seldepth,
                p.nodes,
                nps(p.nodes, p.time_ms),
                p.hashfull,
                p.time_ms
            );
            if let Some((mv, n)) = p.currmove {
                line.push_str(&format!(" currmove {} currmovenumber {n}", session.move_text(mv)));
            }
            return line;
        }
    };
    let mut score = match r.score {
        Score::Centipawns(cp) => format!("cp {cp}"),
        Score::Mate(m) => format!("mate {m}"),
    };
    let players = &session.def().players;
    if style.show_wdl && players.len() == 2 {
        let (w, d, l) = wdl(r.score, style.ply);
        score.push_str(&format!(" wdl {w} {d} {l}"));
    }
    match r.bound {
        Bound::Lower => score.push_str(" lowerbound"),
        Bound::Upper => score.push_str(" upperbound"),
        Bound::Exact => {}
    }
    if players.len() > 2 {
        let parts: Vec<String> = players.entries().map(|(p, def)| format!("{}:{}", def.code, r.scores[p])).collect();
        score.push_str(&format!(" scores {}", parts.join(",")));
    }
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {}",
        r.depth,
        r.seldepth,
        r.multipv,
        score,
        r.nodes,
        nps(r.nodes, r.time_ms),
        r.hashfull,
        r.time_ms
    );
    // No `pv` token without moves: a GUI would read an empty line as the engine's.
    if !r.pv.is_empty() {
        let pv: Vec<String> = r.pv.iter().map(|&m| session.move_text(m)).collect();
        line.push_str(&format!(" pv {}", pv.join(" ")));
    }
    line
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
    if let Some(rule) = &session.def().rules.teams {
        let team = |t: &Vec<Player>| t.iter().map(|&p| session.player_name(p)).collect::<Vec<_>>().join("+");
        if let Some(end) = s.end
            && end.reason == EndReason::WinRule
            && let Some(t) = end.winner.and_then(|w| rule.teams.iter().find(|t| t.contains(&w)))
        {
            // In a team game a win by rule is the team win: two checkmates by one team.
            line.push_str(&format!(" winningteam {}", team(t)));
        }
        line.push_str(&format!(" teams {}", rule.teams.iter().map(team).collect::<Vec<_>>().join(",")));
    }
    line.push_str(&format!(" active {}", names(session, s.active)));
    if !s.in_check.is_empty() {
        line.push_str(&format!(" incheck {}", names(session, s.in_check)));
    }
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
    let mut out = vec![
        format!("eval game {} tomove {}", session.def().id, session.player_name(session.to_move())),
        format!("eval phase {}", b.phase),
    ];
    for (name, values) in [
        ("material", &b.material),
        ("placement", &b.placement),
        ("pawns", &b.pawns),
        ("mobility", &b.mobility),
        ("king-safety", &b.king_safety),
        ("pieces", &b.pieces),
        ("mop-up", &b.mopup),
        ("network", &b.network),
        ("tempo", &b.tempo),
    ] {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wdl_follows_the_score() {
        assert_eq!(wdl(Score::Mate(3), 40), (1000, 0, 0));
        assert_eq!(wdl(Score::Mate(-1), 40), (0, 0, 1000));
        let (w, d, l) = wdl(Score::Centipawns(0), 40);
        assert_eq!(w, l);
        assert_eq!(w + d + l, 1000);
        // A pawn up at ply 64 wins about half the games.
        let (w, _, _) = wdl(Score::Centipawns(100), 64);
        assert!((480..=520).contains(&w), "{w}");
        let (w2, _, l2) = wdl(Score::Centipawns(300), 64);
        assert!(w2 > 900 && l2 < 10, "{w2} {l2}");
    }
}
