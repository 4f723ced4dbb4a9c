//! Values across eliminations. With three or more players a game is scored by places: a player
//! gets the share of the others it finishes above (ties ½), as the match runner counts. A draw
//! among `k` survivors of `n` players gives each of them `(n − k + (k − 1)/2) / (n − 1)`, so every
//! elimination raises every survivor's floor, and what is still to be won shrinks: the winner
//! gets 1, so the stake over the draw is `(k − 1) / (2 (n − 1))`.
//!
//! The evaluation knows none of this: it scores a player's men against the mean of its active
//! opponents', which reads the same with four players in as with two. A search from a root with
//! `r` players in therefore reads the values of positions below it with `k < r` players in on
//! the root's own scale, where `stake` (the evaluation parameter `placing_stake`) is the value of
//! a sure win over a draw among the root's players: the evaluation `v` of such a position counts
//! `((k − 1) v + (r − k) stake) / (r − 1)`, a draw there `(r − k) stake / (r − 1)`, and a win by
//! another player's rule with `k` players in (the root among them, placed above every player
//! out) `(r − k − 1) stake / (r − 1)`. At the root's own player count every value is what it was.
//!
//! Only once a player is out or down to its royal piece: before that the places are not shared
//! as the draw shares them, for the first mater wins almost every game that is decided (97 % in
//! self-play, `docs/experiments.md`, "Four-player games: why they stall"), so a search from a
//! root with every player in reads its values as they are. After the first checkmate, without
//! this reading, both other players scored the first mater's winning mate of either as a loss and
//! defended each other, and a player not in the lead lost by mating the third; from the positions
//! just after a first checkmate, the reading turned 73 % of the games into wins against 58 %. A
//! bare royal piece with every player in was defended the same way (its mate lifts the mean of
//! the mater's opponents and pays the mater a mop-up bonus, each a loss to the other players):
//! from the positions where a player was first bare, read from there the first mate came after
//! a median 177 plies instead of 298 (`docs/experiments.md`, 2026-12-06).
//!
//! A root player far ahead evaluates above the stake, where its own mates would read as losses:
//! its stake is raised by its lead ([`Placings::with_lead`]). The lead moves from root to root,
//! and the table's entries are shared across it as across any change of the evaluation.

use crate::position::Position;

/// How a search from `root` reads values below eliminations (`None`: as they are; always in team
/// games, whose places are a team's members' together). The caller raises the stake by the root
/// player's lead ([`Placings::with_lead`]).
pub(super) fn for_root<const W: usize>(root: &Position<W>, stake: i32) -> Option<Placings> {
    let game = root.game();
    let out_or_bare = root.active_count() < game.nplayers || root.active_players().iter().any(|p| root.is_bare(p));
    if game.rules.teams || !out_or_bare { None } else { Placings::new(root.active_count(), stake) }
}

/// How a search reads values below eliminations (see the module's text).
#[derive(Clone, Copy, Debug)]
pub(super) struct Placings {
    /// Players in the game at the root.
    root_players: i32,
    /// The value of a sure win over a draw at the root's player count.
    stake: i32,
}

impl Placings {
    /// For a search from a root with `root_players` players in (`None` where values read as they
    /// are: two players in, or no stake).
    pub fn new(root_players: usize, stake: i32) -> Option<Self> {
        (root_players > 2 && stake > 0).then(|| Placings { root_players: i32::try_from(root_players).expect("a few players"), stake })
    }

    /// The evaluation `v` (the root's side's, on the evaluation's scale) of a position with
    /// `players` in.
    pub fn eval(&self, players: usize, v: i32) -> i32 {
        let k = self.players(players);
        if k == self.root_players {
            return v;
        }
        (((k - 1) * v + (self.root_players - k) * self.stake) / (self.root_players - 1))
            .clamp(-crate::eval::EVAL_LIMIT, crate::eval::EVAL_LIMIT)
    }

    /// A draw among `players` survivors, the root among them.
    pub fn draw(&self, players: usize) -> i32 {
        self.eval(players, 0)
    }

    /// Another player's win by the rules with `players` in, the root among them (placed below the
    /// winner and above every player out, level with the others in).
    pub fn bystander(&self, players: usize) -> i32 {
        (self.root_players - self.players(players) - 1) * self.stake / (self.root_players - 1)
    }

    /// The stake for a root whose player's evaluation is `lead`: a sure win is worth at least
    /// the stake more than the lead. A player far ahead against bare royal pieces evaluates well
    /// above the stake (the mop-up term pays thousands), and with the stake as it is every mate
    /// it gave read as a loss, `((k − 1) v + (r − k) stake) / (r − 1)` below `v`: in `guru2` a
    /// player with two Rooks against three bare Kings declined a mate in one round for 200 plies.
    pub fn with_lead(self, lead: i32) -> Self {
        Placings { stake: self.stake + lead.max(0), ..self }
    }

    fn players(&self, players: usize) -> i32 {
        i32::try_from(players).unwrap_or(i32::MAX).min(self.root_players)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The place scores the values stand for: `(players placed below + ties / 2) / (n − 1)`.
    fn score(below: f64, ties: f64, n: f64) -> f64 {
        (below + ties / 2.0) / (n - 1.0)
    }

    #[test]
    fn the_values_are_the_place_scores_on_the_roots_scale() {
        let stake = 3000;
        // Five players, of whom two, one or none are out at the root (none: one of them bare).
        for root in 3..=5usize {
            let p = Placings::new(root, stake).expect("three or more players");
            let n = 5.0;
            let out_at_root = n - root as f64;
            let draw_at_root = score(out_at_root, root as f64 - 1.0, n);
            let win_over_draw = 1.0 - draw_at_root;
            let on_scale = |s: f64| ((s - draw_at_root) / win_over_draw * f64::from(stake)).round() as i32;
            for k in 2..=root {
                let out = n - k as f64;
                assert_eq!(p.draw(k), on_scale(score(out, k as f64 - 1.0, n)), "draw, root {root}, {k} in");
                assert_eq!(p.bystander(k), on_scale(score(out, k as f64 - 2.0, n)), "another's win, root {root}, {k} in");
            }
            assert_eq!(p.eval(root, -1234), -1234, "the root's own count reads as it is");
        }
    }

    #[test]
    fn an_evaluation_after_a_second_elimination_keeps_its_order_and_gains_the_floor() {
        let p = Placings::new(3, 3000).expect("three players of four");
        assert_eq!(p.eval(2, 0), 1500);
        assert_eq!(p.eval(2, 600), 1800);
        assert_eq!(p.bystander(2), 0, "second place after another's win: as the draw of three");
        assert!(p.eval(2, -3000) < p.eval(2, -2990));
        assert!(Placings::new(2, 3000).is_none(), "two players: nothing to read");
        assert!(Placings::new(3, 0).is_none(), "no stake: nothing to read");
    }

    #[test]
    fn a_mate_by_a_player_far_ahead_reads_as_a_gain() {
        // Green, 7,781 ahead of three bare Kings (material and mop-up), mates one of them and
        // evaluates 7,348 after it (`guru2`, a self-play game drawn by the fifty-move rule).
        let (before, after) = (7781, 7348);
        let as_it_was = Placings::new(4, 3000).expect("four players");
        assert!(as_it_was.eval(3, after) < before, "the stake alone: the mate reads as a loss");
        let led = as_it_was.with_lead(before);
        assert!(led.eval(3, after) > led.eval(4, before), "raised by the lead: a gain");
        assert_eq!(led.eval(4, before), before, "the root's own count reads as it is");
        let behind = as_it_was.with_lead(-2000);
        assert_eq!(behind.draw(3), as_it_was.draw(3), "a root behind keeps the stake");
    }

    #[test]
    fn values_are_read_once_a_player_is_out_or_bare() {
        use crate::notation::{parse_position, placement_from};
        let def = crate::games::definition("guru2").expect("guru2");
        let geometry = def.geometry.clone();
        let game = crate::registry::compiled::<4>(def);
        let at = |men: &[(&str, &str)], rest: &str| {
            let text = format!("{} {rest}", placement_from(&geometry, men).expect("cells"));
            for_root(&parse_position(game, &text).expect("position"), 3000)
        };
        let kings = [("La1", "rK"), ("Lj1", "bK"), ("Uj10", "gK"), ("Ua10", "oK")];
        let armed = [("Lb2", "rR"), ("Li2", "bR"), ("Ui9", "gR"), ("Ub9", "oR")];
        let every_man: Vec<_> = kings.iter().chain(&armed).copied().collect();
        assert!(at(&every_man, "r rbgo - - 0 1 0:").is_none(), "every player in and armed: as they are");
        let orange_bare = at(&every_man[..7], "r rbgo - - 0 1 0:").expect("Orange bare: read");
        assert_eq!(orange_bare.draw(3), 1000, "a draw of three, from four in");
        assert!(for_root(&crate::position::Position::start(game), 3000).is_none(), "the start");
    }
}
