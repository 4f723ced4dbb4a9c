//! Search: iterative deepening over an alpha-beta (PVS) search with quiescence, a shared
//! transposition table and Lazy SMP threads.
//!
//! With two players this is ordinary negamax. With three or four it is, as chosen by
//! [`MultiSearch`], the paranoid search (the root player against a coalition of all the others),
//! best-reply search (the same, but at the coalition's turn only the strongest single reply of
//! any opponent is played, the others passing), or max-n. Negamax, paranoid and best-reply are
//! one code path ([`alphabeta`], [`quiesce`], [`brs`]): a node's value is from the point of view
//! of the "team" to move (the root player, or the coalition), and a child's value is negated only
//! when the team changes. Max-n is [`maxn`].
//!
//! The rest: [`worker`] (one thread's state, its root's and its per-ply stack), [`ordering`] (the
//! moves' ordering scores) and [`movepick`] (the picker that hands them out), [`history`] (what a
//! thread learns: the histories, counter moves and the correction of the static evaluation),
//! [`replies`] (best-reply search's own state), [`time`] (when to stop), [`smp`] (the iterative
//! deepening driver and its helper threads, their pool, and threads deferring what another thread
//! is searching), [`pv`] (principal variations made legal, scores at their
//! ends). The algorithms extend [`worker::Worker`]; the worker's own modules import none of them.

mod algorithm;
mod alphabeta;
mod brs;
mod history;
mod info;
mod maxn;
mod movepick;
mod ordering;
mod placing;
mod pv;
mod quiesce;
mod replies;
mod see;
mod skill;
mod smp;
mod time;
mod worker;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};

use crate::eval::Evaluator;
use crate::position::{Move, Position};
pub use crate::tt::Bound;
use crate::tt::TransTable;
use crate::types::{MAX_PLAYERS, PerPlayer};
pub use algorithm::MultiSearch;
pub use info::{Info, Progress};
pub use see::see_ge;
pub use skill::Strength;
pub use smp::{HelperPool, MAX_THREADS, think};

/// The value of a mate now; a mate `n` plies away is `MATE - n`.
pub const MATE: i32 = 30_000;
/// Above every score.
const INF: i32 = 31_000;
/// Deepest ply of the search stack.
const MAX_PLY: usize = 128;
/// Scores from here on (in absolute value) are mates within the search's reach: `MATE` less
/// `MAX_PLY` plies.
const MATE_BOUND: i32 = MATE - 128;
const _: () = assert!(crate::eval::EVAL_LIMIT < MATE_BOUND, "an evaluation must never read as a mate");

/// True if `v` is a mate score (a win or a loss within the search's reach).
fn is_mate_score(v: i32) -> bool {
    v.abs() >= MATE_BOUND
}

crate::params::tunable! {
    /// Search parameters. The pruning terms and the aspiration window apply in two-player games
    /// only; 0 turns a term off.
    SearchParams, "search parameter",
    /// Null-move reduction R (plies; 0: no null move).
    null_move_r: 0..=4,
    /// The null move is tried at nodes this deep or deeper (plies).
    null_move_depth: 1..=8,
    /// Aspiration window around the previous iteration's score, in centipawns (0: full window).
    aspiration: 0..=1000,
    /// Reverse futility pruning up to `rfp_depth`: a node whose static evaluation beats beta by
    /// this much per ply of depth returns at once.
    rfp_margin: 0..=1000,
    /// Deepest node of reverse futility pruning (plies).
    rfp_depth: 0..=16,
    /// Futility pruning up to `futility_depth`: quiet moves that give no check are skipped where
    /// the static evaluation plus this much per ply of depth does not reach alpha.
    futility_margin: 0..=1000,
    /// Deepest node of futility pruning (plies).
    futility_depth: 0..=16,
    /// Late move pruning up to this depth (plies): quiet moves after the first 3 + depth² (half
    /// as many where the static evaluation is not improving) are not searched.
    lmp_depth: 0..=16,
    /// Delta pruning in quiescence: captures that cannot bring the score within this margin of
    /// alpha, even winning the captured man for free, are skipped.
    delta_margin: 0..=2000,
    /// Longest capture sequence of the paranoid and best-reply quiescence with three or more
    /// players (plies), where every opponent's captures are searched.
    multi_quiesce_plies: 1..=12,
    /// In a team game while both teams are in play: 1 searches the teams as two sides
    /// (alpha-beta between the root player's team and the other), 0 plays the chosen
    /// multi-player search.
    team_search: 0..=1,
    /// 1: a check that does not lose material by static exchange is searched a ply deeper.
    check_extension: 0..=1,
    /// The correction history's largest correction of the static evaluation, in centipawns (0:
    /// no correction history).
    correction: 0..=400,
    /// Singular extensions off the principal variation: the table's move is searched two plies
    /// deeper where every other move stays this much further below the singular margin (0: one
    /// ply at most).
    double_extension_margin: 0..=500,
    /// 1: the table's move is searched a ply shallower where it is not singular but its stored
    /// score beats beta (another move very likely cuts too).
    negative_extension: 0..=1,
    /// Singular extensions with two players from this depth (plies).
    se_depth: 2..=20,
    /// The singular margin: centipawns per ply of depth below the table's score that every other
    /// move must stay for the table's move to be extended.
    se_margin: 0..=20,
    /// Late-move reductions with two players: the reduction's constant, in hundredths of a ply.
    lmr_base: 0..=300,
    /// Late-move reductions with two players: the product of the logarithms of the depth and of
    /// the move's number is divided by this, in hundredths.
    lmr_divisor: 100..=600,
    /// With two players a cut-off at depth d is worth this much history credit per ply of d (up
    /// to 2,048, an eighth of the history's bound; 0: 16 d², up to 1,600).
    history_bonus_slope: 0..=1000,
}

/// The defaults: the search's one table.
pub const SEARCH_PARAMS: SearchParams = SearchParams {
    null_move_r: 2,
    null_move_depth: 3,
    aspiration: 30,
    rfp_margin: 100,
    rfp_depth: 3,
    futility_margin: 150,
    futility_depth: 2,
    lmp_depth: 3,
    delta_margin: 200,
    multi_quiesce_plies: 12,
    team_search: 1,
    check_extension: 1,
    correction: 128,
    double_extension_margin: 25,
    negative_extension: 1,
    se_depth: 6,
    se_margin: 2,
    lmr_base: 75,
    lmr_divisor: 225,
    history_bonus_slope: 300,
};

impl Default for SearchParams {
    fn default() -> Self {
        SEARCH_PARAMS
    }
}

/// Whether a search from `root` is a team search: a team game with both teams in play (the
/// rules' team switch) and the `team_search` parameter on. It is alpha-beta between the root
/// player's team and the other, whatever the multi-player search chosen. It stays on after the
/// first checkmate: partners still cannot take or check each other, and a partner's team win
/// is a win for the root player too, which a search of one player against all could not see.
/// (Once the checkmates of both teams leave one player per team it is the two-player search.)
pub(super) fn team_search<const W: usize>(root: &Position<W>, settings: &SearchSettings) -> bool {
    settings.params.team_search != 0 && root.teams_in_play()
}

/// Most principal variations a search reports (`MultiPV`).
pub const MAX_MULTI_PV: usize = 500;

/// How to search: the N-player algorithm, the parameters, how many principal variations to
/// report and at what strength to play.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchSettings {
    pub algorithm: MultiSearch,
    pub params: SearchParams,
    /// Principal variations to report, 1 to [`MAX_MULTI_PV`].
    pub multi_pv: usize,
    pub strength: Strength,
}

impl Default for SearchSettings {
    fn default() -> Self {
        SearchSettings { algorithm: MultiSearch::default(), params: SEARCH_PARAMS, multi_pv: 1, strength: Strength::FULL }
    }
}

/// What `go` asked for.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Milliseconds for this move.
    pub movetime: Option<u64>,
    /// Remaining clock time per player (milliseconds).
    pub time: [Option<u64>; MAX_PLAYERS],
    /// Increment per player (milliseconds).
    pub inc: [u64; MAX_PLAYERS],
    pub movestogo: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// Root moves to consider (`go searchmoves`); empty: all.
    pub search_moves: Vec<Move>,
    /// Milliseconds kept back from the clock for getting the move to the GUI.
    pub move_overhead: u64,
    /// The time aimed at per move, in percent of the time manager's own aim (`Slow Mover`;
    /// `None`: 100).
    pub slow_mover: Option<u64>,
}

/// Signals from the protocol thread to a running search: stop now, and whether it is pondering.
#[derive(Default)]
pub struct Control {
    stop: AtomicBool,
    /// While set, the search does not stop on its own (UCI `go ponder` / `go infinite`).
    pondering: AtomicBool,
    /// Wakes a finished search that waits for `stop` or `ponderhit` before it answers.
    changed: Condvar,
    lock: Mutex<()>,
}

impl Control {
    /// A control for a search that starts pondering (or not).
    pub fn new(pondering: bool) -> Self {
        let c = Control::default();
        c.pondering.store(pondering, Ordering::Relaxed);
        c
    }

    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.stop.store(true, Ordering::SeqCst);
        self.pondering.store(false, Ordering::SeqCst);
        self.changed.notify_all();
    }

    /// The opponent played the expected move: the search goes on as a normal one.
    pub fn ponderhit(&self) {
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.pondering.store(false, Ordering::SeqCst);
        self.changed.notify_all();
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The stop signal itself, for work outside the search (perft).
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// Blocks until the search may answer: at once, unless it is infinite or pondering, in which
    /// case until `stop` (or `ponderhit`, when pondering and not infinite).
    fn wait_until_released(&self, infinite: bool) {
        let mut guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        while !self.is_stopped() && (infinite || self.is_pondering()) {
            guard = self.changed.wait(guard).unwrap_or_else(|e| e.into_inner());
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Centipawns(i32),
    /// Mate in this many moves of the mover (negative: the mover is mated).
    Mate(i32),
}

impl Score {
    fn from_value(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Centipawns(v)
        }
    }
}

/// A principal variation of a completed iteration (or, with a bound, of a search that failed
/// outside its aspiration window): what an `info` line reports.
#[derive(Clone, Debug)]
pub struct Report {
    pub depth: u32,
    /// Its rank among the principal variations of the iteration, from 1.
    pub multipv: usize,
    /// `Exact`, or the side on which the score is only a bound.
    pub bound: Bound,
    pub seldepth: u32,
    pub nodes: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    /// From the mover's point of view.
    pub score: Score,
    /// Static evaluation of the PV's end for every player (each from its own point of view;
    /// `-MATE` for a player out of the game).
    pub scores: PerPlayer<i32>,
    pub pv: Vec<Move>,
}

/// What a search found: the best move (none when the game is over) and the expected reply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
}

/// What the search threads learn about moves (history, continuation history, counter moves), kept
/// from one search to the next of a two-player game, as strong engines keep it for the whole game:
/// a thread's next search orders its moves by what the last one found. Emptied with the table
/// (`ucinewgame`, `Clear Hash`, a change of game); the multi-player searches start afresh.
#[derive(Default)]
pub struct Heuristics(Mutex<Vec<history::Learned>>);

impl Heuristics {
    pub fn clear(&self) {
        self.threads().clear();
    }

    fn threads(&self) -> std::sync::MutexGuard<'_, Vec<history::Learned>> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// What a search shares with its caller: the table, what earlier searches learned, the stop
/// signals, the helper threads, the evaluation and the settings.
pub struct Resources<'a> {
    pub tt: &'a TransTable,
    pub heuristics: &'a Heuristics,
    pub control: &'a Control,
    pub helpers: &'a HelperPool,
    pub eval: &'a Evaluator,
    pub settings: SearchSettings,
    /// What `MultiSearch::Auto` plays: the game's measured best (its profile's).
    pub game_search: MultiSearch,
}
