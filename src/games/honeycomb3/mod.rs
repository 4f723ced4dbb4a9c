//! 3-player Honeycomb Chess and 3-player Wildhoney Chess (rules: `docs/rules/honeycomb3.md`, from `shared/rules/honeycomb3.md`),
//! with their pawnless and double-strength sub-variants (`shared/rules/honeycomb3-subvariants.md`).
//!
//! Game ids: `honeycomb3` (basic) and `wildhoney3`; each also `-pawnless` (no Pawns), `-double`
//! (double-strength pieces: hex diagonals count as orthogonals, hybrid diagonals as diagonals,
//! Pawn → Pawnout, Finch → Cohen) and `-double-pawnless`.
//!
//! Board: five levels `a`..`e` of a hex triangle of side 8 (180 cells, 256-bit boards). Cell
//! `3c5` is column 35 (`x = 3`, `y = 5`) on level `c`; canonical index `36·l + y(y−1)/2 + (x−1)`.
//!
//! Players in turn order: Red `r` (corner column 11), Yellow `y` (18), Blue `b` (88).
//!
//! Piece codes: `K` King, `Q` Queen, `R` Rook, `B` Bishop, `N` Knight, `P` Pawn (Pawnout in
//! double strength); basic also `F` Finch (`H` Cohen in double strength); Wildhoney also `C`
//! Camel and `G` Gnu. A move is from-cell, to-cell and, for a promotion, the new type's code in
//! lower case (`2c73c8q`: a Red pawn on 2c7 promoting to a Queen on 3c8). The pass is `0000`.
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
//! Rule decisions of the rules files kept here: Wildhoney's level order ([`back_columns`]), the
//! Finch's and Cohen's longest path ([`CURVED_MAX_STEPS`]), compulsory promotion to any type
//! (`build`); for the sub-variants, which steps double strength adds ([`Strength`]), the Cohen as
//! Finch + Rabbi ([`cohen`]), the Pawnout's diagonal step as a single step ([`pawn_steps`]) and
//! the pawnless setup ([`setup_columns`]). The N-player turn model (start-of-turn checkmates,
//! recruiting, the pass, the two-player end) is the core's, switched on by
//! `MateRules { victim_men: Recruited }`.

use super::Profile;
use crate::eval::{EvalParams, EvalProfile, LearnedTexts, PARAMS};
use crate::game::{GameDef, MateRules, Placement, PlayerDef, Rules, VictimMen};
use crate::geometry::{Geometry, Vec3, hex_diagonals, scale, with_levels};
use crate::movement::{Component, Mode, PawnDef, PieceDef, PromotionChoices, PromotionDef, Vectors};
use crate::search::MultiSearch;
use crate::types::{Cell, PieceType, Player, Table};

/// Triangle side and levels.
const SIDE: i32 = 8;
const LEVELS: [&str; 5] = ["a", "b", "c", "d", "e"];

/// The six in-level hex directions in angular order (anticlockwise in the drawing), rules §1.2.
/// The Finch's curved ride turns through this ring, so the order matters.
const HEX: [Vec3; 6] = [[-1, 0, 0], [0, 1, 0], [1, 1, 0], [1, 0, 0], [0, -1, 0], [-1, -1, 0]];
/// The six hex diagonals `D[k] = HEX[k] + HEX[k + 1]` in the same angular order (sub-variants
/// §1.1): the Rabbi's ring, and orthogonals in double strength. A step along one goes straight to
/// the next cell: the two cells it passes between never block it [DEC §1.4].
const HEX_DIAGONAL: [Vec3; 6] = hex_diagonals(HEX);
const UP: Vec3 = [0, 0, 1];
const DOWN: Vec3 = [0, 0, -1];

/// Longest in-level Finch or Rabbi path: a sixth step would return to the start [DEC §4.1, §7
/// #8; sub-variants §5 item 2].
const CURVED_MAX_STEPS: u32 = 5;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Army {
    Basic,
    Wildhoney,
}

/// Which in-level steps count as orthogonal (sub-variants §1.3).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Strength {
    /// The hex orthogonals only.
    Single,
    /// Hex diagonals count as orthogonals too, so every piece built from orthogonal steps gains
    /// them: hybrid diagonals become diagonals, and the obliques gain `(2D, ±1)`, `(D, ±2)` and
    /// the like, but no in-level leap [DER §4, decision 3].
    Double,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Variant {
    army: Army,
    strength: Strength,
    pawns: bool,
}

/// Every game id of this file with its variant, in the order the protocol lists them.
const VARIANTS: [(&str, Variant); 8] = [
    ("honeycomb3", Variant { army: Army::Basic, strength: Strength::Single, pawns: true }),
    ("wildhoney3", Variant { army: Army::Wildhoney, strength: Strength::Single, pawns: true }),
    ("honeycomb3-pawnless", Variant { army: Army::Basic, strength: Strength::Single, pawns: false }),
    ("wildhoney3-pawnless", Variant { army: Army::Wildhoney, strength: Strength::Single, pawns: false }),
    ("honeycomb3-double", Variant { army: Army::Basic, strength: Strength::Double, pawns: true }),
    ("wildhoney3-double", Variant { army: Army::Wildhoney, strength: Strength::Double, pawns: true }),
    ("honeycomb3-double-pawnless", Variant { army: Army::Basic, strength: Strength::Double, pawns: false }),
    ("wildhoney3-double-pawnless", Variant { army: Army::Wildhoney, strength: Strength::Double, pawns: false }),
];

/// Piece letters of the setup tables below.
const KING: char = 'K';
const QUEEN: char = 'Q';
const ROOK: char = 'R';
const BISHOP: char = 'B';
const KNIGHT: char = 'N';
/// The Finch, or in double strength the Cohen that takes its place.
const FINCH: char = 'F';
const COHEN: char = 'H';
const CAMEL: char = 'C';
const GNU: char = 'G';
const PAWN: char = 'P';

/// Corner column and the two columns next to it, levels a..e (rules §3.2, §3.3). For Wildhoney,
/// level `a` is the top of the source's "from top to bottom": Queen on b, Gnu on d, the same for
/// all three armies [DEC §3.3, §7 #1].
fn back_columns(army: Army) -> ([char; 5], [char; 5]) {
    match army {
        Army::Basic => ([ROOK, QUEEN, KING, QUEEN, ROOK], [BISHOP, KNIGHT, FINCH, KNIGHT, BISHOP]),
        Army::Wildhoney => ([ROOK, QUEEN, KING, GNU, ROOK], [BISHOP, CAMEL, KNIGHT, CAMEL, BISHOP]),
    }
}

/// Red's setup columns with their stacks, levels a..e (rules §3): the back columns, then the
/// three pawn columns unless the variant is pawnless, which only empties them [DER
/// sub-variants §3].
fn setup_columns(v: Variant) -> Vec<([i32; 2], [char; 5])> {
    let (corner, adjacent) = back_columns(v.army);
    let cohen_for_finch = |stack: [char; 5]| match v.strength {
        Strength::Single => stack,
        Strength::Double => stack.map(|c| if c == FINCH { COHEN } else { c }),
    };
    let mut red = vec![([1, 1], cohen_for_finch(corner)), ([1, 2], cohen_for_finch(adjacent)), ([2, 2], cohen_for_finch(adjacent))];
    if v.pawns {
        red.extend([[1, 3], [2, 3], [3, 3]].map(|col| (col, [PAWN; 5])));
    }
    red
}

/// Game ids this file defines.
pub fn ids() -> Vec<String> {
    VARIANTS.iter().map(|(id, _)| id.to_string()).collect()
}

pub fn definition(id: &str) -> Option<GameDef> {
    VARIANTS.iter().find(|(name, _)| *name == id).map(|&(id, v)| build(id, v))
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

impl Strength {
    /// The in-level orthogonals: the hex orthogonals, then in double strength the hex diagonals.
    fn in_level(self) -> Vec<Vec3> {
        match self {
            Strength::Single => HEX.to_vec(),
            Strength::Double => HEX.iter().chain(&HEX_DIAGONAL).copied().collect(),
        }
    }
}

/// Rook: the in-level orthogonals and up or down the column.
fn rook_dirs(s: Strength) -> Vec<Vec3> {
    let mut d = s.in_level();
    d.extend([UP, DOWN]);
    d
}

/// Bishop: Gilman's "square diagonals", one in-level orthogonal step plus one level (in double
/// strength the hybrid diagonals too).
fn bishop_dirs(s: Strength) -> Vec<Vec3> {
    with_levels(&s.in_level(), 1)
}

/// Leaps of `k` in-level orthogonal steps in one direction and one level, or one such step and
/// `k` levels (Knight k = 2, Camel k = 3).
fn oblique(s: Strength, k: i32) -> Vec<Vec3> {
    let mut out = Vec::new();
    for h in s.in_level() {
        for dl in [1, -1] {
            out.push(with_level(scale(h, k), dl));
            out.push(with_level(h, k * dl));
        }
    }
    out
}

/// Red's pawn's non-capturing steps: forward to column +1 or +11 (H1, H2); the Pawnout also
/// steps along the hex diagonal between them (D1, column +12), a single step however far it
/// goes, so with no double step and no en passant [SRC §6; DEC decision 8]. Each captures one
/// level up or down along the same steps.
fn pawn_steps(s: Strength) -> Vec<Vec3> {
    match s {
        Strength::Single => vec![HEX[1], HEX[2]],
        Strength::Double => vec![HEX[1], HEX[2], HEX_DIAGONAL[1]],
    }
}

/// The Finch: a 60°-curved ride along the hex orthogonals and one step up or down (rules §4.1).
fn finch() -> Vec<Component> {
    vec![Component::Curved { ring: HEX.to_vec(), max_steps: CURVED_MAX_STEPS }, Component::leap(vec![UP, DOWN])]
}

/// The Cohen: Finch + Rabbi, the Rabbi being the same curved ride along the hex diagonals; a
/// move never mixes the two rings [DER sub-variants §5, decision 4].
fn cohen() -> Vec<Component> {
    let mut comps = finch();
    comps.insert(1, Component::Curved { ring: HEX_DIAGONAL.to_vec(), max_steps: CURVED_MAX_STEPS });
    comps
}

fn type_of(pieces: &[PieceDef], letter: char) -> PieceType {
    PieceType::new(pieces.iter().position(|p| p.code.starts_with(letter)).expect("piece letter of this variant"))
}

/// The pawn's rules: compulsory promotion on arrival at the far edge, to any non-royal non-pawn
/// type of the variant, whether or not one was captured [SRC + DEC §4.2; sub-variants §6].
fn pawn_rules(geometry: &Geometry, pieces: &[PieceDef], pawn: PieceType) -> PawnDef {
    let promotion_types: Vec<PieceType> = PieceType::all(pieces.len()).filter(|&t| !pieces[t.index()].royal && t != pawn).collect();
    let mut edge: Vec<[i32; 2]> = (1..=SIDE).map(|x| [x, SIDE]).collect();
    let mut edges: Vec<Vec<Cell>> = Vec::new();
    for _ in 0..3 {
        edges.push(geometry.cells.entries().filter(|(_, c)| edge.contains(&[c.coord[0], c.coord[1]])).map(|(i, _)| i).collect());
        edge = edge.into_iter().map(rotate_column).collect();
    }
    let zone: Table<Player, Vec<Cell>> = edges.into();
    PawnDef {
        double_step: vec![Vec::new(); 3].into(),
        en_passant: false,
        promotion: Some(PromotionDef { zone: zone.clone(), mandatory: zone, choices: PromotionChoices::Fixed(promotion_types) }),
    }
}

fn build(id: &str, v: Variant) -> GameDef {
    let geometry = Geometry::hex_triangle_prism(SIDE, &LEVELS);
    let s = v.strength;
    let rook = rook_dirs(s);
    let bishop = bishop_dirs(s);
    let queen: Vec<Vec3> = rook.iter().chain(&bishop).copied().collect();

    let mut pieces = vec![PieceDef::new("King", "K", vec![Component::leap(queen.clone())]).royal()];
    if v.pawns {
        let steps = pawn_steps(s);
        let captures = with_levels(&steps, 1);
        let name = if s == Strength::Double { "Pawnout" } else { "Pawn" };
        pieces.push(
            PieceDef::new(
                name,
                "P",
                vec![
                    Component::Leap { vectors: per_player(&steps), mode: Mode::MoveOnly },
                    Component::Leap { vectors: per_player(&captures), mode: Mode::CaptureOnly },
                ],
            )
            .value(100),
        );
    }
    pieces.extend([
        PieceDef::new("Queen", "Q", vec![Component::ride(rook.clone()), Component::ride(bishop.clone())]),
        PieceDef::new("Rook", "R", vec![Component::ride(rook)]),
        PieceDef::new("Bishop", "B", vec![Component::ride(bishop)]),
        PieceDef::new("Knight", "N", vec![Component::leap(oblique(s, 2))]),
    ]);
    match (v.army, s) {
        (Army::Basic, Strength::Single) => pieces.push(PieceDef::new("Finch", "F", finch())),
        (Army::Basic, Strength::Double) => pieces.push(PieceDef::new("Cohen", "H", cohen())),
        (Army::Wildhoney, _) => {
            pieces.push(PieceDef::new("Camel", "C", vec![Component::leap(oblique(s, 3))]));
            let gnu: Vec<Vec3> = oblique(s, 2).into_iter().chain(oblique(s, 3)).collect();
            pieces.push(PieceDef::new("Gnu", "G", vec![Component::leap(gnu)]));
        }
    }
    if v.pawns {
        let pawn = type_of(&pieces, PAWN);
        pieces[pawn.index()].pawn = Some(pawn_rules(&geometry, &pieces, pawn));
    }

    // Setup: Red's columns, rotated for Yellow and Blue (rules §3).
    let mut setup = Vec::new();
    let mut columns = setup_columns(v);
    for owner in Player::all(3) {
        for &(col, stack) in &columns {
            for (l, &letter) in (0..).zip(stack.iter()) {
                let cell = geometry.cell_at([col[0], col[1], l]).expect("setup cell on the board");
                setup.push(Placement { cell, owner, kind: type_of(&pieces, letter) });
            }
        }
        columns = columns.into_iter().map(|(c, s)| (rotate_column(c), s)).collect();
    }

    let army = match v.army {
        Army::Basic => "3-player Honeycomb Chess",
        Army::Wildhoney => "3-player Wildhoney Chess",
    };
    let name = match (s, v.pawns) {
        (Strength::Single, true) => army.to_string(),
        (Strength::Single, false) => format!("{army}, pawnless"),
        (Strength::Double, true) => format!("{army}, double strength"),
        (Strength::Double, false) => format!("{army}, double strength and pawnless"),
    };
    GameDef {
        id: id.to_string(),
        name,
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
    }
}

/// How the engine plays the Honeycomb and Wildhoney family: the two games of single strength with
/// Pawns (`honeycomb3`, `wildhoney3`) with [`FITTED`], the sub-variants with the default
/// evaluation.
pub fn profile(id: &str) -> Profile {
    let fitted = VARIANTS.iter().any(|(name, v)| *name == id && matches!(v.strength, Strength::Single) && v.pawns);
    if fitted { FITTED } else { SUB_VARIANTS }
}

/// The sub-variants' way of playing: the default evaluation.
const SUB_VARIANTS: Profile = Profile {
    // Round robin at 100 ms a move (tuning/round_robin.sh): BRS+ first in both variants and, in a
    // short one, in every sub-variant (docs/experiments.md).
    multi_search: MultiSearch::BestReplyPlus,
    eval: EvalProfile::DEFAULT,
};

/// The evaluation fitted to the places of 800 `honeycomb3` self-play games (Texel's method,
/// `tuning/README.md`; 159,693 positions, error 0.120677 → 0.119365, stopped in its first
/// round), less its `placing_stake`. Against the default evaluation at 20 ms a move:
/// `honeycomb3` +203 ± 60 Elo, `wildhoney3` +64 ± 50 (docs/experiments.md, 2026-12-07). The
/// sub-variants are not measured.
const FITTED: Profile = Profile {
    eval: EvalProfile {
        params: EvalParams {
            pawn_eg_value: 15,
            leaper_eg_value: 15,
            rider_eg_value: -195,
            leaper_value: 105,
            rider_value: 165,
            rider_move_value_quarter: -65,
            rider_move_value_eg_quarter: 40,
            material_scale_eg_permille: 175,
            centrality_quarter: 2,
            centrality_eg_quarter: 67,
            royal_centrality_quarter: -106,
            royal_centrality_eg_quarter: 134,
            royal_line_centrality_quarter: 50,
            royal_advance: 90,
            pawn_advance: 30,
            pawn_advance_eg: 0,
            pawn_centre_quarter: -5,
            passed: 126,
            passed_eg: 216,
            isolated: 36,
            doubled: 36,
            doubled_eg: 36,
            backward: 36,
            backward_eg: 34,
            supported: 34,
            passed_enemy_king_eg: 22,
            tempo: 44,
            king_attack: 34,
            king_danger: 18,
            king_shield: 34,
            king_exposure: 34,
            pair: 10,
            outpost_eg: 2,
            threat_pawn: 119,
            threat_pawn_eg: 119,
            threat_lesser: 119,
            threat_lesser_eg: 7,
            hanging: 119,
            ..PARAMS
        },
        learned: LearnedTexts::NONE,
    },
    ..SUB_VARIANTS
};

#[cfg(test)]
mod tests;
