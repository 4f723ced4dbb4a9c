//! The N-player turn model (rules README, "Turn structure") on 3-player Honeycomb Chess.
use super::*;
use crate::attacks::Facing;
use crate::notation::position_string;
use crate::registry;
use crate::tables::Game;
use crate::types::MAX_PLAYERS;

const RED: Player = Player::new(0);
const YELLOW: Player = Player::new(1);
const BLUE: Player = Player::new(2);

fn game() -> &'static Game<4> {
    registry::compiled::<4>(crate::games::definition("honeycomb3").expect("honeycomb3"))
}

fn cell(name: &str) -> Cell {
    game().geometry().cell_by_name(name).expect("cell name")
}

/// A position from (cell, owner, piece code), `to_move` to move, everyone active.
fn position(men: &[(&str, Player, &str)], to_move: Player) -> Position<4> {
    let g = game();
    let mut p = Position::empty(g);
    p.set_piece_square(std::sync::Arc::new(PieceSquare::arbitrary(g.ntypes, g.nplayers, g.ncells)));
    for &(c, owner, code) in men {
        p.put(cell(c), Man::new(g.def.piece_by_code(code).expect("code"), owner, owner));
    }
    p.set_to_move(to_move);
    p
}

fn find(p: &Position<4>, from: &str, to: &str) -> Move {
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    *moves.iter().find(|m| !m.is_pass() && m.from() == cell(from) && m.to() == cell(to)).expect("legal move")
}

/// Everything `make` may change, for comparing before and after `unmake`.
type Snapshot = (String, u64, [Option<Cell>; MAX_PLAYERS], [Tapered; MAX_PLAYERS], u8, Vec<Player>, Option<Player>);

fn snapshot(p: &Position<4>) -> Snapshot {
    (position_string(p), p.hash(), p.royal.0, p.psq.0, p.mates(), p.elimination_order().to_vec(), p.winner)
}

#[test]
fn next_active_skips_eliminated_players() {
    let mut p = position(&[("1a1", RED, "K"), ("8a8", BLUE, "K")], RED);
    p.set_active(PlayerSet::from_bits(0b101));
    assert_eq!(p.next_active(RED), BLUE);
    assert_eq!(p.next_active(BLUE), RED);
    let mv = find(&p, "1a1", "1a2");
    p.make(mv);
    assert_eq!(p.to_move(), BLUE);
    assert_eq!(p.fullmove_number(), 1);
    let mv = find(&p, "8a8", "7a8");
    p.make(mv);
    assert_eq!((p.to_move(), p.fullmove_number()), (RED, 2));
}

/// Yellow, in check from Red's Queen with no legal move, has passed; Blue moves; at the start
/// of Red's turn Yellow is checkmated and Red recruits Yellow's men.
#[test]
fn start_of_turn_checkmate_recruits_and_unmake_restores() {
    let men = [
        ("1a1", RED, "K"),
        ("2b8", RED, "Q"),
        ("2e8", RED, "R"),
        ("1a8", YELLOW, "K"),
        ("3c5", YELLOW, "P"),
        ("5c6", YELLOW, "N"),
        ("8a8", BLUE, "K"),
    ];
    let mut p = position(&men, BLUE);
    let before = snapshot(&p);
    let mv = find(&p, "8a8", "7a8");
    let undo = p.make(mv);
    assert_eq!(p.to_move(), RED);
    assert_eq!(p.active_players().bits(), 0b101);
    assert_eq!(p.eliminated_by(YELLOW), Some(RED));
    assert_eq!(p.elimination_order(), vec![YELLOW]);
    assert_eq!((p.mates(), p.halfmove_clock(), p.winner()), (1, 0, None));
    assert!(p.man_at(cell("1a8")).is_none());
    let g = game();
    let pawn = p.man_at(cell("3c5"));
    assert_eq!((pawn.kind(), pawn.owner(), pawn.orientation()), (g.def.piece_by_code("P").unwrap(), RED, YELLOW));
    // A Knight moves alike for everyone, so the recruit is simply Red's Knight.
    let knight = p.man_at(cell("5c6"));
    assert_eq!((knight.owner(), knight.orientation()), (RED, RED));
    assert_eq!(p.royal_cell(YELLOW), None);
    assert_eq!(p.hash(), p.compute_hash());
    assert_eq!(p.psq, p.psq_from_scratch());
    // It attacks as Yellow's pawns do (+10 or −1 and one level), not as Red's (+1 or +11).
    let red_attacks = |c: &str| p.attacked(cell(c), p.occupied(), PlayerSet::only(RED), Bitboard::EMPTY, Facing::Ignored);
    assert!(red_attacks("4b5") && red_attacks("3d4"));
    assert!(!red_attacks("4b6") && !red_attacks("4d6"));
    // The recruited pawn goes on in Yellow's direction (columns +10 and −1), this very turn.
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let from_pawn: Vec<Cell> = moves.iter().filter(|m| m.from() == cell("3c5")).map(|m| m.to()).collect();
    assert_eq!(from_pawn, vec![cell("3c4"), cell("4c5")]);
    p.unmake(mv, undo);
    assert_eq!(snapshot(&p), before);
}

/// Red has passed in check; at the start of Yellow's turn both other Kings are attacked:
/// Blue (next after Yellow) goes first, then Red, and Yellow is left alone.
#[test]
fn victims_taken_in_turn_order_after_the_mater() {
    let men = [
        ("1a8", RED, "K"),
        ("8a8", BLUE, "K"),
        ("4a8", YELLOW, "Q"),
        ("4b8", YELLOW, "R"),
        ("4a7", YELLOW, "R"),
        ("4b7", YELLOW, "R"),
        ("1e1", YELLOW, "K"),
    ];
    let mut p = position(&men, RED);
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    assert_eq!(moves, vec![Move::PASS]);
    let before = snapshot(&p);
    let undo = p.make(Move::PASS);
    assert_eq!(p.elimination_order(), vec![BLUE, RED]);
    assert_eq!((p.eliminated_by(BLUE), p.eliminated_by(RED)), (Some(YELLOW), Some(YELLOW)));
    assert!(p.is_decided());
    assert_eq!(p.winner(), Some(YELLOW));
    p.legal_moves(&mut moves);
    assert!(moves.is_empty());
    p.unmake(Move::PASS, undo);
    assert_eq!(snapshot(&p), before);
}

/// Red's Knight shielded Blue's King from Yellow's Rook; when it moves away, Blue is
/// checkmated at the start of Yellow's turn without ever moving, and Yellow recruits.
#[test]
fn third_players_move_exposes_a_king() {
    let men = [("1c1", RED, "K"), ("5a8", RED, "N"), ("1c8", YELLOW, "K"), ("1a8", YELLOW, "R"), ("8a8", BLUE, "K"), ("6c6", BLUE, "P")];
    let mut p = position(&men, RED);
    let mv = find(&p, "5a8", "5b6");
    p.make(mv);
    assert_eq!(p.to_move(), YELLOW);
    assert_eq!(p.active_players().bits(), 0b011);
    assert_eq!(p.eliminated_by(BLUE), Some(YELLOW));
    let pawn = p.man_at(cell("6c6"));
    assert_eq!((pawn.owner(), pawn.orientation()), (YELLOW, BLUE));
}

/// With two players left no start-of-turn step runs: the mover's last move was legal, so it
/// attacks nothing it could checkmate (README step 2, last sentence).
#[test]
fn two_player_phase_has_no_start_of_turn_checkmates() {
    let mut p = position(&[("1e1", RED, "K"), ("3b8", RED, "Q"), ("7e8", RED, "R"), ("8a8", BLUE, "K")], RED);
    p.set_active(PlayerSet::from_bits(0b101));
    let mv = find(&p, "3b8", "7b8");
    p.make(mv);
    assert_eq!((p.to_move(), p.active_players().bits(), p.mates()), (BLUE, 0b101, 0));
    assert!(p.in_check(BLUE));
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    assert!(moves.is_empty(), "checkmate: no move, no pass");
}

/// The position's storage follows the board's width: chess needs a fraction of Armies of
/// Faith's.
#[test]
fn position_is_sized_by_the_bitboard_width() {
    let (chess, wide) = (std::mem::size_of::<Position<1>>(), std::mem::size_of::<Position<6>>());
    assert!(chess < 800, "{chess} bytes for chess");
    assert!(chess * 3 < wide, "{chess} bytes for chess, {wide} for six words");
}

#[test]
fn the_pawn_key_follows_the_pawns_alone() {
    let g = game();
    let mut p = Position::start(g);
    let start = p.pawn_key();
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let (mut pawn_moves, mut other_moves) = (0, 0);
    for &m in moves.iter().filter(|m| !m.is_pass()) {
        let pawn = g.types[p.man_at(m.from()).kind()].pawn;
        let u = p.make(m);
        // From the start nothing is captured: the key changes exactly when a pawn moves.
        assert_eq!(p.pawn_key() != start, pawn, "{m:?}");
        if pawn {
            pawn_moves += 1;
        } else {
            other_moves += 1;
        }
        p.unmake(m, u);
        assert_eq!(p.pawn_key(), start);
    }
    assert!(pawn_moves > 0 && other_moves > 0);
    // The same cells with another owner are another structure.
    let mine = position(&[("1a2", RED, "P")], RED);
    let theirs = position(&[("1a2", YELLOW, "P")], RED);
    assert_ne!(mine.pawn_key(), theirs.pawn_key());
}

/// Plays random games of `id` (at most `plies` each, `games` of them) and checks after every move
/// that no opponent attacks the royal piece of a player [`Position::unattacked`] names; returns
/// how many such players were checked.
fn check_unattacked<const W: usize>(id: &str, games: usize, plies: usize) -> usize {
    let g = registry::compiled::<W>(crate::games::definition(id).expect("game"));
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut moves = Vec::new();
    let mut checked = 0;
    for _ in 0..games {
        let mut pos = Position::start(g);
        for _ in 0..plies {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            pos.make(moves[(seed % moves.len() as u64) as usize]);
            for q in pos.unattacked.iter() {
                let k = pos.royal_cell(q).expect("a player in the game has its royal piece");
                assert!(
                    !pos.attacked(k, pos.occupied(), pos.opponents(q), Bitboard::EMPTY, Facing::Ignored),
                    "{id}: {}",
                    position_string(&pos)
                );
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn players_known_unattacked_are_not_attacked() {
    assert!(check_unattacked::<4>("honeycomb3", 6, 400) > 1000);
    assert!(check_unattacked::<4>("wildhoney3", 6, 400) > 1000);
    assert!(check_unattacked::<4>("guru2", 4, 600) > 1000);
    assert!(check_unattacked::<4>("guru2-teams", 4, 600) > 1000);
    assert!(check_unattacked::<6>("aof3", 3, 600) > 1000);
}
