//! Armies of Faith 3 (`shared/rules/aof3.md`): perft anchors of §7, every example of §1.9, the
//! barriers, en passant, promotion and the checkmate rules, each with hand-worked results.

use crate::common::SessionText;
use tessera::session::{self, Session};
use tessera::{games, notation};

const START: &str = "oAoSoP2rPrSrA/oAoAoP3rPrArA/oSoPoP2rPrPrS/oP5rP/6/gP5bP/gSgPgP2bPbPbS/gAgAgP3bPbAbA/gAgSgP2bPbSbA/\
oEoRoP2rPrRrE/oEoRoP3rPrRrE/oRoPoP2rPrPrR/oP5rP/6/gP5bP/gRgPgP2bPbPbR/gEgRgP3bPbRbE/gEgRgP2bPbRbE/\
oKoBoP2rPrBrK/oM1oP3rP1rM/oBoP4rPrB/oP5rP/6/gP5bP/gBgP4bPbB/gM1gP3bP1bM/gKgBgP2bPbBbK/\
oCoNoP2rPrNrC/oC1oP3rP1rC/oNoPoP2rPrPrN/oP5rP/6/gP5bP/gNgPgP2bPbPbN/gC1gP3bP1bC/gCgNgP2bPbNbC/\
oUoLoP2rPrLrU/oUoUoP3rPrUrU/oLoPoP2rPrPrL/oP5rP/6/gP5bP/gLgPgP2bPbPbL/gUgUgP3bPbUbU/gUgLgP2bPbLbU r rogb - - 0 1 0:";

/// One King per player on level 5, each in its own corner, out of the way of the tests below.
const KINGS: [(&str, &str); 4] = [("ec5", "rK"), ("nl5", "oK"), ("jh5", "gK"), ("qa5", "bK")];

/// A position string with `men` (cell, token) on an otherwise empty board.
fn fen(men: &[(&str, &str)], to_move: char, active: &str, ep: &str, mates: &str) -> String {
    let def = games::definition("aof3").expect("aof3 exists");
    let placement = notation::placement_from(&def.geometry, men).expect("men on cells of the board");
    format!("{placement} {to_move} {active} - {ep} 0 1 {mates}")
}

fn open(position: &str) -> Box<dyn Session> {
    let mut s = session::open("aof3").expect("aof3 exists");
    s.set_position(Some(position), &[]).unwrap_or_else(|e| panic!("{e}: {position}"));
    s
}

/// Like [`with_kings`], but the other players' Kings stand on whichever of their back cells (levels 5
/// and 1) the given men do not attack: Red to move may not attack an active King (that King would
/// already have been checkmated at the start of the turn).
fn red_to_move_with_safe_kings(men: &[(&str, &str)]) -> Box<dyn Session> {
    let choices: [[(&str, &str); 2]; 3] = [[("nl5", "oK"), ("ml5", "oK")], [("jh5", "gK"), ("ji5", "gK")], [("qa5", "bK"), ("ra5", "bK")]];
    for level in ["5", "1"] {
        for pick in 0..8 {
            let mut all: Vec<(String, String)> = vec![("ec5".into(), "rK".into())];
            for (i, options) in choices.iter().enumerate() {
                let (cell, king) = options[pick >> i & 1];
                all.push((cell.replace('5', level), king.to_string()));
            }
            all.extend(men.iter().map(|&(c, m)| (c.to_string(), m.to_string())));
            let refs: Vec<(&str, &str)> = all.iter().map(|(c, m)| (c.as_str(), m.as_str())).collect();
            let mut s = session::open("aof3").expect("aof3 exists");
            if s.set_position(Some(&fen(&refs, 'r', "rogb", "-", "0:")), &[]).is_ok() {
                return s;
            }
        }
    }
    panic!("no King placement leaves the other Kings unattacked by {men:?}");
}

/// A position with the four Kings, the given men, and `to_move` to play.
fn with_kings(men: &[(&str, &str)], to_move: char) -> Box<dyn Session> {
    let mut all: Vec<(&str, &str)> = KINGS.to_vec();
    all.extend_from_slice(men);
    open(&fen(&all, to_move, "rogb", "-", "0:"))
}

/// The legal moves starting at `from`, sorted.
fn moves_from(s: &dyn Session, from: &str) -> Vec<String> {
    let mut v: Vec<String> = s.legal_move_texts().into_iter().filter(|m| m.starts_with(from)).collect();
    v.sort();
    v
}

fn sorted(from: &str, targets: &str) -> Vec<String> {
    let mut v: Vec<String> = targets.split_whitespace().map(|t| format!("{from}{t}")).collect();
    v.sort();
    v
}

fn perft(depth: u32) -> u64 {
    session::open("aof3").expect("aof3 exists").perft(depth)
}

#[test]
fn perft_depth_1_to_3() {
    assert_eq!(perft(1), 104);
    assert_eq!(perft(2), 10_798);
    assert_eq!(perft(3), 1_120_808);
}

#[test]
#[ignore = "deep perft: run optimised by .ci/run"]
fn perft_depth_4() {
    assert_eq!(perft(4), 116_142_973);
}

#[test]
fn start_position_string_is_the_documented_one() {
    let s = session::open("aof3").expect("aof3 exists");
    assert_eq!(s.position_string(), START);
    let parsed = open(START);
    assert_eq!(parsed.position_string(), START);
    assert_eq!(parsed.hash(), s.hash());
    assert_eq!(s.to_move_name(), "Red");
}

#[test]
fn board_text_draws_hex_levels_with_notches() {
    let text = session::open("aof3").expect("aof3 exists").board_text();
    assert!(text.contains("Level 5:"));
    // Row s = 23 of level 1: notch, Orange Pawn on mj, five empty cells, Red Pawn on da, notch.
    assert!(text.contains(" ##  oP  .   .   .   .   .   rP  ##   mj1..da1"), "{text}");
    // Row s = 26 of level 3 is half a cell to the right of row s = 25.
    assert!(text.contains("\n   oK  oB  oP  .   .   rP  rB  rK     nl3..ec3\n oM  .   oP"), "{text}");
}

#[test]
fn bad_position_strings_are_errors() {
    let mut s = session::open("aof3").expect("aof3 exists");
    for bad in [
        "",
        "oK/6 r rogb - - 0 1 0:",
        &START.replace("oKoB", "oKoX"),
        &START.replace("oKoB", "xKoB"),
        &START.replace(" r rogb ", " q rogb "),
        &START.replace(" - - 0 1", " - zz9 0 1"),
        &START.replace(" 0:", " 1:o"),
    ] {
        assert!(s.set_position(Some(bad), &[]).is_err(), "{bad}");
    }
    assert!(s.play_text("ec3ec4").is_err());
    assert!(s.play_text("zz9").is_err());
}

// §1.9: the seed's examples.

#[test]
fn knight_cycle_returns_home_in_five_moves() {
    let s = with_kings(&[("ec3", "rN")], 'r');
    assert_eq!(moves_from(&*s, "ec3"), sorted("ec3", "ea2 ea4 ga2 ga4 fb1 fb5 eb1 eb5 dc1 dc5"));
    for (from, to) in [("ec3", "ga2"), ("ga2", "fb4"), ("fb4", "eb2"), ("eb2", "ea4"), ("ea4", "ec3")] {
        let s = with_kings(&[(from, "rN")], 'r');
        assert!(moves_from(&*s, from).contains(&format!("{from}{to}")), "{from}-{to}");
    }
}

#[test]
fn camel_reaches_an_adjacent_cell_in_two_moves() {
    let s = with_kings(&[("ec2", "rC")], 'r');
    assert_eq!(moves_from(&*s, "ec2"), sorted("ec2", "rh1 rh3 re1 re3 fb5 eb5 dc5"));
    let s = with_kings(&[("eb5", "rC")], 'r');
    assert!(moves_from(&*s, "eb5").contains(&"eb5dc2".to_string()));
}

#[test]
fn bishop_eb2_ec3_dc2() {
    let s = with_kings(&[("ec3", "rB")], 'r');
    assert_eq!(moves_from(&*s, "ec3"), sorted("ec3", "fb4 ga5 fb2 ga1 eb4 ea5 eb2 ea1 dc4 dc2"));
    let s = with_kings(&[("eb2", "rB")], 'r');
    assert!(moves_from(&*s, "eb2").contains(&"eb2ec3".to_string()));
}

#[test]
fn rabbi_goes_round_the_right_notch_in_five_steps() {
    // da1 -> rc1 is barred as a step; the detour da-rf-pg-of-pd-rc turns left round qe.
    let s = with_kings(&[("da1", "rA")], 'r');
    assert!(moves_from(&*s, "da1").contains(&"da1rc1".to_string()));
    for blocker in ["rf1", "pg1", "of1", "pd1"] {
        let s = with_kings(&[("da1", "rA"), (blocker, "rP")], 'r');
        assert!(!moves_from(&*s, "da1").contains(&"da1rc1".to_string()), "blocked on {blocker}");
    }
    let s = with_kings(&[("rc1", "rA")], 'r');
    assert!(moves_from(&*s, "rc1").contains(&"rc1da1".to_string()));
    // The same holds on other levels and for the Moderranger's Rabbi part.
    let s = with_kings(&[("da3", "rO"), ("pg3", "rP")], 'r');
    assert!(!moves_from(&*s, "da3").contains(&"da3rc3".to_string()));
}

#[test]
fn rabbi_goes_round_the_left_notch_in_five_steps() {
    // li -> mj via li-mg-of-pg-oi-mj round nh.
    let s = with_kings(&[("li1", "rA")], 'r');
    assert!(moves_from(&*s, "li1").contains(&"li1mj1".to_string()));
    for blocker in ["mg1", "of1", "pg1", "oi1"] {
        let s = with_kings(&[("li1", "rA"), (blocker, "rP")], 'r');
        assert!(!moves_from(&*s, "li1").contains(&"li1mj1".to_string()), "blocked on {blocker}");
    }
    // The last cell may hold an enemy: the Rabbi captures there.
    let s = with_kings(&[("li1", "rA"), ("mj1", "gP")], 'r');
    assert!(moves_from(&*s, "li1").contains(&"li1mj1".to_string()));
}

#[test]
fn sennight_and_elf_barred_pairs() {
    // Sennight on da1: 6 root-7 targets on the board; qc and rb are barred.
    let s = with_kings(&[("da1", "rS")], 'r');
    assert_eq!(moves_from(&*s, "da1"), sorted("da1", "ec1 fb1 rg1 qg1 pf1 pe1"));
    // Elf on da1: the same columns two levels up.
    let s = with_kings(&[("da1", "rL")], 'r');
    assert_eq!(moves_from(&*s, "da1"), sorted("da1", "ec3 fb3 rg3 qg3 pf3 pe3"));
    let pairs = [("da", "qc"), ("da", "rb"), ("db", "rc"), ("ea", "rc"), ("ki", "mj"), ("lh", "mj"), ("li", "mk"), ("li", "nj")];
    for (a, b) in pairs {
        for (from, to) in [(a, b), (b, a)] {
            let s = red_to_move_with_safe_kings(&[(&format!("{from}1"), "rS")]);
            assert!(!moves_from(&*s, &format!("{from}1")).contains(&format!("{from}1{to}1")), "Sennight {from}-{to}");
            let s = red_to_move_with_safe_kings(&[(&format!("{from}3"), "rL")]);
            let m = moves_from(&*s, &format!("{from}3"));
            assert!(!m.contains(&format!("{from}3{to}1")) && !m.contains(&format!("{from}3{to}5")), "Elf {from}-{to}");
            // The Sevite keeps its Sennight part's barriers.
            let s = red_to_move_with_safe_kings(&[(&format!("{from}2"), "rW")]);
            assert!(!moves_from(&*s, &format!("{from}2")).contains(&format!("{from}2{to}2")), "Sevite {from}-{to}");
        }
    }
}

#[test]
fn unicorn_stops_at_a_barrier() {
    // From qb5 the diagonal qb-rc-da-eb ends at rc (rc-da is barred).
    let s = with_kings(&[("qb5", "rU")], 'r');
    assert_eq!(moves_from(&*s, "qb5"), sorted("qb5", "rc5 pd5 of5 nh5 mj5 oc5"));
    // From eb5 it ends at da; the other diagonal runs down to li.
    let s = with_kings(&[("eb5", "rU")], 'r');
    assert_eq!(moves_from(&*s, "eb5"), sorted("eb5", "ga5 rf5 pg5 nh5 li5 da5"));
    // kh-li-mj-nk: from kh the slide ends at li.
    let s = with_kings(&[("kh5", "rU")], 'r');
    let m = moves_from(&*s, "kh5");
    assert!(m.contains(&"kh5li5".to_string()) && !m.contains(&"kh5mj5".to_string()) && !m.contains(&"kh5nk5".to_string()));
}

#[test]
fn a_man_shielding_its_king_from_a_curved_or_bent_path_may_not_leave_it() {
    // Blue's Rabbi on da1 reaches rc1 only by da-rf-pg-of-pd-rc: Red's Rook on pg1 may only
    // stay on the path (pd1) or take the Rabbi.
    let men = [("rc1", "rK"), ("pg1", "rR"), ("da1", "bA"), ("nl5", "oK"), ("jh5", "gK"), ("qa5", "bK")];
    let s = open(&fen(&men, 'r', "rogb", "-", "0:"));
    assert_eq!(moves_from(&*s, "pg1"), sorted("pg1", "pd1 da1"));
    // Blue's Simurgh on da3 reaches me3 by qe3 and the ray pe-oe-ne: Red's Knight on oe3 may
    // not move.
    let men = [("me3", "rK"), ("oe3", "rN"), ("da3", "bM"), ("nl5", "oK"), ("jh5", "gK"), ("qa5", "bK")];
    let s = open(&fen(&men, 'r', "rogb", "-", "0:"));
    assert_eq!(moves_from(&*s, "oe3"), Vec::<String>::new());
    // With a second man on the path neither is pinned.
    let men = [("me3", "rK"), ("oe3", "rN"), ("pe3", "rN"), ("da3", "bM"), ("nl5", "oK"), ("jh5", "gK"), ("qa5", "bK")];
    let s = open(&fen(&men, 'r', "rogb", "-", "0:"));
    assert_eq!(moves_from(&*s, "oe3").len(), 24);
}

#[test]
fn simurgh_may_not_step_across_a_barrier() {
    // From da3: 20 cells; nothing through rc3 (rc3, qc3, pc3, oc3, rb3, ra3).
    let s = with_kings(&[("da3", "rM")], 'r');
    assert_eq!(moves_from(&*s, "da3"), sorted("da3", "eb3 ec3 fb3 rf3 rg3 rh3 qg3 ph3 oi3 nj3 mk3 qe3 pf3 og3 nh3 mi3 pe3 oe3 ne3 me3"));
    let s = with_kings(&[("rc3", "rM")], 'r');
    assert!(!moves_from(&*s, "rc3").iter().any(|m| m == "rc3da3" || m == "rc3ea3" || m == "rc3db3"));
    let s = with_kings(&[("li3", "rM")], 'r');
    assert!(!moves_from(&*s, "li3").iter().any(|m| m == "li3mj3" || m == "li3mk3" || m == "li3nj3"));
    let s = with_kings(&[("mj3", "rM")], 'r');
    assert!(!moves_from(&*s, "mj3").contains(&"mj3li3".to_string()));
}

#[test]
fn simurgh_stops_or_captures_on_its_diagonal_cell() {
    // An enemy on qe3 is captured there, and the two rays behind it are closed.
    let s = with_kings(&[("da3", "rM"), ("qe3", "gR")], 'r');
    assert_eq!(moves_from(&*s, "da3"), sorted("da3", "eb3 ec3 fb3 rf3 rg3 rh3 qg3 ph3 oi3 nj3 mk3 qe3"));
}

#[test]
fn elephant_leaps_and_emperor_respects_barriers() {
    let s = with_kings(&[("jh2", "rE"), ("kh3", "gP"), ("kg3", "gP")], 'r');
    assert_eq!(moves_from(&*s, "jh2"), sorted("jh2", "lh4 lf4"));
    // The Emperor's diagonal step da-rc is barred like every other component's.
    let men = [("da3", "rI"), ("nl5", "oK"), ("jh5", "gK"), ("qa5", "bK")];
    let s = open(&fen(&men, 'r', "rogb", "-", "0:"));
    let m = moves_from(&*s, "da3");
    assert!(!m.contains(&"da3rc3".to_string()) && m.contains(&"da3qe3".to_string()) && m.contains(&"da3eb3".to_string()));
}

// §4.4: en passant.

#[test]
fn red_takes_blue_en_passant_on_rd() {
    let mut s = with_kings(&[("rc3", "bP"), ("da2", "rP"), ("da4", "rP")], 'b');
    s.play_text("rc3re3").expect("double step");
    assert!(s.position_string().contains(" rd3 "), "{}", s.position_string());
    let m = moves_from(&*s, "da");
    assert!(m.contains(&"da2rd3".to_string()) && m.contains(&"da4rd3".to_string()), "{m:?}");
    s.play_text("da2rd3").expect("en passant");
    // The Blue Pawn on re3 is gone and with it the en passant right.
    let want = fen(&[("ec5", "rK"), ("nl5", "oK"), ("jh5", "gK"), ("qa5", "bK"), ("rd3", "rP"), ("da4", "rP")], 'o', "rogb", "-", "0:");
    assert_eq!(s.position_string(), want.replace(" 0 1 ", " 0 2 "));
}

#[test]
fn blue_takes_red_en_passant_on_rd_two_turns_later() {
    let mut s = with_kings(&[("da3", "rP"), ("rc2", "bP"), ("rc4", "bP")], 'r');
    s.play_text("da3qd3").expect("double step");
    s.play_text("nl5nk5").expect("Orange");
    s.play_text("jh5ji5").expect("Green");
    let m = moves_from(&*s, "rc");
    assert!(m.contains(&"rc2rd3".to_string()) && m.contains(&"rc4rd3".to_string()), "{m:?}");
    let mut taken = s.boxed_clone();
    taken.play_text("rc4rd3").expect("en passant");
    assert!(!taken.legal_move_texts().is_empty());
    assert!(!taken.position_string().contains("rP"), "the Red Pawn on qd3 is gone: {}", taken.position_string());
    // Declined, the right lapses when Red's turn comes round.
    s.play_text("qa5qb5").expect("Blue");
    s.play_text("ec5eb5").expect("Red");
    s.play_text("nk5nl5").expect("Orange");
    s.play_text("ji5jh5").expect("Green");
    assert!(!moves_from(&*s, "rc").contains(&"rc2rd3".to_string()));
}

#[test]
fn green_takes_orange_en_passant_on_mi() {
    let mut s = with_kings(&[("mj3", "oP"), ("li2", "gP"), ("li4", "gP")], 'o');
    s.play_text("mj3mh3").expect("double step");
    let m = moves_from(&*s, "li");
    assert!(m.contains(&"li2mi3".to_string()) && m.contains(&"li4mi3".to_string()), "{m:?}");
    s.play_text("li2mi3").expect("en passant");
    assert!(!s.position_string().contains("oP"));
}

#[test]
fn orange_takes_green_en_passant_on_mi() {
    let mut s = with_kings(&[("li3", "gP"), ("mj2", "oP"), ("mj4", "oP")], 'g');
    s.play_text("li3ni3").expect("double step");
    s.play_text("qa5qb5").expect("Blue");
    s.play_text("ec5eb5").expect("Red");
    let m = moves_from(&*s, "mj");
    assert!(m.contains(&"mj2mi3".to_string()) && m.contains(&"mj4mi3".to_string()), "{m:?}");
    s.play_text("mj4mi3").expect("en passant");
    assert!(!s.position_string().contains("gP"));
}

#[test]
fn en_passant_right_survives_an_occupied_skipped_cell_in_position_strings() {
    // Orange's Rook lands on the skipped cell rd3 before Blue's turn: the right stays recorded
    // (it is usable again if the cell empties) and the position string reads back unchanged.
    let mut s = with_kings(&[("da3", "rP"), ("rc2", "bP"), ("rd1", "oR")], 'r');
    s.play_text("da3qd3").expect("double step");
    s.play_text("rd1rd3").expect("Orange");
    let p = s.position_string();
    assert!(p.contains(" rd3 "), "{p}");
    assert_eq!(open(&p).position_string(), p);
    assert_eq!(open(&p).hash(), s.hash());
}

#[test]
fn en_passant_entry_names_its_player_when_two_pawns_could_have_stepped() {
    // Blue steps rc3-rd3-re3 while a Red Pawn stands on qd3, where a Red da3-rd3-qd3 step would
    // have put it: the entry says whose right it is.
    let mut s = with_kings(&[("rc3", "bP"), ("qd3", "rP"), ("da2", "rP")], 'b');
    s.play_text("rc3re3").expect("double step");
    let p = s.position_string();
    assert!(p.contains(" rd3:b "), "{p}");
    let back = open(&p);
    assert_eq!(back.position_string(), p);
    assert_eq!(back.hash(), s.hash());
    assert!(moves_from(&*back, "da2").contains(&"da2rd3".to_string()));
    let mut s = session::open("aof3").expect("aof3 exists");
    assert!(s.set_position(Some(&p.replace("rd3:b", "rd3:x")), &[]).is_err());
    assert!(s.set_position(Some(&p.replace("rd3:b", "rd3:o")), &[]).is_err());
}

#[test]
fn other_double_steps_cannot_be_taken_en_passant() {
    // Red's double step ea3-re3-qe3 could be taken from rd2 geometrically, but only rd and mi
    // allow en passant.
    let mut s = with_kings(&[("ea3", "rP"), ("rd2", "bP")], 'r');
    s.play_text("ea3qe3").expect("double step");
    assert!(s.position_string().contains(" - 0 1 "), "no en passant right: {}", s.position_string());
    s.play_text("nl5nk5").expect("Orange");
    s.play_text("jh5ji5").expect("Green");
    assert_eq!(moves_from(&*s, "rd2"), sorted("rd2", "re2 qe2 qe3"));
    // Nor may a non-partner take on rd: an Orange Pawn on re2 could reach rd3, but may not
    // take Red's da-rd-qd step there.
    let mut s = with_kings(&[("da3", "rP"), ("re2", "oP")], 'r');
    s.play_text("da3qd3").expect("double step");
    assert!(s.position_string().contains(" - 0 1 "), "no en passant right: {}", s.position_string());
    let m = moves_from(&*s, "re2");
    assert!(m.contains(&"re2rd2".to_string()) && !m.iter().any(|m| m.starts_with("re2rd3")), "{m:?}");
    // And the extra-column Pawn has no double step.
    let s = with_kings(&[("rf2", "rP")], 'r');
    assert_eq!(moves_from(&*s, "rf2"), sorted("rf2", "qf2 qg2"));
}

// §4.5: promotion.

#[test]
fn promotion_is_optional_where_the_pawn_could_move_on() {
    let s = with_kings(&[("nf2", "rP")], 'r');
    let mut want = Vec::new();
    for to in ["mf2", "mg2"] {
        want.push(format!("nf2{to}"));
        for p in ["r", "n", "c", "e", "l", "a", "s", "m", "u", "b"] {
            want.push(format!("nf2{to}{p}"));
        }
    }
    want.sort();
    assert_eq!(moves_from(&*s, "nf2"), want);
    // A Pawn that declined may promote at the end of a later move in the zone.
    let s = with_kings(&[("mf2", "rP")], 'r');
    let m = moves_from(&*s, "mf2");
    assert!(m.contains(&"mf2lf2".to_string()) && m.contains(&"mf2lf2a".to_string()) && m.contains(&"mf2lg2u".to_string()));
}

#[test]
fn promotion_is_compulsory_where_no_forward_column_exists() {
    let s = with_kings(&[("nk2", "rP")], 'r');
    let mut want = Vec::new();
    for to in ["mk2", "ml2"] {
        for p in ["r", "n", "c", "e", "l", "a", "s", "m", "u", "b"] {
            want.push(format!("nk2{to}{p}"));
        }
    }
    want.sort();
    assert_eq!(moves_from(&*s, "nk2"), want);
    let mut s = s;
    s.play_text("nk2mk2a").expect("promotion to Rabbi");
    assert!(s.position_string().contains("rA"));
}

// §4.3, §4.6: checkmate, promotions, the pass and the win rules.

/// Orange's King on jh1 is checked by the Rook on jh5 and every flight cell is covered by the
/// Rooks above kh, ji and kg: Orange can only pass.
fn orange_mated_on_jh1(extra: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
    let mut men =
        vec![("jh1", "oK"), ("jh5", "rR"), ("kh5", "rR"), ("ji5", "rR"), ("kg5", "rR"), ("ec3", "rK"), ("qa3", "bK"), ("rb1", "gK")];
    men.extend_from_slice(extra);
    men
}

#[test]
fn a_player_without_moves_passes_and_is_mated_at_the_maters_turn() {
    let mut s = open(&fen(&orange_mated_on_jh1(&[]), 'o', "rogb", "-", "0:"));
    assert_eq!(s.legal_move_texts(), vec!["0000".to_string()]);
    assert_eq!(s.perft(1), 1);
    s.play_text("0000").expect("pass");
    assert_eq!(s.to_move_name(), "Green");
    s.play_text("rb1rb2").expect("Green");
    assert_eq!(s.status_text().active.len(), 4, "nobody is mated before Red's turn");
    s.play_text("qa3qa4").expect("Blue");
    // Red's turn: Orange is checkmated by Red. The King becomes an Emperor and the Rook on jh5
    // (the only attacker) a Queen, both flagged as the first mate's promotees.
    let want = fen(
        &[("jh5", "rQ*"), ("kh5", "rR"), ("ji5", "rR"), ("kg5", "rR"), ("ec3", "rI*"), ("qa4", "bK"), ("rb2", "gK")],
        'r',
        "rgb",
        "-",
        "1:or",
    )
    .replace(" 0 1 ", " 0 2 ");
    assert_eq!(s.position_string(), want);
    let st = s.status_text();
    assert!(!st.over);
    assert_eq!(st.eliminated, vec![("Orange".to_string(), "Red".to_string())]);
    assert_eq!(s.to_move_name(), "Red");
    // The Emperor steps along hex diagonals; the Queen rides as Rook and Bishop.
    let m = moves_from(&*s, "ec3");
    assert!(m.contains(&"ec3fa3".to_string()) && m.contains(&"ec3db3".to_string()), "{m:?}");
    let m = moves_from(&*s, "jh5");
    assert!(m.contains(&"jh5kh4".to_string()) && m.contains(&"jh5jh1".to_string()));
}

#[test]
fn the_deliverer_is_the_attacker_on_the_lowest_cell() {
    // A Bishop on mh4 (index 236) also attacks jh1 through lh3 and kh2; the Rook is on jh5
    // (index 280). The Bishop becomes the Pope; the Rook stays a Rook.
    let mut s = open(&fen(&orange_mated_on_jh1(&[("mh4", "rB")]), 'b', "rogb", "-", "0:"));
    s.play_text("qa3qa4").expect("Blue");
    let p = s.position_string();
    assert!(p.contains("rF*") && p.contains("rI*") && !p.contains("rQ"), "{p}");
    assert!(p.ends_with(" 1:or"));
}

#[test]
fn a_king_that_mates_simply_becomes_the_emperor() {
    let men = [("nk3", "rK"), ("nl3", "oK"), ("jh1", "gK"), ("qa1", "bK")];
    let mut s = open(&fen(&men, 'b', "rogb", "-", "0:"));
    s.play_text("qa1qb1").expect("Blue");
    let want = fen(&[("nk3", "rI*"), ("jh1", "gK"), ("qb1", "bK")], 'r', "rgb", "-", "1:or");
    assert_eq!(s.position_string(), want.replace(" 0 1 ", " 0 2 "));
}

#[test]
fn a_pawn_in_its_zone_that_mates_becomes_a_primate() {
    // Green Pawn on rd4 (in Green's zone) attacks Blue's King on da5 (capture (+1,0) up a level).
    let men = [("rd4", "gP"), ("da5", "bK"), ("jh1", "gK"), ("ec1", "rK"), ("nl1", "oK")];
    let mut s = open(&fen(&men, 'o', "rogb", "-", "0:"));
    s.play_text("nl1nk1").expect("Orange");
    let p = s.position_string();
    assert!(p.contains("gT*") && p.contains("gI*") && p.ends_with(" 1:bg"), "{p}");
}

#[test]
fn second_mate_by_a_first_mate_promotee_wins() {
    // After Red mated Orange: Red's flagged Queen on ng3 checks Green's King on nl3.
    let men = [("ng3", "rQ*"), ("ec1", "rI*"), ("nl3", "gK"), ("qa1", "bK")];
    let mut s = open(&fen(&men, 'b', "rgb", "-", "1:or"));
    s.play_text("qa1qb1").expect("Blue");
    let st = s.status_text();
    assert!(st.over);
    assert_eq!(st.winner.as_deref(), Some("Red"));
    assert_eq!(st.reason, "win rule");
    assert_eq!(st.placings, vec!["Red", "Blue", "Green", "Orange"]);
    assert!(s.legal_move_texts().is_empty());
    assert_eq!(s.perft(1), 0);
    // The Emperor counts as a promotee too.
    let men = [("nk2", "rI*"), ("ng5", "rR"), ("nl3", "gK"), ("qa1", "bK")];
    let mut s = open(&fen(&men, 'b', "rgb", "-", "1:or"));
    s.play_text("qa1qb1").expect("Blue");
    assert_eq!(s.status_text().winner.as_deref(), Some("Red"));
}

#[test]
fn second_mate_by_another_piece_goes_on_between_two() {
    // The unflagged Rook delivers: it becomes a Queen, the game goes on between Red and Blue.
    let men = [("ng3", "rR"), ("ec1", "rI*"), ("mh5", "rQ*"), ("nl3", "gK"), ("qa1", "bK")];
    let mut s = open(&fen(&men, 'b', "rgb", "-", "1:or"));
    s.play_text("qa1qb1").expect("Blue");
    let st = s.status_text();
    assert!(!st.over);
    assert_eq!(st.active, vec!["Red", "Blue"]);
    let want = fen(&[("ng3", "rQ"), ("ec1", "rI*"), ("mh5", "rQ*"), ("qb1", "bK")], 'r', "rb", "-", "2:orgr");
    assert_eq!(s.position_string(), want.replace(" 0 1 ", " 0 2 "));
    // Blue mates Green instead (Green had to pass): Blue's King becomes an Emperor and its Rook
    // a Queen, without the first mate's flag; Red and Blue play on.
    let men = [("jh1", "gK"), ("jh5", "bR"), ("kh5", "bR"), ("ji5", "bR"), ("kg5", "bR"), ("ec3", "rI*"), ("qa3", "bK")];
    let mut s = open(&fen(&men, 'g', "rgb", "-", "1:or"));
    assert_eq!(s.legal_move_texts(), vec!["0000".to_string()]);
    s.play_text("0000").expect("pass");
    let want = fen(&[("jh5", "bQ"), ("kh5", "bR"), ("ji5", "bR"), ("kg5", "bR"), ("ec3", "rI*"), ("qa3", "bI")], 'b', "rb", "-", "2:orgb");
    assert_eq!(s.position_string(), want);
    assert!(!s.status_text().over);
}

#[test]
fn two_victims_at_one_turn_start_are_taken_in_turn_order() {
    // Red attacks Orange's King (nl3, Rook on nd3) and Green's (jh2, Rook on mh2) at once.
    let men = [("nd3", "rR"), ("nl3", "oK"), ("mh2", "rR"), ("jh2", "gK"), ("ec1", "rK"), ("qa1", "bK")];
    let mut s = open(&fen(&men, 'b', "rogb", "-", "0:"));
    s.play_text("qa1qb1").expect("Blue");
    let p = s.position_string();
    // Orange first: nd3 becomes the flagged Queen. Then Green, by the unflagged Rook on mh2.
    assert!(p.ends_with(" 2:orgr"), "{p}");
    assert!(p.contains("rQ*") && p.contains("rI*"), "{p}");
    assert_eq!(s.status_text().active, vec!["Red", "Blue"]);
}

#[test]
fn second_victim_at_one_turn_start_mated_by_the_first_promotee_wins() {
    // The Rook on nd3 attacks Orange's King on nl3 and Green's on nd5. Orange is taken first and
    // the Rook becomes the flagged Queen; it then mates Green too, which wins for Red at once.
    let men = [("nd3", "rR"), ("nl3", "oK"), ("nd5", "gK"), ("ec1", "rK"), ("qa1", "bK")];
    let mut s = open(&fen(&men, 'b', "rogb", "-", "0:"));
    s.play_text("qa1qb1").expect("Blue");
    let st = s.status_text();
    assert!(st.over);
    assert_eq!(st.winner.as_deref(), Some("Red"));
    assert_eq!(st.placings, vec!["Red", "Blue", "Green", "Orange"]);
    // The win by rule is part of the position: `!r`.
    assert!(s.position_string().ends_with(" 2:orgr!r"), "{}", s.position_string());
}
