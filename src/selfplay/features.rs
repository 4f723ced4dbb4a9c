//! `tessera features`: the training data of `--positions` as a network's trainer reads it, for any
//! game and number of players. Per position: the players' scores and ranks as sampled, which
//! players are still in, each player's evaluation with the network off (what the network
//! corrects) and, per viewer, the network's inputs its men switch on (relation, type and cell in
//! the viewer's frame, numbered as `eval::network_file` lays the weights out).

use std::fmt::Write as _;

use crate::eval::EvalOverrides;
use crate::eval::network_file::input_index;
use crate::frames::player_frames;
use crate::session::{self, Session};
use crate::types::Player;

/// The header line: what the inputs' numbers mean.
fn header(s: &dyn Session) -> String {
    let def = s.def();
    let codes: Vec<&str> = def.pieces.iter().map(|p| p.code.as_str()).collect();
    format!(
        "# features game {} players {} types {} cells {} codes {}",
        def.id,
        def.players.len(),
        def.pieces.len(),
        def.geometry.len(),
        codes.join(",")
    )
}

/// Reads `--positions` lines of `game` and returns the trainer's lines (the header first):
/// `<scores>;<ranks>;<active, 1 or 0 per player>;<evaluations>;<inputs of player 1>;...`, numbers
/// separated by spaces. A line that is not a position of the game is an error naming it.
pub fn features(game: &str, positions: &str) -> Result<Vec<String>, String> {
    let mut s = session::open(game).ok_or_else(|| format!("unknown game '{game}'"))?;
    let mut overrides = EvalOverrides::default();
    overrides.set("network_permille", 0).map_err(|e| e.to_string())?;
    s.set_eval_overrides(&overrides);
    let def = s.def();
    let frames = player_frames(def).ok_or_else(|| format!("{game}: a player's start is no image of the first's"))?;
    let n = def.players.len();
    let mut out = vec![header(&*s)];
    for (i, line) in positions.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let bad = |why: String| format!("line {}: {why}", i + 1);
        let mut parts = line.split(';');
        let (Some(fen), Some(scores), Some(ranks)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(bad("not `<position>;scores ...;ranks ...`".into()));
        };
        let scores = scores.strip_prefix("scores ").ok_or_else(|| bad("no scores".into()))?;
        let ranks = ranks.strip_prefix("ranks ").ok_or_else(|| bad("no ranks".into()))?;
        s.set_position(Some(fen), &[]).map_err(|e| bad(e.to_string()))?;
        let status = s.status();
        let evaluation = s.eval_breakdown().score;
        let mut text = format!("{scores};{ranks};");
        let players = || (0..n).map(Player::new);
        let active: Vec<&str> = players().map(|p| if status.active.has(p) { "1" } else { "0" }).collect();
        let _ = write!(text, "{};", active.join(" "));
        let evals: Vec<String> = players().map(|p| evaluation[p].to_string()).collect();
        text.push_str(&evals.join(" "));
        let men = s.men();
        for viewer in players() {
            let inputs: Vec<String> = men
                .iter()
                .map(|&(cell, man)| input_index(def, viewer, man.owner(), man.kind(), frames[viewer][cell]).to_string())
                .collect();
            let _ = write!(text, ";{}", inputs.join(" "));
        }
        out.push(text);
    }
    Ok(out)
}
