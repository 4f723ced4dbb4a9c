//! Playing strength below the best: Stockfish's method, for every game. The search looks at
//! several principal variations and, at a depth that grows with the level, picks one of the best
//! root moves with a deterministic bias towards weaker moves and a random one, both larger for
//! weaker levels.

use rand::RngExt;

use super::Report;
use super::Score;
use crate::position::Move;

/// A playing strength: a level from 0 (weakest) to 20 (full strength).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    level: f64,
}

/// The highest level: full strength.
const MAX_LEVEL: f64 = 20.0;
/// Principal variations a weakened search looks at.
pub(super) const SKILL_MULTI_PV: usize = 4;
/// The largest score gap (centipawns) the random part of the choice is scaled by: a pawn.
const MAX_DELTA: i32 = 100;

impl Strength {
    pub const FULL: Strength = Strength { level: MAX_LEVEL };

    /// A level, clamped to 0 to 20 (fractions allowed, as from an Elo).
    pub fn level(level: f64) -> Strength {
        Strength { level: level.clamp(0.0, MAX_LEVEL) }
    }

    pub fn value(self) -> f64 {
        self.level
    }

    /// Below full strength.
    pub fn is_limited(self) -> bool {
        self.level < MAX_LEVEL
    }

    /// The iteration at which the move is picked (later iterations go on for the analysis).
    pub(super) fn pick_depth(self) -> i32 {
        1 + self.level as i32
    }

    /// Picks a move among the iteration's lines (best first), as Stockfish's skill level does:
    /// each line's score is pulled towards the best one by a share that grows with weakness, plus
    /// a random amount of up to the gap between the first and last line (at most a pawn).
    pub(super) fn pick(self, lines: &[Report]) -> Option<Move> {
        let value = |r: &Report| match r.score {
            Score::Centipawns(cp) => cp,
            Score::Mate(m) if m > 0 => super::MATE - m,
            Score::Mate(m) => -super::MATE - m,
        };
        let top = value(lines.first()?);
        let last = value(lines.last()?);
        let delta = (top - last).min(MAX_DELTA);
        let weakness = 120.0 - 2.0 * self.level;
        let mut rng = rand::rng();
        let mut best = None;
        let mut best_value = i32::MIN;
        for line in lines {
            let v = value(line);
            let random = f64::from(delta) * f64::from(rng.random_range(0..weakness.max(1.0) as u32));
            let push = ((weakness * f64::from(top - v) + random) / 128.0) as i32;
            if v + push >= best_value {
                best_value = v + push;
                best = line.pv.first().copied();
            }
        }
        best
    }
}
