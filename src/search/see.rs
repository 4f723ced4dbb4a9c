//! Static exchange evaluation: what a capture wins or loses once both sides have recaptured on its
//! cell with their least valuable men, each side free to stop when going on would lose. Used with
//! two sides (two players, or two teams): to order captures and to prune losing ones.

use crate::attacks::Facing;
use crate::bitboard::Bitboard;
use crate::position::{Move, MoveKind, Position};
use crate::types::{PieceType, Player, Table};

/// What a royal man counts for in an exchange: more than everything else, so it recaptures last
/// and only where nothing can take it back.
const ROYAL_VALUE: i32 = 50_000;

fn value_of<const W: usize>(pos: &Position<W>, values: &Table<PieceType, i32>, kind: PieceType) -> i32 {
    if pos.game().types[kind].royal { ROYAL_VALUE } else { values[kind] }
}

/// Whether the exchange that `mv` starts gains at least `threshold` for the mover (values from
/// `values`). Moves that are not plain moves (castling, Charges, the pass) count as gaining 0.
pub fn see_ge<const W: usize>(pos: &Position<W>, mv: Move, threshold: i32, values: &Table<PieceType, i32>) -> bool {
    if !matches!(mv.kind(), MoveKind::Normal | MoveKind::DoubleStep | MoveKind::EnPassant) {
        return 0 >= threshold;
    }
    let (from, to) = (mv.from(), mv.to());
    let victim = pos.man_at(mv.victim_cell());
    let moved = pos.man_at(from);
    let promotion_gain = mv.promotion().map_or(0, |t| values[t] - values[moved.kind()]);
    // What the mover has won so far, less the threshold; then what it risks on the cell.
    let mut swap = if victim.is_some() { values[victim.kind()] } else { 0 } + promotion_gain - threshold;
    if swap < 0 {
        return false;
    }
    let first = mv.promotion().map_or(moved.kind(), |t| t);
    swap = value_of(pos, values, first) - swap;
    if swap <= 0 {
        return true;
    }
    let mover: Player = pos.to_move();
    let own_side = pos.side_of(mover);
    let enemy_side = pos.opponents(mover);
    let mut occ = pos.occupied();
    let mut gone = Bitboard::from_cell(from);
    occ.clear(from);
    occ.clear(mv.victim_cell());
    gone.set(mv.victim_cell());
    occ.set(to);
    // `result` is true while the mover is winning the exchange so far: it is the side to recapture
    // that has to find a reason to go on.
    let mut result = true;
    let mut side_is_enemy = true;
    loop {
        let players = if side_is_enemy { enemy_side } else { own_side };
        let attackers = pos.attackers(to, occ, players, gone, Facing::Ignored) & occ;
        let Some((cell, kind)) = attackers.iter().map(|c| (c, pos.man_at(c).kind())).min_by_key(|&(_, k)| value_of(pos, values, k)) else {
            break;
        };
        result = !result;
        let value = value_of(pos, values, kind);
        if value == ROYAL_VALUE {
            // A royal man recaptures only if nothing can take it back.
            let others = if side_is_enemy { own_side } else { enemy_side };
            let mut after = occ;
            after.clear(cell);
            return if (pos.attackers(to, after, others, gone | Bitboard::from_cell(cell), Facing::Ignored) & after).any() {
                !result
            } else {
                result
            };
        }
        swap = value - swap;
        if swap < i32::from(result) {
            break;
        }
        occ.clear(cell);
        gone.set(cell);
        side_is_enemy = !side_is_enemy;
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{Evaluator, PARAMS};
    use crate::notation::{parse_move, parse_position};
    use crate::registry;

    fn see(fen: &str, mv: &str) -> Vec<bool> {
        let game = registry::compiled::<1>(crate::games::definition("chess").expect("chess"));
        let pos = parse_position(game, fen).expect("fen");
        let m = parse_move(&pos, mv).expect("legal");
        let values = Evaluator::new(game, &PARAMS).values().clone();
        [-500, -200, -1, 0, 1, 99, 100, 101, 200, 300, 500].iter().map(|&t| see_ge(&pos, m, t, &values)).collect()
    }

    /// Thresholds -500, -200, -1, 0, 1, 99, 100, 101, 200, 300, 500 (pawn 100, knight and bishop
    /// 320/330 in chess).
    #[test]
    fn exchanges_in_chess() {
        // A free pawn.
        assert_eq!(see("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), [true, true, true, true, true, true, true, false, false, false, false]);
        // A defended pawn taken by the Rook: -400.
        assert_eq!(
            see("4k3/4p3/3p4/8/8/8/8/3RK3 w - - 0 1", "d1d6"),
            [true, false, false, false, false, false, false, false, false, false, false]
        );
        // A Knight takes a pawn defended by a pawn: 100 - 320.
        assert_eq!(
            see("4k3/8/2p5/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5"),
            [true, false, false, false, false, false, false, false, false, false, false]
        );
        // Rooks doubled behind: the x-ray wins the pawn against one defender, not against two.
        assert_eq!(see("4k3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5")[3..8], [true, true, true, true, false]);
        assert_eq!(see("3rk3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5")[..3], [true, false, false]);
        // The King may not recapture a defended man: BxP, KxB is illegal, the pawn is won.
        assert!(see("8/8/4k3/3p4/4P3/8/8/4K2B w - - 0 1", "e4d5")[5]);
        // A quiet move onto a cell a pawn attacks loses the man.
        assert!(see("4k3/8/8/2p5/8/8/8/1N2K3 w - - 0 1", "b1d2")[3]);
        assert!(!see("4k3/8/8/2p5/8/3N4/8/4K3 w - - 0 1", "d3b4")[3]);
    }
}
