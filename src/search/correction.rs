//! Correction history (two players): how far the searches' values landed from the static
//! evaluation, per mover and pawn structure, added to later static evaluations of positions with
//! the same structure. The evaluation misjudges some structures consistently (a weak pawn it does
//! not see, a blocked centre), and the search measures by how much.

use crate::types::Player;

/// Entries per player (a power of two).
const SLOTS: usize = 1 << 14;
/// Stored values are centipawns times this, so that small weights still move them.
const GRAIN: i32 = 256;
/// A search's value weighs min(depth + 1, `MAX_WEIGHT`) / `WEIGHT_SCALE` in the running average.
const MAX_WEIGHT: i32 = 16;
const WEIGHT_SCALE: i32 = 256;

pub(super) struct Correction {
    values: Vec<i32>,
}

impl Correction {
    /// For `nplayers` movers; with 0 the table is empty and corrects nothing (the multi-player
    /// searches, whose values are not the mover's).
    pub fn new(nplayers: usize) -> Self {
        Correction { values: vec![0; nplayers * SLOTS] }
    }

    fn slot(player: Player, pawn_key: u64) -> usize {
        player.index() * SLOTS + (pawn_key as usize & (SLOTS - 1))
    }

    /// The correction in centipawns for `player` to move with pawn structure `pawn_key`.
    pub fn get(&self, player: Player, pawn_key: u64) -> i32 {
        self.values.get(Self::slot(player, pawn_key)).map_or(0, |v| v / GRAIN)
    }

    /// Averages in a search to `depth` whose value was `error` centipawns above the corrected
    /// static evaluation, the error taken at most `max` centipawns either way (so that no
    /// correction exceeds it).
    pub fn learn(&mut self, player: Player, pawn_key: u64, error: i32, depth: i32, max: i32) {
        let Some(v) = self.values.get_mut(Self::slot(player, pawn_key)) else { return };
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        let target = error.clamp(-max, max) * GRAIN;
        *v = (*v * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
    }

    /// Whether it was made for `nplayers` movers.
    pub fn fits(&self, nplayers: usize) -> bool {
        self.values.is_empty() || self.values.len() == nplayers * SLOTS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_follow_the_errors_within_bounds() {
        let (white, black) = (Player::new(0), Player::new(1));
        let mut c = Correction::new(2);
        assert_eq!(c.get(white, 7), 0);
        for _ in 0..200 {
            c.learn(white, 7, 60, 10, 128);
        }
        // Converged on the error for that mover and key only.
        assert!((58..=60).contains(&c.get(white, 7)), "{}", c.get(white, 7));
        assert_eq!(c.get(black, 7), 0);
        assert_eq!(c.get(white, 8), 0);
        for _ in 0..400 {
            c.learn(black, 7, -1_000, 20, 128);
        }
        assert!((-128..=-126).contains(&c.get(black, 7)), "{}", c.get(black, 7));
        // An empty table corrects nothing and learns nothing.
        let mut none = Correction::new(0);
        none.learn(white, 7, 100, 10, 128);
        assert_eq!(none.get(white, 7), 0);
    }
}
