//! python-chess (a real UCI client) plays a whole game of standard chess through tessera and
//! analyses a position. It needs python-chess, which `tests/install.sh` installs: plain `cargo
//! test` leaves it out, the README's test command (`--include-ignored`) runs it.

use std::process::Command;

#[test]
#[ignore = "needs python-chess from tests/install.sh: run by .ci/run"]
fn python_chess_plays_a_full_game() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/uci_game.py");
    let out = Command::new("python3").arg(script).arg(env!("CARGO_BIN_EXE_tessera")).output().expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "python-chess session failed\nstdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stdout.contains("game over after"), "{stdout}");
    assert!(stdout.contains("analysis ok"), "{stdout}");
}
