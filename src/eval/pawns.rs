//! Pawn structure: passed, isolated, doubled and supported pawns, read off the game's pawn tables
//! (`tables::pawns`), which know each orientation's steps and captures.

use super::EvalParams;
use crate::bitboard::Bitboard;
use crate::position::{Position, Tapered};
use crate::types::PerPlayer;

/// Whether any pawn-structure weight is set.
pub(super) fn enabled(params: &EvalParams) -> bool {
    [
        params.passed,
        params.passed_eg,
        params.isolated,
        params.isolated_eg,
        params.doubled,
        params.doubled_eg,
        params.supported,
        params.supported_eg,
    ]
    .iter()
    .any(|&w| w != 0)
}

/// The pawn-like men of every player.
pub(super) fn pawn_men<const W: usize>(pos: &Position<W>) -> Bitboard<W> {
    let game = pos.game();
    pos.pieces_of_types(game.piece_types().filter(|&t| game.types[t].pawn))
}

/// The pawn-structure term of every player.
pub(super) fn structure<const W: usize>(params: &EvalParams, pos: &Position<W>) -> PerPlayer<Tapered> {
    let mut out = PerPlayer::splat(Tapered::ZERO);
    let Some(tables) = &pos.game().pawns else { return out };
    let pawns = pawn_men(pos);
    let passed = Tapered::new(params.passed, params.passed_eg);
    let isolated = Tapered::new(params.isolated, params.isolated_eg);
    let doubled = Tapered::new(params.doubled, params.doubled_eg);
    let supported = Tapered::new(params.supported, params.supported_eg);
    for p in pos.active_players().iter() {
        let own = pawns & pos.pieces_of(p);
        let enemy = pawns & pos.pieces_of_set(pos.opponents(p));
        let mut sum = Tapered::ZERO;
        for c in own {
            let t = &tables[pos.man_at(c).orientation()];
            if (t.stoppers[c] & enemy).is_empty()
                && let Some(d) = t.to_promotion[c]
            {
                // Worth more the further it has come: the square of the share of its way.
                let made = t.max_to_promotion - d;
                sum += passed * (made * made) / (t.max_to_promotion * t.max_to_promotion).max(1);
            }
            if (t.front[c] & own).any() {
                sum -= doubled;
            }
            if (t.neighbours[c] & own).is_empty() {
                sum -= isolated;
            }
            if (t.attacked_from[c] & own).any() {
                sum += supported;
            }
        }
        out[p] = sum;
    }
    out
}
