//! When the rules end the game (rules README, "End of the game"): one place that the session's
//! status and the search both ask.

use super::Position;
use crate::types::Player;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    Checkmate,
    Stalemate,
    Repetition,
    FiftyMoveRule,
    /// Every other player has been checkmated.
    Elimination,
    /// A winning rule (the second checkmate by a first mater's promotee) ended it.
    WinRule,
    /// Nobody can checkmate any more (a dead position).
    InsufficientMaterial,
}

impl EndReason {
    pub const ALL: [EndReason; 7] = [
        EndReason::Checkmate,
        EndReason::Stalemate,
        EndReason::Repetition,
        EndReason::FiftyMoveRule,
        EndReason::Elimination,
        EndReason::WinRule,
        EndReason::InsufficientMaterial,
    ];

    /// The reason as the protocol and match records name it.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::Repetition => "repetition",
            EndReason::FiftyMoveRule => "fifty-move rule",
            EndReason::Elimination => "elimination",
            EndReason::WinRule => "win rule",
            EndReason::InsufficientMaterial => "insufficient material",
        }
    }

    /// A draw for the players still in the game.
    pub fn is_draw(self) -> bool {
        matches!(self, EndReason::Stalemate | EndReason::Repetition | EndReason::FiftyMoveRule | EndReason::InsufficientMaterial)
    }
}

/// The end of a game: why, and who won (`None` for a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEnd {
    pub reason: EndReason,
    pub winner: Option<Player>,
}

impl<const W: usize> Position<W> {
    /// The end already decided on the board: all others eliminated, or a winning rule.
    pub fn decided_end(&self) -> Option<GameEnd> {
        let winner = self.winner()?;
        let reason = if self.active.len() == 1 { EndReason::Elimination } else { EndReason::WinRule };
        Some(GameEnd { reason, winner: Some(winner) })
    }

    /// The end when the player to move has no legal move. With three or more players in the game
    /// a pass is always legal, so this happens only with two: checkmate if the mover is in check
    /// (the other player wins), else stalemate.
    pub fn end_without_moves(&self) -> GameEnd {
        let p = self.to_move;
        if self.in_check(p) {
            GameEnd { reason: EndReason::Checkmate, winner: Some(self.next_active(p)) }
        } else {
            GameEnd { reason: EndReason::Stalemate, winner: None }
        }
    }

    /// The fifty-move rule: as many plies without a capture, a pawn move or an elimination as
    /// 50 rounds of the players still in the game ([`Position::fifty_move_plies`]).
    pub fn fifty_move_rule(&self) -> bool {
        self.halfmove as usize >= self.fifty_move_plies()
    }

    /// Plies without progress that end the game by the fifty-move rule.
    pub fn fifty_move_plies(&self) -> usize {
        50 * self.active.len()
    }

    /// A dead position by the game's dead-material rule: only Kings; or a King and one minor
    /// piece against a bare King; or only colour-bound men besides the Kings, all on one colour.
    pub fn dead_position(&self) -> bool {
        let rules = &self.game.rules;
        let Some(dead) = &rules.dead else { return false };
        let men = self.occ & !self.pieces_of_types(rules.royals.iter());
        if men.is_empty() {
            return true;
        }
        if men.count() == 1 && men.intersects(&self.pieces_of_types(dead.minor.iter())) {
            return true;
        }
        let bound = self.pieces_of_types(dead.colour_bound.iter());
        (men & !bound).is_empty() && dead.colours.iter().any(|c| (men & !*c).is_empty())
    }

    /// The game's end by the rules, if it is over: decided on the board, no legal move for the
    /// player to move, a dead position, a repetition (`repeated`: the caller's count of earlier
    /// occurrences reached its limit), or the fifty-move rule.
    pub fn game_end(&self, has_legal_move: bool, repeated: bool) -> Option<GameEnd> {
        let draw = |reason| Some(GameEnd { reason, winner: None });
        if let Some(end) = self.decided_end() {
            Some(end)
        } else if !has_legal_move {
            Some(self.end_without_moves())
        } else if self.dead_position() {
            draw(EndReason::InsufficientMaterial)
        } else if repeated {
            draw(EndReason::Repetition)
        } else if self.fifty_move_rule() {
            draw(EndReason::FiftyMoveRule)
        } else {
            None
        }
    }
}
