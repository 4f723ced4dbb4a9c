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
//! Finch; Wildhoney also `C` Camel and `G` Gnu. Promotion suffixes are the same letters in lower
//! case (`1c73c8q` is not a move; `2c72c8q` is a Red pawn promoting to a Queen).
//!
//! Position strings (the N-player form of `notation`): the placement lists level `a` first and
//! level `e` last; each level is 8 rows, from `y = 8` (columns 88 78 … 18) down to `y = 1`
//! (column 11), each row from the highest `x` to `x = 1` (left to right in the drawing), rows
//! separated by `/` (40 rows in all). A man is its owner's letter and its upper-case code (`rK`,
//! `bP`); a recruited pawn adds the player whose direction it keeps (`rP(y)`: Red's, moving as
//! Yellow's). Then: the player to move, the active players, `-` (no castling), `-` (no en
//! passant), the halfmove clock (plies since the last capture, pawn move or elimination), the move
//! number, and the checkmate history `<count>:<victim><mater>…` (`1:yr` = Yellow mated by Red).
//! Basic start position (one line):
//!
//! ```text
//! bRbB6yByR/bBbP5yPyB/bP5yP/5/4/3/rPrP/rRrB/rB/rR/
//! ```
//! (abbreviated: see [`tests`] `start_position_string` for the exact text, built by the engine)

use crate::game::{GameDef, MateRules, PlayerDef, Rules, VictimMen};
use crate::geometry::{Geometry, Vec3};
use crate::movement::{Component, Mode, PawnDef, PieceDef, PromotionChoices, PromotionDef, Vectors};

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
    Vectors::PerOrientation(vec![red.to_vec(), yellow, blue])
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

fn type_of(pieces: &[PieceDef], letter: char) -> usize {
    pieces.iter().position(|p| p.code.starts_with(letter)).expect("piece letter of this variant")
}

fn build(id: &str, variant: Variant) -> GameDef {
    let geometry = Geometry::hex_triangle_prism(SIDE as usize, &LEVELS);
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
    let promotion_types: Vec<usize> = (0..pieces.len()).filter(|&t| !pieces[t].royal && t != pawn).collect();
    let red_far_edge: Vec<[i32; 2]> = (1..=SIDE).map(|x| [x, SIDE]).collect();
    let mut zone = Vec::new();
    let mut edge = red_far_edge;
    for _ in 0..3 {
        let cells: Vec<usize> =
            geometry.cells.iter().enumerate().filter(|(_, c)| edge.contains(&[c.coord[0], c.coord[1]])).map(|(i, _)| i).collect();
        zone.push(cells);
        edge = edge.into_iter().map(rotate_column).collect();
    }
    pieces[pawn].pawn = Some(PawnDef {
        double_step: vec![Vec::new(); 3],
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
    for player in 0..3 {
        for &(col, stack) in &columns {
            for (l, &letter) in stack.iter().enumerate() {
                let cell = geometry.cell_at([col[0], col[1], l as i32]).expect("setup cell on the board");
                setup.push((cell, player, type_of(&pieces, letter)));
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
        ],
        pieces,
        setup,
        rules: Rules { mate: MateRules { victim_men: VictimMen::Recruited, ..MateRules::default() }, ..Rules::default() },
        armies: Vec::new(),
    }
}
