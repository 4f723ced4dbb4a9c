//! Partners (rule switch [`TeamRule`](crate::game::TeamRule), game `guru2-teams`): the one place
//! that says who may capture whom, who can give check to whom, and when a team wins. Without
//! teams every player is a side of its own and these are the ordinary rules.
//!
//! Readings where the rules (`guru2level.md` §5.4) are silent, kept here:
//! - "Friendly" in the Enlightened Move and the Elephant Charge stays "the player's own": a
//!   partner's Guru grants nothing and a partner's Elephant is no Charge midpoint; a Charge may
//!   not land on a partner's man (it is not an enemy).
//! - A player cannot be checkmated by its partner: the start-of-turn mate looks at opponents only.
//! - A Charge's "no King in check" condition uses the team game's check (partners never give it).

use super::Position;
use crate::bitboard::Bitboard;
use crate::types::{Player, PlayerSet};

impl<const W: usize> Position<W> {
    /// `p` and its partners.
    #[inline(always)]
    pub fn side_of(&self, p: Player) -> PlayerSet {
        self.game.rules.side[p]
    }

    /// The active players against `p`: they may capture its men and give it check.
    #[inline(always)]
    pub fn opponents(&self, p: Player) -> PlayerSet {
        self.active.minus(self.side_of(p))
    }

    /// The men `p` may not capture: its own and its partners'.
    #[inline(always)]
    pub fn side_men(&self, p: Player) -> Bitboard<W> {
        if self.game.rules.teams { self.pieces_of_set(self.side_of(p)) } else { self.by_owner[p] }
    }

    /// Whether two or more teams still have a player in the game (a team game not yet decided).
    pub fn teams_in_play(&self) -> bool {
        self.game.rules.teams && self.active.first_player().is_some_and(|p| !self.opponents(p).is_empty())
    }

    /// The team win, judged when `mater` has just delivered the second checkmate of the game: if
    /// the first was delivered by its team too, it wins.
    pub(super) fn team_wins_at_second_mate(&self, mater: Player) -> bool {
        let first_mater = self.elimination_order.first().and_then(|&v| self.eliminated_by[v]);
        self.game.rules.teams && self.mates == 2 && first_mater.is_some_and(|f| self.side_of(mater).has(f))
    }
}
