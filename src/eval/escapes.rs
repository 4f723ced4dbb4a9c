//! The royal pieces' escapes: the cells a royal piece could step to that neither its own side
//! holds nor any opponent attacks. With three or four players a royal piece is mated when it is
//! attacked at the start of the attacker's turn and could not step out before, so a royal piece
//! with no escape is one check from elimination, whoever gives it: every opponent's attacks
//! close the net together. The term needs no piece's moves, only attack tests on the few cells
//! around each royal piece.

use super::EvalTables;
use crate::attacks::Facing;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{PerPlayer, Player};

/// Escapes counted: a royal piece with this many or more pays nothing; below, the penalty grows
/// with the square of the escapes it lacks, as the last ones are what a mate takes away.
pub(super) const ESCAPES_COUNTED: i32 = 4;

/// Whether the term is on.
pub(super) fn enabled(params: &super::EvalParams) -> bool {
    params.royal_escapes != 0
}

/// The penalty of every player still in (centipawns, middle and end game alike).
pub(super) fn penalties<const W: usize>(t: &EvalTables, pos: &Position<W>) -> PerPlayer<i32> {
    let mut out = PerPlayer::splat(0);
    for q in pos.active_players().iter() {
        let lacking = ESCAPES_COUNTED - escapes(pos, q).min(ESCAPES_COUNTED);
        out[q] = t.params.royal_escapes * lacking * lacking;
    }
    out
}

/// The number of cells `q`'s royal piece could step to (within its zone) that no man of its side
/// holds and no opponent attacks, through the royal piece's own cell (it cannot hide behind
/// itself) and counting a man it would capture there as gone.
pub(super) fn escapes<const W: usize>(pos: &Position<W>, q: Player) -> i32 {
    let Some(k) = pos.royal_cell(q) else { return 0 };
    let m = pos.man_at(k);
    let steps = pos.piece_targets(k, m.kind(), m.orientation(), pos.side_men(q)) & pos.game().rules.royal_zone[q];
    let mut occ = pos.occupied();
    occ.clear(k);
    let opponents = pos.opponents(q);
    steps.iter().filter(|&c| !pos.attacked(c, occ, opponents, Bitboard::from_cell(c), Facing::Counted)).count() as i32
}
