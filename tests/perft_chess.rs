//! Standard chess perft against the well-known tables (`shared/reference/cwda-perft.md`).

use tessera::session;

fn perft(fen: Option<&str>, depth: u32) -> u64 {
    let mut s = session::open("chess").expect("chess exists");
    s.set_position(fen, &[]).expect("valid position");
    s.perft(depth)
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POS3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POS4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POS4_MIRRORED: &str = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1";
const POS5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const POS6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

#[test]
fn start_position_shallow() {
    for (d, n) in [(1, 20), (2, 400), (3, 8902), (4, 197_281)] {
        assert_eq!(perft(None, d), n, "depth {d}");
    }
}

#[test]
fn start_position_depth_5() {
    assert_eq!(perft(None, 5), 4_865_609);
}

#[test]
fn kiwipete() {
    for (d, n) in [(1, 48), (2, 2039), (3, 97_862), (4, 4_085_603)] {
        assert_eq!(perft(Some(KIWIPETE), d), n, "depth {d}");
    }
}

#[test]
fn position_3() {
    for (d, n) in [(1, 14), (2, 191), (3, 2812), (4, 43_238), (5, 674_624), (6, 11_030_083)] {
        assert_eq!(perft(Some(POS3), d), n, "depth {d}");
    }
}

#[test]
fn position_4_and_mirror() {
    for fen in [POS4, POS4_MIRRORED] {
        for (d, n) in [(1, 6), (2, 264), (3, 9467), (4, 422_333), (5, 15_833_292)] {
            assert_eq!(perft(Some(fen), d), n, "{fen} depth {d}");
        }
    }
}

#[test]
fn position_5() {
    for (d, n) in [(1, 44), (2, 1486), (3, 62_379), (4, 2_103_487)] {
        assert_eq!(perft(Some(POS5), d), n, "depth {d}");
    }
}

#[test]
fn position_6() {
    for (d, n) in [(1, 46), (2, 2079), (3, 89_890), (4, 3_894_594)] {
        assert_eq!(perft(Some(POS6), d), n, "depth {d}");
    }
}

#[test]
#[ignore = "deep perft: run optimised by .ci/run"]
fn deep_chess_perft() {
    assert_eq!(perft(None, 6), 119_060_324);
    assert_eq!(perft(Some(KIWIPETE), 5), 193_690_690);
    assert_eq!(perft(Some(POS5), 5), 89_941_194);
    assert_eq!(perft(Some(POS6), 5), 164_075_551);
}
