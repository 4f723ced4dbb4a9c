//! Criterion benchmarks: perft (move generation + make/unmake) and legal move generation.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use tessera::session;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn perft(c: &mut Criterion) {
    let cases: &[(&str, &str, Option<&str>, u32)] = &[
        ("chess start perft 4", "chess", None, 4),
        ("chess kiwipete perft 3", "chess", Some(KIWIPETE), 3),
        ("cwda-cn start perft 3", "cwda-cn", None, 3),
        ("guru2 start perft 3", "guru2", None, 3),
    ];
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for &(name, game, fen, depth) in cases {
        let Some(mut s) = session::open(game) else { continue };
        s.set_position(fen, &[]).expect("benchmark position");
        group.bench_function(name, |b| b.iter(|| black_box(s.perft(black_box(depth)))));
    }
    group.finish();
}

fn movegen(c: &mut Criterion) {
    let mut s = session::open("chess").expect("chess");
    s.set_position(Some(KIWIPETE), &[]).expect("kiwipete");
    c.bench_function("legal moves kiwipete", |b| b.iter(|| black_box(s.legal_moves())));
}

criterion_group!(benches, perft, movegen);
criterion_main!(benches);
