//! Pseudo-legal targets of one man from the compiled components: the one place where each
//! movement component becomes cells, used by move generation, the Enlightened Move and the
//! evaluation (mobility, and the empty-board tables).

use crate::bitboard::Bitboard;
use crate::movement::Mode;
use crate::tables::{CompiledComponent, Game};
use crate::types::{Cell, PieceType, Player};

/// The cells of `t` that a component of this mode may go to.
#[inline(always)]
fn by_mode<const W: usize>(t: Bitboard<W>, mode: Mode, occ: Bitboard<W>, own: Bitboard<W>) -> Bitboard<W> {
    match mode {
        Mode::Both => t & !own,
        Mode::MoveOnly => t & !occ,
        Mode::CaptureOnly => t & occ & !own,
    }
}

/// Target cells of a `kind` man of orientation `orient` on `from`, with the board's men on
/// `occ`, of which `own` are its owner's.
#[inline(always)]
pub fn piece_targets<const W: usize>(
    game: &Game<W>,
    from: Cell,
    kind: PieceType,
    orient: Player,
    occ: Bitboard<W>,
    own: Bitboard<W>,
) -> Bitboard<W> {
    let tables = &game.moves;
    let enemy = occ & !own;
    let mut targets = Bitboard::EMPTY;
    for comp in &game.types[kind].comps[orient] {
        match comp {
            CompiledComponent::Leap { table, mode } => targets |= by_mode(tables.leaps[usize::from(*table)][from], *mode, occ, own),
            CompiledComponent::Ride { rays, mode } => {
                let mut t = Bitboard::EMPTY;
                for &r in rays {
                    t |= tables.ray_attacks(r, from, occ);
                }
                targets |= by_mode(t, *mode, occ, own);
            }
            CompiledComponent::Hop { rays } => {
                for &r in rays {
                    let ray = &tables.rays[usize::from(r)];
                    let line = ray.mask[from] & occ;
                    match ray.nearest(line) {
                        None => targets |= ray.mask[from],
                        Some(screen) => {
                            let beyond = tables.rays[ray.unlimited].mask[screen];
                            targets |= ray.mask[from] & !beyond & !occ;
                            if let Some(t) = ray.nearest(line & beyond)
                                && enemy.has(t)
                            {
                                targets.set(t);
                            }
                        }
                    }
                }
            }
            CompiledComponent::Curved { set } => {
                for path in &tables.curved[usize::from(*set)][from] {
                    for &c in path {
                        if occ.has(c) {
                            if enemy.has(c) {
                                targets.set(c);
                            }
                            break;
                        }
                        targets.set(c);
                    }
                }
            }
            CompiledComponent::Bent { set } => {
                for leg in &tables.bent[usize::from(*set)][from] {
                    if occ.has(leg.mid) {
                        if enemy.has(leg.mid) {
                            targets.set(leg.mid);
                        }
                    } else {
                        targets.set(leg.mid);
                        for &r in &leg.rays {
                            targets |= tables.ray_attacks(r, leg.mid, occ) & !own;
                        }
                    }
                }
            }
        }
    }
    targets
}
