//! Armies of Faith 3: Assimilation (rules: `docs/rules/aof3.md`, from `shared/rules/aof3.md`), game id `aof3`.
//!
//! Four players on five levels of a 70-cell notched hex band: 350 cells, so the game runs on
//! 384-bit boards (`Bitboard<6>`).
//!
//! # Cells
//! A cell is a column (P, Q) of the band on a level z = 1..5, written as the column's two letters
//! in reverse alphabetical order and then the level: `ec3` is (P, Q) = (21, 5) on level 3. P-line
//! letters are `j k l m n o p q r a b c` for P = 10..21, Q-line letters `a`..`l` for Q = 1..12.
//! The lattice coordinates of a cell are `[P, Q, z − 1]`. Its canonical index is
//! `70·(z − 1) + k`, k counting the level map of §1.3 row by row from the bottom row (s = P + Q =
//! 18) to the top (s = 26), left to right (d = P − Q ascending) within a row.
//!
//! # Position strings
//! The common N-player form (`notation.rs`): placement, player to move, active players, castling
//! (always `-`), en passant cells, halfmove clock, move number, checkmate history.
//!
//! * Players, in turn order: `r` Red, `o` Orange, `g` Green, `b` Blue.
//! * The placement has 45 rows separated by `/`: level 1 first, and within a level the rows of the
//!   level map from the top (s = 26) to the bottom (s = 18), each row left to right (d ascending).
//!   The rows have 8, 9, 8, 7, 6, 7, 8, 9, 8 cells (the notch cells are not listed). A digit run
//!   counts empty cells.
//! * A man is the owner's letter and the piece letter: `rK` is Red's King. `*` after a man marks
//!   the Emperor and the promoted mating piece of the game's first checkmate.
//! * Piece letters: array pieces `K` King, `R` Rook, `N` Knight, `P` Pawn, `C` Camel,
//!   `E` Elephant, `L` Elf, `A` Rabbi, `S` Sennight, `M` Simurgh, `U` Unicorn, `B` Bishop;
//!   checkmate promotees `I` Emperor, `Q` Queen, `F` Pope, `T` Primate, `H` Caliph, `D` Cardinal,
//!   `V` Levite, `G` Governor, `O` Moderranger, `W` Sevite.
//! * En passant field: the skipped cells of the double steps that may still be taken, comma
//!   separated, e.g. `rd3`; the double-stepped Pawn is found on the board. When both a Red Pawn
//!   on qd and a Blue Pawn on re (or Orange on mh and Green on ni) could be it, the entry names
//!   the double-stepping player: `rd3:b`. A right lasts until its owner's next turn, so with four
//!   players the skipped cell may meanwhile be occupied; it is still listed (the right revives if
//!   the cell is empty again when it could be used).
//! * Checkmate history: `<mates>:` followed by (victim, mater) letter pairs, e.g. `1:br`.
//! * Move strings: from-cell, to-cell, and for a zone promotion the new piece's letter in lower
//!   case (`ne2me2r`). The forced pass is `0000`.
//!
//! The start position:
//!
//! ```text
//! oAoSoP2rPrSrA/oAoAoP3rPrArA/oSoPoP2rPrPrS/oP5rP/6/gP5bP/gSgPgP2bPbPbS/gAgAgP3bPbAbA/gAgSgP2bPbSbA/
//! oEoRoP2rPrRrE/oEoRoP3rPrRrE/oRoPoP2rPrPrR/oP5rP/6/gP5bP/gRgPgP2bPbPbR/gEgRgP3bPbRbE/gEgRgP2bPbRbE/
//! oKoBoP2rPrBrK/oM1oP3rP1rM/oBoP4rPrB/oP5rP/6/gP5bP/gBgP4bPbB/gM1gP3bP1bM/gKgBgP2bPbBbK/
//! oCoNoP2rPrNrC/oC1oP3rP1rC/oNoPoP2rPrPrN/oP5rP/6/gP5bP/gNgPgP2bPbPbN/gC1gP3bP1bC/gCgNgP2bPbNbC/
//! oUoLoP2rPrLrU/oUoUoP3rPrUrU/oLoPoP2rPrPrL/oP5rP/6/gP5bP/gLgPgP2bPbPbL/gUgUgP3bPbUbU/gUgLgP2bPbLbU
//! r rogb - - 0 1 0:
//! ```
//! (one line in use; broken here after each level).
//!
//! `d` draws each level as the hex map of §1.3 (`##` marks the notch cells), rows labelled with
//! their first and last cell.
//!
//! # Decisions
//! The reconstructed and decided points of the rules file (§5, §6) each live in one constant
//! below: [`TURN_ORDER`], [`CAMPS`] and [`LEVEL_ARRAY`] (King/Simurgh and Camel/Knight cells, the
//! level without an extra Pawn), [`BARRIERS`], [`EN_PASSANT`], [`PROMOTION_CHOICES`] and
//! [`mandatory_promotion`] (the static "no forward column" test), [`DELIVERER_PROMOTION`]. The
//! Simurgh may stop or capture on its first diagonal cell (the core's bent rider does), the
//! Elephant leaps, and the barriers belong to the geometry, so every component of every piece
//! (promotees included) obeys them on every level. The deliverer of a checkmate (the attacker on
//! the lowest canonical cell) and the win at a second checkmate delivered by the first one's
//! promotees are the core's `MateRules`.

use super::Profile;
use crate::eval::EvalProfile;
use crate::game::{GameDef, MateRules, Placement, PlayerDef, Rules, VictimMen};
use crate::geometry::{CellInfo, CellShape, Geometry, Vec3, add, hex_diagonals, letter, scale, with_levels};
use crate::movement::{Component, Mode, PawnDef, PieceDef, PromotionChoices, PromotionDef, Vectors};
use crate::search::MultiSearch;
use crate::types::{Cell, PieceType, Player, Table};

pub const ID: &str = "aof3";

pub fn ids() -> Vec<String> {
    vec![ID.to_string()]
}

pub fn definition(id: &str) -> Option<GameDef> {
    (id == ID).then(build)
}

// Colours: indices of the per-colour tables below (camp, pawn direction, zone).
pub const RED: usize = 0;
pub const ORANGE: usize = 1;
pub const GREEN: usize = 2;
pub const BLUE: usize = 3;

/// Name and position-string letter of each colour.
pub const COLOURS: [(&str, char); 4] = [("Red", 'r'), ("Orange", 'o'), ("Green", 'g'), ("Blue", 'b')];

/// Turn order Red → Orange → Green → Blue (§4.1, §6.2): a player's index is its colour's place
/// here. The mirror-image board would give Red → Blue → Green → Orange.
pub const TURN_ORDER: [usize; 4] = [RED, ORANGE, GREEN, BLUE];

/// The player index (place in the turn order) of a colour.
pub fn player(colour: usize) -> Player {
    Player::new(TURN_ORDER.iter().position(|&c| c == colour).expect("every colour plays"))
}

// Piece types.
pub const KING: PieceType = PieceType::new(0);
pub const ROOK: PieceType = PieceType::new(1);
pub const KNIGHT: PieceType = PieceType::new(2);
pub const PAWN: PieceType = PieceType::new(3);
pub const CAMEL: PieceType = PieceType::new(4);
pub const ELEPHANT: PieceType = PieceType::new(5);
pub const ELF: PieceType = PieceType::new(6);
pub const RABBI: PieceType = PieceType::new(7);
pub const SENNIGHT: PieceType = PieceType::new(8);
pub const SIMURGH: PieceType = PieceType::new(9);
pub const UNICORN: PieceType = PieceType::new(10);
pub const BISHOP: PieceType = PieceType::new(11);
pub const EMPEROR: PieceType = PieceType::new(12);
pub const QUEEN: PieceType = PieceType::new(13);
pub const POPE: PieceType = PieceType::new(14);
pub const PRIMATE: PieceType = PieceType::new(15);
pub const CALIPH: PieceType = PieceType::new(16);
pub const CARDINAL: PieceType = PieceType::new(17);
pub const LEVITE: PieceType = PieceType::new(18);
pub const GOVERNOR: PieceType = PieceType::new(19);
pub const MODERRANGER: PieceType = PieceType::new(20);
pub const SEVITE: PieceType = PieceType::new(21);

/// Level count and the band's rows: s = P + Q from 18 (bottom) to 26 (top), d = P − Q from 1 to 17.
pub const LEVELS: i32 = 5;
const ROWS: std::ops::RangeInclusive<i32> = 18..=26;
const ROW_POSITIONS: std::ops::RangeInclusive<i32> = 1..=17;

/// The six notch cells (P, Q) missing from every level (§1.2).
pub const NOTCHES: [[i32; 2]; 6] = [[19, 2], [19, 3], [20, 3], [11, 10], [12, 10], [12, 11]];

/// Column pairs no step or leap may join, on any level or between levels (§1.6): the two hex
/// diagonals and the eight root-7 lines that pass a notch.
pub const BARRIERS: [(&str, &str); 10] = [
    ("da", "rc"),
    ("li", "mj"),
    ("da", "qc"),
    ("da", "rb"),
    ("db", "rc"),
    ("ea", "rc"),
    ("ki", "mj"),
    ("lh", "mj"),
    ("li", "mk"),
    ("li", "nj"),
];

/// Horizontal orthogonal unit vectors, anticlockwise.
pub const ORTHOGONAL: [Vec3; 6] = [[1, 0, 0], [0, 1, 0], [-1, 1, 0], [-1, 0, 0], [0, -1, 0], [1, -1, 0]];
/// Hex diagonals, anticlockwise: `HEX_DIAGONAL[i]` passes between `ORTHOGONAL[i]` and `ORTHOGONAL[i + 1]`.
pub const HEX_DIAGONAL: [Vec3; 6] = hex_diagonals(ORTHOGONAL);
const VERTICAL: [Vec3; 2] = [[0, 0, 1], [0, 0, -1]];

/// A player's camp: the cells of the template roles of §2.2, by column name.
pub struct Camp {
    /// Back pair: the King's column, then the Simurgh's (§5 item 4).
    pub back: [&'static str; 2],
    /// The trio in front of it: two sides, then the centre (the kh-type cell).
    pub trio: [&'static str; 3],
    /// The 4-cell pawn rank: the Pawns that may double-step.
    pub pawn_rank: [&'static str; 4],
    /// The extra Pawn's column (no double step).
    pub extra: &'static str,
}

/// The four camps, by colour (§2.1, §2.3).
pub const CAMPS: [Camp; 4] = [
    Camp { back: ["ec", "dc"], trio: ["fb", "db", "eb"], pawn_rank: ["ga", "fa", "ea", "da"], extra: "rf" },
    Camp { back: ["nl", "ml"], trio: ["ok", "mk", "nk"], pawn_rank: ["pj", "oj", "nj", "mj"], extra: "oi" },
    Camp { back: ["jh", "ji"], trio: ["kg", "ki", "kh"], pawn_rank: ["lf", "lg", "lh", "li"], extra: "mg" },
    Camp { back: ["qa", "ra"], trio: ["pb", "rb", "qb"], pawn_rank: ["oc", "pc", "qc", "rc"], extra: "pd" },
];

/// What one level of a camp holds (§2.2); `None` = empty.
pub struct LevelArray {
    pub back: [PieceType; 2],
    pub trio_sides: PieceType,
    pub trio_centre: Option<PieceType>,
    pub pawn_rank: PieceType,
    pub extra: Option<PieceType>,
}

const fn level(back: [PieceType; 2], trio_sides: PieceType, trio_centre: Option<PieceType>, extra: Option<PieceType>) -> LevelArray {
    LevelArray { back, trio_sides, trio_centre, pawn_rank: PAWN, extra }
}

/// Levels 1..5 of every camp (§2.2). Level 3 has the King and Simurgh behind and no extra Pawn;
/// level 4 has the Camels behind the Knights.
pub const LEVEL_ARRAY: [LevelArray; 5] = [
    level([RABBI, RABBI], SENNIGHT, Some(RABBI), Some(PAWN)),
    level([ELEPHANT, ELEPHANT], ROOK, Some(ROOK), Some(PAWN)),
    level([KING, SIMURGH], BISHOP, None, None),
    level([CAMEL, CAMEL], KNIGHT, None, Some(PAWN)),
    level([UNICORN, UNICORN], ELF, Some(UNICORN), Some(PAWN)),
];

/// En passant (§4.4, §6.6, §6.12): (capturing colour, double-stepping colour, the column of the
/// skipped cell), on every level. These are exactly the four patterns of §4.4: the geometry
/// admits only one double step over each such cell per stepper, and only one capturing cell.
pub const EN_PASSANT: [(usize, usize, &str); 4] = [(RED, BLUE, "rd"), (BLUE, RED, "rd"), (ORANGE, GREEN, "mi"), (GREEN, ORANGE, "mi")];

/// What a Pawn may become in its zone (§4.5): every array piece but King and Pawn.
pub const PROMOTION_CHOICES: [PieceType; 10] = [ROOK, KNIGHT, CAMEL, ELEPHANT, ELF, RABBI, SENNIGHT, SIMURGH, UNICORN, BISHOP];

/// Pieces promoted by delivering checkmate (§4.3); promotees and the King are not in the list.
pub const DELIVERER_PROMOTION: [(PieceType, PieceType); 11] = [
    (ROOK, QUEEN),
    (SIMURGH, QUEEN),
    (BISHOP, POPE),
    (ELEPHANT, PRIMATE),
    (PAWN, PRIMATE),
    (CAMEL, CALIPH),
    (KNIGHT, CARDINAL),
    (UNICORN, GOVERNOR),
    (ELF, LEVITE),
    (RABBI, MODERRANGER),
    (SENNIGHT, SEVITE),
];

/// The letter of a P-line (P = 10..21).
fn p_letter(p: i32) -> Option<char> {
    match p {
        10..=18 => Some(letter(p - 1)),
        19..=21 => Some(letter(p - 19)),
        _ => None,
    }
}

/// The letter of a Q-line (Q = 1..12).
fn q_letter(q: i32) -> Option<char> {
    (1..=12).contains(&q).then(|| letter(q - 1))
}

/// Whether column (P, Q) is on the board.
pub fn column_exists(p: i32, q: i32) -> bool {
    ROWS.contains(&(p + q)) && ROW_POSITIONS.contains(&(p - q)) && !NOTCHES.contains(&[p, q])
}

/// The name of column (P, Q): its two letters in reverse alphabetical order.
pub fn column_name(p: i32, q: i32) -> String {
    let (a, b) = (p_letter(p).unwrap_or('?'), q_letter(q).unwrap_or('?'));
    if a > b { format!("{a}{b}") } else { format!("{b}{a}") }
}

/// (P, Q) of a column name.
pub fn column(name: &str) -> Option<[i32; 2]> {
    for s in ROWS {
        for d in ROW_POSITIONS {
            if (s + d) % 2 == 0 {
                let (p, q) = ((s + d) / 2, (s - d) / 2);
                if column_exists(p, q) && column_name(p, q) == name {
                    return Some([p, q]);
                }
            }
        }
    }
    None
}

fn col(name: &str) -> [i32; 2] {
    column(name).unwrap_or_else(|| panic!("aof3: no column {name}"))
}

/// Drawing position of column (P, Q): x = d/2, y = s·√3/2 (§1.2), pointy-topped hexagons.
fn draw(p: i32, q: i32) -> (f64, f64) {
    ((p - q) as f64 / 2.0, (p + q) as f64 * 3f64.sqrt() / 2.0)
}

/// The board: five levels of the band, cells in canonical order, with the notch barriers.
pub fn geometry() -> Geometry {
    let mut cells = Vec::new();
    for z in 0..LEVELS {
        for s in ROWS {
            for d in ROW_POSITIONS {
                if (s + d) % 2 != 0 {
                    continue;
                }
                let (p, q) = ((s + d) / 2, (s - d) / 2);
                if !column_exists(p, q) {
                    continue;
                }
                cells.push(CellInfo {
                    coord: [p, q, z],
                    name: format!("{}{}", column_name(p, q), z + 1),
                    level: usize::try_from(z).expect("levels from 0"),
                    draw: draw(p, q),
                });
            }
        }
    }
    let barriers: Vec<([i32; 2], [i32; 2])> = BARRIERS.iter().map(|&(a, b)| (col(a), col(b))).collect();
    let holes = (0..usize::try_from(LEVELS).expect("levels from 0")).flat_map(|z| NOTCHES.map(|[p, q]| (z, draw(p, q)))).collect();
    let level_names = (1..=LEVELS).map(|z| z.to_string()).collect();
    Geometry::new("5 levels x 70-cell notched hex band", cells, level_names)
        .with_shape(CellShape::Hexagon)
        .with_barriers(&barriers)
        .with_holes(holes)
}

/// Root-7 horizontal vectors: two orthogonal steps in one direction and one in the next.
fn root7() -> Vec<Vec3> {
    (0..6)
        .flat_map(|i| [add(scale(ORTHOGONAL[i], 2), ORTHOGONAL[(i + 1) % 6]), add(ORTHOGONAL[i], scale(ORTHOGONAL[(i + 1) % 6], 2))])
        .collect()
}

fn cat(parts: &[&[Vec3]]) -> Vec<Vec3> {
    parts.iter().flat_map(|p| p.iter().copied()).collect()
}

/// Pawn forward (non-capturing) vectors, by colour (§3.1).
pub const PAWN_FORWARD: [[Vec3; 2]; 4] =
    [[[-1, 0, 0], [-1, 1, 0]], [[0, -1, 0], [1, -1, 0]], [[1, 0, 0], [1, -1, 0]], [[0, 1, 0], [-1, 1, 0]]];

/// Cells of a colour's zone where a Pawn could never move again (§4.5): neither forward column
/// exists.
pub fn mandatory_promotion(geo: &Geometry, colour: usize, zone: &[Cell]) -> Vec<Cell> {
    zone.iter().copied().filter(|&c| PAWN_FORWARD[colour].iter().all(|&v| geo.step(c, v).is_none())).collect()
}

/// Whether a column lies in a colour's promotion zone (§4.5).
fn in_zone(colour: usize, [p, q]: [i32; 2]) -> bool {
    match colour {
        RED => p <= 13,
        ORANGE => q <= 4,
        GREEN => p >= 18,
        _ => q >= 9,
    }
}

fn pieces() -> Table<PieceType, PieceDef> {
    let king_steps = cat(&[&ORTHOGONAL, &VERTICAL, &with_levels(&ORTHOGONAL, 1)]);
    let rook = cat(&[&ORTHOGONAL, &VERTICAL]);
    let bishop = with_levels(&ORTHOGONAL, 1);
    let two: Vec<Vec3> = ORTHOGONAL.iter().map(|&v| scale(v, 2)).collect();
    let three: Vec<Vec3> = ORTHOGONAL.iter().map(|&v| scale(v, 3)).collect();
    let knight = cat(&[&with_levels(&two, 1), &with_levels(&ORTHOGONAL, 2)]);
    let camel = cat(&[&with_levels(&three, 1), &with_levels(&ORTHOGONAL, 3)]);
    let elephant = with_levels(&two, 2);
    let sennight = root7();
    let elf = with_levels(&sennight, 2);
    let rabbi = Component::Curved { ring: HEX_DIAGONAL.to_vec(), max_steps: 5 };
    let simurgh = Component::Bent { legs: (0..6).map(|i| (HEX_DIAGONAL[i], vec![ORTHOGONAL[i], ORTHOGONAL[(i + 1) % 6]])).collect() };
    let unicorn = Component::ride(HEX_DIAGONAL.to_vec());
    let bishop_ride = || Component::ride(bishop.clone());
    let pawn = Vectors::PerOrientation(TURN_ORDER.iter().map(|&c| PAWN_FORWARD[c].to_vec()).collect());
    let pawn_capture = Vectors::PerOrientation(TURN_ORDER.iter().map(|&c| with_levels(&PAWN_FORWARD[c], 1)).collect());
    vec![
        PieceDef::new("King", "K", vec![Component::leap(king_steps.clone())]).royal(),
        PieceDef::new("Rook", "R", vec![Component::ride(rook.clone())]).value(500),
        PieceDef::new("Knight", "N", vec![Component::leap(knight.clone())]).value(400),
        PieceDef::new(
            "Pawn",
            "P",
            vec![
                Component::Leap { vectors: pawn, mode: Mode::MoveOnly },
                Component::Leap { vectors: pawn_capture, mode: Mode::CaptureOnly },
            ],
        )
        .value(100),
        PieceDef::new("Camel", "C", vec![Component::leap(camel.clone())]).value(350),
        PieceDef::new("Elephant", "E", vec![Component::leap(elephant.clone())]).value(150),
        PieceDef::new("Elf", "L", vec![Component::leap(elf.clone())]).value(350),
        PieceDef::new("Rabbi", "A", vec![rabbi.clone()]).value(300),
        PieceDef::new("Sennight", "S", vec![Component::leap(sennight.clone())]).value(300),
        PieceDef::new("Simurgh", "M", vec![simurgh]).value(650),
        PieceDef::new("Unicorn", "U", vec![unicorn.clone()]).value(300),
        PieceDef::new("Bishop", "B", vec![bishop_ride()]).value(450),
        PieceDef::new("Emperor", "I", vec![Component::leap(cat(&[&king_steps, &HEX_DIAGONAL]))]).royal(),
        PieceDef::new("Queen", "Q", vec![Component::ride(rook.clone()), bishop_ride()]).value(1100),
        PieceDef::new("Pope", "F", vec![bishop_ride(), Component::leap(cat(&[&rook, &HEX_DIAGONAL]))]).value(750),
        PieceDef::new("Primate", "T", vec![bishop_ride(), Component::leap(rook)]).value(650),
        PieceDef::new("Caliph", "H", vec![Component::leap(camel), bishop_ride()]).value(800),
        PieceDef::new("Cardinal", "D", vec![Component::leap(knight), bishop_ride()]).value(850),
        PieceDef::new("Levite", "V", vec![Component::leap(elf), bishop_ride()]).value(800),
        PieceDef::new("Governor", "G", vec![unicorn, bishop_ride()]).value(750),
        PieceDef::new("Moderranger", "O", vec![rabbi, bishop_ride()]).value(750),
        PieceDef::new("Sevite", "W", vec![Component::leap(sennight), bishop_ride()]).value(750),
    ]
    .into()
}

fn build() -> GameDef {
    let geometry = geometry();
    let cells_of = |column: [i32; 2]| -> Vec<Cell> { (0..LEVELS).filter_map(|z| geometry.cell_at([column[0], column[1], z])).collect() };
    let mut pieces = pieces();

    let mut setup = Vec::new();
    for (colour, camp) in CAMPS.iter().enumerate() {
        let owner = player(colour);
        for (z, level) in (0..).zip(&LEVEL_ARRAY) {
            let mut place = |name: &str, kind: PieceType| {
                let [p, q] = col(name);
                let cell = geometry.cell_at([p, q, z]).expect("camp cell on the board");
                setup.push(Placement { cell, owner, kind });
            };
            place(camp.back[0], level.back[0]);
            place(camp.back[1], level.back[1]);
            place(camp.trio[0], level.trio_sides);
            place(camp.trio[1], level.trio_sides);
            if let Some(t) = level.trio_centre {
                place(camp.trio[2], t);
            }
            for c in camp.pawn_rank {
                place(c, level.pawn_rank);
            }
            if let Some(t) = level.extra {
                place(camp.extra, t);
            }
        }
    }

    // Pawn data per player (the orientation index is the player index).
    let double_step = TURN_ORDER.iter().map(|&c| CAMPS[c].pawn_rank.iter().flat_map(|&n| cells_of(col(n))).collect()).collect();
    let zones: Table<Player, Vec<Cell>> = TURN_ORDER
        .iter()
        .map(|&colour| geometry.all().filter(|&c| in_zone(colour, [geometry.coord(c)[0], geometry.coord(c)[1]])).collect())
        .collect();
    let mandatory = TURN_ORDER.iter().zip(&zones).map(|(&colour, z)| mandatory_promotion(&geometry, colour, z)).collect();
    pieces[PAWN].pawn = Some(PawnDef {
        double_step,
        en_passant: true,
        promotion: Some(PromotionDef { zone: zones, mandatory, choices: PromotionChoices::Fixed(PROMOTION_CHOICES.to_vec()) }),
    });

    let mut en_passant_cells: Table<Player, Table<Player, Vec<Cell>>> = Table::filled(4, Table::filled(4, Vec::new()));
    for &(capturer, stepper, column) in &EN_PASSANT {
        en_passant_cells[player(capturer)][player(stepper)] = cells_of(col(column));
    }

    let rules = Rules {
        en_passant_cells: Some(en_passant_cells),
        mate: MateRules {
            victim_men: VictimMen::Removed,
            royal_promotion: vec![(KING, EMPEROR)],
            deliverer_promotion: DELIVERER_PROMOTION.to_vec(),
            second_mate_by_promotee_wins: true,
        },
        ..Rules::default()
    };
    GameDef {
        id: ID.to_string(),
        name: "Armies of Faith 3: Assimilation".to_string(),
        geometry,
        players: TURN_ORDER.iter().map(|&c| PlayerDef { name: COLOURS[c].0.to_string(), code: COLOURS[c].1 }).collect(),
        pieces,
        setup,
        rules,
        armies: Vec::new(),
    }
}

/// How the engine plays AOF3: the default evaluation.
pub const PROFILE: Profile = Profile {
    // Round robin at 100 ms a move, placed by material at 240 plies (tuning/round_robin.sh).
    multi_search: MultiSearch::BestReplyPlus,
    eval: EvalProfile::DEFAULT,
};

#[cfg(test)]
mod tests;
