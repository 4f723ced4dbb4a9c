//! Pawn structure: passed, isolated, doubled, backward and supported pawns, read off
//! the game's pawn tables (`tables::pawns`), which know each orientation's steps and captures;
//! and in the end game the royal pieces' distances to a passed pawn's way.

use super::{EvalParams, EvalTables};
use crate::position::{Position, Tapered};
use crate::types::{Cell, PerPlayer};

/// Whether any pawn-structure weight is set.
pub(super) fn enabled(params: &EvalParams) -> bool {
    [
        params.passed,
        params.passed_eg,
        params.isolated,
        params.isolated_eg,
        params.doubled,
        params.doubled_eg,
        params.backward,
        params.backward_eg,
        params.supported,
        params.supported_eg,
        params.passed_king_eg,
        params.passed_enemy_king_eg,
    ]
    .iter()
    .any(|&w| w != 0)
}

/// The pawn-structure term of every player.
pub(super) fn structure<const W: usize>(t: &EvalTables, pos: &Position<W>) -> PerPlayer<Tapered> {
    let params = &t.params;
    let mut out = PerPlayer::splat(Tapered::ZERO);
    let Some(tables) = &pos.game().pawns else { return out };
    let kings = params.passed_king_eg != 0 || params.passed_enemy_king_eg != 0;
    let pawns = pos.pawn_men();
    let passed = Tapered::new(params.passed, params.passed_eg);
    let isolated = Tapered::new(params.isolated, params.isolated_eg);
    let doubled = Tapered::new(params.doubled, params.doubled_eg);
    let backward = Tapered::new(params.backward, params.backward_eg);
    let backward_on = params.backward != 0 || params.backward_eg != 0;
    let supported = Tapered::new(params.supported, params.supported_eg);
    for p in pos.active_players().iter() {
        let own = pawns & pos.pieces_of(p);
        let enemy = pawns & pos.pieces_of_set(pos.opponents(p));
        let mut sum = Tapered::ZERO;
        // The cells the enemy pawns attack or hold, found once a pawn needs them.
        let mut enemy_control = None;
        for c in own {
            let pt = &tables[pos.man_at(c).orientation()];
            if (pt.stoppers[c] & enemy).is_empty()
                && let Some(d) = pt.to_promotion[c]
            {
                // Worth more the further it has come: the square of the share of its way.
                let made = pt.max_to_promotion - d;
                let (share, whole) = (made * made, (pt.max_to_promotion * pt.max_to_promotion).max(1));
                let steps = pt.step[c];
                let blocked = steps.any() && (steps & !pos.occupied()).is_empty();
                let kept = if blocked { 100 - params.passed_blocked } else { 100 };
                sum += passed * (share * kept) / (whole * 100);
                if kings && steps.any() {
                    // In the end game the royal pieces' distances to the cells it steps to decide
                    // whether it can be stopped: the enemy's far, the own near.
                    let near = |k: Cell| steps.iter().map(|s| t.royal_distance(k, s)).min().unwrap_or(0).min(t.royal_max_distance);
                    let enemy_distance =
                        pos.opponents(p).iter().filter_map(|q| pos.royal_cell(q)).map(near).min().unwrap_or(t.royal_max_distance);
                    let own_distance = pos.royal_cell(p).map_or(t.royal_max_distance, near);
                    let eg = enemy_distance * params.passed_enemy_king_eg - own_distance * params.passed_king_eg;
                    sum += Tapered::new(0, eg * share / whole);
                }
            }
            if (pt.front[c] & own).any() {
                sum -= doubled;
            }
            if (pt.neighbours[c] & own).is_empty() {
                sum -= isolated;
            } else if backward_on {
                let steps = pt.step[c];
                if steps.any() && steps.iter().all(|s| (pt.supporters[s] & own).is_empty()) {
                    let control = *enemy_control
                        .get_or_insert_with(|| enemy.iter().fold(enemy, |b, e| b | tables[pos.man_at(e).orientation()].attacks[e]));
                    if (steps & control).any() {
                        sum -= backward;
                    }
                }
            }
            if (pt.attacked_from[c] & own).any() {
                sum += supported;
            }
        }
        out[p] = sum;
    }
    out
}
