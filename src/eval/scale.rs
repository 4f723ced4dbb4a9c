//! End-game scaling with two players: both sides' end-game weights shrink together where the
//! stronger side's edge wins less often than the material says, as in the classical evaluations
//! of the strong open engines: a single piece each of one colour-bound type on different colour
//! classes (opposite-coloured Bishops), and few pawns left to a stronger side at most a minor
//! piece ahead in pieces (a Queen against pawns is no draw). Not against a bare royal piece: the
//! mop-up prices those endings. A third case of those engines, a single piece each of one type
//! with at most a pawn between the sides (a Rook ending a pawn up), fitted to no scaling at all on
//! Stockfish's labels and is left out.

use super::EvalTables;
use super::tables::Shape;
use crate::position::{Position, Tapered};
use crate::types::{PerPlayer, PieceType, Player};

/// The share of the end-game weights kept, in 64ths, where nothing scales them.
pub(super) const SCALE_FULL: i32 = 64;

/// Whether any scaling weight is set.
pub(super) fn enabled(params: &super::EvalParams) -> bool {
    params.opposite_classes_scale < SCALE_FULL || params.few_pawns_scale < SCALE_FULL
}

/// The share of the end-game weights kept (in 64ths), given each player's sum before scaling (the
/// larger end game is the stronger side's).
pub(super) fn endgame_scale<const W: usize>(t: &EvalTables, pos: &Position<W>, totals: &PerPlayer<Tapered>) -> i32 {
    let active = pos.active_players();
    let mut players = active.iter();
    let (Some(a), Some(b), None) = (players.next(), players.next(), players.next()) else { return SCALE_FULL };
    if pos.is_bare(a) || pos.is_bare(b) {
        return SCALE_FULL;
    }
    let params = &t.params;
    let (strong, weak) = if totals[a].eg >= totals[b].eg { (a, b) } else { (b, a) };
    let mut scale = SCALE_FULL;
    if let (Some(kind), Some(other)) = (lone_piece(t, pos, a), lone_piece(t, pos, b))
        && kind == other
        && opposite_classes(t, pos, kind, a, b)
    {
        scale = params.opposite_classes_scale;
    }
    if params.few_pawns_scale < SCALE_FULL && piece_material(t, pos, strong) - piece_material(t, pos, weak) <= params.few_pawns_edge {
        let pawns = (pos.pawn_men() & pos.pieces_of(strong)).count() as i32;
        scale = scale.min(params.few_pawns_scale + params.few_pawns_scale_per_pawn * pawns);
    }
    scale
}

/// Whether a type is a piece: neither a pawn nor royal.
fn is_piece(t: &EvalTables, kind: PieceType) -> bool {
    matches!(t.shapes[kind], Shape::Leaper | Shape::Rider)
}

/// The value of `p`'s pieces.
fn piece_material<const W: usize>(t: &EvalTables, pos: &Position<W>, p: Player) -> i32 {
    pos.game().piece_types().filter(|&k| is_piece(t, k)).map(|k| i32::from(pos.count(p, k)) * t.values[k]).sum()
}

/// The type of `p`'s only piece (`None`: none or several).
fn lone_piece<const W: usize>(t: &EvalTables, pos: &Position<W>, p: Player) -> Option<PieceType> {
    let mut pieces = pos.game().piece_types().filter(|&k| is_piece(t, k) && pos.count(p, k) > 0);
    let kind = pieces.next()?;
    (pieces.next().is_none() && pos.count(p, kind) == 1).then_some(kind)
}

/// Whether `a`'s and `b`'s single pieces, both of type `kind`, are colour-bound on different
/// colour classes.
fn opposite_classes<const W: usize>(t: &EvalTables, pos: &Position<W>, kind: PieceType, a: Player, b: Player) -> bool {
    let Some(classes) = t.colour_classes[kind].as_ref() else { return false };
    let cell_of = |p: Player| (pos.pieces_of(p) & pos.pieces_of_type(kind)).iter().next();
    matches!((cell_of(a), cell_of(b)), (Some(x), Some(y)) if classes[x] != classes[y])
}
