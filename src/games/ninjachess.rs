//! Ecumenical Eurasian Ninjachess (C. Gilman, 2005; rules: `docs/rules/ninjachess.md`, from `shared/rules/ninjachess.md`).
//!
//! Game id: `ninjachess`. Two players, White (`w`) and Black (`b`), White first.
//!
//! # Board
//! Ten ranks (1..10 from White's side), each a 5×5 square of cubic cells; each player's half
//! (ranks 1–5, 6–10) is a 5×5×5 cube. Within a rank the 25 files are lettered as seen by White,
//! top row first, left to right:
//!
//! ```text
//!   a b c d e      (top)
//!   f g h i j
//!   k l m n o
//!   p q r s t
//!   u v w x y      (bottom)
//! ```
//!
//! A cell is its file letter followed by its rank: `m1` (centre of White's back rank), `a10`.
//! Lattice coordinates are `(c, w, r − 1)` (column left→right, row top→bottom, rank), and the
//! canonical index is `25·(r − 1) + 5·w + c` (`a1` = 0, `y10` = 249).
//!
//! # Piece codes
//! Upper case is White, lower case Black. The fifteen simple pieces have one letter; the sixteen
//! compounds of a line piece and a leaper are written with the two letters of their components
//! (line piece first) in brackets, e.g. `[RN]` (White Marshal), `[al]` (Black Niliphopper).
//! Promotion suffixes of moves are the lower-case code without brackets: `a9a10rn`.
//!
//! | code | piece | moves | code | piece | moves |
//! |---|---|---|---|---|---|
//! | `K` | King | 1 orth/diag step | `[RN]` | Marshal | R + N |
//! | `P` | Pawn | §2.1 | `[BN]` | Cardinal | B + N |
//! | `Y` | Yeoman | §2.1 | `[RM]` | Canvasser | R + M |
//! | `R` | Rook | orth slide | `[BM]` | Caliph | B + M |
//! | `B` | Bishop | diag slide | `[RJ]` | Ninshal | R + J |
//! | `Q` | Queen | R + B | `[BJ]` | Nirdinal | B + J |
//! | `C` | Cannon | orth hop | `[RL]` | Ninvasser | R + L |
//! | `A` | Arrow | diag hop | `[BL]` | Niliph | B + L |
//! | `T` | Tank | C + A | `[CN]` | Marshhopper | C + N |
//! | `N` | Knight | (2,1,0) | `[AN]` | Cardihopper | A + N |
//! | `M` | Camel | (3,1,0) | `[CM]` | Canvahopper | C + M |
//! | `G` | Gnu | N + M | `[AM]` | Caliphopper | A + M |
//! | `J` | Ninja | (2,2,1) | `[CJ]` | Ninshhopper | C + J |
//! | `L` | Nimel | (4,1,1) | `[AJ]` | Nirdihopper | A + J |
//! | `U` | Nintu | J + L | `[CL]` | Ninvahopper | C + L |
//! | | | | `[AL]` | Niliphopper | A + L |
//!
//! # Position strings
//! The FEN placement lists the ranks from 10 down to 1 (as FEN lists rank 8 first); each rank is
//! five rows of five cells, top row (`a`–`e`) first, so the placement has 50 rows separated by
//! `/`, rows 1–5 being rank 10. Digits count empty cells within a row. Then come the side to move
//! (`w`/`b`), castling (always `-`), the en passant cell (the skipped cell, or `-`), the halfmove
//! clock and the move number. The start position:
//!
//! ```text
//! [rn][rm]r[rl][rj]/[bn][bm]q[bl][bj]/rgkuc/[an][am]t[al][aj]/[cn][cm]c[cl][cj]/
//! yybyy/n[bm]b[bl]j/mm1ll/n[am]a[al]j/yyayy/
//! ppppp/2p2/ppp1p/2p2/ppppp/
//! 5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/
//! PPPPP/2P2/PPP1P/2P2/PPPPP/
//! YYBYY/N[BM]B[BL]J/MM1LL/N[AM]A[AL]J/YYAYY/
//! [RN][RM]R[RL][RJ]/[BN][BM]Q[BL][BJ]/RGKUC/[AN][AM]T[AL][AJ]/[CN][CM]C[CL][CJ] w - - 0 1
//! ```
//! (one line, without the line breaks). `d` draws each rank as a 5×5 block, rank 10 first.

use super::Profile;
use crate::eval::{EvalParams, EvalProfile, LearnedTexts, PARAMS};
use crate::game::{GameDef, Placement, PlayerDef, Rules};
use crate::geometry::{CellInfo, Geometry, Vec3};
use crate::movement::{Component, Mode, PawnDef, PieceDef, PromotionChoices, PromotionDef, Vectors, leaper};
use crate::search::MultiSearch;
use crate::types::{Cell, PieceType, Player};

pub const ID: &str = "ninjachess";

/// Game ids this file defines.
pub fn ids() -> Vec<String> {
    vec![ID.to_string()]
}

pub fn definition(id: &str) -> Option<GameDef> {
    (id == ID).then(build)
}

const RANKS: usize = 10;
const SIDE: usize = 5;
const FILES: usize = SIDE * SIDE;
const FILE_LETTERS: &[u8; FILES] = b"abcdefghijklmnopqrstuvwxy";
/// Promotion zone depth in ranks, and the ranks of the first double step (White's numbering).
const ZONE_RANKS: usize = 3;
const PAWN_RANK: usize = 3;

/// Reconstructed starting array (rules §3.4, [REC]; the original diagram is lost): White's
/// ranks 1 and 2 by file `a`..`y` (`""` = empty) and the files of its Pawns on rank 3. Black
/// is the reflection through the board's middle (rank r → 11 − r, same file), as §6.1 binds.
const RANK_1: [&str; FILES] = [
    "RN", "RM", "R", "RL", "RJ", //
    "BN", "BM", "Q", "BL", "BJ", //
    "R", "G", "K", "U", "C", //
    "AN", "AM", "T", "AL", "AJ", //
    "CN", "CM", "C", "CL", "CJ",
];
const RANK_2: [&str; FILES] = [
    "Y", "Y", "B", "Y", "Y", //
    "N", "BM", "B", "BL", "J", //
    "M", "M", "", "L", "L", //
    "N", "AM", "A", "AL", "J", //
    "Y", "Y", "A", "Y", "Y",
];
const PAWN_FILES: &str = "abcdehklmoruvwxy";

/// Names of the line-piece/leaper compounds: rows Rook, Bishop, Cannon, Arrow; columns Knight,
/// Camel, Ninja, Nimel.
const COMPOUND_NAMES: [[&str; 4]; 4] = [
    ["Marshal", "Canvasser", "Ninshal", "Ninvasser"],
    ["Cardinal", "Caliph", "Nirdinal", "Niliph"],
    ["Marshhopper", "Canvahopper", "Ninshhopper", "Ninvahopper"],
    ["Cardihopper", "Caliphopper", "Nirdihopper", "Niliphopper"],
];

/// The cell of column `c`, row `w` (0..5 each) on rank `r` (1..10).
fn cell_index(c: usize, w: usize, r: usize) -> Cell {
    Cell::new(FILES * (r - 1) + SIDE * w + c)
}

fn geometry() -> Geometry {
    let mut cells = Vec::with_capacity(RANKS * FILES);
    for r in 1..=RANKS {
        for w in 0..SIDE {
            for c in 0..SIDE {
                let lattice = |v: usize| i32::try_from(v).expect("a small board");
                cells.push(CellInfo {
                    coord: [lattice(c), lattice(w), lattice(r) - 1],
                    name: format!("{}{r}", FILE_LETTERS[SIDE * w + c] as char),
                    // Rank 10 is level 0 so that position strings and `d` start with Black's
                    // side, as in FEN; each rank is drawn as a 5×5 block, top row highest.
                    level: RANKS - r,
                    draw: (c as f64, (SIDE - 1 - w) as f64),
                });
            }
        }
    }
    let level_names = (1..=RANKS).rev().map(|r| format!("rank {r}")).collect();
    Geometry::new("10 ranks x 5x5 cubic", cells, level_names)
}

fn concat(parts: &[&[Vec3]]) -> Vec<Vec3> {
    parts.iter().flat_map(|v| v.iter().copied()).collect()
}

/// White's vectors and Black's (rank component negated).
fn oriented(white: &[Vec3]) -> Vectors {
    let black = white.iter().map(|v| [v[0], v[1], -v[2]]).collect();
    Vectors::PerOrientation(vec![white.to_vec(), black].into())
}

fn forward_leap(white: &[Vec3], mode: Mode) -> Component {
    Component::Leap { vectors: oriented(white), mode }
}

fn build() -> GameDef {
    let geometry = geometry();
    let orth = leaper(1, 0, 0);
    let diag = leaper(1, 1, 0);
    let knight = leaper(2, 1, 0);
    let camel = leaper(3, 1, 0);
    let ninja = leaper(2, 2, 1);
    let nimel = leaper(4, 1, 1);
    let line_orth = || Component::ride(orth.clone());
    let line_diag = || Component::ride(diag.clone());
    let hop_orth = || Component::hop(orth.clone());
    let hop_diag = || Component::hop(diag.clone());

    let step: [Vec3; 1] = [[0, 0, 1]];
    let forward_diagonals: [Vec3; 4] = [[1, 0, 1], [-1, 0, 1], [0, 1, 1], [0, -1, 1]];

    // The fifteen simple pieces, then the sixteen line-piece/leaper compounds.
    let mut pieces = vec![
        PieceDef::new("King", "K", vec![Component::leap(concat(&[&orth, &diag]))]).royal(),
        PieceDef::new("Pawn", "P", vec![forward_leap(&step, Mode::MoveOnly), forward_leap(&forward_diagonals, Mode::CaptureOnly)]),
        PieceDef::new("Yeoman", "Y", vec![forward_leap(&forward_diagonals, Mode::MoveOnly), forward_leap(&step, Mode::CaptureOnly)]),
        PieceDef::new("Rook", "R", vec![line_orth()]),
        PieceDef::new("Bishop", "B", vec![line_diag()]),
        PieceDef::new("Queen", "Q", vec![Component::ride(concat(&[&orth, &diag]))]),
        PieceDef::new("Cannon", "C", vec![hop_orth()]),
        PieceDef::new("Arrow", "A", vec![hop_diag()]),
        PieceDef::new("Tank", "T", vec![Component::hop(concat(&[&orth, &diag]))]),
        PieceDef::new("Knight", "N", vec![Component::leap(knight.clone())]),
        PieceDef::new("Camel", "M", vec![Component::leap(camel.clone())]),
        PieceDef::new("Gnu", "G", vec![Component::leap(concat(&[&knight, &camel]))]),
        PieceDef::new("Ninja", "J", vec![Component::leap(ninja.clone())]),
        PieceDef::new("Nimel", "L", vec![Component::leap(nimel.clone())]),
        PieceDef::new("Nintu", "U", vec![Component::leap(concat(&[&ninja, &nimel]))]),
    ];
    // The compounds, coded by their components' letters: line piece first, then the leaper.
    let line_parts = [("R", line_orth()), ("B", line_diag()), ("C", hop_orth()), ("A", hop_diag())];
    let leap_parts = [("N", &knight), ("M", &camel), ("J", &ninja), ("L", &nimel)];
    for ((line_code, line), names) in line_parts.into_iter().zip(COMPOUND_NAMES) {
        for ((leap_code, leap), name) in leap_parts.iter().zip(names) {
            let code = format!("{line_code}{leap_code}");
            pieces.push(PieceDef::new(name, &code, vec![line.clone(), Component::leap(leap.to_vec())]));
        }
    }
    const KING: PieceType = PieceType::new(0);
    const PAWN: PieceType = PieceType::new(1);
    const YEOMAN: PieceType = PieceType::new(2);

    let rank_cells = |r: usize| -> Vec<Cell> { (0..FILES).map(|f| Cell::new(FILES * (r - 1) + f)).collect() };
    let ranks = |rs: std::ops::RangeInclusive<usize>| -> Vec<Cell> { rs.flat_map(rank_cells).collect() };
    // Promotion to any own type the enemy has captured: everything but King, Pawn and Yeoman.
    let pool: Vec<PieceType> = PieceType::all(pieces.len()).filter(|t| ![KING, PAWN, YEOMAN].contains(t)).collect();
    let promotion = PromotionDef {
        zone: vec![ranks(RANKS + 1 - ZONE_RANKS..=RANKS), ranks(1..=ZONE_RANKS)].into(),
        mandatory: vec![rank_cells(RANKS), rank_cells(1)].into(),
        choices: PromotionChoices::CapturedPool(pool),
    };
    pieces[PAWN.index()].pawn = Some(PawnDef {
        double_step: vec![rank_cells(PAWN_RANK), rank_cells(RANKS + 1 - PAWN_RANK)].into(),
        en_passant: true,
        promotion: Some(promotion.clone()),
    });
    pieces[YEOMAN.index()].pawn =
        Some(PawnDef { double_step: vec![Vec::new(), Vec::new()].into(), en_passant: false, promotion: Some(promotion) });

    let code_type = |code: &str| PieceType::new(pieces.iter().position(|p| p.code == code).expect("setup code names a piece"));
    let mut setup = Vec::new();
    for (side, back, second, pawns) in [(0, 1, 2, PAWN_RANK), (1, RANKS, RANKS - 1, RANKS + 1 - PAWN_RANK)] {
        let owner = Player::new(side);
        for (rank, codes) in [(back, &RANK_1), (second, &RANK_2)] {
            for (file, code) in codes.iter().enumerate().filter(|(_, c)| !c.is_empty()) {
                setup.push(Placement { cell: cell_index(file % SIDE, file / SIDE, rank), owner, kind: code_type(code) });
            }
        }
        for f in PAWN_FILES.bytes() {
            let file = FILE_LETTERS.iter().position(|&l| l == f).expect("pawn file letter");
            setup.push(Placement { cell: cell_index(file % SIDE, file / SIDE, pawns), owner, kind: PAWN });
        }
    }

    let rules = Rules {
        // Kings may not stand a Rook or Bishop move apart on an empty line (never triagonal).
        royal_facing: concat(&[&orth, &diag]),
        royal_zone: Some(vec![ranks(1..=RANKS / 2), ranks(RANKS / 2 + 1..=RANKS)].into()),
        ..Rules::default()
    };

    GameDef {
        id: ID.to_string(),
        name: "Ecumenical Eurasian Ninjachess".to_string(),
        geometry,
        players: vec![PlayerDef { name: "White".into(), code: 'w' }, PlayerDef { name: "Black".into(), code: 'b' }].into(),
        pieces: pieces.into(),
        setup,
        rules,
        armies: Vec::new(),
    }
}

/// How the engine plays Ninjachess (two players: always alpha-beta).
pub const PROFILE: Profile = Profile {
    multi_search: MultiSearch::Paranoid,
    eval: EvalProfile {
        params: EvalParams {
            // Each rank is a level of the cube: a King boxed in on its own rank is nearer the
            // mate. K + Q + R against a King (tests/won_endings.rs) was drawn by the fifty-move
            // rule at 5 of 72 node budgets (31k-101k a move) with the level box, at 13 of 72
            // without.
            mopup_level_box: 60,
            // The Kings never leave their halves, and the stronger King helps to mate only by the
            // facing rule's lines, which cover the cells next to it on the bare King's first rank:
            // pulling the bare King towards the stronger one drew 5 of 108 budgets against 12.
            mopup_close: 60,
            ..PARAMS
        },
        learned: LearnedTexts::NONE,
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_names_and_canonical_index() {
        let def = build();
        let g = &def.geometry;
        assert_eq!(g.len(), 250);
        assert_eq!(g.name(Cell::new(0)), "a1");
        assert_eq!(g.name(Cell::new(12)), "m1");
        assert_eq!(g.name(Cell::new(249)), "y10");
        for (name, c, w, r) in [("m1", 2, 2, 1), ("a10", 0, 0, 10), ("t7", 4, 3, 7), ("w3", 2, 4, 3)] {
            let idx = cell_index(c, w, r);
            assert_eq!(g.cell_by_name(name), Some(idx), "{name}");
            assert_eq!(g.coord(idx), [c as i32, w as i32, r as i32 - 1]);
        }
    }

    #[test]
    fn piece_inventory_matches_the_rules() {
        let def = build();
        assert_eq!(def.pieces.len(), 31);
        // Codes unique ignoring case, as position strings require.
        for (i, p) in def.pieces.entries() {
            assert_eq!(def.piece_by_code(&p.code), Some(i), "{}", p.name);
        }
        let count = |side: usize, code: &str| {
            let t = def.piece_by_code(code);
            def.setup.iter().filter(|s| s.owner == Player::new(side) && Some(s.kind) == t).count()
        };
        let expected = [
            ("K", 1),
            ("P", 16),
            ("Y", 8),
            ("R", 2),
            ("B", 2),
            ("Q", 1),
            ("C", 2),
            ("A", 2),
            ("T", 1),
            ("N", 2),
            ("M", 2),
            ("G", 1),
            ("J", 2),
            ("L", 2),
            ("U", 1),
            ("RN", 1),
            ("BN", 1),
            ("RM", 1),
            ("BM", 2),
            ("RJ", 1),
            ("BJ", 1),
            ("RL", 1),
            ("BL", 2),
            ("CN", 1),
            ("AN", 1),
            ("CM", 1),
            ("AM", 2),
            ("CJ", 1),
            ("AJ", 1),
            ("CL", 1),
            ("AL", 2),
        ];
        for side in 0..2 {
            for (code, n) in expected {
                assert_eq!(count(side, code), n, "side {side} {code}");
            }
        }
        assert_eq!(def.setup.len(), 130);
    }

    #[test]
    fn black_is_the_reflection_of_white() {
        let def = build();
        let g = &def.geometry;
        for s in def.setup.iter().filter(|s| s.owner == Player::new(0)) {
            let [c, w, z] = g.coord(s.cell);
            let mirror = g.cell_at([c, w, RANKS as i32 - 1 - z]).expect("mirror cell");
            assert!(def.setup.contains(&Placement { cell: mirror, owner: Player::new(1), kind: s.kind }), "{}", g.name(s.cell));
        }
    }

    #[test]
    fn leaper_vector_counts() {
        for v in [leaper(2, 1, 0), leaper(3, 1, 0), leaper(2, 2, 1), leaper(4, 1, 1)] {
            assert_eq!(v.len(), 24);
        }
    }
}
