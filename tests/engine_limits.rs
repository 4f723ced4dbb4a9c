//! What the engine can serve, however large the request. Many more threads than cores: the
//! helpers take turns and the main thread keeps a core, so a search still ends on time and `stop`
//! and `quit` are obeyed at once (Threads 256 on a 2-core machine once took 9 s to answer `go
//! movetime 200`). A game of 800,000 plies: memory and time per node do not grow with the game
//! (it once took 4.8 GB). The time bounds here only catch such stalls; the latencies themselves
//! are measured in the closing notes, not asserted.

use std::time::{Duration, Instant};

use crate::common::EngineProcess;

const THREADS: usize = 256;

fn answer_time(e: &mut EngineProcess, send: &str) -> Duration {
    let t = Instant::now();
    e.send(send);
    e.read_until(|l| l.starts_with("bestmove"), Duration::from_secs(30));
    t.elapsed()
}

#[test]
fn hundreds_of_threads_answer_on_time_and_obey_stop_and_quit() {
    for game in ["chess", "aof3"] {
        let mut e = EngineProcess::start();
        e.command(&format!("setoption name UCI_Variant value {game}"));
        e.command(&format!("setoption name Threads value {THREADS}"));
        e.command("position startpos");
        let movetime = answer_time(&mut e, "go movetime 200");
        assert!(movetime < Duration::from_secs(2), "{game}: go movetime 200 answered after {movetime:?}");
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(300));
        let stop = answer_time(&mut e, "stop");
        assert!(stop < Duration::from_secs(1), "{game}: stop answered after {stop:?}");
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(300));
        let t = Instant::now();
        let status = e.quit();
        assert!(status.success() && t.elapsed() < Duration::from_secs(2), "{game}: quit took {:?} ({status})", t.elapsed());
    }
}

#[test]
fn threads_beyond_the_bound_are_refused_and_the_count_kept() {
    let mut e = EngineProcess::start();
    let out = e.command("setoption name Threads value 513");
    assert!(out.iter().any(|l| l.starts_with("info string error") && l.contains("512")), "{out:?}");
    let out = e.command("setoption name Threads value 2");
    assert!(out.is_empty(), "{out:?}");
    assert!(answer_time(&mut e, "go depth 6") < Duration::from_secs(10));
}

#[test]
fn a_game_of_800000_plies_costs_neither_memory_nor_time() {
    let mut e = EngineProcess::start();
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let moves: Vec<&str> = shuffle.iter().copied().cycle().take(800_000).collect();
    e.command(&format!("position startpos moves {}", moves.join(" ")));
    let took = answer_time(&mut e, "go movetime 1000");
    assert!(took < Duration::from_secs(5), "go movetime 1000 answered after {took:?}");
    let peak_kib = e.status("VmHWM");
    assert!(peak_kib < 300 * 1024, "the engine peaked at {} MiB", peak_kib / 1024);
}
