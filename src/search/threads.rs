//! The search driver: iterative deepening on the main thread, reporting each completed
//! iteration, with Lazy SMP helper threads searching the same root into the shared table.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::pv::legal_prefix;
use super::time::{Deadline, NEW_ITERATION_TENTHS};
use super::worker::{Role, Shared, Worker};
use super::{Control, Limits, MATE, MultiSearch, Outcome, Report, Resources, Score, SearchSettings};
use crate::position::{Move, Position};
use crate::types::PerPlayer;

/// Deepest iteration (the stack of `MAX_PLY` plies needs room for quiescence below it).
const MAX_DEPTH: i32 = 120;

/// Searches `root` (reached through the positions hashed in `history`, oldest first) and returns
/// the best move. `report` receives one report per completed iteration of the main thread.
/// `resources.settings.algorithm` applies while three or more players are in the game.
pub fn think<const W: usize>(
    root: &Position<W>,
    history: &[u64],
    limits: &Limits,
    resources: &Resources<'_>,
    report: &mut (dyn FnMut(Report) + Send),
) -> Outcome {
    let mut legal = Vec::new();
    root.legal_moves(&mut legal);
    // `go searchmoves`: the legal ones of the moves given (all moves if none of them is).
    let root_moves =
        Some(limits.search_moves.iter().copied().filter(|m| legal.contains(m)).collect::<Vec<Move>>()).filter(|m| !m.is_empty());
    if let Some(moves) = &root_moves {
        legal.clone_from(moves);
    }
    let control = resources.control;
    if legal.is_empty() {
        // A finished game: nothing to search, but `go infinite` still waits for `stop`.
        control.wait_until_released(limits.infinite);
        return Outcome::default();
    }
    let mover = root.to_move();
    let deadline = Deadline::new(limits, mover);
    let tt = resources.tt;
    tt.new_search();
    let total_nodes = AtomicU64::new(0);
    let helpers_stop = AtomicBool::new(false);
    let multi = root.game().nplayers > 2;
    let algorithm = if root.active_count() > 2 { resources.settings.algorithm } else { MultiSearch::Paranoid };
    let settings = SearchSettings { algorithm, params: resources.settings.params };
    // Entries mean different things per root player and per search: keep them apart.
    let root_key = if multi {
        0x51ED_2701_A5A5_0000u64.wrapping_mul(mover.index() as u64 + 1) ^ 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(algorithm as u64)
    } else {
        0
    };

    let mut path: Vec<u64> = history.to_vec();
    if path.last() != Some(&root.hash()) {
        path.push(root.hash());
    }
    let max_depth = limits.depth.map_or(MAX_DEPTH, |d| i32::try_from(d).unwrap_or(MAX_DEPTH)).clamp(1, MAX_DEPTH);
    let helper_control = Control::default();
    let shared = |control| Shared { tt, control, deadline: &deadline, total_nodes: &total_nodes, eval: resources.eval };
    let mut best = legal[0];
    let mut ponder = None;

    std::thread::scope(|scope| {
        for t in 1..i32::try_from(resources.threads).unwrap_or(i32::MAX).max(1) {
            let mut w = Worker::new(root, &path, shared(&helper_control), None, Role::Helper, root_key, settings);
            w.root_moves.clone_from(&root_moves);
            let stop = &helpers_stop;
            scope.spawn(move || {
                // Half the helpers start one ply deeper, so that the threads spread over depths.
                let mut d = 1 + (t & 1);
                let mut previous = None;
                while d <= max_depth && !stop.load(Ordering::Relaxed) {
                    previous = Some(w.iterate(d, previous));
                    if w.aborted {
                        break;
                    }
                    d += 1;
                }
            });
        }

        let mut w = Worker::new(root, &path, shared(control), limits.nodes, Role::Main, root_key, settings);
        w.root_moves.clone_from(&root_moves);
        let mut previous = None;
        for depth in 1..=max_depth {
            let v = w.iterate(depth, previous);
            previous = Some(v);
            if w.aborted && depth > 1 {
                break;
            }
            let (pv, end) = legal_prefix(root, &w.stack[0].pv);
            if let Some(&m) = pv.first() {
                best = m;
                ponder = pv.get(1).copied();
            }
            let mut scores = PerPlayer::splat(-MATE);
            for p in end.active_players().iter() {
                scores[p] = resources.eval.evaluate_for(&end, p);
            }
            let elapsed = deadline.start.elapsed();
            report(Report {
                depth: depth.unsigned_abs(),
                seldepth: u32::try_from(w.seldepth).unwrap_or(u32::MAX),
                nodes: w.total_nodes(),
                time_ms: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
                hashfull: tt.hashfull(),
                score: Score::from_value(v),
                scores,
                pv,
            });
            if w.aborted {
                break;
            }
            let pondering = control.is_pondering();
            let timed = deadline.soft.is_some();
            if !pondering && deadline.soft.is_some_and(|s| elapsed >= s * NEW_ITERATION_TENTHS / 10) {
                break;
            }
            if !pondering && legal.len() == 1 && timed {
                break;
            }
            if v.abs() >= MATE - depth && limits.depth.is_none() && !limits.infinite && !pondering && timed {
                break;
            }
        }
        helpers_stop.store(true, Ordering::Relaxed);
        helper_control.stop();
    });
    // `go infinite` and `go ponder` must not answer before `stop` / `ponderhit`.
    control.wait_until_released(limits.infinite);
    Outcome { best: Some(best), ponder }
}
