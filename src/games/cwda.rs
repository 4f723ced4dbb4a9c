//! Chess and Chess with Different Armies (rules: `docs/rules/chess-with-different-armies.md`, from `shared/rules/cwda.md`).
//!
//! Game ids: `chess` and `cwda-XY`, X = White's army and Y = Black's, each one of `f` (Fabulous
//! FIDEs), `c` (Colorbound Clobberers), `n` (Nutty Knights), `r` (Remarkable Rookies).
//! Only the two armies in play contribute piece types, so `chess` has exactly the six FIDE types.

use super::Profile;
use crate::eval::{EvalParams, EvalProfile, LearnedTexts, PARAMS, activity_off};
use crate::game::{CastleDef, DeadMaterial, GameDef, Placement, PlayerDef, Rules};
use crate::geometry::{Geometry, Vec3};
use crate::movement::{Component, Mode, PawnDef, PieceDef, PromotionChoices, PromotionDef, Vectors, leaper2d};
use crate::search::MultiSearch;
use crate::types::{Cell, PieceType, Player};

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
    Vectors::PerOrientation(vec![white.to_vec(), black].into())
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

/// The dead positions (FIDE Laws 5.2.2): a Knight or a Bishop of the FIDE army cannot mate alone,
/// nor can Bishops all on one colour. Other armies' pieces are left out: they may mate alone.
fn dead_material(slot_types: &[[PieceType; 4]; 2], armies: [usize; 2]) -> DeadMaterial {
    const FIDE: usize = 0;
    const KNIGHT_SLOT: usize = 1;
    const BISHOP_SLOT: usize = 2;
    let mut dead = DeadMaterial::default();
    for (slots, army) in slot_types.iter().zip(armies) {
        if army == FIDE && !dead.colour_bound.contains(&slots[BISHOP_SLOT]) {
            dead.minor.extend([slots[KNIGHT_SLOT], slots[BISHOP_SLOT]]);
            dead.colour_bound.push(slots[BISHOP_SLOT]);
        }
    }
    dead
}

/// The evaluation values of every pairing (the armies share the board and the pawns): fitted by
/// Texel's method to game results, then to Stockfish's labels, term by term as terms were added
/// (runs SFL, SFX, LINE, TS, SQ7, KP and NN12 in `docs/experiments.md`).
const CWDA_PARAMS: EvalParams = EvalParams {
    pawn_eg_value: -39,
    leaper_eg_value: -103,
    rider_eg_value: -127,
    leaper_value: 96,
    rider_value: 76,
    rider_move_value_quarter: 20,
    rider_move_value_eg_quarter: 12,
    centrality_quarter: 20,
    centrality_eg_quarter: 10,
    royal_centrality_quarter: -5,
    royal_centrality_eg_quarter: 47,
    royal_advance: 8,
    pawn_advance: 1,
    pawn_advance_eg: 3,
    pawn_centre_quarter: 4,
    passed: 76,
    passed_eg: 200,
    isolated: 15,
    isolated_eg: 17,
    doubled: 21,
    doubled_eg: 2,
    backward: 12,
    backward_eg: 17,
    supported: 4,
    supported_eg: 4,
    passed_blocked: 25,
    passed_enemy_king_eg: 60,
    passed_king_eg: 33,
    tempo: 15,
    mobility_quarter: 17,
    mobility_eg_quarter: 5,
    king_attack: 6,
    king_danger: 47,
    king_shield: 16,
    king_exposure: 1,
    pair: 25,
    pair_eg: 52,
    open_line: 23,
    half_open_line: 16,
    outpost: 10,
    outpost_eg: 19,
    trapped: 2,
    trapped_eg: 22,
    threat_pawn: 33,
    threat_pawn_eg: 26,
    threat_lesser: 26,
    threat_lesser_eg: 16,
    hanging: 1,
    hanging_eg: 19,
    royal_line_centrality_quarter: -22,
    square_values_permille: 700,
    royal_pawn_values_permille: 700,
    material_scale_permille: 69,
    material_scale_eg_permille: 6,
    redundancy: 62,
    network_permille: 1000,
    ..PARAMS
};

/// Chess's values: the others' without the terms that need every piece's moves, a third of the
/// search's time; chess's network, fitted on top of the evaluation without them, learns what they
/// gave (run NA).
const CHESS_PARAMS: EvalParams = activity_off(CWDA_PARAMS);

/// How the engine plays chess (two players: always alpha-beta): its learned square values
/// (`tuning/squares.py`), royal-pawn values (`tuning/royal_pawns.py`) and correction network
/// (`tuning/network.py`, in binary by `tessera network`), fitted to chess's positions.
pub const CHESS_PROFILE: Profile = Profile {
    multi_search: MultiSearch::Paranoid,
    eval: EvalProfile {
        params: CHESS_PARAMS,
        learned: LearnedTexts {
            squares: include_str!("chess-squares.txt"),
            royal_pawns: include_str!("chess-royal-pawns.txt"),
            network: include_bytes!("chess.network"),
        },
    },
};

/// How the engine plays the other pairings: chess's values with the activity terms, nothing
/// learned (the learned tables are chess's types').
pub const CWDA_PROFILE: Profile =
    Profile { multi_search: MultiSearch::Paranoid, eval: EvalProfile { params: CWDA_PARAMS, learned: LearnedTexts::NONE } };

/// The profile of a game id this file defines.
pub fn profile(id: &str) -> Profile {
    if id == "chess" { CHESS_PROFILE } else { CWDA_PROFILE }
}

fn build(id: &str, white_army: usize, black_army: usize) -> GameDef {
    let geometry = Geometry::square(8, 8);
    let sq = |name: &str| geometry.cell_by_name(name).expect("square name");
    let rank = |r: usize| -> Vec<Cell> { (0..8).map(|f| Cell::new(8 * r + f)).collect() };

    // Types: King, Pawn, White's army, then Black's army if different.
    const KING: PieceType = PieceType::new(0);
    const PAWN: PieceType = PieceType::new(1);
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
    let mut slot_types = [[KING; 4]; 2];
    for (side, &army) in [white_army, black_army].iter().enumerate() {
        if side == 1 && black_army == white_army {
            slot_types[1] = slot_types[0];
            continue;
        }
        for (slot, piece) in army_pieces(army).into_iter().enumerate() {
            slot_types[side][slot] = PieceType::new(pieces.len());
            pieces.push(piece);
        }
    }
    let mut promotion_types: Vec<PieceType> = slot_types.iter().flatten().copied().collect();
    promotion_types.sort();
    promotion_types.dedup();
    pieces[PAWN.index()].pawn = Some(PawnDef {
        double_step: vec![rank(1), rank(6)].into(),
        en_passant: true,
        promotion: Some(PromotionDef {
            zone: vec![rank(7), rank(0)].into(),
            mandatory: vec![rank(7), rank(0)].into(),
            choices: PromotionChoices::Fixed(promotion_types),
        }),
    });

    // Back rank: rook, knight, bishop, queen, king, bishop, knight, rook slots.
    const SLOTS: [usize; 8] = [0, 1, 2, 3, 4, 2, 1, 0];
    let mut setup = Vec::new();
    for (side, back, front) in [(0usize, 0usize, 1usize), (1, 7, 6)] {
        let owner = Player::new(side);
        for (file, &slot) in SLOTS.iter().enumerate() {
            let kind = if slot == 4 { KING } else { slot_types[side][slot] };
            setup.push(Placement { cell: Cell::new(8 * back + file), owner, kind });
            setup.push(Placement { cell: Cell::new(8 * front + file), owner, kind: PAWN });
        }
    }

    let mut castling = Vec::new();
    for (side, army, r, short, long) in [(0, white_army, "1", 'K', 'Q'), (1, black_army, "8", 'k', 'q')] {
        let side = Player::new(side);
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
        players: vec![PlayerDef { name: "White".into(), code: 'w' }, PlayerDef { name: "Black".into(), code: 'b' }].into(),
        pieces: pieces.into(),
        setup,
        rules: Rules { castling, dead_material: Some(dead_material(&slot_types, [white_army, black_army])), ..Rules::default() },
        armies: vec![ARMY_NAMES[white_army].to_string(), ARMY_NAMES[black_army].to_string()],
    }
}

#[cfg(test)]
mod tests {
    use crate::notation::{move_string, parse_position};
    use crate::position::{PieceSquare, Position};
    use crate::registry;

    /// Targets of a lone piece (plus kings out of the way) from a cell, sorted.
    fn targets(id: &str, fen: &str, from: &str) -> Vec<String> {
        let game = registry::compiled::<1>(super::definition(id).expect("game"));
        let pos = parse_position(game, fen).expect("position");
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut out: Vec<String> =
            moves.iter().map(|&m| move_string(game, m)).filter(|m| m.starts_with(from)).map(|m| m[2..].to_string()).collect();
        out.sort();
        out
    }

    fn cells(list: &str) -> Vec<String> {
        let mut v: Vec<String> = list.split_whitespace().map(String::from).collect();
        v.sort();
        v
    }

    /// The empty-board target lists of `cwda.md` §2 (verified there against the seed diagrams).
    #[test]
    fn army_pieces_from_d4_match_the_rules() {
        let cases = [
            ("cwda-cc", "D", "a1 a7 b2 b4 b6 c3 c5 d2 d6 e3 e5 f2 f4 f6 g1 g7 h8"),
            ("cwda-cc", "W", "b2 b6 c4 d3 d5 e4 f2 f6"),
            ("cwda-cc", "F", "b2 b4 b6 c3 c5 d2 d6 e3 e5 f2 f4 f6"),
            ("cwda-cc", "C", "a1 a7 b2 b3 b5 b6 c2 c3 c5 c6 e2 e3 e5 e6 f2 f3 f5 f6 g1 g7 h8"),
            ("cwda-nn", "G", "a4 b4 c3 c4 d3 d5 d6 d7 d8 e3 e4 f4 g4 h4"),
            ("cwda-nn", "I", "c2 c3 c5 c6 e2 e3 e5 e6"),
            ("cwda-nn", "T", "b5 c3 c4 c6 d3 e3 e4 e6 f5"),
            ("cwda-nn", "L", "a4 b4 b5 c3 c4 c5 c6 d3 d5 d6 d7 d8 e3 e4 e5 e6 f4 f5 g4 h4"),
            ("cwda-rr", "S", "a4 b4 c4 d1 d2 d3 d5 d6 d7 d8 e4 f4 g4 h4"),
            ("cwda-rr", "Y", "b4 c4 d2 d3 d5 d6 e4 f4"),
            ("cwda-rr", "H", "a4 b4 c3 c5 d1 d2 d6 d7 e3 e5 f4 g4"),
            ("cwda-rr", "O", "a4 b3 b4 b5 c2 c4 c6 d1 d2 d3 d5 d6 d7 d8 e2 e4 e6 f3 f4 f5 g4 h4"),
        ];
        for (id, piece, expected) in cases {
            // Kings on h1/a8 (out of every listed square's way except where the list says so).
            let fen = format!("k7/8/8/8/3{piece}4/8/8/7K w - - 0 1");
            let mut got = targets(id, &fen, "d4");
            let mut want = cells(expected);
            // a8 holds the Black King: a capture there is still a target of the piece.
            got.retain(|c| c != "a8");
            want.retain(|c| c != "a8");
            assert_eq!(got, want, "{id} {piece} from d4");
        }
        assert_eq!(targets("cwda-rr", "k7/8/8/8/8/8/8/S6K w - - 0 1", "a1"), cells("a2 a3 a4 a5 b1 c1 d1 e1"));
    }

    /// Black's Nutty pieces are White's mirrored top to bottom (`cwda.md` §2.1).
    #[test]
    fn black_nutty_pieces_charge_downwards() {
        let g = targets("cwda-nn", "K7/8/8/3g4/8/8/8/7k b - - 0 1", "d5");
        assert_eq!(g, cells("d1 d2 d3 d4 a5 b5 c5 e5 f5 g5 h5 c6 d6 e6"));
        let t = targets("cwda-nn", "K7/8/8/3t4/8/8/8/7k b - - 0 1", "d5");
        assert_eq!(t, cells("b4 c3 e3 f4 c5 e5 c6 d6 e6"));
        let l = targets("cwda-nn", "K7/8/8/4l3/8/8/8/7k b - - 0 1", "e5");
        assert_eq!(l, cells("e1 e2 e3 e4 a5 b5 c5 d5 f5 g5 h5 c4 d3 f3 g4 d4 f4 d6 e6 f6"));
    }

    /// Promotion offers the pieces of both armies; Clobberers castle long to b1.
    #[test]
    fn promotion_choices_and_clobberer_castling() {
        let moves = targets("cwda-cn", "k7/4P3/8/8/8/8/8/7K w - - 0 1", "e7");
        assert_eq!(moves, cells("e8c e8d e8f e8g e8i e8l e8t e8w"));
        let king = targets("cwda-cf", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/D3K2D w KQkq - 0 1", "e1");
        assert!(king.contains(&"b1".to_string()) && king.contains(&"g1".to_string()), "{king:?}");
        let black = targets("cwda-cf", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/D3K2D b KQkq - 0 1", "e8");
        assert!(black.contains(&"c8".to_string()) && black.contains(&"g8".to_string()), "{black:?}");
    }

    /// Random games: make/unmake restore the position exactly and the incremental hash and
    /// evaluation sums equal the ones computed from scratch.
    #[test]
    fn random_games_make_and_unmake_exactly() {
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(7);
        for id in ["chess", "cwda-cn", "cwda-rn", "cwda-cc"] {
            let game = registry::compiled::<1>(super::definition(id).expect("game"));
            for _ in 0..20 {
                let mut pos = Position::start(game);
                pos.set_piece_square(std::sync::Arc::new(PieceSquare::arbitrary(game.ntypes, game.nplayers, game.ncells)));
                let mut moves = Vec::new();
                for _ in 0..120 {
                    pos.legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    let before = pos.clone();
                    for &m in &moves {
                        let u = pos.make(m);
                        assert_eq!(pos.hash(), pos.compute_hash(), "{id}: hash after {}", move_string(game, m));
                        assert_eq!(pos.piece_square_sums(), pos.psq_from_scratch());
                        pos.unmake(m, u);
                        assert_eq!(pos.hash(), before.hash());
                        assert_eq!(crate::notation::position_string(&pos), crate::notation::position_string(&before));
                    }
                    let m = moves[rng.random_range(0..moves.len())];
                    pos.make(m);
                }
            }
        }
    }
}
