//! Game-end states of two-player games: checkmate, stalemate, threefold repetition, the
//! fifty-move rule.

use crate::common::{SessionText, StatusText};
use tessera::session;

fn status(id: &str, fen: Option<&str>, moves: &[&str]) -> StatusText {
    let mut s = session::open(id).expect("game exists");
    s.set_position(fen, moves).expect("valid position and moves");
    s.status_text()
}

#[test]
fn fools_mate_is_checkmate() {
    let st = status("chess", None, &["f2f3", "e7e5", "g2g4", "d8h4"]);
    assert!(st.over);
    assert_eq!(st.reason, "checkmate");
    assert_eq!(st.winner.as_deref(), Some("Black"));
    assert_eq!(st.placings, vec!["Black", "White"]);
}

#[test]
fn stalemate_is_a_draw() {
    let st = status("chess", Some("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), &[]);
    assert!(st.over);
    assert_eq!(st.reason, "stalemate");
    assert_eq!(st.winner, None);
}

#[test]
fn threefold_repetition_is_a_draw() {
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let twice: Vec<&str> = shuffle.iter().chain(shuffle.iter()).copied().collect();
    // The start position occurs for the third time after two shuffles.
    let st = status("chess", None, &twice);
    assert!(st.over, "{st:?}");
    assert_eq!(st.reason, "repetition");
    let st = status("chess", None, &twice[..7]);
    assert!(!st.over, "only twice so far: {st:?}");
}

#[test]
fn fifty_move_rule_is_a_draw() {
    let st = status("chess", Some("8/8/8/4k3/8/8/4K3/7R w - - 99 80"), &["h1h2"]);
    assert!(st.over);
    assert_eq!(st.reason, "fifty-move rule");
    let st = status("chess", Some("8/8/8/4k3/8/8/4K3/7R w - - 98 80"), &["h1h2"]);
    assert!(!st.over);
}

#[test]
fn a_game_in_progress_is_not_over() {
    let st = status("cwda-cn", None, &["e2e4"]);
    assert!(!st.over);
    assert_eq!(st.active, vec!["White", "Black"]);
}

#[test]
fn cwda_checkmate_by_an_army_piece() {
    // The Black Colonel (Nutty Knights) charges forward (down) from a3 to a1 and mates along the
    // first rank: f1 stays attacked through the King's own square.
    let st = status("cwda-fn", Some("4k3/8/8/8/8/l7/3PPP2/4K3 b - - 0 1"), &["a3a1"]);
    assert!(st.over, "{st:?}");
    assert_eq!(st.reason, "checkmate");
    assert_eq!(st.winner.as_deref(), Some("Black"));
}

/// Dead positions (FIDE Laws 5.2.2) end the game at once: Kings alone, a King and one minor
/// piece against a bare King, Bishops all on one colour. Positions where a helpmate still exists
/// go on.
#[test]
fn dead_positions_are_insufficient_material() {
    for (fen, dead) in [
        ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", true),
        ("8/8/4k3/8/8/3K4/8/6N1 w - - 0 1", true),
        ("8/8/4k3/8/8/3K4/8/6B1 b - - 0 1", true),
        // Bishops on one colour (c1 and f4 dark, a7... h2 dark too) on both sides.
        ("8/b7/4k3/8/5B2/3K4/8/2B5 w - - 0 1", true),
        // One Bishop on each colour: a mate can still be helped.
        ("8/8/4k3/8/5B2/3K4/8/3b4 w - - 0 1", false),
        ("8/8/4k3/8/8/3K4/8/5NN1 w - - 0 1", false),
        ("8/8/4k3/8/8/3K4/8/6R1 w - - 0 1", false),
        ("8/8/4k3/8/8/3K4/6P1/8 w - - 0 1", false),
        ("8/8/4k3/8/8/3K4/8/5n1N w - - 0 1", false),
    ] {
        let st = status("chess", Some(fen), &[]);
        assert_eq!((st.over, st.reason.as_str()), if dead { (true, "insufficient material") } else { (false, "") }, "{fen}");
        if dead {
            assert_eq!((st.winner, st.placings.as_slice()), (None, ["White=Black".to_string()].as_slice()), "{fen}");
        }
    }
    // A capture into a dead position ends the game.
    let st = status("chess", Some("8/8/4k3/8/3n4/3K4/8/8 w - - 0 1"), &["d3d4"]);
    assert_eq!((st.over, st.reason.as_str()), (true, "insufficient material"));
    // Only the FIDE army's minor pieces are minor: a Clobberers' Waffle may still mate.
    assert!(!status("cwda-cc", Some("8/8/4k3/8/8/3K4/8/6W1 w - - 0 1"), &[]).over);
    assert!(status("cwda-fc", Some("8/8/4k3/8/8/3K4/8/6N1 w - - 0 1"), &[]).over);
    assert!(!status("cwda-fc", Some("8/8/4k3/8/8/3K4/8/6w1 w - - 0 1"), &[]).over);
}
