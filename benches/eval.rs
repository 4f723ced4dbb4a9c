//! Criterion benchmarks: the static evaluation (a search spends about 40 % of its time in it).

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use tessera::session;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// A middle game from the Queen's Gambit, both sides castled.
const MIDDLE_GAME: &str = "r2q1rk1/1b2bppp/p1n1pn2/1p6/3P4/P1NBPN2/1P2QPPP/R1B2RK1 w - - 0 12";

fn eval(c: &mut Criterion) {
    let cases: &[(&str, &str, Option<&str>)] = &[
        ("eval chess kiwipete", "chess", Some(KIWIPETE)),
        ("eval chess middle game", "chess", Some(MIDDLE_GAME)),
        ("eval ninjachess start", "ninjachess", None),
        ("eval guru2 start", "guru2", None),
        ("eval aof3 start", "aof3", None),
    ];
    let mut group = c.benchmark_group("eval");
    for &(name, game, fen) in cases {
        let Some(mut s) = session::open(game) else { continue };
        s.set_position(fen, &[]).expect("benchmark position");
        group.bench_function(name, |b| b.iter(|| black_box(black_box(&s).static_eval())));
    }
    group.finish();
}

criterion_group!(benches, eval);
criterion_main!(benches);
