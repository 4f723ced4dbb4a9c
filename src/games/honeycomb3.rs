//! 3-player Honeycomb Chess and 3-player Wildhoney Chess (rules: `shared/rules/honeycomb3.md`).
//!
//! Game ids: `honeycomb3` (basic) and `wildhoney3`.
//!
//! Board: five levels `a`..`e` of a hex triangle of side 8 (180 cells, 256-bit boards). Cell
//! `3c5` is column 35 (`x = 3`, `y = 5`) on level `c`; canonical index `36·l + y(y−1)/2 + (x−1)`.
//!
//! Players in turn order: Red `r` (corner column 11), Yellow `y` (18), Blue `b` (88).
//!
//! Piece codes: `K` King, `Q` Queen, `R` Rook, `B` Bishop, `N` Knight, `P` Pawn; basic also `F`
//! Finch; Wildhoney also `C` Camel and `G` Gnu. A move is from-cell, to-cell and, for a
//! promotion, the new type's code in lower case (`2c73c8q`: a Red pawn on 2c7 promoting to a
//! Queen on 3c8). The pass is `0000`.
//!
//! Position strings (the N-player form of `notation`):
//! - the placement lists level `a` first and level `e` last; each level is 8 rows, from `y = 8`
//!   (columns 88 78 … 18) down to `y = 1` (column 11), each row from the highest `x` down to
//!   `x = 1`, i.e. left to right in the drawing of rules §1.1; rows are separated by `/` (40 in
//!   all) and a number is that many empty cells;
//! - a man is its owner's letter and its upper-case code (`rK`, `bP`); a recruited pawn adds the
//!   player whose direction it keeps (`rP(y)`: Red's pawn moving as Yellow's did). Recruited
//!   pieces of every other type move like the mater's own and are written as such;
//! - then the player to move, the active players in turn order, `-` (no castling), `-` (no en
//!   passant), the halfmove clock (plies, passes included, since the last capture, pawn move or
//!   elimination), the move number, and the checkmate history `<count>:<victim><mater>…` in order
//!   of elimination (`1:yr`: Yellow was checkmated by Red).
//!
//! Start position of `honeycomb3` (one line):
//!
//! ```text
//! bRbBbP2yPyByR/bBbP3yPyB/bP4yP/5/4/rPrPrP/rBrB/rR/bQbNbP2yPyNyQ/bNbP3yPyN/bP4yP/5/4/rPrPrP/rNrN/rQ/bKbFbP2yPyFyK/bFbP3yPyF/bP4yP/5/4/rPrPrP/rFrF/rK/bQbNbP2yPyNyQ/bNbP3yPyN/bP4yP/5/4/rPrPrP/rNrN/rQ/bRbBbP2yPyByR/bBbP3yPyB/bP4yP/5/4/rPrPrP/rBrB/rR r ryb - - 0 1 0:
//! ```
//!
//! and of `wildhoney3`:
//!
//! ```text
//! bRbBbP2yPyByR/bBbP3yPyB/bP4yP/5/4/rPrPrP/rBrB/rR/bQbCbP2yPyCyQ/bCbP3yPyC/bP4yP/5/4/rPrPrP/rCrC/rQ/bKbNbP2yPyNyK/bNbP3yPyN/bP4yP/5/4/rPrPrP/rNrN/rK/bGbCbP2yPyCyG/bCbP3yPyC/bP4yP/5/4/rPrPrP/rCrC/rG/bRbBbP2yPyByR/bBbP3yPyB/bP4yP/5/4/rPrPrP/rBrB/rR r ryb - - 0 1 0:
//! ```
//!
//! Rule decisions of the rules file kept here: Wildhoney's level order ([`back_columns`]), the
//! Finch's longest path ([`FINCH_MAX_STEPS`]), compulsory promotion to any type (`build`). The
//! N-player turn model (start-of-turn checkmates, recruiting, the pass, the two-player end) is
//! the core's, switched on by `MateRules { victim_men: Recruited }`.

use crate::game::{GameDef, MateRules, Placement, PlayerDef, Rules, VictimMen};
use crate::geometry::{Geometry, Vec3};
use crate::movement::{Component, Mode, PawnDef, PieceDef, PromotionChoices, PromotionDef, Vectors};
use crate::types::{Cell, MultiSearch, PieceType, Player, Table};

/// Triangle side and levels.
const SIDE: i32 = 8;
const LEVELS: [&str; 5] = ["a", "b", "c", "d", "e"];

/// The six in-level hex directions in angular order (anticlockwise in the drawing), rules §1.2.
/// The Finch's curved ride turns through this ring, so the order matters.
const HEX: [Vec3; 6] = [[-1, 0, 0], [0, 1, 0], [1, 1, 0], [1, 0, 0], [0, -1, 0], [-1, -1, 0]];
const UP: Vec3 = [0, 0, 1];
const DOWN: Vec3 = [0, 0, -1];

/// Longest in-level Finch path: a sixth step would return to the start [DEC §4.1, §7 #8].
const FINCH_MAX_STEPS: u32 = 5;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Variant {
    Basic,
    Wildhoney,
}

/// Piece letters of the setup tables below.
const KING: char = 'K';
const QUEEN: char = 'Q';
const ROOK: char = 'R';
const BISHOP: char = 'B';
const KNIGHT: char = 'N';
const FINCH: char = 'F';
const CAMEL: char = 'C';
const GNU: char = 'G';
const PAWN: char = 'P';

/// Corner column and the two columns next to it, levels a..e (rules §3.2, §3.3). For Wildhoney,
/// level `a` is the top of the source's "from top to bottom": Queen on b, Gnu on d, the same for
/// all three armies [DEC §3.3, §7 #1].
fn back_columns(v: Variant) -> ([char; 5], [char; 5]) {
    match v {
        Variant::Basic => ([ROOK, QUEEN, KING, QUEEN, ROOK], [BISHOP, KNIGHT, FINCH, KNIGHT, BISHOP]),
        Variant::Wildhoney => ([ROOK, QUEEN, KING, GNU, ROOK], [BISHOP, CAMEL, KNIGHT, CAMEL, BISHOP]),
    }
}

/// Game ids this file defines.
pub fn ids() -> Vec<String> {
    vec!["honeycomb3".to_string(), "wildhoney3".to_string()]
}

pub fn definition(id: &str) -> Option<GameDef> {
    match id {
        "honeycomb3" => Some(build(id, Variant::Basic)),
        "wildhoney3" => Some(build(id, Variant::Wildhoney)),
        _ => None,
    }
}

/// The 120° rotation taking Red's corner to Yellow's and Yellow's to Blue's (rules §2):
/// column `(x, y)` → `(y − x + 1, SIDE + 1 − x)`.
fn rotate_column(c: [i32; 2]) -> [i32; 2] {
    [c[1] - c[0] + 1, SIDE + 1 - c[0]]
}

/// The same rotation on a vector (its linear part); the level component is unchanged.
fn rotate_vector(v: Vec3) -> Vec3 {
    [v[1] - v[0], -v[0], v[2]]
}

/// Red's vectors and their rotations for Yellow and Blue.
fn per_player(red: &[Vec3]) -> Vectors {
    let yellow: Vec<Vec3> = red.iter().map(|&v| rotate_vector(v)).collect();
    let blue: Vec<Vec3> = yellow.iter().map(|&v| rotate_vector(v)).collect();
    Vectors::PerOrientation(vec![red.to_vec(), yellow, blue].into())
}

fn with_level(v: Vec3, dl: i32) -> Vec3 {
    [v[0], v[1], dl]
}

fn scaled(v: Vec3, k: i32) -> Vec3 {
    [v[0] * k, v[1] * k, v[2]]
}

/// Rook: hex orthogonals in the level and up or down the column.
fn rook_dirs() -> Vec<Vec3> {
    let mut d = HEX.to_vec();
    d.extend([UP, DOWN]);
    d
}

/// Bishop: Gilman's "square diagonals", one hex step plus one level.
fn bishop_dirs() -> Vec<Vec3> {
    HEX.iter().flat_map(|&h| [with_level(h, 1), with_level(h, -1)]).collect()
}

/// Leaps of `k` hex steps in one direction and one level, or one hex step and `k` levels
/// (Knight k = 2, Camel k = 3).
fn oblique(k: i32) -> Vec<Vec3> {
    let mut out = Vec::new();
    for &h in &HEX {
        for dl in [1, -1] {
            out.push(with_level(scaled(h, k), dl));
            out.push(with_level(h, k * dl));
        }
    }
    out
}

fn type_of(pieces: &[PieceDef], letter: char) -> PieceType {
    PieceType::new(pieces.iter().position(|p| p.code.starts_with(letter)).expect("piece letter of this variant"))
}

fn build(id: &str, variant: Variant) -> GameDef {
    let geometry = Geometry::hex_triangle_prism(SIDE, &LEVELS);
    let rook = rook_dirs();
    let bishop = bishop_dirs();
    let queen: Vec<Vec3> = rook.iter().chain(&bishop).copied().collect();

    // Red's pawn: forward to column +1 or +11 (H1, H2), capturing one level up or down.
    let pawn_steps = [HEX[1], HEX[2]];
    let pawn_captures: Vec<Vec3> = pawn_steps.iter().flat_map(|&h| [with_level(h, 1), with_level(h, -1)]).collect();

    let mut pieces = vec![
        PieceDef::new("King", "K", vec![Component::leap(queen.clone())]).royal(),
        PieceDef::new(
            "Pawn",
            "P",
            vec![
                Component::Leap { vectors: per_player(&pawn_steps), mode: Mode::MoveOnly },
                Component::Leap { vectors: per_player(&pawn_captures), mode: Mode::CaptureOnly },
            ],
        )
        .value(100),
        PieceDef::new("Queen", "Q", vec![Component::ride(queen)]),
        PieceDef::new("Rook", "R", vec![Component::ride(rook)]),
        PieceDef::new("Bishop", "B", vec![Component::ride(bishop)]),
        PieceDef::new("Knight", "N", vec![Component::leap(oblique(2))]),
    ];
    match variant {
        Variant::Basic => pieces.push(PieceDef::new(
            "Finch",
            "F",
            vec![Component::Curved { ring: HEX.to_vec(), max_steps: FINCH_MAX_STEPS }, Component::leap(vec![UP, DOWN])],
        )),
        Variant::Wildhoney => {
            pieces.push(PieceDef::new("Camel", "C", vec![Component::leap(oblique(3))]));
            let gnu: Vec<Vec3> = oblique(2).into_iter().chain(oblique(3)).collect();
            pieces.push(PieceDef::new("Gnu", "G", vec![Component::leap(gnu)]));
        }
    }
    let pawn = type_of(&pieces, PAWN);

    // Promotion: compulsory on arrival at the far edge, to any non-royal non-pawn type of the
    // variant, whether or not one was captured [SRC + DEC §4.2].
    let promotion_types: Vec<PieceType> = PieceType::all(pieces.len()).filter(|&t| !pieces[t.index()].royal && t != pawn).collect();
    let red_far_edge: Vec<[i32; 2]> = (1..=SIDE).map(|x| [x, SIDE]).collect();
    let mut edge = red_far_edge;
    let mut edges: Vec<Vec<Cell>> = Vec::new();
    for _ in 0..3 {
        edges.push(geometry.cells.entries().filter(|(_, c)| edge.contains(&[c.coord[0], c.coord[1]])).map(|(i, _)| i).collect());
        edge = edge.into_iter().map(rotate_column).collect();
    }
    let zone: Table<Player, Vec<Cell>> = edges.into();
    pieces[pawn.index()].pawn = Some(PawnDef {
        double_step: vec![Vec::new(); 3].into(),
        en_passant: false,
        promotion: Some(PromotionDef { zone: zone.clone(), mandatory: zone, choices: PromotionChoices::Fixed(promotion_types) }),
    });

    // Setup: Red's columns, rotated for Yellow and Blue (rules §3).
    let (corner, adjacent) = back_columns(variant);
    let mut red: Vec<([i32; 2], [char; 5])> = vec![([1, 1], corner), ([1, 2], adjacent), ([2, 2], adjacent)];
    for col in [[1, 3], [2, 3], [3, 3]] {
        red.push((col, [PAWN; 5]));
    }
    let mut setup = Vec::new();
    let mut columns = red;
    for owner in Player::all(3) {
        for &(col, stack) in &columns {
            for (l, &letter) in (0..).zip(stack.iter()) {
                let cell = geometry.cell_at([col[0], col[1], l]).expect("setup cell on the board");
                setup.push(Placement { cell, owner, kind: type_of(&pieces, letter) });
            }
        }
        columns = columns.into_iter().map(|(c, s)| (rotate_column(c), s)).collect();
    }

    let name = match variant {
        Variant::Basic => "3-player Honeycomb Chess",
        Variant::Wildhoney => "3-player Wildhoney Chess",
    };
    GameDef {
        id: id.to_string(),
        name: name.to_string(),
        geometry,
        players: vec![
            PlayerDef { name: "Red".into(), code: 'r' },
            PlayerDef { name: "Yellow".into(), code: 'y' },
            PlayerDef { name: "Blue".into(), code: 'b' },
        ]
        .into(),
        pieces: pieces.into(),
        setup,
        rules: Rules { mate: MateRules { victim_men: VictimMen::Recruited, ..MateRules::default() }, ..Rules::default() },
        armies: Vec::new(),
        // Round robin at 100 ms a move (tuning/round_robin.sh): BRS+ first in both variants.
        multi_search: MultiSearch::BestReplyPlus,
        eval: "",
        squares: "",
        royal_pawns: "",
        network: "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;
    use crate::tables::{CompiledComponent, Game};

    fn game(id: &str) -> &'static Game<4> {
        registry::compiled::<4>(definition(id).expect("game id"))
    }

    fn cell(g: &Game<4>, name: &str) -> Cell {
        g.geometry().cell_by_name(name).expect("cell name")
    }

    fn type_named(g: &Game<4>, code: &str) -> PieceType {
        g.def.piece_by_code(code).expect("piece code")
    }

    /// Directions a piece may start in from `from` on an empty board (rules §6): open rays of
    /// its rides, targets of its leaps, cells of its curved paths.
    fn directions(g: &Game<4>, code: &str, owner: usize, from: Cell) -> usize {
        let t = type_named(g, code);
        let tables = &g.moves;
        let mut n = 0;
        for comp in &g.types[t].comps[Player::new(owner)] {
            n += match comp {
                CompiledComponent::Ride { rays, .. } => rays.iter().filter(|&&r| tables.rays[usize::from(r)].mask[from].any()).count(),
                CompiledComponent::Leap { table, .. } => tables.leaps[usize::from(*table)][from].count() as usize,
                CompiledComponent::Curved { set } => {
                    let paths = &tables.curved[usize::from(*set)][from];
                    crate::bitboard::Bitboard::<4>::from_cells(paths.iter().flatten().copied()).count() as usize
                }
                _ => unreachable!("no other components in this game"),
            };
        }
        n
    }

    #[test]
    fn rider_direction_counts_of_section_6() {
        let g = game("honeycomb3");
        // interior, Rook level, rectangular face, edge of a Rook level, corner column, vertex
        let classes = ["3c5", "3a5", "1c5", "1a5", "1c1", "1a1"];
        for (code, expected) in [("R", [8, 7, 6, 5, 4, 3]), ("Q", [20, 13, 14, 9, 8, 5])] {
            for (name, want) in classes.iter().zip(expected) {
                assert_eq!(directions(g, code, 0, cell(g, name)), want, "{code} on {name}");
            }
        }
        // Bishop: interior 12, face 8, Rook level 6, edge of a Rook level 4, vertex 2.
        for (name, want) in [("3c5", 12), ("1c5", 8), ("3a5", 6), ("1a5", 4), ("1a1", 2), ("8e8", 2), ("4d4", 8)] {
            assert_eq!(directions(g, "B", 0, cell(g, name)), want, "B on {name}");
        }
        // The same counts hold on every cell of each class: an edge column loses two hex
        // directions, a corner column four; a Rook level loses one level direction.
        for c in g.geometry().all() {
            let [x, y, l] = g.geometry().coord(c);
            let level_dirs = if l == 0 || l == 4 { 1 } else { 2 };
            let hex_dirs = 6 - 2 * [x == 1, y == SIDE, x == y].iter().filter(|&&e| e).count();
            let name = g.geometry().name(c);
            assert_eq!(directions(g, "R", 0, c), hex_dirs + level_dirs, "R on {name}");
            assert_eq!(directions(g, "B", 0, c), hex_dirs * level_dirs, "B on {name}");
            assert_eq!(directions(g, "Q", 0, c), hex_dirs * (level_dirs + 1) + level_dirs, "Q on {name}");
        }
        // The Bishop is not colour-bound: from one cell it reaches all 180.
        let bishop = type_named(g, "B");
        let mut seen = crate::bitboard::Bitboard::<4>::from_cell(Cell::new(0));
        let mut frontier = vec![Cell::new(0)];
        while let Some(c) = frontier.pop() {
            for comp in &g.types[bishop].comps[Player::new(0)] {
                let CompiledComponent::Ride { rays, .. } = comp else { continue };
                for &r in rays {
                    for t in g.moves.rays[usize::from(r)].mask[c] {
                        if !seen.has(t) {
                            seen.set(t);
                            frontier.push(t);
                        }
                    }
                }
            }
        }
        assert_eq!(seen.count(), 180);
    }

    #[test]
    fn leaper_counts_of_section_6() {
        let g = game("wildhoney3");
        let counts = |code: &str| -> Table<Cell, usize> { Table::from_fn(g.ncells, |c| directions(g, code, 0, c)) };
        let best = |v: &Table<Cell, usize>| -> (usize, Vec<String>) {
            let m = *v.iter().max().unwrap();
            (m, v.entries().filter(|&(_, &n)| n == m).map(|(c, _)| g.geometry().name(c).to_string()).collect())
        };
        let knight = counts("N");
        assert_eq!(best(&knight), (24, vec!["3c5".into(), "3c6".into(), "4c6".into()]));
        // The source's 18 for the Camel and 36 for the Gnu are wrong (§6): 14 and 28.
        let camel = counts("C");
        let mut camel_best = best(&camel);
        camel_best.1.sort();
        assert_eq!(camel_best, (14, ["2b5", "2d5", "4b5", "4b7", "4d5", "4d7"].map(String::from).to_vec()));
        for name in ["3b5", "3b6", "4b6", "3d5", "3d6", "4d6"] {
            assert_eq!(camel[cell(g, name)], 10, "Camel on {name}");
        }
        let gnu = counts("G");
        let (gnu_max, gnu_cells) = best(&gnu);
        assert_eq!((gnu_max, gnu_cells.len()), (28, 18));
        assert!(gnu_cells.contains(&"3c5".to_string()));
        assert_eq!((knight[cell(g, "3c5")], camel[cell(g, "3c5")]), (24, 4));
    }

    #[test]
    fn pawn_moves_and_promotion_edges() {
        let g = game("honeycomb3");
        let p = type_named(g, "P");
        let comps = |o: usize| &g.types[p].comps[Player::new(o)];
        for (o, from, moves, captures) in [
            (0, "3c5", ["3c6", "4c6"], ["3b6", "3d6", "4b6", "4d6"]),
            (1, "3c5", ["4c5", "3c4"], ["4b5", "4d5", "3b4", "3d4"]),
            (2, "3c5", ["2c5", "2c4"], ["2b5", "2d5", "2b4", "2d4"]),
        ] {
            let mut want_moves: Vec<Cell> = moves.iter().map(|n| cell(g, n)).collect();
            let mut want_caps: Vec<Cell> = captures.iter().map(|n| cell(g, n)).collect();
            want_moves.sort();
            want_caps.sort();
            for comp in comps(o) {
                let CompiledComponent::Leap { table, mode } = comp else { panic!("pawns leap") };
                let got: Vec<Cell> = g.moves.leaps[usize::from(*table)][cell(g, from)].iter().collect();
                match mode {
                    Mode::MoveOnly => assert_eq!(got, want_moves, "player {o}"),
                    Mode::CaptureOnly => assert_eq!(got, want_caps, "player {o}"),
                    Mode::Both => panic!("pawn components are move-only or capture-only"),
                }
            }
        }
        // On a Rook level: 2 moves and 2 captures.
        assert_eq!(directions(g, "P", 0, cell(g, "3a5")), 4);
        assert_eq!(directions(g, "P", 1, cell(g, "3e5")), 4);
        // Far edges (§2): Red y = 8, Yellow x = y, Blue x = 1; 40 cells each, all compulsory.
        for (o, rule) in [(0usize, (|_: i32, y: i32| y == 8) as fn(i32, i32) -> bool), (1, |x, y| x == y), (2, |x, _| x == 1)] {
            let zone = g.types[p].promo_zone[Player::new(o)];
            assert_eq!(zone, g.types[p].promo_mandatory[Player::new(o)]);
            assert_eq!(zone.count(), 40);
            for c in zone {
                let [x, y, _] = g.geometry().coord(c);
                assert!(rule(x, y), "player {o} promotes on {}", g.geometry().name(c));
            }
        }
    }

    #[test]
    fn finch_paths_on_an_empty_board() {
        let g = game("honeycomb3");
        let from = cell(g, "3c5");
        assert_eq!(directions(g, "F", 0, from), 20);
        let finch = type_named(g, "F");
        let CompiledComponent::Curved { set } = g.types[finch].comps[Player::new(0)][0] else {
            panic!("the Finch starts with its curved ride")
        };
        let paths = &g.moves.curved[usize::from(set)][from];
        assert_eq!(paths.len(), 12);
        assert!(paths.iter().all(|p| p.len() == 5));
        // Distance-2 cells: straight ones on 2 circuits, the others on 4 (§4.1).
        let on_paths = |name: &str| paths.iter().filter(|p| p.contains(&cell(g, name))).count();
        for straight in ["1c5", "3c7", "5c7", "5c5", "3c3", "1c3"] {
            assert_eq!(on_paths(straight), 2, "{straight}");
        }
        for bent in ["2c6", "4c7", "5c6", "4c4", "2c3", "1c4"] {
            assert_eq!(on_paths(bent), 4, "{bent}");
        }
        // The worked example: from 1c2, first step H1, turning the same way each step.
        let corner = &g.moves.curved[usize::from(set)][cell(g, "1c2")];
        let circuit: Vec<Cell> = ["1c3", "2c4", "3c4", "3c3", "2c2"].iter().map(|n| cell(g, n)).collect();
        assert!(corner.iter().any(|p| p.as_slice() == circuit.as_slice()));
    }

    #[test]
    fn setup_matches_section_3() {
        for (id, red) in [
            (
                "honeycomb3",
                [("1c1", "K"), ("1b1", "Q"), ("1d1", "Q"), ("1e1", "R"), ("2c2", "F"), ("1d2", "N"), ("2e2", "B"), ("3a3", "P")],
            ),
            (
                "wildhoney3",
                [("1c1", "K"), ("1b1", "Q"), ("1d1", "G"), ("1e1", "R"), ("2c2", "N"), ("1d2", "C"), ("2e2", "B"), ("3a3", "P")],
            ),
        ] {
            let g = game(id);
            assert_eq!(g.def.setup.len(), 90);
            let at = |name: &str| {
                g.def.setup.iter().find(|s| s.cell == cell(g, name)).map(|s| (s.owner.index(), g.def.pieces[s.kind].code.clone()))
            };
            for (name, code) in red {
                assert_eq!(at(name), Some((0, code.to_string())), "{id} {name}");
            }
            // Rotated armies (§3.2 table).
            assert_eq!(at("1c8"), Some((1, "K".into())));
            assert_eq!(at("8c8"), Some((2, "K".into())));
            assert_eq!(at("3e8"), Some((1, "P".into())));
            assert_eq!(at("6a6"), Some((2, "P".into())));
            assert_eq!(at("2a8"), Some((1, "B".into())));
            assert_eq!(at("7e7"), Some((2, "B".into())));
            for p in g.players() {
                assert_eq!(g.def.setup.iter().filter(|s| s.owner == p).count(), 30);
            }
        }
    }
}
