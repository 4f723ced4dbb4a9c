//! Chess and Chess with Different Armies (rules: `shared/rules/cwda.md`).
//!
//! Game ids: `chess` and `cwda-XY`, X = White's army and Y = Black's, each one of `f` (Fabulous
//! FIDEs), `c` (Colorbound Clobberers), `n` (Nutty Knights), `r` (Remarkable Rookies).
//! Only the two armies in play contribute piece types, so `chess` has exactly the six FIDE types.

use crate::game::{CastleDef, GameDef, PlayerDef, Rules};
use crate::geometry::{Geometry, Vec3};
use crate::movement::{Component, Mode, PawnDef, PieceDef, PromotionChoices, PromotionDef, Vectors, leaper2d};

pub const ARMY_LETTERS: [char; 4] = ['f', 'c', 'n', 'r'];
const ARMY_NAMES: [&str; 4] = ["Fabulous FIDEs", "Colorbound Clobberers", "Nutty Knights", "Remarkable Rookies"];

/// Game ids this file defines.
pub fn ids() -> Vec<String> {
    let mut v = vec!["chess".to_string()];
    for w in ARMY_LETTERS {
        for b in ARMY_LETTERS {
            v.push(format!("cwda-{w}{b}"));
        }
    }
    v
}

pub fn definition(id: &str) -> Option<GameDef> {
    if id == "chess" {
        return Some(build(id, 0, 0));
    }
    let rest = id.strip_prefix("cwda-")?;
    let letters: Vec<char> = rest.chars().collect();
    let [w, b] = letters[..] else { return None };
    let w = ARMY_LETTERS.iter().position(|&c| c == w)?;
    let b = ARMY_LETTERS.iter().position(|&c| c == b)?;
    Some(build(id, w, b))
}

const ORTH: [Vec3; 4] = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]];
const DIAG: [Vec3; 4] = [[1, 1, 0], [1, -1, 0], [-1, 1, 0], [-1, -1, 0]];

/// White's vectors and Black's (mirrored top to bottom): "forward" is towards the opponent.
fn oriented(white: &[Vec3]) -> Vectors {
    let black = white.iter().map(|v| [v[0], -v[1], v[2]]).collect();
    Vectors::PerOrientation(vec![white.to_vec(), black])
}

fn both(vs: &[&[Vec3]]) -> Vec<Vec3> {
    vs.iter().flat_map(|v| v.iter().copied()).collect()
}

/// The four army pieces in back-rank slot order (rook, knight, bishop, queen).
fn army_pieces(army: usize) -> [PieceDef; 4] {
    let knight = leaper2d(1, 2);
    let wazir = leaper2d(1, 0);
    let ferz = leaper2d(1, 1);
    let alfil = leaper2d(2, 2);
    let dabbabah = leaper2d(2, 0);
    let threeleaper = leaper2d(3, 0);
    let king: Vec<Vec3> = both(&[&ORTH, &DIAG]);
    // Nutty Knights' forward/sideways slides, backward king steps and forward knight leaps.
    let fs_rook: [Vec3; 3] = [[0, 1, 0], [1, 0, 0], [-1, 0, 0]];
    let back_king: [Vec3; 3] = [[0, -1, 0], [1, -1, 0], [-1, -1, 0]];
    let fwd_knight: [Vec3; 4] = [[1, 2, 0], [-1, 2, 0], [2, 1, 0], [-2, 1, 0]];
    let narrow_knight: Vec<Vec3> = vec![[1, 2, 0], [-1, 2, 0], [1, -2, 0], [-1, -2, 0]];
    let side_wazir: [Vec3; 2] = [[1, 0, 0], [-1, 0, 0]];
    let fs_ride = || Component::Ride { dirs: oriented(&fs_rook), range: None, mode: Mode::Both };
    let oriented_leap = |v: &[Vec3]| Component::Leap { vectors: oriented(v), mode: Mode::Both };
    match army {
        0 => [
            PieceDef::new("Rook", "R", vec![Component::ride(ORTH.to_vec())]).value(500),
            PieceDef::new("Knight", "N", vec![Component::leap(knight)]).value(320),
            PieceDef::new("Bishop", "B", vec![Component::ride(DIAG.to_vec())]).value(330),
            PieceDef::new("Queen", "Q", vec![Component::ride(both(&[&ORTH, &DIAG]))]).value(900),
        ],
        1 => [
            PieceDef::new("Bede", "D", vec![Component::ride(DIAG.to_vec()), Component::leap(dabbabah.clone())]).value(400),
            PieceDef::new("Waffle", "W", vec![Component::leap(both(&[&wazir, &alfil]))]).value(300),
            PieceDef::new("FAD", "F", vec![Component::leap(both(&[&ferz, &alfil, &dabbabah]))]).value(500),
            PieceDef::new("Cardinal", "C", vec![Component::ride(DIAG.to_vec()), Component::leap(knight)]).value(700),
        ],
        2 => [
            PieceDef::new("Charging Rook", "G", vec![fs_ride(), oriented_leap(&back_king)]).value(400),
            PieceDef::new("Fibnif", "I", vec![Component::leap(both(&[&narrow_knight, &ferz]))]).value(300),
            PieceDef::new("Charging Knight", "T", vec![oriented_leap(&both(&[&fwd_knight, &side_wazir, &back_king]))]).value(400),
            PieceDef::new("Colonel", "L", vec![fs_ride(), oriented_leap(&fwd_knight), Component::leap(king)]).value(700),
        ],
        _ => [
            PieceDef::new("Short Rook", "S", vec![Component::ride_limited(ORTH.to_vec(), 4)]).value(400),
            PieceDef::new("Woody Rook", "Y", vec![Component::leap(both(&[&wazir, &dabbabah]))]).value(300),
            PieceDef::new("Half-Duck", "H", vec![Component::leap(both(&[&ferz, &dabbabah, &threeleaper]))]).value(400),
            PieceDef::new("Chancellor", "O", vec![Component::ride(ORTH.to_vec()), Component::leap(knight)]).value(800),
        ],
    }
}

fn build(id: &str, white_army: usize, black_army: usize) -> GameDef {
    let geometry = Geometry::square(8, 8);
    let sq = |name: &str| geometry.cell_by_name(name).expect("square name");
    let rank = |r: usize| -> Vec<usize> { (0..8).map(|f| 8 * r + f).collect() };

    // Types: King, Pawn, White's army, then Black's army if different.
    const KING: usize = 0;
    const PAWN: usize = 1;
    let mut pieces = vec![
        PieceDef::new("King", "K", vec![Component::leap(both(&[&ORTH, &DIAG]))]).royal(),
        PieceDef::new(
            "Pawn",
            "P",
            vec![
                Component::Leap { vectors: oriented(&[[0, 1, 0]]), mode: Mode::MoveOnly },
                Component::Leap { vectors: oriented(&[[1, 1, 0], [-1, 1, 0]]), mode: Mode::CaptureOnly },
            ],
        )
        .value(100),
    ];
    let mut slot_types = [[0usize; 4]; 2];
    for (side, &army) in [white_army, black_army].iter().enumerate() {
        if side == 1 && black_army == white_army {
            slot_types[1] = slot_types[0];
            continue;
        }
        for (slot, piece) in army_pieces(army).into_iter().enumerate() {
            slot_types[side][slot] = pieces.len();
            pieces.push(piece);
        }
    }
    let mut promotion_types: Vec<usize> = slot_types.iter().flatten().copied().collect();
    promotion_types.dedup();
    promotion_types.sort();
    promotion_types.dedup();
    pieces[PAWN].pawn = Some(PawnDef {
        double_step: vec![rank(1), rank(6)],
        en_passant: true,
        promotion: Some(PromotionDef {
            zone: vec![rank(7), rank(0)],
            mandatory: vec![rank(7), rank(0)],
            choices: PromotionChoices::Fixed(promotion_types),
        }),
    });

    // Back rank: rook, knight, bishop, queen, king, bishop, knight, rook slots.
    const SLOTS: [usize; 8] = [0, 1, 2, 3, 4, 2, 1, 0];
    let mut setup = Vec::new();
    for (side, back, front) in [(0usize, 0usize, 1usize), (1, 7, 6)] {
        for (file, &slot) in SLOTS.iter().enumerate() {
            let kind = if slot == 4 { KING } else { slot_types[side][slot] };
            setup.push((8 * back + file, side, kind));
            setup.push((8 * front + file, side, PAWN));
        }
    }

    let mut castling = Vec::new();
    for (side, army, r, short, long) in [(0, white_army, "1", 'K', 'Q'), (1, black_army, "8", 'k', 'q')] {
        let c = |f: &str| sq(&format!("{f}{r}"));
        castling.push(CastleDef { player: side, king_from: c("e"), king_to: c("g"), rook_from: c("h"), rook_to: c("f"), fen_char: short });
        // The Clobberers castle long to b1/b8 so that the colour-bound Bede keeps its colour.
        let (king_to, rook_to) = if army == 1 { (c("b"), c("c")) } else { (c("c"), c("d")) };
        castling.push(CastleDef { player: side, king_from: c("e"), king_to, rook_from: c("a"), rook_to, fen_char: long });
    }

    let name = if id == "chess" {
        "Chess".to_string()
    } else {
        format!("Chess with Different Armies: {} vs {}", ARMY_NAMES[white_army], ARMY_NAMES[black_army])
    };
    GameDef {
        id: id.to_string(),
        name,
        geometry,
        players: vec![PlayerDef { name: "White".into(), code: 'w' }, PlayerDef { name: "Black".into(), code: 'b' }],
        pieces,
        setup,
        rules: Rules { castling, ..Rules::default() },
        armies: vec![ARMY_NAMES[white_army].to_string(), ARMY_NAMES[black_army].to_string()],
    }
}
