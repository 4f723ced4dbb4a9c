//! Chess with Different Armies: every figure of `shared/reference/cwda-perft.md` (computed there
//! with Fairy-Stockfish), exactly.

use tessera::session::{self, Session};

fn open(id: &str, fen: Option<&str>, moves: &[&str]) -> Box<dyn Session> {
    let mut s = session::open(id).unwrap_or_else(|| panic!("game {id} exists"));
    s.set_position(fen, moves).expect("valid position");
    s
}

/// (White–Black pairing, perft 1..=5) from the start positions.
const STARTS: &[(&str, [u64; 5])] = &[
    ("ff", [20, 400, 8902, 197_281, 4_865_609]),
    ("fc", [20, 560, 12_458, 383_492, 9_413_687]),
    ("fn", [20, 520, 11_572, 325_109, 8_025_873]),
    ("fr", [20, 480, 10_682, 289_541, 7_123_871]),
    ("cf", [28, 560, 17_310, 381_843, 12_772_926]),
    ("cc", [28, 784, 24_227, 742_952, 24_759_802]),
    ("cn", [28, 728, 22_500, 629_312, 21_053_431]),
    ("cr", [28, 672, 20_764, 560_380, 18_669_849]),
    ("nf", [26, 520, 14_659, 324_941, 9_838_843]),
    ("nc", [26, 728, 20_515, 631_277, 19_028_002]),
    ("nn", [26, 676, 19_054, 535_078, 16_200_068]),
    ("nr", [26, 624, 17_587, 476_455, 14_374_201]),
    ("rf", [24, 480, 13_059, 288_555, 8_657_576]),
    ("rc", [24, 672, 18_275, 560_324, 16_736_299]),
    ("rn", [24, 624, 16_974, 475_148, 14_252_958]),
    ("rr", [24, 576, 15_667, 423_018, 12_643_742]),
];

/// Positions aimed at castling (T1–T5): pairing, FEN, perft 1..=5.
const CASTLING: &[(&str, &str, [u64; 5])] = &[
    ("cc", "d3k2d/pppppppp/8/8/8/8/PPPPPPPP/D3K2D w KQkq - 0 1", [24, 576, 13_932, 334_597, 8_197_404]),
    ("cc", "d3k2d/p1pppp1p/8/8/8/8/P1PPPP1P/D3K2D w KQkq - 0 1", [34, 1071, 32_588, 939_251, 26_844_388]),
    ("cf", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/D3K2D w KQk - 0 1", [24, 576, 13_944, 327_323, 8_087_515]),
    ("fc", "d3k2d/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w Kkq - 0 1", [24, 576, 13_604, 329_073, 7_640_899]),
    ("nr", "s3k2s/pppppppp/8/8/8/8/PPPPPPPP/G3K2G w KQkq - 0 1", [25, 625, 15_206, 369_906, 8_827_876]),
];

/// Move sequences from the start (S1–S3): pairing, moves, castles legal at depth 1, perft 1..=5.
const SEQUENCES: &[(&str, &str, [&str; 2], [u64; 5])] = &[
    ("cc", "b1d3 b8d6 c1a3 c8a6 d1c3 d8c6 g1e3 g8e6 f1h3 f8h6", ["e1b1", "e1g1"], [44, 1842, 78_098, 3_273_863, 139_472_069]),
    ("nn", "b1a3 b8a6 c1b3 c8b6 d1c3 d8c6 g1h3 g8h6 f1g3 f8g6", ["e1c1", "e1g1"], [40, 1591, 66_330, 2_700_359, 113_615_183]),
    ("rr", "b1b3 b8b6 c1c4 c8c5 d1c3 d8c6 g1g3 g8g6 f1f4 f8f5", ["e1c1", "e1g1"], [54, 2803, 143_746, 7_295_165, 367_133_699]),
];

fn check(s: &dyn Session, expected: &[u64], max_depth: usize, what: &str) {
    for (i, &n) in expected.iter().enumerate().take(max_depth) {
        assert_eq!(s.perft(i as u32 + 1), n, "{what} depth {}", i + 1);
    }
}

#[test]
fn start_positions_to_depth_4() {
    for (pair, counts) in STARTS {
        check(&*open(&format!("cwda-{pair}"), None, &[]), counts, 4, pair);
    }
}

#[test]
fn castling_positions_to_depth_4() {
    for (pair, fen, counts) in CASTLING {
        check(&*open(&format!("cwda-{pair}"), Some(fen), &[]), counts, 4, fen);
    }
}

#[test]
fn move_sequences_to_depth_3_with_castles() {
    for (pair, moves, castles, counts) in SEQUENCES {
        let moves: Vec<&str> = moves.split(' ').collect();
        let s = open(&format!("cwda-{pair}"), None, &moves);
        let legal = s.legal_move_texts();
        for c in castles {
            assert!(legal.iter().any(|m| m == c), "{pair}: {c} should be legal");
        }
        check(&*s, counts, 3, pair);
    }
}

#[test]
fn divide_from_cn_and_nr_starts() {
    let cn = "a1a3 24029, a2a3 18318, a2a4 19755, b1d3 21929, b2b3 26239, b2b4 26282, c1a3 21202, c1c3 23352, \
              c1e3 22619, c2c3 20407, c2c4 21876, d1c3 24762, d1e3 26107, d2d3 19782, d2d4 21277, e2e3 21845, e2e4 24045, \
              f1d3 24099, f1f3 24834, f1h3 21932, f2f3 20515, f2f4 21276, g1e3 21177, g2g3 25418, g2g4 25462, h1h3 22701, \
              h2h3 18318, h2h4 19754";
    let nr = "a2a3 17627, a2a4 18911, b1a3 17608, b1c3 18219, b2b3 16321, b2b4 17023, c1b3 18224, c1d3 18871, \
              c2c3 16300, c2c4 17580, d1c3 25290, d1e3 25305, d2d3 17627, d2d4 18981, e2e3 16952, e2e4 18284, f1e3 18208, \
              f1g3 18226, f2f3 17593, f2f4 18242, g1f3 18881, g1h3 17605, g2g3 15668, g2g4 16372, h2h3 17627, h2h4 18910";
    for (id, table) in [("cwda-cn", cn), ("cwda-nr", nr)] {
        let mut expected: Vec<(String, u64)> = table
            .split(',')
            .map(|e| {
                let mut it = e.split_whitespace();
                (it.next().unwrap().to_string(), it.next().unwrap().parse().unwrap())
            })
            .collect();
        expected.sort();
        let s = open(id, None, &[]);
        let mut got: Vec<(String, u64)> = s.divide(4).into_iter().map(|(m, n)| (s.move_text(m), n)).collect();
        got.sort();
        assert_eq!(got, expected, "{id}");
    }
}

#[test]
#[ignore = "deep perft: run optimised by .ci/run"]
fn start_positions_depth_5() {
    for (pair, counts) in STARTS {
        assert_eq!(open(&format!("cwda-{pair}"), None, &[]).perft(5), counts[4], "{pair}");
    }
}

#[test]
#[ignore = "deep perft: run optimised by .ci/run"]
fn castling_positions_depth_5() {
    for (pair, fen, counts) in CASTLING {
        assert_eq!(open(&format!("cwda-{pair}"), Some(fen), &[]).perft(5), counts[4], "{fen}");
    }
}

#[test]
#[ignore = "deep perft: run optimised by .ci/run"]
fn move_sequences_depth_4_and_5() {
    for (pair, moves, _, counts) in SEQUENCES {
        let moves: Vec<&str> = moves.split(' ').collect();
        let s = open(&format!("cwda-{pair}"), None, &moves);
        check(&*s, counts, 5, pair);
    }
}
