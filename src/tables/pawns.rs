//! Pawn-structure facts per orientation and cell, from the pawn-like men's move tables: where a
//! pawn can still go, which enemy pawns could stop it, which friendly pawns could protect it.
//! The evaluation reads them for passed, isolated, doubled, backward and supported pawns and for
//! outposts; they know nothing of any game, only of the steps and captures of its pawn-like men
//! (all of a game's pawn-like types pooled per orientation).

use crate::bitboard::Bitboard;
use crate::movement::Mode;
use crate::tables::{CompiledComponent, MoveTables, TypeInfo};
use crate::types::{Cell, PieceType, Player, Table};

/// The tables of one orientation.
pub struct PawnTables<const W: usize> {
    /// Cells a pawn on the cell steps to (without capturing).
    pub step: Table<Cell, Bitboard<W>>,
    /// The pawn's line: the cell, the cells ahead and the cells from which a pawn reaches it.
    pub line: Table<Cell, Bitboard<W>>,
    /// Cells a pawn on the cell attacks.
    pub attacks: Table<Cell, Bitboard<W>>,
    /// Cells a pawn on the cell attacks now or after some steps forward.
    pub attack_span: Table<Cell, Bitboard<W>>,
    /// What the pawn-structure terms read of a pawn on each cell, side by side.
    pub cells: Table<Cell, PawnCell<W>>,
    /// The most steps to promotion from any cell.
    pub max_to_promotion: i32,
}

/// The facts of one cell that the evaluation of a pawn on it reads together: in one or two cache
/// lines rather than one per table, as a structure's pawns are many and its tables large.
#[derive(Clone, Copy, Debug, Default)]
pub struct PawnCell<const W: usize> {
    /// Cells a pawn on the cell may still step to (its forward steps, repeated).
    pub front: Bitboard<W>,
    /// Friendly pawns on these cells could ever protect the pawn's line (not isolated).
    pub neighbours: Bitboard<W>,
    /// Cells from which a pawn attacks the cell (the reverse of `attacks`).
    pub attacked_from: Bitboard<W>,
    /// Friendly pawns on these cells could protect one of the cell's steps, now or after steps
    /// forward (the cells whose attack span holds a step).
    pub step_supporters: Bitboard<W>,
    /// Enemy pawns on these cells stop a pawn on the cell from being passed: the cells ahead, and
    /// where an enemy pawn (of any other orientation) attacks the cell or a cell ahead.
    pub stoppers: Bitboard<W>,
    /// Moves (steps or captures) from the cell to the promotion zone (`None`: never; 0 in the
    /// zone).
    pub to_promotion: Option<i32>,
}

/// The union of the leap tables of `comps` whose mode is one of `modes`.
fn leaps<const W: usize>(moves: &MoveTables<W>, comps: &[CompiledComponent], cell: Cell, modes: &[Mode]) -> Bitboard<W> {
    comps.iter().fold(Bitboard::EMPTY, |b, c| match c {
        CompiledComponent::Leap { table, mode } if modes.contains(mode) => b | moves.leaps[usize::from(*table)][cell],
        _ => b,
    })
}

/// The pawn tables of every orientation (`None` where no pawn-like type exists).
pub fn build<const W: usize>(
    ncells: usize,
    nplayers: usize,
    moves: &MoveTables<W>,
    types: &Table<PieceType, TypeInfo<W>>,
) -> Option<Table<Player, PawnTables<W>>> {
    let pawn_types: Vec<&TypeInfo<W>> = types.iter().filter(|t| t.pawn).collect();
    if pawn_types.is_empty() {
        return None;
    }
    let cells = || (0..ncells).map(Cell::new);
    let per_orientation = |o: Player, modes: &[Mode]| -> Table<Cell, Bitboard<W>> {
        Table::from_fn(ncells, |c| pawn_types.iter().fold(Bitboard::EMPTY, |b, t| b | leaps(moves, &t.comps[o], c, modes)))
    };
    let steps: Vec<Table<Cell, Bitboard<W>>> =
        (0..nplayers).map(|o| per_orientation(Player::new(o), &[Mode::MoveOnly, Mode::Both])).collect();
    let attacks: Vec<Table<Cell, Bitboard<W>>> =
        (0..nplayers).map(|o| per_orientation(Player::new(o), &[Mode::CaptureOnly, Mode::Both])).collect();
    let reverse = |t: &Table<Cell, Bitboard<W>>| -> Table<Cell, Bitboard<W>> {
        let mut r: Table<Cell, Bitboard<W>> = Table::filled(ncells, Bitboard::EMPTY);
        for c in cells() {
            for x in t[c] {
                r[x].set(c);
            }
        }
        r
    };
    let attacked_from: Vec<Table<Cell, Bitboard<W>>> = attacks.iter().map(reverse).collect();
    let union = |table: &Table<Cell, Bitboard<W>>, set: Bitboard<W>| set.iter().fold(Bitboard::EMPTY, |b, x| b | table[x]);
    let orientations: Vec<PawnTables<W>> = (0..nplayers)
        .map(|o| {
            let step = &steps[o];
            let front: Table<Cell, Bitboard<W>> = Table::from_fn(ncells, |c| {
                let mut reached = Bitboard::EMPTY;
                let mut frontier = step[c];
                while frontier.any() {
                    reached |= frontier;
                    frontier = union(step, frontier) & !reached;
                }
                reached
            });
            let behind = reverse(&front);
            let line = Table::from_fn(ncells, |c| front[c] | behind[c] | Bitboard::from_cell(c));
            let attack_span = Table::from_fn(ncells, |c| union(&attacks[o], front[c] | Bitboard::from_cell(c)));
            let supporters = reverse(&attack_span);
            let stoppers = Table::from_fn(ncells, |c| {
                let path = front[c] | Bitboard::from_cell(c);
                (0..nplayers).filter(|&e| e != o).fold(front[c], |b, e| b | union(&attacked_from[e], path))
            });
            let neighbours = Table::from_fn(ncells, |c| union(&attacked_from[o], line[c]));
            // Breadth-first from the promotion zone, backwards along the steps and captures.
            let zone = pawn_types.iter().fold(Bitboard::EMPTY, |b, t| b | t.promo_zone[Player::new(o)]);
            let mut to_promotion: Table<Cell, Option<i32>> = Table::filled(ncells, None);
            let back_step = reverse(&Table::from_fn(ncells, |c| step[c] | attacks[o][c]));
            let mut frontier = zone;
            let mut d = 0;
            let mut seen = zone;
            while frontier.any() {
                for c in frontier {
                    to_promotion[c] = Some(d);
                }
                frontier = union(&back_step, frontier) & !seen;
                seen |= frontier;
                d += 1;
            }
            let max_to_promotion = to_promotion.iter().flatten().copied().max().unwrap_or(0);
            let cells = Table::from_fn(ncells, |c| PawnCell {
                front: front[c],
                neighbours: neighbours[c],
                attacked_from: attacked_from[o][c],
                step_supporters: union(&supporters, step[c]),
                stoppers: stoppers[c],
                to_promotion: to_promotion[c],
            });
            PawnTables {
                step: Table::from_fn(ncells, |c| step[c]),
                line,
                attacks: Table::from_fn(ncells, |c| attacks[o][c]),
                attack_span,
                cells,
                max_to_promotion,
            }
        })
        .collect();
    let mut orientations = orientations.into_iter();
    Some(Table::from_fn(nplayers, |_| orientations.next().expect("one per orientation")))
}

#[cfg(test)]
mod tests {
    use crate::registry;
    use crate::types::{Cell, Player};

    fn cells(names: &[&str]) -> Vec<Cell> {
        let game = registry::compiled::<1>(crate::games::definition("chess").expect("chess"));
        names.iter().map(|n| game.geometry().cell_by_name(n).expect("cell")).collect()
    }

    /// In chess the tables are the textbook files, spans and passed-pawn masks.
    #[test]
    fn chess_pawn_tables() {
        let game = registry::compiled::<1>(crate::games::definition("chess").expect("chess"));
        let pawns = game.pawns.as_ref().expect("chess has pawns");
        let (white, black) = (&pawns[Player::new(0)], &pawns[Player::new(1)]);
        let e4 = cells(&["e4"])[0];
        assert_eq!(white.cells[e4].front.iter().collect::<Vec<_>>(), cells(&["e5", "e6", "e7", "e8"]));
        assert_eq!(white.line[e4].count(), 8);
        assert_eq!(white.attacks[e4].iter().collect::<Vec<_>>(), cells(&["d5", "f5"]));
        // Black pawns on d5-d8, e5-e8, f5-f8 stop it.
        let mut stoppers = white.cells[e4].stoppers.iter().collect::<Vec<_>>();
        stoppers.sort();
        let mut expected = cells(&["d5", "e5", "f5", "d6", "e6", "f6", "d7", "e7", "f7", "d8", "e8", "f8"]);
        expected.sort();
        assert_eq!(stoppers, expected);
        // Friendly pawns on the d- and f-files could protect it (ranks 1 and 8 included: the
        // tables do not know that no pawn stands there).
        assert_eq!(white.cells[e4].neighbours.count(), 14);
        assert_eq!((white.cells[e4].to_promotion, white.max_to_promotion), (Some(4), 7));
        let e5 = cells(&["e5"])[0];
        assert_eq!(black.cells[e5].to_promotion, Some(4));
        // d2-d4 and f2-f4 (and the first rank) are the pawns that could protect e5, e4's step.
        assert_eq!(white.cells[e4].step_supporters.count(), 8);
        assert_eq!(black.attack_span[e5].iter().collect::<Vec<_>>(), cells(&["d1", "f1", "d2", "f2", "d3", "f3", "d4", "f4"]));
    }
}
