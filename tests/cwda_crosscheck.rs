//! Chess and Cwda move generation against Fairy-Stockfish, position by position.
//!
//! `tests/data/cwda_fsf_perft.txt` is written by `tests/data/cwda_crosscheck.py` (pyffish with the
//! project's definitions in `shared/reference/cwda-fairy-stockfish.ini`): positions met in seeded
//! random games of `chess` and all 16 pairings, biased towards castling, en passant and promotion,
//! each with Fairy-Stockfish's perft at depth 2 or 3 and its sorted legal moves. Every line must
//! match exactly; the script's docstring says how Fairy-Stockfish's single long-castling file is
//! handled in the pairings with one Clobberers side.

use std::collections::HashMap;

use tessera::session::{self, Session};

const DATA: &str = include_str!("data/cwda_fsf_perft.txt");

struct Case {
    line: usize,
    id: &'static str,
    fen: &'static str,
    depth: u32,
    perft: u64,
    moves: Vec<&'static str>,
    tags: Vec<&'static str>,
}

fn cases() -> Vec<Case> {
    DATA.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.is_empty())
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 6, "line {}: six tab-separated fields", i + 1);
            Case {
                line: i + 1,
                id: f[0],
                fen: f[1],
                depth: f[2].parse().expect("depth"),
                perft: f[3].parse().expect("perft"),
                moves: f[4].split_whitespace().collect(),
                tags: f[5].split(',').filter(|t| !t.is_empty()).collect(),
            }
        })
        .collect()
}

fn game_ids() -> Vec<String> {
    let armies = ["f", "c", "n", "r"];
    let mut ids = vec!["chess".to_string()];
    ids.extend(armies.iter().flat_map(|w| armies.iter().map(move |b| format!("cwda-{w}{b}"))));
    ids
}

/// Runs `check` on every selected case with one session per game id and fails with every
/// mismatch listed.
fn check_all(select: impl Fn(&Case) -> bool, check: impl Fn(&dyn Session, &Case) -> Option<String>) {
    let mut sessions: HashMap<&str, Box<dyn Session>> = HashMap::new();
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in cases().iter().filter(|c| select(c)) {
        let s = sessions.entry(case.id).or_insert_with(|| session::open(case.id).unwrap_or_else(|| panic!("game {}", case.id)));
        if let Err(e) = s.set_position(Some(case.fen), &[]) {
            failures.push(format!("line {} {} {}: rejected: {e:?}", case.line, case.id, case.fen));
            continue;
        }
        checked += 1;
        if let Some(f) = check(&**s, case) {
            failures.push(format!("line {} {} {}: {f}", case.line, case.id, case.fen));
        }
    }
    assert!(checked > 0, "no case selected");
    assert!(failures.is_empty(), "{} of {checked} positions differ from Fairy-Stockfish:\n{}", failures.len(), failures.join("\n"));
}

fn moves_differ(s: &dyn Session, case: &Case) -> Option<String> {
    let mut got = s.legal_move_texts();
    got.sort();
    let mut want: Vec<String> = case.moves.iter().map(|m| m.to_string()).collect();
    want.sort();
    if got == want {
        return None;
    }
    let extra: Vec<&String> = got.iter().filter(|m| !want.contains(m)).collect();
    let missing: Vec<&String> = want.iter().filter(|m| !got.contains(m)).collect();
    Some(format!("legal moves: tessera also has {extra:?}, lacks {missing:?}"))
}

fn perft_differs(s: &dyn Session, case: &Case) -> Option<String> {
    let got = s.perft(case.depth);
    (got != case.perft).then(|| format!("perft {} = {got}, Fairy-Stockfish {}", case.depth, case.perft))
}

/// The data exercises what it is meant to: every game id at both depths, with castling (long
/// castling included), en passant, promotion, check and positions with few moves; in the pairings
/// with one Clobberers side, positions searched to depth 3 where both kinds of long castling are
/// still possible.
#[test]
fn data_covers_every_game_and_special_move() {
    let all = cases();
    for id in game_ids() {
        let mine: Vec<&Case> = all.iter().filter(|c| c.id == id).collect();
        assert!(mine.len() >= 150, "{id}: {} positions", mine.len());
        let deep = mine.iter().filter(|c| c.depth == 3).count();
        assert!(deep >= 30 && deep < mine.len(), "{id}: {deep} of {} positions at depth 3", mine.len());
        for tag in ["castle", "long", "ep", "ep_offer", "promo", "check", "few", "handmade"] {
            assert!(mine.iter().any(|c| c.tags.contains(&tag)), "{id}: no position tagged {tag}");
        }
        let armies = id.strip_prefix("cwda-").unwrap_or("ff");
        if armies.matches('c').count() == 1 {
            let both = mine.iter().filter(|c| c.depth == 3 && c.tags.contains(&"both_long")).count();
            assert!(both >= 3, "{id}: {both} depth-3 positions with both long-castling rights");
        }
    }
}

#[test]
fn legal_moves_match_fairy_stockfish() {
    check_all(|_| true, moves_differ);
}

#[test]
fn perft_depth_2_matches_fairy_stockfish() {
    check_all(|c| c.depth == 2, perft_differs);
}

#[test]
fn perft_depth_3_matches_fairy_stockfish() {
    check_all(|c| c.depth == 3, perft_differs);
}
