//! `tessera match` as testers use it: against an outside engine (Stockfish) with real clocks and
//! records that python-chess reads; forfeits by outside engines (time, an illegal move, exiting);
//! shards that together play the whole match and merge to its totals; an SPRT that stops early.
//! Stockfish and python-chess are installed by the README's test command.

use std::path::Path;
use std::process::Command;

use crate::common::{json_lines, scratch, tessera_match, totals};

const STOCKFISH: &str = "/usr/games/stockfish";

fn fake(mode: &str) -> String {
    format!("python3 {}/tests/python/fake_uci.py {mode}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
#[ignore = "needs Stockfish and python-chess from tests/install.sh: run by .ci/run"]
fn a_match_against_stockfish_writes_records_python_chess_reads() {
    assert!(Path::new(STOCKFISH).exists(), "Stockfish is missing: run tests/install.sh (the README's test command does)");
    let dir = scratch("stockfish");
    let (pgn, jsonl) = (dir.join("games.pgn"), dir.join("games.jsonl"));
    let sf = format!("name=sf,cmd={STOCKFISH},option.UCI_LimitStrength=true,option.UCI_Elo=1350,option.Threads=1");
    let out = tessera_match(&[
        "--engine",
        "name=tessera,hash=16",
        "--engine",
        &sf,
        "--games",
        "2",
        "--tc",
        "3+0.05",
        "--openings",
        "random:4",
        "--concurrency",
        "1",
        "--pgn",
        pgn.to_str().expect("path"),
        "--jsonl",
        jsonl.to_str().expect("path"),
    ]);
    assert!(out.contains("tessera  games    2"), "{out}");
    let lines = json_lines(&jsonl);
    assert_eq!(lines.len(), 2);
    for l in &lines {
        assert!(l["clocks_ms"].as_array().is_some_and(|c| c.iter().all(|ms| ms.as_i64().is_some())), "{l}");
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/match_records.py");
    let check = Command::new("python3").arg(script).arg(&pgn).arg(&jsonl).output().expect("python3 runs");
    let stdout = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&check.stderr));
    assert!(stdout.contains("records ok"), "{stdout}");
}

/// Plays two games of tessera against a misbehaving outside engine; returns the JSON lines.
fn against_fake(mode: &str, tc: &str) -> Vec<serde_json::Value> {
    let dir = scratch(mode);
    let jsonl = dir.join("games.jsonl");
    let fake = format!("name=fake,cmd={}", fake(mode));
    let out = tessera_match(&[
        "--engine",
        "name=tessera,depth=1",
        "--engine",
        &fake,
        "--games",
        "2",
        "--tc",
        tc,
        "--jsonl",
        jsonl.to_str().expect("path"),
    ]);
    assert!(out.contains("wins 2 draws 0 losses 0"), "tessera wins both games by forfeit\n{out}");
    json_lines(&jsonl)
}

#[test]
fn a_time_loss_is_adjudicated() {
    for l in against_fake("sleep", "1+0") {
        assert_eq!(l["end"], "time forfeit", "{l}");
        let fake_seat = l["seats"].as_array().expect("seats").iter().position(|s| s == "fake").expect("fake plays");
        assert_eq!(l["loser"], l["players"][fake_seat], "{l}");
        assert_eq!(l["places"][fake_seat], 2, "{l}");
        assert!(l["clocks_ms"][fake_seat].as_i64().is_some_and(|ms| ms < 0), "the fallen clock is below zero: {l}");
    }
}

#[test]
fn an_illegal_move_and_an_exit_are_adjudicated() {
    for l in against_fake("illegal", "5+0") {
        assert_eq!(l["end"], "illegal move", "{l}");
        assert!(l["detail"].as_str().is_some_and(|d| d.contains("'a1a1'")), "{l}");
    }
    for l in against_fake("exit", "5+0") {
        assert_eq!(l["end"], "disconnect", "{l}");
    }
}

#[test]
fn shards_play_the_whole_match_and_merge_to_its_totals() {
    let dir = scratch("shards");
    let common =
        ["--game", "honeycomb3", "--engine", "name=d1,depth=1", "--engine", "name=d2,depth=2", "--games", "14", "--openings", "random:3"];
    let run = |extra: &[&str], file: &str| {
        let path = dir.join(file);
        let mut args: Vec<&str> = common.to_vec();
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--jsonl", path.to_str().expect("path"), "--max-plies", "60"]);
        (tessera_match(&args), path)
    };
    let (whole, whole_file) = run(&[], "whole.jsonl");
    let (_, first) = run(&["--shard", "1/2"], "shard1.jsonl");
    let (_, second) = run(&["--shard", "2/2"], "shard2.jsonl");
    // Games are written as they end, not in order.
    let games = |p: &Path| {
        let mut g: Vec<_> = json_lines(p).iter().map(|l| (l["index"].as_u64().expect("index"), l["moves"].clone())).collect();
        g.sort_by_key(|g| g.0);
        g
    };
    let (a, b) = (games(&first), games(&second));
    // Blocks of 6 games (two engines in three seats): shard 1 has blocks 0 and 2, shard 2 block 1.
    assert_eq!(a.iter().map(|g| g.0).collect::<Vec<_>>(), [0, 1, 2, 3, 4, 5, 12, 13]);
    assert_eq!(b.iter().map(|g| g.0).collect::<Vec<_>>(), [6, 7, 8, 9, 10, 11]);
    let mut both = [a, b].concat();
    both.sort_by_key(|g| g.0);
    assert_eq!(both, games(&whole_file), "the shards play exactly the whole match's games");
    let merged = tessera_match(&["merge", first.to_str().expect("path"), second.to_str().expect("path")]);
    assert_eq!(totals(&merged), totals(&whole), "{merged}\n{whole}");
    let merge = |files: &[&Path], extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_tessera")).args(["match", "merge"]).args(extra).args(files).output().expect("runs")
    };
    let twice = merge(&[&first, &first], &[]);
    assert!(!twice.status.success(), "a shard read twice is refused");
    // A shard missing: refused with the missing games named, unless --allow-partial.
    let alone = merge(&[&first], &[]);
    let said = String::from_utf8_lossy(&alone.stderr);
    assert!(
        alone.status.code() == Some(2) && said.lines().count() == 1 && said.contains("6 of the match's 14 games are missing (7-12)"),
        "{said}"
    );
    let partial = merge(&[&first], &["--allow-partial"]);
    assert!(partial.status.success() && String::from_utf8_lossy(&partial.stdout).contains("6 of the match's 14 games are missing"));
    // A shard of another match (another seed, so other openings): refused, the difference named.
    let (_, other) = run(&["--shard", "2/2", "--seed", "9"], "other.jsonl");
    let mixed = merge(&[&first, &other], &[]);
    let said = String::from_utf8_lossy(&mixed.stderr);
    assert!(
        mixed.status.code() == Some(2)
            && said.lines().count() == 1
            && said.contains("another match")
            && said.contains("openings: random:3 seed"),
        "{said}"
    );
    // Two runs of the match (as an SPRT continued with another seed) add up with `--runs`.
    let whole_path = whole_file.to_str().expect("path");
    let runs = tessera_match(&["merge", "--runs", whole_path, whole_path]);
    assert!(runs.contains("merge honeycomb3: 28 games from 2 files"), "{runs}");
}

#[test]
fn an_sprt_stops_a_lopsided_match_early() {
    let out = tessera_match(&[
        "--engine",
        "name=d1,depth=1",
        "--engine",
        "name=d4,depth=4",
        "--games",
        "200",
        "--openings",
        "random:4",
        "--sprt",
        "elo0=0,elo1=10,alpha=0.05,beta=0.05",
        "--max-plies",
        "200",
    ]);
    let summary = out.lines().find(|l| l.starts_with("d1 ")).expect("a summary line");
    let games: usize = summary.split_whitespace().nth(2).and_then(|n| n.parse().ok()).expect("games played");
    assert!(out.contains("H0 accepted"), "{out}");
    assert!(games <= 40, "stopped after {games} of 200 games\n{out}");
}

/// `--cap-by-material`: a guru2 game stopped at the cap places the players by their material
/// (the record's detail lists it), so that places follow it; without the flag they all share
/// first.
#[test]
fn the_cap_places_by_material_when_asked() {
    let dir = scratch("cap");
    let jsonl = dir.join("cap.jsonl");
    let jsonl_text = jsonl.to_str().expect("utf-8 path");
    let plain = dir.join("plain.jsonl");
    let common = ["--game", "guru2", "--engine", "name=a,depth=1", "--engine", "name=b,nodes=200", "--games", "2", "--max-plies", "24"];
    tessera_match(&[&common[..], &["--cap-by-material", "--jsonl", jsonl_text]].concat());
    tessera_match(&[&common[..], &["--jsonl", plain.to_str().expect("utf-8 path")]].concat());
    for game in json_lines(&jsonl) {
        assert_eq!(game["end"], "ply cap", "{game}");
        let detail = game["detail"].as_str().expect("material in the detail");
        let material: Vec<i64> =
            detail.strip_prefix("placed by material ").expect("detail").split(' ').map(|v| v.parse().expect("number")).collect();
        let places: Vec<i64> = game["places"].as_array().expect("places").iter().map(|p| p.as_i64().expect("place")).collect();
        for (i, m) in material.iter().enumerate() {
            let above = material.iter().filter(|&&o| o > *m).count() as i64;
            assert_eq!(places[i], above + 1, "{game}");
        }
    }
    for game in json_lines(&plain) {
        assert!(game["places"].as_array().expect("places").iter().all(|p| p == 1), "{game}");
    }
}

#[test]
fn tune_pools_the_records_of_separate_matches() {
    let dir = scratch("tune");
    let record = |file: &str, seed: &str| {
        let path = dir.join(file);
        let args = ["--engine", "name=a,depth=1", "--engine", "name=b,depth=1", "--games", "2", "--openings", "random:8", "--seed", seed];
        let mut args: Vec<&str> = args.to_vec();
        args.extend_from_slice(&["--max-plies", "60", "--jsonl", path.to_str().expect("path")]);
        tessera_match(&args);
        path
    };
    // Two runs number their games from 1 alike.
    let (first, second) = (record("first.jsonl", "1"), record("second.jsonl", "2"));
    let tune = |files: &[&Path]| {
        Command::new(env!("CARGO_BIN_EXE_tessera"))
            .args(["tune", "--game", "chess", "--params", "tempo", "--rounds", "1", "--data"])
            .args(files)
            .output()
            .expect("tessera runs")
    };
    let out = tune(&[&first, &second]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.starts_with("games 4 positions "), "{stdout}");
    assert!(stdout.contains("tuned: "), "{stdout}");
    let twice = tune(&[&first, &first]);
    assert!(!twice.status.success(), "the same file twice is refused");
    assert!(String::from_utf8_lossy(&twice.stderr).contains("given twice"));
}

#[test]
fn tune_fits_labelled_positions_and_refuses_a_bad_label() {
    let dir = scratch("tune-labels");
    let tune_from = |labels: &str, start: &str| {
        let path = dir.join("labels.txt");
        std::fs::write(&path, labels).expect("labels written");
        Command::new(env!("CARGO_BIN_EXE_tessera"))
            .args(["tune", "--game", "chess", "--params", "tempo", "--rounds", "1", "--start", start, "--labels"])
            .arg(&path)
            .output()
            .expect("tessera runs")
    };
    let tune = |labels: &str| tune_from(labels, "");
    // Symmetric positions in which the player to move is labelled the favourite, whichever it is:
    // only the tempo bonus can say so, and the fit raises it above chess's own value.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    let out = tune(&format!("0.75 {start} w KQkq - 0 1\n0.75 {start} b KQkq - 0 1\n"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.starts_with("games 0 positions 2 "), "{stdout}");
    let tempo: i32 = stdout.split("tempo=").nth(1).and_then(|v| v.trim().parse().ok()).expect("a fitted tempo");
    let own: i32 = String::from_utf8_lossy(
        &Command::new(env!("CARGO_BIN_EXE_tessera")).args(["eval-params", "--game", "chess"]).output().expect("runs").stdout,
    )
    .lines()
    .find_map(|l| l.strip_prefix("tempo ")?.split_whitespace().next()?.parse().ok())
    .expect("chess's tempo");
    assert!(tempo > own, "tempo {tempo}, chess's own {own}");
    // From a start at the range's top the labels are met at once (the scale k fits them), and
    // the fit has nowhere to go; a start out of range is refused.
    let labels = format!("0.75 {start} w KQkq - 0 1\n0.75 {start} b KQkq - 0 1\n");
    let top = tune_from(&labels, "tempo=100");
    assert!(String::from_utf8_lossy(&top.stdout).contains("tuned: tempo=100"), "{}", String::from_utf8_lossy(&top.stderr));
    let out_of_range = tune_from(&labels, "tempo=101");
    assert!(!out_of_range.status.success());
    assert!(String::from_utf8_lossy(&out_of_range.stderr).contains("--start"), "{}", String::from_utf8_lossy(&out_of_range.stderr));
    // A score outside 0 to 1 is refused with its file and line.
    let bad = tune(&format!("0.75 {start} w KQkq - 0 1\n1.5 {start} b KQkq - 0 1\n"));
    assert!(!bad.status.success());
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert!(stderr.contains("labels.txt:2") && stderr.contains("not 0 to 1"), "{stderr}");
}

/// `--positions`: every position an engine of the match searched that is not in check for the
/// mover and whose move was quiet, a line each with every player's score and the game's ranks;
/// two shards write the whole match's positions between them.
#[test]
fn positions_for_training_from_self_play() {
    for game in ["chess", "guru2"] {
        let dir = scratch(&format!("positions-{game}"));
        let (whole, jsonl) = (dir.join("all.txt"), dir.join("all.jsonl"));
        let common =
            ["--game", game, "--engine", "name=a,nodes=400", "--games", "2", "--openings", "random:4", "--max-plies", "120", "--seed", "9"];
        let path = |p: &Path| p.to_str().expect("path").to_string();
        tessera_match(&[&common[..], &["--concurrency", "1", "--positions", &path(&whole), "--jsonl", &path(&jsonl)]].concat());
        let text = std::fs::read_to_string(&whole).expect("positions written");
        let records = json_lines(&jsonl);
        let mut arbiter = tessera::session::open(game).expect("game");
        let players = arbiter.def().players.len();
        let mut lines = 0;
        for line in text.lines() {
            let parts: Vec<&str> = line.split(';').collect();
            assert_eq!(parts.len(), 3, "{line}");
            arbiter.set_position(Some(parts[0]), &[]).expect("a position string");
            let status = arbiter.status();
            assert!(!status.is_over() && !status.in_check.has(status.to_move), "{line}");
            let scores: Vec<i32> =
                parts[1].strip_prefix("scores ").expect("scores").split(' ').map(|s| s.parse().expect("a score")).collect();
            assert_eq!(scores.len(), players, "{line}");
            assert!(scores.iter().all(|s| s.abs() <= 4000), "{line}");
            if players == 2 {
                assert_eq!(scores[0], -scores[1], "{line}");
            }
            let ranks: Vec<u64> = parts[2].strip_prefix("ranks ").expect("ranks").split(' ').map(|r| r.parse().expect("a rank")).collect();
            let places: Vec<Vec<u64>> = records
                .iter()
                .map(|r| r["places"].as_array().expect("places").iter().map(|p| p.as_u64().expect("n") - 1).collect())
                .collect();
            assert!(places.contains(&ranks), "{line}: ranks of no game {places:?}");
            lines += 1;
        }
        // Exactly the positions after the opening's 4 plies whose mover is not in check and whose
        // move was quiet, replayed from the records.
        let mut expected = Vec::new();
        for r in &records {
            arbiter.set_position(None, &[]).expect("the start");
            for (i, text) in r["moves"].as_array().expect("moves").iter().enumerate() {
                let mv = arbiter.parse_move(text.as_str().expect("a move")).expect("a legal move");
                let status = arbiter.status();
                if i >= 4 && !status.in_check.has(status.to_move) && arbiter.is_quiet(mv) {
                    expected.push(arbiter.position_string());
                }
                arbiter.play(mv).expect("legal");
            }
        }
        let sampled: Vec<&str> = text.lines().map(|l| l.split(';').next().expect("a position")).collect();
        assert_eq!(sampled, expected, "{game}: {lines} positions");
        // Shards: the same positions between them, game by game.
        let mut shards = Vec::new();
        for k in 1..=2 {
            let file = dir.join(format!("shard{k}.txt"));
            tessera_match(&[&common[..], &["--shard", &format!("{k}/2"), "--positions", &path(&file)]].concat());
            shards.extend(std::fs::read_to_string(&file).expect("shard written").lines().map(str::to_string));
        }
        let mut all: Vec<&str> = text.lines().collect();
        all.sort_unstable();
        shards.sort_unstable();
        assert_eq!(shards, all, "{game}: the shards' positions differ from the whole match's");
        // `tessera features`: per position the sampled fields, who is in, the evaluations, and
        // per viewer one input per man, its own men in the relation 0 block.
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tessera"))
            .args(["features", "--game", game, &path(&whole)])
            .output()
            .expect("tessera runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let features = String::from_utf8_lossy(&out.stdout).to_string();
        let mut lines = features.lines();
        let head: Vec<&str> = lines.next().expect("a header").split(' ').collect();
        assert_eq!(&head[..4], ["#", "features", "game", game]);
        let (types, cells) = (arbiter.def().pieces.len(), arbiter.def().geometry.len());
        for (line, sample) in lines.zip(text.lines()) {
            let parts: Vec<&str> = line.split(';').collect();
            assert_eq!(parts.len(), 4 + players, "{line}");
            let sample: Vec<&str> = sample.split(';').collect();
            assert_eq!(parts[0], sample[1].strip_prefix("scores ").expect("scores"));
            arbiter.set_position(Some(sample[0]), &[]).expect("a position");
            for viewer in 0..players {
                let inputs: Vec<usize> = parts[4 + viewer].split(' ').map(|i| i.parse().expect("an input")).collect();
                assert_eq!(inputs.len(), arbiter.men().len(), "{line}");
                assert!(inputs.iter().all(|&i| i < players * types * cells), "{line}");
                let own = arbiter.men().iter().filter(|(_, m)| m.owner().index() == viewer).count();
                assert_eq!(inputs.iter().filter(|&&i| i < types * cells).count(), own, "{line}");
            }
        }
    }
}

/// `--adjudicate CP:PLIES`: a two-player game whose searches agree long enough that one side
/// leads by CP ends as its win, recorded as an adjudication lost by the other side.
#[test]
fn decided_games_are_adjudicated() {
    let dir = scratch("adjudicate");
    let (openings, jsonl) = (dir.join("openings.txt"), dir.join("games.jsonl"));
    std::fs::write(&openings, "fen 4k3/8/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\n").expect("openings written");
    let path = |p: &Path| p.to_str().expect("path").to_string();
    let out = tessera_match(&[
        "--engine",
        "name=a,nodes=3000",
        "--engine",
        "name=b,nodes=3000",
        "--games",
        "2",
        "--openings",
        &path(&openings),
        "--adjudicate",
        "900:3",
        "--jsonl",
        &path(&jsonl),
    ]);
    for game in json_lines(&jsonl) {
        assert_eq!(game["end"], "adjudication", "{game}");
        assert_eq!(game["loser"], "Black", "{game}");
        assert_eq!(game["places"], serde_json::json!([1, 2]), "{game}");
        assert_eq!(game["moves"].as_array().expect("moves").len(), 3, "{game}");
    }
    assert!(out.contains("adjudication 2"), "{out}");
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["match", "--engine", "name=a,nodes=10", "--adjudicate", "900"])
        .output()
        .expect("tessera runs");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("want CP:PLIES"));
}
