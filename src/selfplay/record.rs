//! The record of one game of a match: who sat where, the moves, how it ended and each seat's
//! rank, and the head-to-head comparisons a score is made of.

use crate::position::EndReason;
use crate::session::Status;
use crate::types::Player;

/// Ranks per player from a finished game (0 = best; tied players share a rank and the next rank
/// skips past them, as in 1st, 1st, 3rd): the winner,
/// then the players still in the game (tied), then the eliminated, last eliminated first.
pub fn ranks(players: usize, status: &Status) -> Vec<u32> {
    let mut ranks = vec![0; players];
    let mut next = 0;
    let winner = status.winner();
    if let Some(w) = winner {
        ranks[w.index()] = 0;
        next = 1;
    }
    let survivors: Vec<Player> = status.active.iter().filter(|&p| Some(p) != winner).collect();
    for &p in &survivors {
        ranks[p.index()] = next;
    }
    next += u32::try_from(survivors.len()).expect("at most four players");
    for &(victim, _) in status.eliminated.iter().rev() {
        if Some(victim) != winner && !survivors.contains(&victim) {
            ranks[victim.index()] = next;
            next += 1;
        }
    }
    ranks
}

/// Ranks at the ply cap by material: each player left is placed below those left with more
/// (equal material shares a place); the eliminated rank below them as in [`ranks`].
pub fn material_ranks(status: &Status, material: &[i32]) -> Vec<u32> {
    let mut out = ranks(material.len(), status);
    for p in status.active.iter() {
        let above = status.active.iter().filter(|&q| material[q.index()] > material[p.index()]).count();
        out[p.index()] = u32::try_from(above).expect("at most four players");
    }
    out
}

/// Ranks when `loser` forfeits a game that is not over: the players still in it share first
/// place, the eliminated follow (the last eliminated first) and the forfeiting player is last.
pub fn forfeit_ranks(players: usize, status: &Status, loser: Player) -> Vec<u32> {
    let mut ranks = vec![0; players];
    let mut next = u32::try_from(status.active.iter().filter(|&p| p != loser).count()).expect("at most four players");
    for &(victim, _) in status.eliminated.iter().rev() {
        if victim != loser {
            ranks[victim.index()] = next;
            next += 1;
        }
    }
    ranks[loser.index()] = u32::try_from(players - 1).expect("at most four players");
    ranks
}

/// How a game of a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// By the rules.
    Rules(EndReason),
    /// Still going at the ply cap: a draw among the players left.
    PlyCap,
    /// The player's clock fell.
    TimeForfeit(Player),
    /// The player's engine answered a move that is not legal (or none in a game not over).
    IllegalMove(Player),
    /// The player's engine exited, or did not answer without a clock to lose on.
    Disconnect(Player),
    /// Lost by the player by adjudication: both engines' searches agreed for long enough that it
    /// was lost (`--adjudicate`, two players).
    Adjudicated(Player),
}

impl Ending {
    pub const FORFEITS: [&'static str; 3] = ["time forfeit", "illegal move", "disconnect"];

    pub fn name(self) -> &'static str {
        match self {
            Ending::Rules(r) => r.name(),
            Ending::PlyCap => "ply cap",
            Ending::TimeForfeit(_) => Self::FORFEITS[0],
            Ending::IllegalMove(_) => Self::FORFEITS[1],
            Ending::Disconnect(_) => Self::FORFEITS[2],
            Ending::Adjudicated(_) => "adjudication",
        }
    }

    /// The ending named `name` ([`Ending::name`]); forfeits need the player who forfeited.
    pub fn from_name(name: &str, loser: Option<Player>) -> Option<Ending> {
        if let Some(r) = EndReason::ALL.into_iter().find(|r| r.name() == name) {
            return Some(Ending::Rules(r));
        }
        match (name, loser) {
            ("ply cap", _) => Some(Ending::PlyCap),
            ("time forfeit", Some(p)) => Some(Ending::TimeForfeit(p)),
            ("illegal move", Some(p)) => Some(Ending::IllegalMove(p)),
            ("disconnect", Some(p)) => Some(Ending::Disconnect(p)),
            ("adjudication", Some(p)) => Some(Ending::Adjudicated(p)),
            _ => None,
        }
    }

    /// The player who forfeited, or lost by adjudication.
    pub fn loser(self) -> Option<Player> {
        match self {
            Ending::TimeForfeit(p) | Ending::IllegalMove(p) | Ending::Disconnect(p) | Ending::Adjudicated(p) => Some(p),
            Ending::Rules(_) | Ending::PlyCap => None,
        }
    }

    /// PGN's `Termination` tag.
    pub fn termination(self) -> &'static str {
        match self {
            Ending::Rules(_) => "normal",
            Ending::PlyCap | Ending::Adjudicated(_) => "adjudication",
            Ending::TimeForfeit(_) => "time forfeit",
            Ending::IllegalMove(_) => "rules infraction",
            Ending::Disconnect(_) => "abandoned",
        }
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Number of the game in the match (from 0).
    pub index: usize,
    /// Configuration playing each seat (player in turn order).
    pub seats: Vec<usize>,
    pub opening: usize,
    /// The start position where it is not the game's start (a position string).
    pub start: Option<String>,
    /// Every move from the start position, the opening's included.
    pub moves: Vec<String>,
    pub ending: Ending,
    /// What a forfeit was for (the illegal move, the engine's last words).
    pub detail: Option<String>,
    /// Rank per seat (0 = best, ties share).
    pub ranks: Vec<u32>,
    /// Milliseconds left on each player's clock at the end, in games on clocks.
    pub clocks: Vec<Option<i64>>,
    /// Positions sampled for training data (`--positions`), in the order played.
    pub samples: Vec<Sample>,
}

/// A position of a game kept as training data: one that an engine of this process searched, not
/// in check for the mover and whose best move was quiet, with every player's score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    pub position: String,
    /// Per player, in centipawns from that player's own side (see [`Sample::line`]).
    pub scores: Vec<i32>,
}

/// A sampled score's bound: mate scores are written as this many centipawns.
pub const SAMPLE_SCORE_LIMIT: i32 = 4000;

impl Sample {
    /// The data line of a sample of a game that ended with `ranks`:
    /// `<position string>;scores <s1> <s2> ...;ranks <r1> <r2> ...` (players in turn order, ranks
    /// from 0 for first, ties sharing), as `tuning/README.md` documents.
    pub fn line(&self, ranks: &[u32]) -> String {
        let join = |v: Vec<String>| v.join(" ");
        format!(
            "{};scores {};ranks {}",
            self.position,
            join(self.scores.iter().map(i32::to_string).collect()),
            join(ranks.iter().map(u32::to_string).collect())
        )
    }
}

impl GameRecord {
    /// Head-to-head points and comparisons of configuration `engine` against seats held by other
    /// configurations in this game (a better rank 1 point, a tie ½).
    pub fn pair_points(&self, engine: usize) -> (f64, u32) {
        let mut points = 0.0;
        let mut pairs = 0;
        for (s, &e) in self.seats.iter().enumerate() {
            if e != engine {
                continue;
            }
            for (t, &f) in self.seats.iter().enumerate() {
                if f == engine {
                    continue;
                }
                pairs += 1;
                points += match self.ranks[s].cmp(&self.ranks[t]) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
            }
        }
        (points, pairs)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::position::GameEnd;
    use crate::types::PlayerSet;

    /// A finished game's status: the winner, the players left, the eliminated in order.
    fn status(winner: Option<usize>, active: &[usize], eliminated: &[usize]) -> Status {
        let p = Player::new;
        Status {
            end: Some(GameEnd {
                reason: if winner.is_some() { EndReason::Checkmate } else { EndReason::Stalemate },
                winner: winner.map(p),
            }),
            to_move: p(0),
            active: active.iter().map(|&i| p(i)).collect::<PlayerSet>(),
            in_check: PlayerSet::EMPTY,
            eliminated: eliminated.iter().map(|&i| (p(i), p(0))).collect(),
            placings: Vec::new(),
        }
    }

    #[test]
    fn ranks_at_the_cap_by_material() {
        // Red 0, Blue 1, Green 2, Orange 3; Blue out; Green and Orange level, Red ahead.
        let s = status(None, &[0, 2, 3], &[1]);
        assert_eq!(material_ranks(&s, &[900, 0, 500, 500]), vec![0, 3, 1, 1]);
        assert_eq!(material_ranks(&s, &[100, 0, 500, 300]), vec![2, 3, 0, 1]);
    }

    #[test]
    fn ranks_from_game_ends() {
        // White 0, Black 1.
        assert_eq!(ranks(2, &status(Some(1), &[0, 1], &[])), vec![1, 0]);
        assert_eq!(ranks(2, &status(None, &[0, 1], &[])), vec![0, 0]);
        // Red 0, Yellow 1, Blue 2: Yellow eliminated first, then Red mated by Blue in the
        // two-player phase.
        assert_eq!(ranks(3, &status(Some(2), &[0, 2], &[1])), vec![1, 2, 0]);
        // Elimination of both others: the last eliminated ranks above the first.
        assert_eq!(ranks(3, &status(Some(0), &[0], &[2, 1])), vec![0, 1, 2]);
        // A draw with two left: the survivors tie for first, the eliminated player is third.
        assert_eq!(ranks(3, &status(None, &[0, 2], &[1])), vec![0, 2, 0]);
        // Red 0, Blue 1, Green 2, Orange 3: a win rule with three still on the board: two tie
        // for second, the eliminated is fourth.
        assert_eq!(ranks(4, &status(Some(2), &[0, 1, 2], &[3])), vec![1, 1, 0, 3]);
        // Forfeits: the forfeiting player is last, the others keep their order.
        let p = Player::new;
        assert_eq!(forfeit_ranks(2, &status(None, &[0, 1], &[]), p(0)), vec![1, 0]);
        assert_eq!(forfeit_ranks(4, &status(None, &[0, 1, 2], &[3]), p(1)), vec![0, 3, 0, 2]);
        assert_eq!(forfeit_ranks(3, &status(None, &[0, 2], &[1]), p(2)), vec![0, 1, 2]);
        for e in [Ending::TimeForfeit(p(1)), Ending::IllegalMove(p(0)), Ending::Disconnect(p(2)), Ending::PlyCap, Ending::Adjudicated(p(1))]
        {
            assert_eq!(Ending::from_name(e.name(), e.loser()), Some(e));
        }
        assert_eq!(Ending::from_name("checkmate", None), Some(Ending::Rules(EndReason::Checkmate)));
        assert_eq!(Ending::from_name("time forfeit", None), None);
    }

    pub(in crate::selfplay) fn record(seats: &[usize], ranks: &[u32]) -> GameRecord {
        GameRecord {
            index: 0,
            seats: seats.to_vec(),
            opening: 0,
            start: None,
            moves: Vec::new(),
            ending: Ending::PlyCap,
            detail: None,
            ranks: ranks.to_vec(),
            clocks: vec![None; seats.len()],
            samples: Vec::new(),
        }
    }

    #[test]
    fn a_sample_as_a_line() {
        let sample = Sample { position: "8/8/8/8/8/8/8/K6k w - - 0 1".into(), scores: vec![35, -35] };
        assert_eq!(sample.line(&[0, 1]), "8/8/8/8/8/8/8/K6k w - - 0 1;scores 35 -35;ranks 0 1");
    }

    #[test]
    fn head_to_head_points() {
        // Engine 0 holds seats 0 and 2; it beats engine 1 from seat 0 and loses from seat 2.
        let r = record(&[0, 1, 0], &[0, 1, 2]);
        assert_eq!(r.pair_points(0), (1.0, 2));
        assert_eq!(r.pair_points(1), (1.0, 2));
        let r = record(&[1, 0], &[0, 0]);
        assert_eq!(r.pair_points(0), (0.5, 1));
    }
}
