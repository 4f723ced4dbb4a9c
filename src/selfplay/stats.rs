//! Match statistics: results per configuration, the head-to-head score, the Elo difference with
//! its margin, and the summary printed at the end of a match.

use super::record::{Ending, GameRecord};
use crate::game::GameDef;

/// Results of one configuration over a match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub games: u32,
    /// Two players: games won, drawn, lost.
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// How often each place (1st, 2nd, ...; ties share the better place) was taken, per seat.
    pub placings: Vec<u32>,
    /// Head-to-head points and comparisons against other configurations.
    pub points: f64,
    pub pairs: u32,
    /// Per game: the share of head-to-head points (for the error margin).
    pub game_scores: Vec<f64>,
    /// Team games, in the games where it held a whole team: won (a member placed first),
    /// drawn (nobody first alone), lost.
    pub team: [u32; 3],
}

impl Tally {
    pub fn score(&self) -> f64 {
        if self.pairs == 0 { 0.5 } else { self.points / self.pairs as f64 }
    }
}

/// The team whose member placed first alone (`None`: a draw), in a team game.
pub fn winning_team(def: &GameDef, r: &GameRecord) -> Option<usize> {
    let rule = def.rules.teams.as_ref()?;
    let first: Vec<usize> = (0..r.ranks.len()).filter(|&s| r.ranks[s] == 0).collect();
    let [winner] = first[..] else { return None };
    rule.teams.iter().position(|t| t.iter().any(|p| p.index() == winner))
}

/// Sums the records per configuration.
pub fn tally(records: &[GameRecord], engines: usize, def: &GameDef) -> Vec<Tally> {
    let players = def.players.len();
    let mut out = vec![Tally { placings: vec![0; players], ..Tally::default() }; engines];
    for r in records {
        for (e, t) in out.iter_mut().enumerate() {
            let seats: Vec<usize> = (0..r.seats.len()).filter(|&s| r.seats[s] == e).collect();
            if seats.is_empty() {
                continue;
            }
            t.games += 1;
            for &s in &seats {
                t.placings[r.ranks[s] as usize] += 1;
            }
            let (points, pairs) = r.pair_points(e);
            t.points += points;
            t.pairs += pairs;
            if pairs > 0 {
                t.game_scores.push(points / pairs as f64);
            }
            let whole_team =
                def.rules.teams.as_ref().and_then(|rule| {
                    rule.teams.iter().position(|t| t.len() == seats.len() && t.iter().all(|p| seats.contains(&p.index())))
                });
            if let Some(team) = whole_team {
                match winning_team(def, r) {
                    Some(w) if w == team => t.team[0] += 1,
                    Some(_) => t.team[2] += 1,
                    None => t.team[1] += 1,
                }
            }
            if players == 2 {
                let other = 1 - seats[0];
                match r.ranks[seats[0]].cmp(&r.ranks[other]) {
                    std::cmp::Ordering::Less => t.wins += 1,
                    std::cmp::Ordering::Equal => t.draws += 1,
                    std::cmp::Ordering::Greater => t.losses += 1,
                }
            }
        }
    }
    out
}

/// Elo difference equivalent to an expected score `s` (0 < s < 1).
pub fn elo_from_score(s: f64) -> f64 {
    let s = s.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Elo difference and its 95% margin from per-game scores in [0, 1] (`None` without games).
pub fn elo_with_margin(game_scores: &[f64]) -> Option<(f64, f64)> {
    let n = game_scores.len();
    if n == 0 {
        return None;
    }
    let mean = game_scores.iter().sum::<f64>() / n as f64;
    let var = game_scores.iter().map(|s| (s - mean) * (s - mean)).sum::<f64>() / n as f64;
    let sigma = (var / n as f64).sqrt();
    let low = elo_from_score(mean - 1.959_964 * sigma);
    let high = elo_from_score(mean + 1.959_964 * sigma);
    Some((elo_from_score(mean), (high - low) / 2.0))
}

/// The summary printed at the end of a match (one line per configuration, then the Elo lines).
pub fn summary(def: &GameDef, names: &[String], records: &[GameRecord]) -> Vec<String> {
    let players = def.players.len();
    let tallies = tally(records, names.len(), def);
    let mut lines = Vec::new();
    let width = names.iter().map(String::len).max().unwrap_or(0);
    for (name, t) in names.iter().zip(&tallies) {
        let mut line = format!("{name:<width$}  games {:>4}  score {:>5.1}%", t.games, 100.0 * t.score());
        if players == 2 {
            line.push_str(&format!("  wins {} draws {} losses {}", t.wins, t.draws, t.losses));
        } else {
            let places: Vec<String> = t.placings.iter().map(u32::to_string).collect();
            let seats: u32 = t.placings.iter().sum();
            let avg = t.placings.iter().enumerate().map(|(i, &c)| (i as u32 + 1) * c).sum::<u32>() as f64 / seats.max(1) as f64;
            let ordinals: Vec<&str> = ["1st", "2nd", "3rd", "4th"].into_iter().take(players).collect();
            line.push_str(&format!("  places {} ({})  average place {avg:.2}", places.join("/"), ordinals.join("/")));
        }
        line.push_str(&format!("  points {:.1}/{}", t.points, t.pairs));
        if t.team.iter().sum::<u32>() > 0 {
            line.push_str(&format!("  team wins {} draws {} losses {}", t.team[0], t.team[1], t.team[2]));
        }
        lines.push(line);
    }
    // With two configurations one line says it all; with more, each against the rest.
    let shown = if names.len() == 2 { 1 } else { names.len() };
    for (name, t) in names.iter().zip(&tallies).take(shown) {
        if let Some((elo, margin)) = elo_with_margin(&t.game_scores) {
            let against = if names.len() == 2 { names[1].as_str() } else { "the others" };
            lines.push(format!("elo {name} vs {against}: {elo:+.1} +/- {margin:.1} (95%, {} games)", t.game_scores.len()));
        }
    }
    let mut reasons: Vec<(Ending, usize)> = Vec::new();
    for r in records {
        match reasons.iter_mut().find(|(k, _)| *k == r.ending) {
            Some((_, n)) => *n += 1,
            None => reasons.push((r.ending, 1)),
        }
    }
    let plies: usize = records.iter().map(|r| r.moves.len()).sum();
    let reasons: Vec<String> = reasons.iter().map(|(k, n)| format!("{} {n}", k.name())).collect();
    lines.push(format!("endings: {}; average length {:.1} plies", reasons.join(", "), plies as f64 / records.len().max(1) as f64));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selfplay::record::tests::record;

    #[test]
    fn tallies_and_elo() {
        // Engine 0: a win as White, a draw as Black, a loss as White, a win as Black.
        let records = [record(&[0, 1], &[0, 1]), record(&[1, 0], &[0, 0]), record(&[0, 1], &[1, 0]), record(&[1, 0], &[1, 0])];
        let chess = crate::games::definition("chess").expect("chess");
        let t = tally(&records, 2, &chess);
        assert_eq!((t[0].games, t[0].wins, t[0].draws, t[0].losses), (4, 2, 1, 1));
        assert_eq!((t[1].wins, t[1].draws, t[1].losses), (1, 1, 2));
        assert_eq!((t[0].points, t[0].pairs), (2.5, 4));
        assert_eq!(t[0].placings, vec![3, 1]);
        assert_eq!(t[0].game_scores, vec![1.0, 0.5, 0.0, 1.0]);
        assert!((elo_from_score(0.75) - 190.848).abs() < 1e-3);
        assert_eq!(elo_from_score(0.5), 0.0);
        let (elo, margin) = elo_with_margin(&t[0].game_scores).expect("games");
        assert!((elo - elo_from_score(0.625)).abs() < 1e-9);
        // sigma = sqrt(0.171875 / 4); the margin is half the Elo width of mean +/- 1.96 sigma.
        let sigma = (0.171_875f64 / 4.0).sqrt();
        let expected = (elo_from_score(0.625 + 1.959_964 * sigma) - elo_from_score(0.625 - 1.959_964 * sigma)) / 2.0;
        assert!((margin - expected).abs() < 1e-9);
        assert!(elo_with_margin(&[]).is_none());
        let three = tally(&[record(&[0, 1, 0], &[0, 1, 2])], 2, &crate::games::definition("honeycomb3").expect("game"));
        assert_eq!(three[0].placings, vec![1, 0, 1]);
        assert_eq!(three[1].placings, vec![0, 1, 0]);
        // Teams: engine 0 on Red and Green, engine 1 on Blue and Orange.
        let teams = crate::games::definition("guru2-teams").expect("game");
        let games = [record(&[0, 1, 0, 1], &[1, 3, 0, 2]), record(&[1, 0, 1, 0], &[0, 1, 2, 3]), record(&[0, 1, 0, 1], &[0, 0, 0, 0])];
        assert_eq!(winning_team(&teams, &games[0]), Some(0));
        let t = tally(&games, 2, &teams);
        assert_eq!((t[0].team, t[1].team), ([1, 1, 1], [1, 1, 1]));
        let mixed = tally(&[record(&[0, 0, 1, 1], &[0, 1, 2, 3])], 2, &teams);
        assert_eq!(mixed[0].team, [0, 0, 0], "an engine on both teams has no team result");
    }
}
