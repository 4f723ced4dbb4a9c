//! Pseudo-legal targets of one man from the compiled components: the one place where each
//! movement component becomes cells, used by move generation, the Enlightened Move and the
//! evaluation (mobility, and the empty-board tables).

use crate::attacks::Facing;
use crate::bitboard::Bitboard;
use crate::movement::Mode;
use crate::moves::Man;
use crate::position::Position;
use crate::tables::movement::BentLeg;
use crate::tables::{CompiledComponent, FreshLines, Game, MoveTables, Rides};
use crate::types::{Cell, PieceType, Player, PlayerSet};

/// The cells a `kind` man of orientation `orient` reaches from `from` on an otherwise empty
/// board, with those its capturing-only moves would take a man on (a pawn's diagonals) and a
/// pawn's double steps: the piece's moves as a GUI shows them.
pub fn empty_board_reach<const W: usize>(game: &Game<W>, from: Cell, kind: PieceType, orient: Player) -> Bitboard<W> {
    let others = Bitboard::first_n(game.ncells) & !Bitboard::from_cell(from);
    let double_steps = Bitboard::from_cells(game.types[kind].double_steps[orient][from].iter().map(|&(_, to)| to));
    piece_targets(game, from, kind, orient, Bitboard::EMPTY, Bitboard::EMPTY)
        | piece_targets(game, from, kind, orient, others, Bitboard::EMPTY)
        | double_steps
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
    piece_targets_with(game, from, kind, orient, occ, own, &mut FreshLines)
}

/// [`piece_targets`], the rides from `rides`.
#[inline(always)]
pub fn piece_targets_with<const W: usize>(
    game: &Game<W>,
    from: Cell,
    kind: PieceType,
    orient: Player,
    occ: Bitboard<W>,
    own: Bitboard<W>,
    rides: &mut impl Rides<W>,
) -> Bitboard<W> {
    let tables = &game.moves;
    if let Some(plain) = game.types[kind].plain_moves[orient] {
        return tables.reach_with(plain, from, occ, rides) & !own;
    }
    let enemy = occ & !own;
    let mut targets = Bitboard::EMPTY;
    for comp in &game.types[kind].comps[orient] {
        // Leaps and rides, which every game has, inline; the rarer components in functions of
        // their own, which keeps this loop small (measurably faster on wide boards).
        match comp {
            CompiledComponent::Leap { table, mode } => {
                let t = tables.leaps[usize::from(*table)][from];
                targets |= match mode {
                    Mode::Both => t & !own,
                    Mode::MoveOnly => t & !occ,
                    Mode::CaptureOnly => t & enemy,
                };
            }
            CompiledComponent::Ride { lines, mode, .. } => {
                let t = rides.lines_attacks(tables, *lines, from, occ);
                targets |= match mode {
                    Mode::Both => t & !own,
                    Mode::MoveOnly => t & !occ,
                    Mode::CaptureOnly => t & enemy,
                };
            }
            CompiledComponent::Hop { rays, .. } => targets |= hop_targets(tables, rays, from, occ, enemy),
            CompiledComponent::Curved { set } => targets |= curved_targets(tables, *set, from, occ, enemy),
            CompiledComponent::Bent { set } => targets |= bent_targets(&tables.bent[usize::from(*set)][from], tables, occ, own, enemy),
        }
    }
    targets
}

/// The captures among [`piece_targets`]: its cells that hold a man. Hoppers skip the cells short
/// of their screens, which makes a capture search's generation cheaper than all moves masked.
/// The rides from `rides`.
#[inline(always)]
pub fn piece_captures_with<const W: usize>(
    game: &Game<W>,
    from: Cell,
    kind: PieceType,
    orient: Player,
    occ: Bitboard<W>,
    own: Bitboard<W>,
    rides: &mut impl Rides<W>,
) -> Bitboard<W> {
    let tables = &game.moves;
    let enemy = occ & !own;
    if let Some(plain) = game.types[kind].plain_moves[orient] {
        return tables.reach_with(plain, from, occ, rides) & enemy;
    }
    let mut targets = Bitboard::EMPTY;
    for comp in &game.types[kind].comps[orient] {
        match comp {
            CompiledComponent::Leap { mode: Mode::MoveOnly, .. } | CompiledComponent::Ride { mode: Mode::MoveOnly, .. } => {}
            CompiledComponent::Leap { table, .. } => targets |= tables.leaps[usize::from(*table)][from],
            CompiledComponent::Ride { lines, .. } => targets |= rides.lines_attacks(tables, *lines, from, occ),
            CompiledComponent::Hop { rays, lines } => targets |= rides.hop_captures(tables, rays, *lines, from, occ),
            CompiledComponent::Curved { set } => targets |= curved_targets(tables, *set, from, occ, enemy),
            CompiledComponent::Bent { set } => targets |= bent_targets(&tables.bent[usize::from(*set)][from], tables, occ, own, enemy),
        }
    }
    targets & enemy
}

/// A cannon-style hopper: moves along the line to the first man, captures the first man beyond it.
fn hop_targets<const W: usize>(tables: &MoveTables<W>, rays: &[u16], from: Cell, occ: Bitboard<W>, enemy: Bitboard<W>) -> Bitboard<W> {
    let mut targets = Bitboard::EMPTY;
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
    targets
}

/// A curved rider: each path up to and including its first man, if an enemy.
fn curved_targets<const W: usize>(tables: &MoveTables<W>, set: u16, from: Cell, occ: Bitboard<W>, enemy: Bitboard<W>) -> Bitboard<W> {
    let mut targets = Bitboard::EMPTY;
    for path in &tables.curved[usize::from(set)][from] {
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
    targets
}

/// A bent rider: the first step, and the rides from there if it is empty.
fn bent_targets<const W: usize>(
    legs: &[BentLeg],
    tables: &MoveTables<W>,
    occ: Bitboard<W>,
    own: Bitboard<W>,
    enemy: Bitboard<W>,
) -> Bitboard<W> {
    let mut targets = Bitboard::EMPTY;
    for leg in legs {
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
    targets
}

/// The cells a `kind` man of orientation `orient` on `from` attacks, with the board's men on
/// `occ`: where it could capture a man of any other player, whether a man stands there or not
/// (moves that cannot capture left out).
#[inline(always)]
pub fn attack_targets<const W: usize>(game: &Game<W>, from: Cell, kind: PieceType, orient: Player, occ: Bitboard<W>) -> Bitboard<W> {
    match game.types[kind].plain_attacks[orient] {
        Some(plain) => game.moves.reach(plain, from, occ),
        None => component_attacks(game, from, kind, orient, occ),
    }
}

/// [`attack_targets`] component by component.
fn component_attacks<const W: usize>(game: &Game<W>, from: Cell, kind: PieceType, orient: Player, occ: Bitboard<W>) -> Bitboard<W> {
    let tables = &game.moves;
    let mut targets = Bitboard::EMPTY;
    for comp in &game.types[kind].comps[orient] {
        match comp {
            CompiledComponent::Leap { mode: Mode::MoveOnly, .. } | CompiledComponent::Ride { mode: Mode::MoveOnly, .. } => {}
            CompiledComponent::Leap { table, .. } => targets |= tables.leaps[usize::from(*table)][from],
            CompiledComponent::Ride { lines, .. } => targets |= tables.lines_attacks(*lines, from, occ),
            CompiledComponent::Hop { rays, .. } => targets |= hop_attacks(tables, rays, from, occ),
            CompiledComponent::Curved { set } => targets |= curved_targets(tables, *set, from, occ, occ),
            CompiledComponent::Bent { set } => {
                let empty = Bitboard::EMPTY;
                targets |= bent_targets(&tables.bent[usize::from(*set)][from], tables, occ, empty, occ);
            }
        }
    }
    targets
}

/// A hopper's attacks: beyond the screen, up to and including the next man (apart from
/// [`attack_targets`], as [`hop_targets`] is from [`piece_targets`], to keep its loop small).
fn hop_attacks<const W: usize>(tables: &MoveTables<W>, rays: &[u16], from: Cell, occ: Bitboard<W>) -> Bitboard<W> {
    let mut targets = Bitboard::EMPTY;
    for &r in rays {
        let ray = &tables.rays[usize::from(r)];
        let Some(screen) = ray.nearest(ray.mask[from] & occ) else { continue };
        let beyond = ray.mask[from] & tables.rays[ray.unlimited].mask[screen];
        targets |= match ray.nearest(beyond & occ) {
            None => beyond,
            Some(t) => beyond & !tables.rays[ray.unlimited].mask[t],
        };
    }
    targets
}

/// The men the royal facing rule applies to (none in games without the rule).
pub fn facing_royals<const W: usize>(pos: &Position<W>) -> Bitboard<W> {
    pos.game().attacks.facing.as_ref().map_or(Bitboard::EMPTY, |g| pos.members(&g.members))
}

/// The cells one man attacks from `from` with the men on `occ`; with `facing`, the lines of the
/// facing rule from it too (for a royal piece of a game with the rule).
pub fn man_attacks<const W: usize>(game: &Game<W>, from: Cell, man: Man, facing: bool, occ: Bitboard<W>) -> Bitboard<W> {
    let mut cells = attack_targets(game, from, man.kind(), man.orientation(), occ);
    if facing && let Some(g) = &game.attacks.facing {
        // The facing directions come in opposite pairs, so the rays towards a royal piece are the
        // rays from it.
        cells |= game.moves.lines_attacks(g.lines, from, occ);
    }
    cells
}

/// Every cell that a man of `players` attacks with the board's men on `occ`: the forward
/// counterpart of [`Position::attackers`], one pass over the men instead of one test per cell,
/// the cheaper where few men are tested against many cells (a royal piece's steps, a bare royal
/// piece's box).
pub fn attacked_cells<const W: usize>(pos: &Position<W>, players: PlayerSet, occ: Bitboard<W>, facing: Facing) -> Bitboard<W> {
    let game = pos.game();
    let facing_men = if facing == Facing::Counted { facing_royals(pos) } else { Bitboard::EMPTY };
    pos.pieces_of_set(players).iter().fold(Bitboard::EMPTY, |cells, c| cells | man_attacks(game, c, pos.man_at(c), facing_men.has(c), occ))
}
