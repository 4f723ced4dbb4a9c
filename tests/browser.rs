//! The board page of `tessera serve` in a real headless browser (Debian's Chromium driven by
//! Playwright for Python, both installed by `.ci/run`): every game's cells and men, moves by clicks
//! and keys, engine seats, a promotion, an Elephant Charge, a whole honeycomb3 game, the access
//! token. It needs both, which `tests/install.sh` installs: plain `cargo test` leaves it out, the
//! README's test command (`--include-ignored`) runs it. Screenshots go to
//! `target/screenshots` (or `TESSERA_SCREENSHOTS`); the README's come from here.

use std::process::Command;

#[test]
#[ignore = "needs Chromium and Playwright from tests/install.sh: run by .ci/run"]
fn the_board_page_plays_every_game() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/browser_page.py");
    let shots =
        std::env::var("TESSERA_SCREENSHOTS").unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/target/screenshots").to_string());
    // The Elephants of the guru2 Charge tests, Red to move.
    let charge = crate::guru2::fen(&crate::guru2::charge_men(), 'r');
    let out =
        Command::new("python3").arg(script).arg(env!("CARGO_BIN_EXE_tessera")).arg(&shots).arg(&charge).output().expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    assert!(out.status.success(), "browser test failed\nstdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stdout.contains("all checks passed"), "{stdout}");
}
