//! 2 Level Guru Mahachaturaji (rules: `docs/rules/guru2.md`, from `shared/rules/guru2level.md`), game id `guru2`, and its team
//! alternative (§5.4, §7.8), game id `guru2-teams`: Red and Green against Blue and Orange, the
//! same game with the rule switch [`TeamRule`].
//!
//! Two stacked 10×10 levels of cubic cells, four players in the corners: Red (`r`, a1, moves
//! first), Blue (`b`, j1), Green (`g`, j10), Orange (`o`, a10). Cells are named level + file +
//! rank (`Ue5`, `La1`); the canonical index is `100·z + 10·y + x` (z = 0 Lower, 1 Upper), so
//! `La1` = 0 and `Uj10` = 199.
//!
//! Position strings (four-player form, see `notation`): 20 rows separated by `/`, the Upper level
//! first, each level from rank 10 down to rank 1, each row from file a to file j; a man is its
//! owner's letter and the piece code. Codes: `K` King, `M` Emperor, `R` Rook, `V` Vicereine,
//! `N` Knight, `C` Cavallander, `E` Elephant, `W` Wilful, `F` Ferz, `B` Baron, `G` Guru,
//! `I` Igtivlander, `P` Pawn, `A` Archduke; `*` after a man marks the first mater's Emperor and
//! promoted deliverer. Then: player to move, active players, castling `-`, en passant `-`,
//! halfmove clock, move number, and the checkmate history `<mates>:<victim><mater>...`.
//! The start position is [`START`].
//!
//! Moves are `from` `to` (`Ue2Ue3`); a face promotion carries its suffix (`Ui9Ui10r`) but is also
//! accepted without it; an Elephant Charge joins its leaps with `,` (`Ud1Uf3,Uf3Uh5`).

use super::Profile;
use crate::eval::{EvalParams, EvalProfile, LearnedTexts, PARAMS};
use crate::game::{ChargeRule, EnlightenedRule, GameDef, MateRules, Placement, PlayerDef, Rules, TeamRule, VictimMen};
use crate::geometry::{CellInfo, Geometry, Vec3, letter};
use crate::movement::{Component, Mode, PawnDef, PieceDef, PromotionChoices, PromotionDef, Vectors, leaper, leaper2d};
use crate::search::MultiSearch;
use crate::types::{Cell, PieceType, Player, Table};

pub const ID: &str = "guru2";
/// The team game: Red and Green (Kings on the Upper level) against Blue and Orange (Lower).
pub const TEAMS_ID: &str = "guru2-teams";

/// The start position string.
pub const START: &str = concat!(
    "oGoNoPgEgEgEgEgRgFgK/oFoPoP3gN1gPgN/oR1oPgPgPgPgPgPgPgP/oEoNoP4bP1bE/oE1oP4bP1bE/",
    "oE1oP4bP1bE/oE1oP4bPbNbE/rPrPrPrPrPrPrPbP1bR/rNrP1rN3bPbPbF/rKrFrRrErErErEbPbNbG/",
    "oKoFoRoEoEoEoEgPgNgG/oNoP1oN3gPgPgF/oPoPoPoPoPoPoPgP1gR/rE1rP4gPgNgE/rE1rP4gP1gE/",
    "rE1rP4gP1gE/rErNrP4gP1gE/rR1rPbPbPbPbPbPbPbP/rFrPrP3bN1bPbN/rGrNrPbEbEbEbEbRbFbK ",
    "r rbgo - - 0 1 0:"
);

/// Cells per side of a level (§1.2, §7.1: a reconstruction; the array and promotion table below
/// follow from it).
const SIZE: i32 = 10;
const LOWER: i32 = 0;
const UPPER: i32 = 1;

const KING: PieceType = PieceType::new(0);
const EMPEROR: PieceType = PieceType::new(1);
const ROOK: PieceType = PieceType::new(2);
const VICEREINE: PieceType = PieceType::new(3);
const KNIGHT: PieceType = PieceType::new(4);
const CAVALLANDER: PieceType = PieceType::new(5);
const ELEPHANT: PieceType = PieceType::new(6);
const WILFUL: PieceType = PieceType::new(7);
const FERZ: PieceType = PieceType::new(8);
const BARON: PieceType = PieceType::new(9);
const GURU: PieceType = PieceType::new(10);
const IGTIVLANDER: PieceType = PieceType::new(11);
const PAWN: PieceType = PieceType::new(12);
const ARCHDUKE: PieceType = PieceType::new(13);

/// Red's strip on its King level as (u, v, type) (§2.3, Appendix A): on the King level a man
/// stands on (x, y) = (u, v), on the Guru level on (v, u) with the King replaced by the Guru.
const RED_STRIP: [(i32, i32, PieceType); 17] = [
    (0, 0, KING),
    (1, 0, FERZ),
    (2, 0, ROOK),
    (3, 0, ELEPHANT),
    (4, 0, ELEPHANT),
    (5, 0, ELEPHANT),
    (6, 0, ELEPHANT),
    (0, 1, KNIGHT),
    (1, 1, PAWN),
    (3, 1, KNIGHT),
    (0, 2, PAWN),
    (1, 2, PAWN),
    (2, 2, PAWN),
    (3, 2, PAWN),
    (4, 2, PAWN),
    (5, 2, PAWN),
    (6, 2, PAWN),
];

/// A seat (§1.4, §7.2): name, letter, whether Red's array is mirrored in x and in y to get this
/// army, and the level of its King. Turn order is the order of this table (anticlockwise).
struct Seat {
    name: &'static str,
    code: char,
    mirror_x: bool,
    mirror_y: bool,
    king_level: i32,
}

const SEATS: [Seat; 4] = [
    Seat { name: "Red", code: 'r', mirror_x: false, mirror_y: false, king_level: UPPER },
    Seat { name: "Blue", code: 'b', mirror_x: true, mirror_y: false, king_level: LOWER },
    Seat { name: "Green", code: 'g', mirror_x: true, mirror_y: true, king_level: UPPER },
    Seat { name: "Orange", code: 'o', mirror_x: false, mirror_y: true, king_level: LOWER },
];

/// Face promotion by the distance of the column from the nearer corner of the face (§3.2, the
/// symmetric reading G R N E F | F E N R G); a wider board would give Ferzes further in.
const FACE_PROMOTION: [PieceType; 5] = [GURU, ROOK, KNIGHT, ELEPHANT, FERZ];

/// Game ids this file defines.
pub fn ids() -> Vec<String> {
    vec![ID.to_string(), TEAMS_ID.to_string()]
}

pub fn definition(id: &str) -> Option<GameDef> {
    match id {
        ID => Some(build()),
        TEAMS_ID => Some(teams()),
        _ => None,
    }
}

fn cell_index(x: i32, y: i32, z: i32) -> Cell {
    Cell::new(usize::try_from(z * SIZE * SIZE + y * SIZE + x).expect("a cell of the board"))
}

fn geometry() -> Geometry {
    let mut cells = Vec::new();
    for z in [LOWER, UPPER] {
        for y in 0..SIZE {
            for x in 0..SIZE {
                cells.push(CellInfo {
                    coord: [x, y, z],
                    name: format!("{}{}{}", if z == UPPER { 'U' } else { 'L' }, letter(x), y + 1),
                    // Drawn and written top level first.
                    level: if z == UPPER { 0 } else { 1 },
                    draw: (x as f64, y as f64),
                });
            }
        }
    }
    Geometry::new("2 levels of 10x10 cubic cells", cells, vec!["Upper".into(), "Lower".into()])
}

fn concat(parts: &[&[Vec3]]) -> Vec<Vec3> {
    let mut out: Vec<Vec3> = Vec::new();
    for v in parts.iter().flat_map(|p| p.iter()) {
        if !out.contains(v) {
            out.push(*v);
        }
    }
    out
}

/// Only one level can be crossed at a time on two levels.
fn one_level(vs: Vec<Vec3>) -> Vec<Vec3> {
    vs.into_iter().filter(|v| v[2].abs() <= 1).collect()
}

fn pieces() -> Table<PieceType, PieceDef> {
    let orth = leaper(1, 0, 0);
    let diag = leaper(1, 1, 0);
    let viceroy = leaper(1, 1, 1);
    let king = concat(&[&orth, &diag]);
    let knight = one_level(leaper(1, 2, 0));
    let elephant = leaper2d(2, 2);
    let guru = concat(&[&one_level(leaper(4, 1, 0)), &leaper2d(5, 3)]);
    let leap = |vs: &[&[Vec3]]| Component::leap(concat(vs));
    let rook = || Component::ride(orth.clone());

    let mut forward = Vec::new();
    let mut captures = Vec::new();
    for seat in &SEATS {
        let f1 = [if seat.mirror_x { -1 } else { 1 }, 0, 0];
        let f2 = [0, if seat.mirror_y { -1 } else { 1 }, 0];
        forward.push(vec![f1, f2]);
        let mut c = Vec::new();
        for f in [f1, f2] {
            c.push([f[0], f[1], 1]);
            c.push([f[0], f[1], -1]);
        }
        c.push([f1[0], f2[1], 0]);
        captures.push(c);
    }
    let (promotion_zone, promotion_table) = face_promotion();
    let pawn = PieceDef::new(
        "Pawn",
        "P",
        vec![
            Component::Leap { vectors: Vectors::PerOrientation(forward.into()), mode: Mode::MoveOnly },
            Component::Leap { vectors: Vectors::PerOrientation(captures.into()), mode: Mode::CaptureOnly },
        ],
    )
    .value(100)
    .pawn(PawnDef {
        double_step: vec![Vec::new(); SEATS.len()].into(),
        en_passant: false,
        promotion: Some(PromotionDef {
            zone: promotion_zone.clone(),
            mandatory: promotion_zone,
            choices: PromotionChoices::ByCell(promotion_table),
        }),
    });

    let list = vec![
        (KING, PieceDef::new("King", "K", vec![leap(&[&king])]).royal()),
        (EMPEROR, PieceDef::new("Emperor", "M", vec![leap(&[&king, &viceroy])]).royal()),
        (ROOK, PieceDef::new("Rook", "R", vec![rook()])),
        (VICEREINE, PieceDef::new("Vicereine", "V", vec![rook(), leap(&[&viceroy])])),
        (KNIGHT, PieceDef::new("Knight", "N", vec![leap(&[&knight])])),
        (CAVALLANDER, PieceDef::new("Cavallander", "C", vec![leap(&[&knight, &viceroy])])),
        (ELEPHANT, PieceDef::new("Elephant", "E", vec![leap(&[&elephant])])),
        (WILFUL, PieceDef::new("Wilful", "W", vec![leap(&[&elephant, &viceroy])])),
        (FERZ, PieceDef::new("Ferz", "F", vec![leap(&[&diag])])),
        (BARON, PieceDef::new("Baron", "B", vec![leap(&[&diag, &viceroy])])),
        (GURU, PieceDef::new("Guru", "G", vec![leap(&[&guru])])),
        (IGTIVLANDER, PieceDef::new("Igtivlander", "I", vec![leap(&[&guru, &viceroy])])),
        (PAWN, pawn),
        (ARCHDUKE, PieceDef::new("Archduke", "A", vec![leap(&[&king, &viceroy])])),
    ];
    list.into_iter()
        .enumerate()
        .map(|(i, (t, p))| {
            assert_eq!(i, t.index(), "piece list out of type order");
            p
        })
        .collect()
}

/// Per orientation, the cells of the player's two all-enemy faces; and per cell, the type a pawn
/// promotes to there.
fn face_promotion() -> (Table<Player, Vec<Cell>>, Table<Cell, Option<PieceType>>) {
    let last = SIZE - 1;
    let mut table = Table::filled(cell_index(0, 0, 2).index(), None);
    let zones = SEATS
        .iter()
        .map(|seat| {
            let face_x = if seat.mirror_x { 0 } else { last };
            let face_y = if seat.mirror_y { 0 } else { last };
            let mut zone = Vec::new();
            for z in [LOWER, UPPER] {
                for y in 0..SIZE {
                    for x in 0..SIZE {
                        if x == face_x || y == face_y {
                            zone.push(cell_index(x, y, z));
                        }
                    }
                }
            }
            zone
        })
        .collect();
    for z in [LOWER, UPPER] {
        for y in 0..SIZE {
            for x in 0..SIZE {
                // Position along the face: y on files a/j, x on ranks 1/10 (corners give 0 both ways).
                let along = if x == 0 || x == last {
                    y
                } else if y == 0 || y == last {
                    x
                } else {
                    continue;
                };
                let d = usize::try_from(along.min(last - along)).expect("a cell of the face");
                table[cell_index(x, y, z)] = Some(FACE_PROMOTION[d.min(FACE_PROMOTION.len() - 1)]);
            }
        }
    }
    (zones, table)
}

fn setup() -> Vec<Placement> {
    let last = SIZE - 1;
    let mut out = Vec::new();
    for (owner, seat) in Player::all(SEATS.len()).zip(&SEATS) {
        let guru_level = UPPER + LOWER - seat.king_level;
        for &(u, v, kind) in &RED_STRIP {
            let guru_kind = if kind == KING { GURU } else { kind };
            for (x, y, z, t) in [(u, v, seat.king_level, kind), (v, u, guru_level, guru_kind)] {
                let x = if seat.mirror_x { last - x } else { x };
                let y = if seat.mirror_y { last - y } else { y };
                out.push(Placement { cell: cell_index(x, y, z), owner, kind: t });
            }
        }
    }
    out
}

fn build() -> GameDef {
    let all_but_pawns: Vec<PieceType> = PieceType::all(ARCHDUKE.index() + 1).filter(|&t| t != PAWN).collect();
    let rules = Rules {
        mate: MateRules {
            victim_men: VictimMen::Removed,
            royal_promotion: vec![(KING, EMPEROR)],
            deliverer_promotion: vec![
                (ROOK, VICEREINE),
                (KNIGHT, CAVALLANDER),
                (ELEPHANT, WILFUL),
                (FERZ, BARON),
                (GURU, IGTIVLANDER),
                (PAWN, ARCHDUKE),
            ],
            second_mate_by_promotee_wins: true,
        },
        // §7.7: every non-pawn may use it (promotees and Archdukes included); Igtivlanders grant.
        enlightened: Some(EnlightenedRule { granters: vec![GURU, IGTIVLANDER], users: all_but_pawns }),
        // §7.6: 2 to 4 leaps of unpromoted Elephants (face-promoted ones included, Wilfuls not).
        charge: Some(ChargeRule { chargers: vec![ELEPHANT], leaps: leaper2d(2, 2), min_legs: 2, max_legs: 4 }),
        ..Rules::default()
    };
    GameDef {
        id: ID.to_string(),
        name: "2 Level Guru Mahachaturaji".to_string(),
        geometry: geometry(),
        players: SEATS.iter().map(|s| PlayerDef { name: s.name.to_string(), code: s.code }).collect(),
        pieces: pieces(),
        setup: setup(),
        rules,
        armies: Vec::new(),
    }
}

/// How the engine plays `guru2` and `guru2-teams`.
pub const PROFILE: Profile = Profile {
    // Round robin at 100 ms a move, placed by material at 240 plies (tuning/round_robin.sh).
    multi_search: MultiSearch::BestReplyPlus,
    eval: EvalProfile {
        params: EvalParams {
            // A lone King walks round a wall on one level by the other: K + Vicereine + Rook
            // against a King was drawn in 4 of 100 endings at 45k-195k nodes a move without the
            // level box, none of 125 with it (tests/won_endings.rs).
            mopup_level_box: 60,
            // The first mater converts more often (docs/experiments.md, 2026-12-04), and bare
            // royal pieces are mated sooner (2026-12-06).
            placing_stake: 3000,
            ..PARAMS
        },
        learned: LearnedTexts::NONE,
    },
};

/// `guru2` played by two teams: the seats whose Kings share a level are partners.
fn teams() -> GameDef {
    let mut def = build();
    def.id = TEAMS_ID.to_string();
    def.name = "2 Level Guru Mahachaturaji (teams)".to_string();
    let team = |level| (0..SEATS.len()).filter(|&i| SEATS[i].king_level == level).map(Player::new).collect();
    def.rules.teams = Some(TeamRule { teams: vec![team(UPPER), team(LOWER)] });
    def
}

#[cfg(test)]
mod tests;
