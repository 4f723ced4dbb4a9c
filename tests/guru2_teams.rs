//! 2 Level Guru Mahachaturaji as teams (`guru2-teams`, `shared/rules/guru2level.md` §5.4, §7.8):
//! Red and Green against Blue and Orange. Hand-built positions, one per team rule, each counted
//! by hand in the comments and set against `guru2` where the rule makes the two games differ.
//! (The start position's perft to depth 4, derived from `guru2`'s, and the random-game test of
//! partner captures are unit tests beside the definition, in `src/games/guru2.rs`.)
//!
//! Kings are kept apart and off each other's lines unless a test says otherwise; there are no
//! Gurus (no Enlightened Moves) and no Elephants (no Charges).

use std::collections::BTreeSet;

use crate::common::{self, EngineProcess, SessionText};
use crate::guru2::fen;
use tessera::search::{Limits, MultiSearch};
use tessera::session::{self, Session};

fn open(game: &str, fen: &str, moves: &[&str]) -> Box<dyn Session> {
    let mut s = session::open(game).expect("game exists");
    s.set_position(Some(fen), moves).unwrap_or_else(|e| panic!("{game}: {e}: {fen}"));
    s
}

fn moves(s: &dyn Session) -> BTreeSet<String> {
    s.legal_move_texts().into_iter().collect()
}

/// A position after Red has mated Blue (Red's King an Emperor), Red, Green and Orange in play.
fn after_blue_mated(men: &[(&str, &str)], to_move: char) -> String {
    fen(men, to_move).replace(" rbgo - - 0 1 0:", " rgo - - 0 10 1:br")
}

/// A partner's man is an obstacle. Red's Rook on Le5: up the file Le6, Le7 and not Green's Pawn
/// on Le8 (2); down Le4–Le1 (4); left Ld5–La5 (4); right Lf5, Lg5 and Blue's Pawn on Lh5 (3); up
/// a level Ue5 (1): 14. Red's King in the corner Ua1 has its 6 cells (Ub1, Ua2, Ub2, La1, Lb1,
/// La2): 20 moves. In `guru2` the Rook also takes the Pawn on Le8: 21.
#[test]
fn a_partners_man_blocks_and_cannot_be_taken() {
    let men = [("Ua1", "rK"), ("Le5", "rR"), ("Le8", "gP"), ("Lh5", "bP"), ("Uj1", "bK"), ("Uj10", "gK"), ("Ua10", "oK")];
    let position = fen(&men, 'r');
    let teams = open("guru2-teams", &position, &[]);
    let solo = open("guru2", &position, &[]);
    assert_eq!(teams.perft(1), 20);
    assert_eq!(solo.perft(1), 21);
    let only_solo: Vec<String> = moves(&*solo).difference(&moves(&*teams)).cloned().collect();
    assert_eq!(only_solo, ["Le5Le8"]);
    assert!(moves(&*teams).contains("Le5Lh5"), "an opponent's man is taken as usual");
}

/// A partner's piece never gives check. Green's Rook on Ua7 looks down the Upper a-file at Red's
/// King on Ua1. In `guru2` Red is in check: the King leaves the file (Ub1, Ub2, La1, Lb1, La2; not
/// Ua2): 5 moves. As teams Red is not in check and may even step onto Ua2, which only its partner
/// attacks: all 6.
#[test]
fn a_partners_piece_gives_no_check() {
    let men = [("Ua1", "rK"), ("Ua7", "gR"), ("Uj1", "bK"), ("Uj10", "gK"), ("Lf10", "oK")];
    let position = fen(&men, 'r');
    let teams = open("guru2-teams", &position, &[]);
    let solo = open("guru2", &position, &[]);
    assert_eq!(solo.perft(1), 5);
    assert_eq!(teams.perft(1), 6);
    assert!(moves(&*teams).contains("Ua1Ua2") && !moves(&*solo).contains("Ua1Ua2"));
}

/// The team win. Red has mated Blue. Green's Rook on Le2 would attack Orange's King on Le10 along
/// the Lower e-file but for Red's Ferz on Le6. Red's moves: the Emperor on Ua1 has the 7 cells
/// around the corner (Ub1, Ua2, Ub2, La1, Lb1, La2, Lb2) and the Ferz its 8 (Ld5, Lf5, Ld7, Lf7,
/// Ud6, Uf6, Ue5, Ue7): 15. Each Ferz move opens the file: at the start of Green's turn Orange is
/// mated, the second checkmate, and both were delivered by Red's team, so Green wins and the game
/// is over (0 replies). After an Emperor move Green has its King's 6 cells in the corner Uj10
/// and the Rook's 14 (Le3, Le4, Le5 up to Red's Ferz; Le1; Ld2–La2; Lf2–Lj2; Ue2) = 20, one
/// fewer with the Emperor on La2 (the Rook stops at Lb2) and two fewer with it on Lb2:
/// 5 × 20 + 19 + 18 = 137.
#[test]
fn two_mates_by_one_team_win_for_the_second_mater() {
    let men = [("Ua1", "rM*"), ("Le6", "rF"), ("Uj10", "gK"), ("Le2", "gR"), ("Le10", "oK")];
    let position = after_blue_mated(&men, 'r');
    let teams = open("guru2-teams", &position, &[]);
    assert_eq!(teams.perft(1), 15);
    assert_eq!(teams.perft(2), 137);
    let won = open("guru2-teams", &position, &["Le6Ld5"]);
    let status = won.status_text();
    assert!(status.over);
    assert_eq!((status.reason.as_str(), status.winner.as_deref()), ("win rule", Some("Green")));
    assert_eq!(status.eliminated, [("Blue".to_string(), "Red".to_string()), ("Orange".to_string(), "Green".to_string())]);
    assert_eq!(status.placings, ["Green", "Red", "Orange", "Blue"], "the partner is second");
    assert_eq!(won.perft(1), 0);
    // In `guru2` the same second mate, by a man not promoted at the first, decides nothing.
    let solo = open("guru2", &position, &["Le6Ld5"]);
    assert!(!solo.status_text().over);
    assert_eq!(solo.status_text().active, ["Red", "Green"]);
}

/// The fall-back to the normal rules. Red has mated Blue; Green's King on Uj10 is in check from
/// Orange's Rook on Uj1 (the Upper j-file), and its other neighbours hold Red's Ferzes, which it
/// may not take: Green has no move and passes (perft 1 = 1). At Orange's turn Green is mated: the
/// second checkmate, by the other team, so nobody wins and play goes on between Red and Orange.
/// The Rook, the deliverer, is now a Vicereine and Orange's King an Emperor. Orange's moves: the
/// Emperor on La5 has 11 neighbours (2 files × 3 ranks × 2 levels, less its own cell); the
/// Vicereine on Uj1 rides Uj2–Uj10 (9, Green's King is gone), Ui1–Ua1 (9), down to Lj1 (1), and
/// its Viceroy step reaches Li2 (1): 20. Perft 2 = 1 × 31.
#[test]
fn mates_by_both_teams_fall_back_to_the_normal_rules() {
    let men = [
        ("Le5", "rM*"),
        ("Ui10", "rF"),
        ("Ui9", "rF"),
        ("Lj10", "rF"),
        ("Li10", "rF"),
        ("Lj9", "rF"),
        ("Uj10", "gK"),
        ("Uj1", "oR"),
        ("La5", "oK"),
    ];
    let position = after_blue_mated(&men, 'g');
    let teams = open("guru2-teams", &position, &[]);
    assert_eq!(teams.legal_move_texts(), ["0000"]);
    assert_eq!(teams.perft(2), 31);
    let after = open("guru2-teams", &position, &["0000"]);
    let status = after.status_text();
    assert!(!status.over);
    assert_eq!(status.active, ["Red", "Orange"]);
    assert_eq!(status.eliminated, [("Blue".to_string(), "Red".to_string()), ("Green".to_string(), "Orange".to_string())]);
    assert_eq!(after.perft(1), 31);
    assert!(after.position_string().contains("oV") && after.position_string().contains("oM"), "{}", after.position_string());
}

/// The protocol names the teams in the game line and in `status`, with the winning team.
#[test]
fn the_protocol_shows_teams_and_the_team_result() {
    let mut e = EngineProcess::start();
    let announce = e.command("setoption name UCI_Variant value guru2-teams");
    assert!(
        announce.iter().any(|l| l.starts_with("info string game guru2-teams players ") && l.ends_with(" teams r+g,b+o")),
        "{announce:?}"
    );
    let men = [("Ua1", "rM*"), ("Le6", "rF"), ("Uj10", "gK"), ("Le2", "gR"), ("Le10", "oK")];
    e.command(&format!("position fen {} moves Le6Ld5", after_blue_mated(&men, 'r')));
    let status = e.command("status");
    assert_eq!(
        status,
        [
            "status over tomove Green reason win-rule winner Green winningteam Red+Green teams Red+Green,Blue+Orange active Red,Green eliminated Blue:Red,Orange:Green placings Green,Red,Orange,Blue"
        ]
    );
    assert!(e.quit().success());
}

/// A team's mate of a weak opponent is a gain for the team. Blue and Orange have two Rooks, two
/// Knights, three Elephants and three Ferzes against two bare Kings; Green's King on Uj8 has no
/// move, so any check mates it (a position of a game drawn by the fifty-move rule at 10 s +
/// 0.1 s). Blue's Rook on Ui10 checks from Uj10. With a team's evaluation taken as the mean of
/// its players' own, each of which counted the partner among its opponents, the mate shrank the
/// weight of Blue's and Orange's own men and read as a loss: Blue played Uh2Lg2.
#[test]
fn a_team_checks_a_king_without_a_move() {
    let start = "8bR1/bR9/4oE4gK/10/10/10/2bN7/5bE4/7bF2/10/7bN2/8oK1/10/3rK4bK1/4oE5/10/10/10/1oF2oF5/10 g rbgo - - 0 109 0:";
    let mut s = open("guru2-teams", start, &["0000", "Le6Lc4", "Ld7Lc7"]);
    let result = common::think(&*s, &Limits { depth: Some(5), ..Limits::default() }, MultiSearch::default());
    let best = common::best_text(&*s, &result).expect("a move");
    s.play_text(&best).expect("legal");
    let checked: Vec<_> = s.status().in_check.iter().map(|p| s.player_name(p).to_string()).collect();
    assert_eq!(checked, ["Green"], "Blue played {best}");
}
