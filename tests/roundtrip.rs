//! Position strings round-trip: for 1,000 positions reached by random play in every game, the
//! printed position string parses back to the same position (same hash, same legal moves, same
//! string).

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use tessera::{games, session};

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[test]
fn thousand_random_positions_per_game_round_trip() {
    let mut rng = StdRng::seed_from_u64(2026);
    for id in games::ids() {
        let mut s = session::open(&id).expect("listed game opens");
        let mut checked = 0;
        let mut games_played = 0;
        while checked < 1000 {
            let text = s.position_string();
            let mut back = session::open(&id).expect("game opens");
            back.set_position(Some(&text), &[]).unwrap_or_else(|e| panic!("{id}: '{text}' does not parse: {e}"));
            assert_eq!(back.hash(), s.hash(), "{id}: hash differs after round trip of '{text}'");
            let moves = sorted(s.legal_move_texts());
            assert_eq!(sorted(back.legal_move_texts()), moves, "{id}: legal moves differ for '{text}'");
            assert_eq!(back.position_string(), text, "{id}: string differs");
            checked += 1;
            if moves.is_empty() || rng.random_range(0..200) == 0 {
                s = session::open(&id).expect("game opens");
                games_played += 1;
                continue;
            }
            let mv = &moves[rng.random_range(0..moves.len())];
            s.play_text(mv).unwrap_or_else(|e| panic!("{id}: listed move {mv} rejected: {e}"));
        }
        assert!(games_played >= 1, "{id}: random play never ended a game");
    }
}

/// Mutated position strings (characters replaced, inserted, deleted; fields cut) are accepted or
/// rejected with an error, never a panic, and a rejected one leaves the position unchanged.
#[test]
fn mutated_position_strings_never_panic() {
    let mut rng = StdRng::seed_from_u64(77);
    let alphabet: Vec<char> = "0123456789/[]()*!:,- abcdefghijklmnopqrstuvwxyzKQRBNPrybgow€é".chars().collect();
    for id in games::ids() {
        let mut s = session::open(&id).expect("listed game opens");
        let start = s.position_string();
        for _ in 0..500 {
            let mut chars: Vec<char> = start.chars().collect();
            for _ in 0..rng.random_range(1..4) {
                let at = rng.random_range(0..chars.len().max(1)).min(chars.len().saturating_sub(1));
                let c = alphabet[rng.random_range(0..alphabet.len())];
                match rng.random_range(0..3) {
                    0 if !chars.is_empty() => {
                        chars.remove(at);
                    }
                    1 => chars.insert(at, c),
                    _ if !chars.is_empty() => chars[at] = c,
                    _ => {}
                }
            }
            let text: String = chars.into_iter().collect();
            if s.set_position(Some(&text), &[]).is_err() {
                assert_eq!(s.position_string(), start, "{id}: a rejected string changed the position");
            } else {
                s.set_position(None, &[]).expect("start position");
            }
        }
    }
}
