//! The engine's own benchmark: perft and fixed-depth searches over a fixed set of positions,
//! reporting nodes and nodes per second (`tessera bench`, or `bench` in the protocol).

use std::time::Instant;

use crate::search::{Control, HelperPool, Heuristics, Limits, SearchSettings};
use crate::session::{self, SearchRequest};
use crate::tt::TransTable;

/// Transposition table of each search, in MiB.
const BENCH_HASH_MB: usize = 16;

/// (game id, position string or "" for the start, perft depth, search depth).
const POSITIONS: &[(&str, &str, u32, u32)] = &[
    ("chess", "", 5, 9),
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4, 7),
    ("chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6, 10),
    ("chess", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5, 7),
    ("chess", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4, 7),
    ("chess", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 4, 7),
    ("cwda-cn", "", 4, 7),
    ("cwda-nr", "", 4, 7),
    ("cwda-rc", "", 4, 7),
    ("honeycomb3", "", 4, 6),
    ("wildhoney3", "", 4, 6),
    ("guru2", "", 3, 3),
    ("aof3", "", 3, 4),
    ("ninjachess", "", 3, 5),
];

/// Whether the benchmark has positions of this game.
pub fn has_game(game: &str) -> bool {
    POSITIONS.iter().any(|p| p.0 == game)
}

/// What a line of the benchmark measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchKind {
    Perft,
    Search,
}

impl BenchKind {
    pub fn name(self) -> &'static str {
        match self {
            BenchKind::Perft => "perft",
            BenchKind::Search => "search",
        }
    }
}

pub struct BenchLine {
    pub game: &'static str,
    pub position: String,
    pub kind: BenchKind,
    pub depth: u32,
    pub nodes: u64,
    pub millis: u128,
}

/// Nodes per second of `nodes` in `millis`.
pub fn nps(nodes: u64, millis: u128) -> u64 {
    u64::try_from(u128::from(nodes) * 1000 / millis.max(1)).unwrap_or(u64::MAX)
}

impl BenchLine {
    pub fn nps(&self) -> u64 {
        nps(self.nodes, self.millis)
    }
}

/// Totals of one kind of line: (nodes, milliseconds).
pub fn totals(lines: &[BenchLine], kind: BenchKind) -> (u64, u128) {
    lines.iter().filter(|l| l.kind == kind).fold((0, 0), |(n, ms), l| (n + l.nodes, ms + l.millis))
}

/// Runs the benchmark, optionally only for one game; `emit` gets each line as it is measured.
/// Stops early, with the lines so far, when `control` is stopped.
pub fn run(only_game: Option<&str>, control: &Control, mut emit: impl FnMut(&BenchLine)) -> Vec<BenchLine> {
    let mut lines = Vec::new();
    for &(game, fen, perft_depth, search_depth) in POSITIONS {
        if only_game.is_some_and(|g| g != game) || control.is_stopped() {
            continue;
        }
        let Some(mut s) = session::open(game) else { continue };
        let fen_opt = if fen.is_empty() { None } else { Some(fen) };
        if s.set_position(fen_opt, &[]).is_err() {
            continue;
        }
        let position = s.position_string();
        let t = Instant::now();
        let mut nodes = 0;
        if !s.divide_until(perft_depth, control.stop_flag(), &mut |_, n| nodes += n) {
            break;
        }
        let line = BenchLine {
            game,
            position: position.clone(),
            kind: BenchKind::Perft,
            depth: perft_depth,
            nodes,
            millis: t.elapsed().as_millis(),
        };
        emit(&line);
        lines.push(line);

        let tt = TransTable::new(BENCH_HASH_MB).expect("a small table");
        let limits = Limits { depth: Some(search_depth), ..Limits::default() };
        let heuristics = Heuristics::default();
        let request = SearchRequest {
            limits: &limits,
            control,
            tt: &tt,
            heuristics: &heuristics,
            helpers: &HelperPool::default(),
            settings: SearchSettings::default(),
        };
        let t = Instant::now();
        let result = s.think(&request, &mut |_| {});
        if control.is_stopped() {
            break;
        }
        let nodes = result.last.map_or(0, |r| r.nodes);
        let line = BenchLine { game, position, kind: BenchKind::Search, depth: search_depth, nodes, millis: t.elapsed().as_millis() };
        emit(&line);
        lines.push(line);
    }
    lines
}
