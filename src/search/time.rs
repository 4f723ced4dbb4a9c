//! Time management, the same for every number of players: from `go`'s limits, a soft limit (the
//! time the move should take: no new iteration after most of it, and an iteration stops once it
//! has run well past it) and a hard limit (the search stops), both from the mover's own clock and
//! increment, never past the clock less the move overhead.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use super::Limits;
use crate::types::Player;

/// Moves the clock is spread over when `go` does not say (`movestogo`), and its bounds; with no
/// increment either (sudden death) more, as games can be long (Stockfish assumes 50). With an
/// increment, 25 and all of the increment: at 30 and three quarters of it tessera ended its games
/// against Stockfish at 10 s + 0.1 s with 2 to 6 s left, Stockfish with half a second.
const DEFAULT_MOVES_TO_GO: u64 = 25;
const SUDDEN_DEATH_MOVES_TO_GO: u64 = 50;
const MAX_MOVES_TO_GO: u64 = 60;
/// What a move costs outside the search, in milliseconds (the GUI's `position` read and replayed,
/// the search started, the answer's way back: 2 to 3 ms measured in long games), kept back for
/// every move to go: without it a long game at a short sudden-death clock runs out on these
/// costs alone once the clock is down to the move overhead.
const PER_MOVE_COST_MS: u64 = 3;
/// Share of the increment spent on this move, in quarters (all of it: the soft limit is a budget
/// that an iteration rarely uses in full).
const INCREMENT_QUARTERS: u64 = 4;
/// The aim per move, in percent of the clock's share and the increment: at 100 % tessera ended
/// its games with a quarter of its clock unused (run SM in `docs/experiments.md`). Not in sudden
/// death: there a long game must last on the clock alone
/// (at 130 % a 1 s clock did not last 140 moves). `Slow Mover` scales the aim further.
const AIM_PERCENT: u64 = 130;
/// The soft limit is at most this share of the usable time (tenths), so that one move never
/// spends most of the clock.
const SOFT_MAX_TENTHS: u64 = 2;
/// The hard limit: at most this many soft limits, and at most this share of the usable time
/// (tenths) plus the increment.
const HARD_PER_SOFT: u64 = 3;
const HARD_MAX_TENTHS: u64 = 4;
/// An iteration is not started after this share of the soft limit (tenths): the next one would
/// take longer than what is left.
const NEW_ITERATION_TENTHS: u32 = 6;
/// A running iteration is given up after this many soft limits (tenths), once one iteration is
/// complete: it would not finish in time, and the clock must last.
const GIVE_UP_TENTHS: u32 = 20;

pub(super) struct Deadline {
    pub start: Instant,
    /// The time the move should take (`None`: no clock to keep).
    soft: Option<Duration>,
    /// Abort the search after this.
    hard: Option<Duration>,
    /// The soft limit is stretched or shrunk by this many percent as the search goes
    /// ([`Deadline::rescale`]); the hard limit stays.
    scale: AtomicU32,
}

/// What the iterations so far say about the time the move deserves.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Stability {
    /// Changes of the best move, the recent ones weighing most.
    pub changes: f64,
    /// Iterations since the best move last changed.
    pub unchanged: u32,
    /// How much the score fell in the last iteration (centipawns; negative when it rose).
    pub fall: i32,
}

/// The soft limit's scale: more time while the best move keeps changing or the score falls, less
/// once the best move has held for several iterations, within these bounds (percent).
const MIN_SCALE: f64 = 50.0;
const MAX_SCALE: f64 = 250.0;
/// Iterations without a change of the best move after which the move is taken as settled.
const SETTLED_AFTER: u32 = 6;

impl Deadline {
    pub fn new(limits: &Limits, mover: Player) -> Self {
        let start = Instant::now();
        if limits.infinite {
            return Deadline { start, soft: None, hard: None, scale: AtomicU32::new(100) };
        }
        if let Some(ms) = limits.movetime {
            // A fixed time is used in full.
            return Deadline { start, soft: None, hard: Some(Duration::from_millis(ms)), scale: AtomicU32::new(100) };
        }
        let Some(left) = limits.time[mover.index()] else { return Deadline { start, soft: None, hard: None, scale: AtomicU32::new(100) } };
        let inc = limits.inc[mover.index()];
        let assumed = if inc == 0 { SUDDEN_DEATH_MOVES_TO_GO } else { DEFAULT_MOVES_TO_GO };
        let moves = limits.movestogo.map_or(assumed, u64::from).clamp(1, MAX_MOVES_TO_GO);
        // The clock less the overhead of getting the move to the GUI and the cost of the moves to
        // go; at least a millisecond.
        let usable = left.saturating_sub(limits.move_overhead + PER_MOVE_COST_MS * moves).max(1);
        let aim_percent = if inc == 0 { 100 } else { AIM_PERCENT };
        let aim = (usable / moves + inc * INCREMENT_QUARTERS / 4) * aim_percent * limits.slow_mover.unwrap_or(100) / 10_000;
        let soft = aim.min(usable * SOFT_MAX_TENTHS / 10).max(1);
        let hard = (soft * HARD_PER_SOFT).min(usable * HARD_MAX_TENTHS / 10 + inc).min(usable).max(soft);
        Deadline { start, soft: Some(Duration::from_millis(soft)), hard: Some(Duration::from_millis(hard)), scale: AtomicU32::new(100) }
    }

    /// The soft limit as scaled now.
    fn scaled_soft(&self) -> Option<Duration> {
        self.soft.map(|s| s * self.scale.load(Ordering::Relaxed) / 100)
    }

    /// Scales the soft limit by what the iterations say: stretched while the best move changes
    /// or the score falls, shrunk once the best move has held for a while.
    pub fn rescale(&self, s: Stability) {
        let unstable = 1.0 + 0.8 * s.changes.min(2.0);
        let settled = if s.unchanged >= SETTLED_AFTER { 0.7 } else { 1.0 };
        let falling = (1.0 + f64::from(s.fall) / 250.0).clamp(0.8, 1.5);
        let percent = (100.0 * unstable * settled * falling).clamp(MIN_SCALE, MAX_SCALE);
        self.scale.store(percent as u32, Ordering::Relaxed);
    }

    /// Whether the hard limit has passed.
    pub fn hard_passed(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// Whether the clock is kept (a clock was given: searches stop early where it pays).
    pub fn keeps_clock(&self) -> bool {
        self.soft.is_some()
    }

    /// Whether there is time to start another iteration.
    pub fn room_for_iteration(&self) -> bool {
        self.scaled_soft().is_none_or(|s| self.start.elapsed() < s * NEW_ITERATION_TENTHS / 10)
    }

    /// Whether a running iteration should be given up (one is complete already).
    pub fn give_up_iteration(&self) -> bool {
        self.scaled_soft().is_some_and(|s| self.start.elapsed() >= s * GIVE_UP_TENTHS / 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(time: u64, inc: u64, overhead: u64) -> Limits {
        let mut l = Limits { move_overhead: overhead, ..Limits::default() };
        l.time[0] = Some(time);
        l.inc[0] = inc;
        l
    }

    fn ms(d: Option<Duration>) -> u128 {
        d.map_or(0, |d| d.as_millis())
    }

    #[test]
    fn limits_stay_inside_the_clock() {
        let p = Player::new(0);
        // An increment larger than the clock: never past the clock less the overhead.
        let d = Deadline::new(&limits(300, 1000, 30), p);
        assert!(ms(d.hard) <= 270 && ms(d.soft) <= ms(d.hard), "{} {}", ms(d.soft), ms(d.hard));
        // A normal clock: 130 % of a twenty-fifth (of the clock less 30 ms and 25 moves' cost)
        // and the increment, the hard limit three times that.
        let d = Deadline::new(&limits(60_000, 1000, 30), p);
        assert_eq!((ms(d.soft), ms(d.hard)), (4413, 13239));
        // Almost no time left.
        let d = Deadline::new(&limits(20, 0, 30), p);
        assert_eq!((ms(d.soft), ms(d.hard)), (1, 1));
        // movestogo 1: the whole usable clock may not go into one move either.
        let mut l = limits(10_000, 0, 50);
        l.movestogo = Some(1);
        let d = Deadline::new(&l, p);
        assert!(ms(d.hard) <= 3980, "{}", ms(d.hard));
        // movetime is used in full.
        let l = Limits { movetime: Some(500), ..Limits::default() };
        let d = Deadline::new(&l, p);
        assert_eq!((d.soft, ms(d.hard)), (None, 500));
        assert!(d.room_for_iteration() && !d.give_up_iteration());
    }

    /// `Slow Mover` scales the aim, within the same caps: 150 % of the aim (130 % of a
    /// twenty-fifth and the increment), and never more than a fifth of the clock however slow.
    #[test]
    fn slow_mover_scales_the_aim_within_the_caps() {
        let p = Player::new(0);
        let slow = |percent: u64, time: u64| Deadline::new(&Limits { slow_mover: Some(percent), ..limits(time, 1000, 30) }, p);
        assert_eq!((ms(slow(100, 60_000).soft), ms(slow(150, 60_000).soft)), (4413, 6620));
        assert_eq!(ms(slow(50, 60_000).soft), 2206);
        let d = slow(1000, 60_000);
        assert_eq!((ms(d.soft), ms(d.hard)), (11_979, 24_958));
    }

    /// A sudden-death clock of 1 s lasts a 140-move game in which every move spends its whole
    /// soft limit and 3 ms more outside the search (what long `honeycomb3` games cost).
    #[test]
    fn a_short_sudden_death_clock_lasts_a_long_game() {
        let p = Player::new(0);
        let mut left: i64 = 1000;
        for _ in 0..140 {
            let d = Deadline::new(&limits(u64::try_from(left).expect("time left"), 0, 50), p);
            left -= i64::try_from(ms(d.soft)).expect("ms") + 3;
            assert!(left > 0);
        }
    }
}
