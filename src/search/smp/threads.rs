//! The search driver: iterative deepening on the main thread, reporting each completed
//! iteration, with Lazy SMP helper threads searching the same root into the shared table.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use super::abdada::Busy;
use super::pool::Turns;
use crate::position::{Move, Position};
use crate::search::history::Learned;
use crate::search::placing;
use crate::search::skill::SKILL_MULTI_PV;
use crate::search::time::{Deadline, Stability};
use crate::search::worker::{Completed, Role, Shared, Worker, several_left};
use crate::search::{Bound, Info, Limits, MATE, MultiSearch, Outcome, Report, Resources, SearchSettings, team_search};

/// Deepest iteration (the stack of `MAX_PLY` plies needs room for quiescence below it).
const MAX_DEPTH: i32 = 120;

/// Searches `root` (reached through the positions hashed in `history`, oldest first) and returns
/// the best move. `report` receives the main thread's lines (one per principal variation of each
/// completed iteration) and its progress.
/// `resources.settings.algorithm` applies while three or more players are in the game.
pub fn think<const W: usize>(
    root: &Position<W>,
    history: &[u64],
    limits: &Limits,
    resources: &Resources<'_>,
    report: &mut (dyn FnMut(Info) + Send),
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
    let multi = several_left(root);
    let teams = team_search(root, &resources.settings);
    let algorithm = match resources.settings.algorithm {
        _ if root.active_count() <= 2 || teams => MultiSearch::Paranoid,
        // Against a bare royal piece, paranoid: the mating net needs every opponent's real
        // replies, and BRS+ gives all but one a static move (it let won endings slip away).
        MultiSearch::Auto if root.opponents(mover).iter().any(|q| root.is_bare(q)) => MultiSearch::Paranoid,
        MultiSearch::Auto => resources.game_search,
        chosen => chosen,
    };
    let settings = SearchSettings { algorithm, ..resources.settings };
    // Entries mean different things per root player and per search: keep them apart.
    let root_key = if multi {
        0x51ED_2701_A5A5_0000u64.wrapping_mul(mover.index() as u64 + 1)
            ^ 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(algorithm as u64)
            ^ if teams { 0x7EA3_5EA2_C400_0001 } else { 0 }
            // Values below eliminations read on the root's scale of places, where it has one.
            ^ if placing::for_root(root, resources.eval.params().placing_stake).is_some() {
                0xC2B2_AE3D_27D4_EB4Fu64.wrapping_mul(root.active_count() as u64)
            } else {
                0
            }
    } else {
        0
    };

    // Repetitions count since the last irreversible move and within the fifty-move rule's reach
    // (a node past it is drawn before any repetition is looked for; players only drop out, so
    // the reach only shrinks below the root): a long game's earlier positions are not copied.
    let lookback = (root.halfmove_clock() as usize).min(root.fifty_move_plies()) + 1;
    let mut path: Vec<u64> = history[history.len().saturating_sub(lookback)..].to_vec();
    if path.last() != Some(&root.hash()) {
        path.push(root.hash());
    }
    let max_depth = limits.depth.map_or(MAX_DEPTH, |d| i32::try_from(d).unwrap_or(MAX_DEPTH)).clamp(1, MAX_DEPTH);
    // Set when the main thread has chosen its move (the helpers stop), and by the first thread to
    // pass a hard limit (every thread stops); the helpers' seats when they outnumber the cores.
    let main_done = AtomicBool::new(false);
    let ended = AtomicBool::new(false);
    let turns = resources.helpers.turns();
    let completed = Completed::default();
    let busy = (resources.helpers.threads() > 1).then(Busy::default);
    let main_depth = AtomicI32::new(0);
    let shared = || Shared {
        tt,
        control,
        main_done: &main_done,
        ended: &ended,
        turns: turns.as_ref(),
        deadline: &deadline,
        total_nodes: &total_nodes,
        eval: resources.eval,
        completed: &completed,
        busy: busy.as_ref(),
    };
    let mut best = legal[0];
    let mut ponder = None;
    // Each thread starts from what it learned in the last search of a two-player game.
    let threads = resources.helpers.threads();
    let mut learned = if multi { Vec::new() } else { std::mem::take(&mut *resources.heuristics.threads()) };
    learned.retain(|l| l.fits(root.game()));
    learned.truncate(threads);
    learned.resize_with(threads, || Learned::new(root.game(), multi));
    let mut learned = learned.into_iter();
    let main_learned = learned.next().unwrap_or_else(|| Learned::new(root.game(), multi));
    // Helper `t` takes slot `t - 1` and puts back what it learned.
    let helper_slots: Vec<Mutex<Option<Learned>>> = learned.map(|l| Mutex::new(Some(l))).collect();
    let slot = |t: usize| helper_slots[t - 1].lock().unwrap_or_else(PoisonError::into_inner);

    // A helper searches until the main thread is done (if its turn comes before that).
    let helper = |t: usize| {
        if turns.as_ref().is_some_and(|turns| !turns.take()) {
            return;
        }
        let learned = slot(t).take().unwrap_or_else(|| Learned::new(root.game(), multi));
        let mut w = Worker::new(root, &path, shared(), limits.nodes, Role::Helper, root_key, settings, learned);
        w.at_root.moves.clone_from(&root_moves);
        // Half the helpers keep one ply deeper than the main thread, the others level with it,
        // so that the threads spread over depths.
        let ahead = i32::from(t % 2 == 1);
        let mut d = 1 + ahead;
        let mut previous = None;
        while d <= max_depth && !main_done.load(Ordering::Relaxed) {
            let v = w.iterate(d, previous);
            if w.aborted {
                break;
            }
            completed.offer(d, v, &w.stack[0].pv);
            previous = Some(v);
            d = (d + 1).max(main_depth.load(Ordering::Relaxed) + ahead);
        }
        if let Some(turns) = &turns {
            turns.leave();
        }
        *slot(t) = Some(w.learned);
    };
    let search_main = || {
        // However the main thread leaves (an unwind too), the helpers stop.
        let _done = MainDone { flag: &main_done, turns: turns.as_ref() };
        let mut w = Worker::new(root, &path, shared(), limits.nodes, Role::Main, root_key, settings, main_learned);
        w.at_root.moves.clone_from(&root_moves);
        w.reporter = Some(report);
        let strength = settings.strength;
        // A weakened search needs several lines to choose from.
        let lines_wanted = settings.multi_pv.max(if strength.is_limited() { SKILL_MULTI_PV } else { 1 }).min(legal.len()).max(1);
        w.may_be_overtaken = lines_wanted == 1;
        let mut previous: Vec<Option<i32>> = vec![None; lines_wanted];
        let mut picked = None;
        let mut last_lines: Vec<Report> = Vec::new();
        let mut stability = Stability::default();
        let mut last_value: Option<i32> = None;
        let mut depth = 1;
        while depth <= max_depth {
            w.depth = depth;
            main_depth.store(depth, Ordering::Relaxed);
            // One search per line, each leaving out the first moves of the lines before it.
            let mut found: Vec<(i32, Vec<Move>)> = Vec::with_capacity(lines_wanted);
            w.at_root.excluded.clear();
            for (k, &centre) in previous.iter().enumerate() {
                w.at_root.pv_index = k;
                let skip = w.may_be_overtaken && completed.depth() >= depth;
                let v = if skip { 0 } else { w.iterate(depth, centre) };
                if skip || w.overtaken || (!w.aborted && w.may_be_overtaken && completed.depth() > depth) {
                    // A helper completed this depth (or a deeper one) first: its line stands.
                    let (d, v, pv) = completed.take();
                    (w.aborted, w.overtaken) = (false, false);
                    depth = d;
                    found.push((v, pv));
                    break;
                }
                if w.aborted && (depth > 1 || k > 0) {
                    break;
                }
                let pv = w.stack[0].pv.clone();
                let Some(&first) = pv.first() else { break };
                w.at_root.excluded.push(first);
                found.push((v, pv));
            }
            w.at_root.excluded.clear();
            if found.is_empty() {
                break;
            }
            // Best first (the lines of one iteration may come back out of order).
            found.sort_by_key(|line| std::cmp::Reverse(line.0));
            for (k, (v, _)) in found.iter().enumerate() {
                previous[k] = Some(*v);
            }
            w.at_root.previous_pvs = found.iter().map(|(_, pv)| pv.clone()).collect();
            let lines: Vec<Report> = found.iter().enumerate().map(|(k, (v, pv))| w.line(pv, depth, *v, k + 1, Bound::Exact)).collect();
            if let Some(&m) = lines[0].pv.first() {
                stability.changes /= 2.0;
                if m == best || depth == 1 {
                    stability.unchanged += 1;
                } else {
                    stability.changes += 1.0;
                    stability.unchanged = 0;
                }
                best = m;
                ponder = lines[0].pv.get(1).copied();
            }
            if strength.is_limited() && depth == strength.pick_depth() {
                picked = strength.pick(&lines);
            }
            for line in lines.iter().take(settings.multi_pv) {
                w.tell(Info::Line(line.clone()));
            }
            last_lines = lines;
            if w.aborted {
                break;
            }
            let v = found[0].0;
            if let Some(before) = last_value {
                stability.fall = before - v;
            }
            last_value = Some(v);
            deadline.rescale(stability);
            let pondering = control.is_pondering();
            let timed = deadline.keeps_clock();
            if !pondering && !deadline.room_for_iteration() {
                break;
            }
            if !pondering && legal.len() == 1 && timed {
                break;
            }
            if v.abs() >= MATE - depth && limits.depth.is_none() && !limits.infinite && !pondering && timed {
                break;
            }
            depth += 1;
        }
        if strength.is_limited() {
            // The pick of its depth, or of the last iteration if the search stopped before it.
            if let Some(m) = picked.or_else(|| strength.pick(&last_lines)) {
                if m != best {
                    ponder = None;
                }
                best = m;
            }
        }
        w.learned
    };
    let main_kept = resources.helpers.run(&helper, search_main);
    let helpers_kept = helper_slots.into_iter().filter_map(|s| s.into_inner().unwrap_or_else(PoisonError::into_inner));
    let kept: Vec<Learned> = std::iter::once(main_kept).chain(helpers_kept).collect();
    if !multi {
        *resources.heuristics.threads() = kept;
    }
    // `go infinite` and `go ponder` must not answer before `stop` / `ponderhit`.
    control.wait_until_released(limits.infinite);
    Outcome { best: Some(best), ponder }
}

/// Tells the helpers that the main thread is done when dropped.
struct MainDone<'a> {
    flag: &'a AtomicBool,
    turns: Option<&'a Turns>,
}

impl Drop for MainDone<'_> {
    fn drop(&mut self) {
        self.flag.store(true, Ordering::Relaxed);
        if let Some(turns) = self.turns {
            turns.close();
        }
    }
}
