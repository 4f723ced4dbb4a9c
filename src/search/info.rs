//! What a search tells while it runs: a line per principal variation of each completed iteration
//! (and bounds when an aspiration window fails), and progress at least once a second.

use std::time::Duration;

use super::pv::legal_prefix;
use super::worker::Worker;
use super::{Bound, MATE, Report, Score};
use crate::position::Move;
use crate::types::PerPlayer;

/// Longest silence of a running search.
pub(super) const PROGRESS_INTERVAL: Duration = Duration::from_secs(1);

/// Progress during a long iteration.
#[derive(Clone, Debug)]
pub struct Progress {
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    /// The root move being searched and its number in the search order (from 1).
    pub currmove: Option<(Move, usize)>,
}

/// An event of a running search.
#[derive(Clone, Debug)]
pub enum Info {
    Line(Report),
    Progress(Progress),
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl<const W: usize> Worker<'_, W> {
    /// The report of the principal variation `pv` from the root, scored `value` (from the root
    /// player's point of view) at `depth`.
    pub(super) fn line(&self, pv: &[Move], depth: i32, value: i32, multipv: usize, bound: Bound) -> Report {
        let (pv, end) = legal_prefix(&self.pos, pv);
        let mut scores = PerPlayer::splat(-MATE);
        for p in end.active_players().iter() {
            scores[p] = self.shared.eval.evaluate_for(&end, p);
        }
        Report {
            depth: depth.unsigned_abs(),
            multipv,
            bound,
            seldepth: u32::try_from(self.seldepth).unwrap_or(u32::MAX),
            nodes: self.total_nodes(),
            time_ms: millis(self.shared.deadline.start.elapsed()),
            hashfull: self.shared.tt.hashfull(),
            score: Score::from_value(value),
            scores,
            pv,
        }
    }

    /// Hands an event to the reporter (the main thread's only).
    pub(super) fn tell(&mut self, info: Info) {
        if let Some(report) = self.reporter.as_mut() {
            report(info);
            self.last_info = std::time::Instant::now();
        }
    }

    /// A progress line if the search has been silent for a second.
    pub(super) fn tell_progress(&mut self) {
        if self.reporter.is_none() || self.last_info.elapsed() < PROGRESS_INTERVAL {
            return;
        }
        let progress = Progress {
            depth: self.depth.unsigned_abs(),
            seldepth: u32::try_from(self.seldepth).unwrap_or(u32::MAX),
            nodes: self.total_nodes(),
            time_ms: millis(self.shared.deadline.start.elapsed()),
            hashfull: self.shared.tt.hashfull(),
            currmove: self.at_root.current,
        };
        self.tell(Info::Progress(progress));
    }

    /// A bound line when an aspiration window failed, once the search has run for a second (so
    /// that quick searches do not print them).
    pub(super) fn tell_bound(&mut self, depth: i32, value: i32, bound: Bound) {
        if self.reporter.is_some() && self.shared.deadline.start.elapsed() >= PROGRESS_INTERVAL {
            // A window that failed low has no line of its own yet: the last iteration's stands.
            let pv = match &self.stack[0].pv {
                pv if pv.is_empty() => self.at_root.previous_pvs.get(self.at_root.pv_index).cloned().unwrap_or_default(),
                pv => pv.clone(),
            };
            let line = self.line(&pv, depth, value, self.at_root.pv_index + 1, bound);
            self.tell(Info::Line(line));
        }
    }
}
