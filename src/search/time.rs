//! Time management: from `go`'s limits, a soft limit (start no new iteration after it) and a
//! hard limit (abort the search) for the player to move.

use std::time::{Duration, Instant};

use super::Limits;
use crate::types::Player;

/// Kept back from the clock for the protocol's round trip (at most half of what is left).
const RESERVE_MS: u64 = 30;
/// Moves the clock is spread over when `go` does not say (`movestogo`), and its bounds.
const DEFAULT_MOVES_TO_GO: u32 = 30;
const MOVES_TO_GO_RANGE: (u32, u32) = (1, 60);
/// Share of the increment spent on this move, in quarters.
const INCREMENT_QUARTERS: u64 = 3;
/// The hard limit is at most this many soft limits.
const HARD_PER_SOFT: u32 = 4;
/// An iteration is not started after this share of the soft limit (tenths): the next one would
/// take longer than what is left.
pub(super) const NEW_ITERATION_TENTHS: u32 = 6;

pub(super) struct Deadline {
    pub start: Instant,
    /// Stop starting new iterations after this.
    pub soft: Option<Duration>,
    /// Abort the search after this.
    pub hard: Option<Duration>,
}

impl Deadline {
    pub fn new(limits: &Limits, mover: Player) -> Self {
        let start = Instant::now();
        if limits.infinite {
            return Deadline { start, soft: None, hard: None };
        }
        if let Some(ms) = limits.movetime {
            let d = Duration::from_millis(ms);
            return Deadline { start, soft: Some(d), hard: Some(d) };
        }
        match limits.time[mover.index()] {
            None => Deadline { start, soft: None, hard: None },
            Some(left) => {
                let inc = limits.inc[mover.index()];
                let moves = u64::from(limits.movestogo.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(MOVES_TO_GO_RANGE.0, MOVES_TO_GO_RANGE.1));
                let reserve = RESERVE_MS.min(left / 2);
                let usable = left.saturating_sub(reserve);
                let soft = (usable / moves + inc * INCREMENT_QUARTERS / 4).min(usable);
                let hard = (soft * u64::from(HARD_PER_SOFT)).min(usable / 2 + inc / 2).max(soft.min(usable));
                Deadline { start, soft: Some(Duration::from_millis(soft)), hard: Some(Duration::from_millis(hard)) }
            }
        }
    }

    /// Whether the hard limit has passed.
    pub fn hard_passed(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }
}
