//! 2 Level Guru Mahachaturaji (`shared/rules/guru2level.md`): perft anchors of §8 and hand-worked
//! positions for the Enlightened Move, the Elephant Charge, face promotion, checkmates and the win
//! rule. Expected move sets are derived by hand in the comments from the rules text.

use std::collections::BTreeSet;
use std::io::{BufReader, Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common::SessionText;
use tessera::protocol::{Engine, Output};
use tessera::session::{self, Session};

/// A position string with the given men (cell, token such as `rK`), everyone active, no mates.
pub(crate) fn fen(men: &[(&str, &str)], to_move: char) -> String {
    let def = tessera::games::definition("guru2").expect("guru2");
    let placement = tessera::notation::placement_from(&def.geometry, men).expect("men on cells of the board");
    format!("{placement} {to_move} rbgo - - 0 1 0:")
}

fn open(fen: Option<&str>, moves: &[&str]) -> Box<dyn Session> {
    let mut s = session::open("guru2").expect("guru2 exists");
    s.set_position(fen, moves).unwrap_or_else(|e| panic!("position: {e}"));
    s
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// Legal moves of the man on `cell` (single-leg moves starting there).
fn moves_from(s: &dyn Session, cell: &str) -> BTreeSet<String> {
    s.legal_move_texts()
        .into_iter()
        .filter(|m| !m.contains(',') && m.starts_with(cell) && m[cell.len()..].starts_with(['U', 'L']))
        .collect()
}

fn charges(s: &dyn Session) -> BTreeSet<String> {
    s.legal_move_texts().into_iter().filter(|m| m.contains(',')).collect()
}

/// Asserts that the legal move list has no duplicates.
fn assert_distinct(s: &dyn Session) {
    let all = s.legal_move_texts();
    let distinct: BTreeSet<&String> = all.iter().collect();
    assert_eq!(all.len(), distinct.len(), "duplicate moves in {all:?}");
}

/// The other three kings on Lower-level cells far from the action.
const FAR_KINGS: [(&str, &str); 3] = [("Lj1", "bK"), ("Lj10", "gK"), ("La10", "oK")];

fn with_far_kings(men: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
    let mut v = men.to_vec();
    v.extend(FAR_KINGS);
    v
}

// ---------------------------------------------------------------- perft (§8)

#[test]
fn perft_start_depths_1_to_3() {
    let s = open(None, &[]);
    for (d, n) in [(1, 49), (2, 2404), (3, 115_728)] {
        assert_eq!(s.perft(d), n, "depth {d}");
    }
}

#[test]
fn perft_start_depth_4() {
    assert_eq!(open(None, &[]).perft(4), 5_579_111);
}

// ---------------------------------------------------------------- Enlightened Move (§4.1)

/// Guru on Ue5, King on Ue4 (offset length 1): the Guru's orthogonal neighbours Ud5, Uf5, Ue6, Le5
/// are granted; Ud5, Uf5 and Le5 are ordinary King moves already, so only Ue6 is new. The
/// diagonal neighbour Ud6 of the Guru has another length and is not granted.
#[test]
fn enlightened_king() {
    let s = open(Some(&fen(&with_far_kings(&[("Ue4", "rK"), ("Ue5", "rG")]), 'r')), &[]);
    let ordinary = ["Ue4Ue3", "Ue4Ud4", "Ue4Uf4", "Ue4Le4", "Ue4Ud3", "Ue4Uf3", "Ue4Ud5", "Ue4Uf5", "Ue4Ld4", "Ue4Lf4", "Ue4Le3", "Ue4Le5"];
    let mut expected = set(&ordinary);
    expected.insert("Ue4Ue6".into());
    assert_eq!(moves_from(&*s, "Ue4"), expected);
    assert_distinct(&*s);

    // It never captures: an enemy on Ue6 takes that move away.
    let s = open(Some(&fen(&with_far_kings(&[("Ue4", "rK"), ("Ue5", "rG"), ("Ue6", "bE")]), 'r')), &[]);
    assert_eq!(moves_from(&*s, "Ue4"), set(&ordinary));
}

/// Ferz (and King) on Ud4, offset (−1,−1,0): the √2 cells of the Guru are Uf4, Ud6, Uf6, Ld5,
/// Lf5, Le4, Le6 (Ud4 itself excluded); Ld5 and Le4 are ordinary Ferz moves, so the Ferz gains
/// Uf4, Ud6, Uf6, Lf5, Le6 and changes level with the last two.
#[test]
fn enlightened_ferz_and_king_change_level() {
    let s = open(Some(&fen(&with_far_kings(&[("La1", "rK"), ("Ud4", "rF"), ("Ue5", "rG")]), 'r')), &[]);
    let expected = set(&[
        "Ud4Uc3", "Ud4Ue3", "Ud4Uc5", "Ud4Lc4", "Ud4Le4", "Ud4Ld3", "Ud4Ld5", // ordinary (Ue5 is the Guru)
        "Ud4Uf4", "Ud4Ud6", "Ud4Uf6", "Ud4Lf5", "Ud4Le6", // enlightened
    ]);
    assert_eq!(moves_from(&*s, "Ud4"), expected);

    let s = open(Some(&fen(&with_far_kings(&[("Ud4", "rK"), ("Ue5", "rG")]), 'r')), &[]);
    let expected = set(&[
        "Ud4Uc4", "Ud4Ue4", "Ud4Ud3", "Ud4Ud5", "Ud4Ld4", // orthogonal
        "Ud4Uc3", "Ud4Ue3", "Ud4Uc5", "Ud4Lc4", "Ud4Le4", "Ud4Ld3", "Ud4Ld5", // diagonal
        "Ud4Uf4", "Ud4Ud6", "Ud4Uf6", "Ud4Lf5", "Ud4Le6", // enlightened
    ]);
    assert_eq!(moves_from(&*s, "Ud4"), expected);
}

/// Emperor or Baron on Ld4, offset (−1,−1,−1) of length √3: granted Lf4, Ld6, Lf6.
#[test]
fn enlightened_emperor_and_baron() {
    let s = open(Some(&fen(&with_far_kings(&[("Ld4", "rM"), ("Ue5", "rG")]), 'r')), &[]);
    let mut expected = set(&["Ld4Lc3", "Ld4Ld3", "Ld4Le3", "Ld4Lc4", "Ld4Le4", "Ld4Lc5", "Ld4Ld5", "Ld4Le5"]);
    expected.extend(set(&["Ld4Uc3", "Ld4Ud3", "Ld4Ue3", "Ld4Uc4", "Ld4Ud4", "Ld4Ue4", "Ld4Uc5", "Ld4Ud5"]));
    expected.extend(set(&["Ld4Lf4", "Ld4Ld6", "Ld4Lf6"]));
    assert_eq!(expected.len(), 19);
    assert_eq!(moves_from(&*s, "Ld4"), expected);

    let s = open(Some(&fen(&with_far_kings(&[("La1", "rK"), ("Ld4", "rB"), ("Ue5", "rG")]), 'r')), &[]);
    let expected = set(&[
        "Ld4Lc3", "Ld4Le3", "Ld4Lc5", "Ld4Le5", // ferz within the level
        "Ld4Uc4", "Ld4Ue4", "Ld4Ud3", "Ld4Ud5", // ferz between levels
        "Ld4Uc3", "Ld4Ue3", "Ld4Uc5", // viceroy (Ue5 is the Guru)
        "Ld4Lf4", "Ld4Ld6", "Ld4Lf6", // enlightened
    ]);
    assert_eq!(moves_from(&*s, "Ld4"), expected);
}

/// Knight on Uc4, offset (−2,−1,0): every empty knight cell of e5 is granted, none of them an
/// ordinary move of the Knight.
#[test]
fn enlightened_knight() {
    let s = open(Some(&fen(&with_far_kings(&[("La1", "rK"), ("Uc4", "rN"), ("Ue5", "rG")]), 'r')), &[]);
    let expected = set(&[
        "Uc4Ub2", "Uc4Ud2", "Uc4Ub6", "Uc4Ud6", "Uc4Ua3", "Uc4Ue3", "Uc4Ua5", "Uc4La4", "Uc4Le4", "Uc4Lc2", "Uc4Lc6", "Uc4Uc6", "Uc4Ud3",
        "Uc4Ud7", "Uc4Uf3", "Uc4Uf7", "Uc4Ug4", "Uc4Ug6", "Uc4Lc5", "Uc4Lg5", "Uc4Le3", "Uc4Le7",
    ]);
    assert_eq!(moves_from(&*s, "Uc4"), expected);
}

/// Elephant on Uc3, offset (−2,−2,0): Ug3, Uc7, Ug7 on the Guru's level. With friendly Elephants
/// on both midpoints of Uc3→Ug7 it is still one Enlightened Move and no Charge runs through the
/// Guru's cell.
#[test]
fn enlightened_elephant() {
    let s = open(Some(&fen(&with_far_kings(&[("La1", "rK"), ("Uc3", "rE"), ("Ue5", "rG")]), 'r')), &[]);
    assert_eq!(moves_from(&*s, "Uc3"), set(&["Uc3Ua1", "Uc3Ue1", "Uc3Ua5", "Uc3Ug3", "Uc3Uc7", "Uc3Ug7"]));

    let men = with_far_kings(&[("La1", "rK"), ("Uc3", "rE"), ("Ud4", "rE"), ("Uf6", "rE"), ("Ue5", "rG")]);
    let s = open(Some(&fen(&men, 'r')), &[]);
    assert!(moves_from(&*s, "Uc3").contains("Uc3Ug7"));
    assert!(s.legal_move_texts().iter().all(|m| !m.contains("Ue5,") && !m.starts_with("Uc3Ue5")));
}

/// Rook on Ue2, Ue3 and Ue4 empty (distance 3): Ub5, Uh5, Ue8 granted when the paths from the
/// Guru are clear; a Rook right under the Guru gets the Guru's four empty orthogonal neighbours.
#[test]
fn enlightened_rook() {
    let ordinary =
        ["Ue2Ua2", "Ue2Ub2", "Ue2Uc2", "Ue2Ud2", "Ue2Uf2", "Ue2Ug2", "Ue2Uh2", "Ue2Ui2", "Ue2Uj2", "Ue2Ue1", "Ue2Ue3", "Ue2Ue4", "Ue2Le2"];
    let s = open(Some(&fen(&with_far_kings(&[("La1", "rK"), ("Ue2", "rR"), ("Ue5", "rG")]), 'r')), &[]);
    let mut expected = set(&ordinary);
    expected.extend(set(&["Ue2Ub5", "Ue2Uh5", "Ue2Ue8"]));
    assert_eq!(moves_from(&*s, "Ue2"), expected);

    // A man on c5 closes the path to b5.
    let s = open(Some(&fen(&with_far_kings(&[("La1", "rK"), ("Ue2", "rR"), ("Ue5", "rG"), ("Uc5", "bE")]), 'r')), &[]);
    let mut expected = set(&ordinary);
    expected.extend(set(&["Ue2Uh5", "Ue2Ue8"]));
    assert_eq!(moves_from(&*s, "Ue2"), expected);

    // A man between the Guru and the Rook: no grant.
    let s = open(Some(&fen(&with_far_kings(&[("La1", "rK"), ("Ue2", "rR"), ("Ue5", "rG"), ("Ue4", "bE")]), 'r')), &[]);
    assert!(moves_from(&*s, "Ue2").iter().all(|m| !["Ue2Ub5", "Ue2Uh5", "Ue2Ue8"].contains(&m.as_str())));

    // Rook on Le5 right under the Guru: 18 moves on its level plus Ud5, Uf5, Ue4, Ue6.
    let s = open(Some(&fen(&with_far_kings(&[("La1", "rK"), ("Le5", "rR"), ("Ue5", "rG")]), 'r')), &[]);
    let moves = moves_from(&*s, "Le5");
    assert_eq!(moves.len(), 22);
    assert!(set(&["Le5Ud5", "Le5Uf5", "Le5Ue4", "Le5Ue6"]).is_subset(&moves));
}

/// Two Gurus (Ue5, Ud5) both grant the King on Ue4 the move to Ue6: one move. Ud5 also grants
/// its √2 cells Uc4, Uc6, Lc5, Ld6 (Ld4 and Le5 are ordinary King moves).
#[test]
fn enlightened_move_granted_twice_is_one_move() {
    let s = open(Some(&fen(&with_far_kings(&[("Ue4", "rK"), ("Ue5", "rG"), ("Ud5", "rG")]), 'r')), &[]);
    let expected = set(&[
        "Ue4Ue3", "Ue4Ud4", "Ue4Uf4", "Ue4Le4", "Ue4Ud3", "Ue4Uf3", "Ue4Uf5", "Ue4Ld4", "Ue4Lf4", "Ue4Le3", "Ue4Le5", // ordinary
        "Ue4Ue6", "Ue4Uc4", "Ue4Uc6", "Ue4Lc5", "Ue4Ld6", // enlightened
    ]);
    assert_eq!(moves_from(&*s, "Ue4"), expected);
    assert_distinct(&*s);
}

/// A second Guru at Giraffe distance: Gurus on Ue5 and Ui6 (offset (4,1,0), length √17) grant
/// each other the other Giraffe cells of the partner's cell. Ui6 gains Ui4, Ua6, Ua4, Uf9, Ud1,
/// Li5, La5, Le9, Le1 (Ud9 and Uf1 are its ordinary Gimel moves); Ue5 gains Ue7, Uj10, Uh2, Le6,
/// Li10, Li2 (Uj2 and Uh10 are its ordinary Gimel moves).
#[test]
fn enlightened_second_guru() {
    let s = open(Some(&fen(&with_far_kings(&[("La1", "rK"), ("Ue5", "rG"), ("Ui6", "rG")]), 'r')), &[]);
    let expected = set(&[
        "Ui6Ue7", "Ui6Uj10", "Ui6Uj2", "Ui6Uh10", "Ui6Uh2", "Ui6Le6", "Ui6Li10", "Ui6Li2", "Ui6Ud9", "Ui6Ud3", "Ui6Uf1", // ordinary
        "Ui6Ui4", "Ui6Ua6", "Ui6Ua4", "Ui6Uf9", "Ui6Ud1", "Ui6Li5", "Ui6La5", "Ui6Le9", "Ui6Le1", // enlightened
    ]);
    assert_eq!(moves_from(&*s, "Ui6"), expected);
    let expected = set(&[
        "Ue5Ui4", "Ue5Ua6", "Ue5Ua4", "Ue5Uf9", "Ue5Uf1", "Ue5Ud9", "Ue5Ud1", "Ue5Li5", "Ue5La5", "Ue5Le9", "Ue5Le1", // Giraffe
        "Ue5Uj8", "Ue5Uj2", "Ue5Uh10", "Ue5Ub10", // Gimel
        "Ue5Ue7", "Ue5Uj10", "Ue5Uh2", "Ue5Le6", "Ue5Li10", "Ue5Li2", // enlightened
    ]);
    assert_eq!(moves_from(&*s, "Ue5"), expected);
    assert_distinct(&*s);
}

/// Decisions of §4.1/§7.7: an Igtivlander grants, an Archduke uses. Archduke on Ue4 below an
/// Igtivlander on Ue5: 7 cells on its level, 9 below, and Ue6 granted.
#[test]
fn enlightened_igtivlander_grants_archduke() {
    let s = open(Some(&fen(&with_far_kings(&[("La1", "rK"), ("Ue4", "rA"), ("Ue5", "rI")]), 'r')), &[]);
    let moves = moves_from(&*s, "Ue4");
    assert_eq!(moves.len(), 17);
    assert!(moves.contains("Ue4Ue6"));
}

// ---------------------------------------------------------------- Elephant Charge (§4.2, §7.6, §7.11)

/// Red Elephants on Uc3 and Ud4. From {c3,d4}: c3 leaps over d4 to e5, or d4 over c3 to b2.
/// {d4,e5}: d4→f6 (e5→c3 would repeat the start). {e5,f6}: e5→g7. {f6,g7}: f6→h8 (4 leaps, the
/// limit). {b2,c3}: c3→a1 (b2→d4 repeats); {a1,b2}: nothing new. Four Charges.
pub(crate) fn charge_men() -> Vec<(&'static str, &'static str)> {
    with_far_kings(&[("La1", "rK"), ("Uc3", "rE"), ("Ud4", "rE")])
}

/// Every legal move of the Charge position, written as a record writes it (a Charge's legs after
/// the Elephant's code), reads back as the same move.
#[test]
fn records_of_charges_read_back() {
    let s = open(Some(&fen(&charge_men(), 'r')), &[]);
    let moves = s.legal_moves();
    assert!(moves.len() > 4);
    for mv in moves {
        let record = s.move_record(mv);
        assert_eq!(s.parse_move(&record).map(|m| s.move_text(m)), Ok(s.move_text(mv)), "{record}");
    }
}

#[test]
fn elephant_charges_of_two_three_and_four_leaps() {
    let s = open(Some(&fen(&charge_men(), 'r')), &[]);
    assert_eq!(charges(&*s), set(&["Uc3Ue5,Ud4Uf6", "Uc3Ue5,Ud4Uf6,Ue5Ug7", "Uc3Ue5,Ud4Uf6,Ue5Ug7,Uf6Uh8", "Ud4Ub2,Uc3Ua1"]));
    // A single leap over a friendly Elephant is an ordinary move.
    assert!(s.legal_move_texts().contains(&"Uc3Ue5".to_string()));
    assert_distinct(&*s);

    // Three leaps played: the Elephants end on f6 and g7.
    let mut s = open(Some(&fen(&charge_men(), 'r')), &["Uc3Ue5,Ud4Uf6,Ue5Ug7"]);
    let after = fen(&with_far_kings(&[("La1", "rK"), ("Uf6", "rE"), ("Ug7", "rE")]), 'b').replace(" 0 1 ", " 1 1 ");
    assert_eq!(s.position_string(), after);
    assert_eq!(s.hash(), open(Some(&after), &[]).hash(), "incremental hash after a Charge");
    // Two leaps played.
    s.set_position(Some(&fen(&charge_men(), 'r')), &["Uc3Ue5,Ud4Uf6"]).expect("legal charge");
    let after = fen(&with_far_kings(&[("La1", "rK"), ("Ue5", "rE"), ("Uf6", "rE")]), 'b').replace(" 0 1 ", " 1 1 ");
    assert_eq!(s.position_string(), after);
    // Illegal and malformed Charges are refused without panicking.
    assert!(s.play_text("Uc3Ue5,Ue5Uc3").is_err());
    assert!(s.play_text("Uc3Ue5,").is_err());
    assert!(s.play_text(",,,").is_err());
}

/// With a Blue Ferz on Ue5 the first leap c3→e5 captures it; the return leap e5→c3 is then
/// allowed (the board differs from the start), and from there d4→b2 and c3→a1 follow.
#[test]
fn elephant_charge_with_capture_allows_a_return_leap() {
    let mut men = charge_men();
    men.push(("Ue5", "bF"));
    let s = open(Some(&fen(&men, 'r')), &[]);
    assert_eq!(
        charges(&*s),
        set(&[
            "Uc3Ue5,Ud4Uf6",
            "Uc3Ue5,Ud4Uf6,Ue5Ug7",
            "Uc3Ue5,Ud4Uf6,Ue5Ug7,Uf6Uh8",
            "Uc3Ue5,Ue5Uc3",
            "Uc3Ue5,Ue5Uc3,Ud4Ub2",
            "Uc3Ue5,Ue5Uc3,Ud4Ub2,Uc3Ua1",
            "Ud4Ub2,Uc3Ua1",
        ])
    );
    let s = open(Some(&fen(&men, 'r')), &["Uc3Ue5,Ue5Uc3"]);
    assert_eq!(s.position_string(), fen(&charge_men(), 'b'), "the Ferz is gone, halfmove clock reset");
}

/// Green's King on Ui9: after c3→e5, d4→f6, e5→g7 the Elephant on g7 attacks i9, so that Charge
/// (and its four-leap extension) is refused; the two-leap Charges stay.
#[test]
fn elephant_charge_refused_when_a_king_would_be_in_check() {
    let men = vec![("La1", "rK"), ("Uc3", "rE"), ("Ud4", "rE"), ("Lj1", "bK"), ("Ui9", "gK"), ("La10", "oK")];
    let s = open(Some(&fen(&men, 'r')), &[]);
    assert_eq!(charges(&*s), set(&["Uc3Ue5,Ud4Uf6", "Ud4Ub2,Uc3Ua1"]));
    assert!(open(Some(&fen(&men, 'r')), &[]).set_position(Some(&fen(&men, 'r')), &["Uc3Ue5,Ud4Uf6,Ue5Ug7"]).is_err());
}

/// The Elephant on Uc3 shields Orange's King on Ua3 from Blue's Rook on Uh3. Every Charge moves
/// it at some leap and so puts a King in check between two other players: none is legal. The
/// ordinary move Uc3Ue5 is legal, and Blue then mates Orange at once at the start of its turn.
#[test]
fn elephant_charge_refused_for_a_check_between_other_players() {
    let men = vec![("La1", "rK"), ("Uc3", "rE"), ("Ud4", "rE"), ("Lj1", "bK"), ("Uh3", "bR"), ("Lj10", "gK"), ("Ua3", "oK")];
    let s = open(Some(&fen(&men, 'r')), &[]);
    assert!(charges(&*s).is_empty());
    let s = open(Some(&fen(&men, 'r')), &["Uc3Ue5"]);
    let expected = vec![("La1", "rK"), ("Ue5", "rE"), ("Ud4", "rE"), ("Lj1", "bM*"), ("Uh3", "bV*"), ("Lj10", "gK")];
    let expected = fen(&expected, 'b').replace(" rbgo - - 0 1 0:", " rbg - - 0 1 1:ob");
    assert_eq!(s.position_string(), expected);
}

// ---------------------------------------------------------------- face promotion (§3.2)

fn promotion_men() -> Vec<(&'static str, &'static str)> {
    vec![
        ("La1", "rK"),
        ("Ua9", "rP"),
        ("Ub9", "rP"),
        ("Uc9", "rP"),
        ("Ud9", "rP"),
        ("Ue9", "rP"),
        ("Ui4", "rP"),
        ("Lh9", "rP"),
        ("Uh10", "bE"),
        ("Lj1", "bK"),
        ("Lg5", "gK"),
        ("Ld6", "oK"),
    ]
}

/// Red's faces are rank 10 and file j; the column decides: a G, b R, c N, d E, e F (rank 10),
/// j4 E (file j, fourth from the corner), h10 N (also by a capture that changes level).
#[test]
fn face_promotion_on_each_column_type() {
    let s = open(Some(&fen(&promotion_men(), 'r')), &[]);
    assert_eq!(moves_from(&*s, "Ua9"), set(&["Ua9Ua10g"]));
    assert_eq!(moves_from(&*s, "Ub9"), set(&["Ub9Ub10r"]));
    assert_eq!(moves_from(&*s, "Uc9"), set(&["Uc9Uc10n"]));
    assert_eq!(moves_from(&*s, "Ud9"), set(&["Ud9Ud10e"]));
    assert_eq!(moves_from(&*s, "Ue9"), set(&["Ue9Ue10f", "Ue9Uf9"]));
    assert_eq!(moves_from(&*s, "Ui4"), set(&["Ui4Uj4e", "Ui4Ui5"]));
    assert_eq!(moves_from(&*s, "Lh9"), set(&["Lh9Li9", "Lh9Lh10n", "Lh9Uh10n"]));

    // The suffix may be left out; the promoted man stands on the face.
    let s = open(Some(&fen(&promotion_men(), 'r')), &["Ub9Ub10"]);
    let mut after = promotion_men();
    after.retain(|m| m.0 != "Ub9");
    after.push(("Ub10", "rR"));
    assert_eq!(s.position_string(), fen(&after, 'b'));
    let s = open(Some(&fen(&promotion_men(), 'r')), &["Lh9Uh10n"]);
    let mut after = promotion_men();
    after.retain(|m| m.0 != "Lh9" && m.0 != "Uh10");
    after.push(("Uh10", "rN"));
    assert_eq!(s.position_string(), fen(&after, 'b'));
}

/// Other players promote on their own faces: Green's are file a and rank 1, Blue's file a and
/// rank 10.
#[test]
fn face_promotion_of_other_players() {
    let men = [("La1", "rK"), ("Lj1", "bK"), ("Lj10", "gK"), ("La10", "oK"), ("Ld2", "gP"), ("Ub5", "bP")];
    let s = open(Some(&fen(&men, 'g')), &[]);
    assert_eq!(moves_from(&*s, "Ld2"), set(&["Ld2Ld1e", "Ld2Lc2"]));
    let s = open(Some(&fen(&men, 'b')), &[]);
    assert_eq!(moves_from(&*s, "Ub5"), set(&["Ub5Ua5f", "Ub5Ub6"]));
}

// ---------------------------------------------------------------- checkmates (§5)

/// Blue's King on Lj1 is boxed in by its own Elephants except on Li1. Red's Rook goes to Lc1:
/// check along rank 1, Li1 is covered too, nothing can block or capture. Green's King on Lj10 is
/// boxed the same way except on Li10.
fn mate_men() -> Vec<(&'static str, &'static str)> {
    vec![
        ("Ua1", "rK"),
        ("Lc5", "rR"),
        ("Lj1", "bK"),
        ("Lj2", "bE"),
        ("Li2", "bE"),
        ("Uj1", "bE"),
        ("Ui1", "bE"),
        ("Uj2", "bE"),
        ("Lj10", "gK"),
        ("Lj9", "gE"),
        ("Li9", "gE"),
        ("Uj10", "gE"),
        ("Ui10", "gE"),
        ("Uj9", "gE"),
        ("Ug6", "gP"),
        ("Ua10", "oK"),
        ("Ub6", "oP"),
    ]
}

/// Red checks Blue; Blue's only move is the pass; at the start of Red's next turn Blue is
/// checkmated: its men leave the board, Red's King becomes an Emperor and the Rook that delivered
/// becomes a Vicereine, both flagged as promoted at the first mate.
#[test]
fn checkmate_with_both_promotions_and_a_pass() {
    let s = open(Some(&fen(&mate_men(), 'r')), &["Lc5Lc1"]);
    assert_eq!(s.legal_move_texts(), vec!["0000".to_string()], "Blue is in check with no move: it passes");
    let s = open(Some(&fen(&mate_men(), 'r')), &["Lc5Lc1", "0000", "Ug6Ug5", "Ub6Ub5"]);
    let mut after: Vec<_> = mate_men().into_iter().filter(|(_, m)| !m.starts_with('b')).collect();
    after.retain(|m| !["Ua1", "Lc5", "Ug6", "Ub6"].contains(&m.0));
    after.extend([("Ua1", "rM*"), ("Lc1", "rV*"), ("Ug5", "gP"), ("Ub5", "oP")]);
    let expected = fen(&after, 'r').replace(" rbgo - - 0 1 0:", " rgo - - 0 2 1:br");
    assert_eq!(s.position_string(), expected);
    assert_eq!(s.hash(), open(Some(&expected), &[]).hash(), "incremental hash after a checkmate");
    let status = s.status_text();
    assert!(!status.over);
    assert_eq!(status.eliminated, vec![("Blue".to_string(), "Red".to_string())]);
}

/// After the first mate the Vicereine goes to Lc10 and checks Green along rank 10; Green passes,
/// Orange moves, and at Red's turn Green is mated by the Vicereine promoted at the first mate:
/// Red wins. Orange, neither mating nor mated, is second; Green third; Blue fourth.
#[test]
fn second_mate_by_the_first_deliverer_wins() {
    let moves = ["Lc5Lc1", "0000", "Ug6Ug5", "Ub6Ub5", "Lc1Lc10", "0000", "Ub5Ub4"];
    let s = open(Some(&fen(&mate_men(), 'r')), &moves);
    let status = s.status_text();
    assert!(status.over);
    assert_eq!(status.reason, "win rule");
    assert_eq!(status.winner.as_deref(), Some("Red"));
    assert_eq!(status.placings, vec!["Red", "Orange", "Green", "Blue"]);
    assert!(s.legal_move_texts().is_empty());
    assert_eq!(s.perft(1), 0);
    // The win by rule is recorded in the position string (`!r`).
    assert!(s.position_string().ends_with(" 2:brgr!r"));
}

/// §5.3 simultaneous mates: at the start of Red's turn its Rook on Lc1 attacks Blue's King (rank 1)
/// and Green's (file c). Blue, first after Red, is mated and the Rook becomes a Vicereine; then
/// Green is mated by that Vicereine, the second mate by a piece promoted at the first: Red wins.
/// Green, processed later, ranks above Blue.
#[test]
fn double_mate_by_the_same_piece_wins_at_once() {
    let men = [("Ua1", "rK"), ("Lc1", "rR"), ("Lj1", "bK"), ("Lc10", "gK"), ("La10", "oK"), ("Ub6", "oP")];
    let s = open(Some(&fen(&men, 'o')), &["Ub6Ub5"]);
    let expected =
        fen(&[("Ua1", "rM*"), ("Lc1", "rV*"), ("La10", "oK"), ("Ub5", "oP")], 'r').replace(" rbgo - - 0 1 0:", " ro - - 0 2 2:brgr!r");
    assert_eq!(s.position_string(), expected);
    let status = s.status_text();
    assert!(status.over);
    assert_eq!(status.winner.as_deref(), Some("Red"));
    assert_eq!(status.placings, vec!["Red", "Orange", "Green", "Blue"]);
}

/// A Pawn that delivers mate becomes an Archduke: Red's Pawn steps Uh1→Ui1 and checks Blue's King
/// on Lj1 by (+1,0,−1), protected by the Rook on Ua1; every other neighbour of the King holds a
/// Blue Elephant. After the mate the Archduke on Ui1 has all 11 one-step cells around it, empty
/// now that Blue's men are gone.
#[test]
fn pawn_mater_becomes_an_archduke() {
    let men = vec![
        ("La5", "rK"),
        ("Ua1", "rR"),
        ("Uh1", "rP"),
        ("Lj1", "bK"),
        ("Li1", "bE"),
        ("Lj2", "bE"),
        ("Li2", "bE"),
        ("Uj1", "bE"),
        ("Uj2", "bE"),
        ("Lj10", "gK"),
        ("Ug6", "gP"),
        ("La10", "oK"),
        ("Ub6", "oP"),
    ];
    let s = open(Some(&fen(&men, 'r')), &["Uh1Ui1"]);
    assert_eq!(s.legal_move_texts(), vec!["0000".to_string()]);
    let s = open(Some(&fen(&men, 'r')), &["Uh1Ui1", "0000", "Ug6Ug5", "Ub6Ub5"]);
    let expected = vec![("La5", "rM*"), ("Ua1", "rR"), ("Ui1", "rA*"), ("Lj10", "gK"), ("Ug5", "gP"), ("La10", "oK"), ("Ub5", "oP")];
    let expected = fen(&expected, 'r').replace(" rbgo - - 0 1 0:", " rgo - - 0 2 1:br");
    assert_eq!(s.position_string(), expected);
    let archduke = moves_from(&*s, "Ui1");
    assert_eq!(
        archduke,
        set(&["Ui1Uh1", "Ui1Uj1", "Ui1Uh2", "Ui1Ui2", "Ui1Uj2", "Ui1Li1", "Ui1Lh1", "Ui1Lj1", "Ui1Lh2", "Ui1Li2", "Ui1Lj2"])
    );
}

// ---------------------------------------------------------------- text forms and protocol

#[test]
fn position_strings_round_trip_and_board_shows_both_levels() {
    let s = open(None, &[]);
    let start = s.position_string();
    assert!(start.starts_with("oGoNoPgEgEgEgEgRgFgK/"));
    assert_eq!(open(Some(&start), &[]).position_string(), start);
    let promoted = format!("rM*rV*rA*rC*rW*rB*rI*3{}/gK9 r rg - - 0 1 2:bror", "/10".repeat(18));
    let s = open(Some(&promoted), &[]);
    assert_eq!(s.position_string(), promoted);
    let board = s.board_text();
    assert!(board.contains("Level Upper:") && board.contains("Level Lower:"));
    assert_eq!(board.lines().filter(|l| l.contains("..")).count(), 20, "20 rows drawn");
    let bad = [
        String::new(),
        "rK/ r".to_string(),
        promoted.replace("rM*", "rQ"),
        promoted.replace("rM*", "xM"),
        promoted.replace("rM*", "rM*rK"),
        promoted.replace("2:bror", "2:bz"),
        promoted.replace(" rg ", " rgb "),
        promoted.replace("gK9", "gK8"),
        promoted.replace("rM*", "rm"),
    ];
    for b in &bad {
        assert!(session::open("guru2").expect("exists").set_position(Some(b), &[]).is_err(), "{b:?} accepted");
    }
}

#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Buffer {
    fn text(&self) -> String {
        String::from_utf8(self.0.lock().expect("buffer").clone()).expect("utf-8")
    }
}

/// Protocol input that ends only once the engine has answered with `bestmove` (the engine stops
/// a running search at end of input).
struct UntilBestmove {
    input: &'static [u8],
    output: Buffer,
}

impl Read for UntilBestmove {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if !self.input.is_empty() {
            return self.input.read(buf);
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        while !self.output.text().contains("bestmove") && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        Ok(0)
    }
}

impl Write for Buffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("buffer").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn protocol_perft_and_go() {
    let buffer = Buffer::default();
    let out: Output = Arc::new(Mutex::new(buffer.clone()));
    let mut engine = Engine::new(out);
    let input = "setoption name UCI_Variant value guru2\nposition startpos\ngo perft 2\nd\ngo depth 2\n";
    engine.run(BufReader::new(UntilBestmove { input: input.as_bytes(), output: buffer.clone() }));
    let text = buffer.text();
    assert!(text.contains("info string game guru2 players r:Red,b:Blue,g:Green,o:Orange cells 200 levels 2"), "{text}");
    assert!(text.contains("Nodes searched: 2404"), "{text}");
    assert!(text.contains("Level Upper:"), "{text}");
    let best = text.lines().find_map(|l| l.strip_prefix("bestmove ")).expect("a bestmove line");
    let best = best.split_whitespace().next().expect("a move");
    assert!(open(None, &[]).legal_move_texts().contains(&best.to_string()), "bestmove {best} is legal");
}
