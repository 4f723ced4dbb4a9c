//! Text forms: position strings ([`fen`], with the placement in [`placement`]), move strings,
//! and the text board of `d` ([`board`]).
//!
//! Position strings extend FEN. The placement lists the geometry's rows (see
//! [`placement_rows`]) separated by `/`; a digit run is that many empty cells. In two-player games
//! a man is its piece code, upper case for the first player and lower case for the second; with
//! more players it is the owner's letter followed by the upper-case code (`rK`). A code longer than
//! one letter is written in brackets (`[Ab]`). After the code, `(x)` gives an orientation other
//! than the owner's (a recruited pawn) and `*` marks the first mater's promoted men.
//!
//! The en passant field lists the skipped cells of the rights still open, comma separated; an
//! entry is `<cell>:<player>` when pawns of two players stand where a double step over that cell
//! would have put them.

mod board;
mod fen;
mod placement;
mod san;

use crate::position::{Move, MoveKind, Position};
use crate::tables::Game;
use crate::types::Cell;
pub use board::board_text;
pub use fen::{parse_position, position_string};
pub use placement::{man_token, placement_from, placement_rows};
pub use san::{record_text, san, writes_san};

crate::error::message_error!(
    /// A malformed position string, or a move that is malformed or not legal.
    NotationError
);

pub(crate) fn err<T>(msg: impl Into<String>) -> Result<T, NotationError> {
    Err(NotationError(msg.into()))
}

/// The text of a move: from-cell, to-cell, promotion code in lower case; `0000` for the pass; the
/// legs of a multi-leg move joined by `,`.
pub fn move_string<const W: usize>(game: &Game<W>, mv: Move) -> String {
    let geo = game.geometry();
    match mv.kind() {
        MoveKind::Pass => return "0000".to_string(),
        MoveKind::Charge => {
            let legs: Vec<String> = game.charge_legs(mv).iter().map(|l| format!("{}{}", geo.name(l.from), geo.name(l.to))).collect();
            return legs.join(",");
        }
        _ => {}
    }
    let mut s = format!("{}{}", geo.name(mv.from()), geo.name(mv.to()));
    if let Some(t) = mv.promotion() {
        s.push_str(&game.def.pieces[t].code.to_lowercase());
    }
    s
}

/// Finds the legal move written as `text`, or as a game record writes it ([`record_text`]). A
/// promotion suffix may be left out where the move has exactly one promotion choice (a promotion
/// decided by the destination cell).
pub fn parse_move<const W: usize>(pos: &Position<W>, text: &str) -> Result<Move, NotationError> {
    let game = pos.game();
    let geo = game.geometry();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    // Only moves from the cell the text starts with are written out (a `position` command of a
    // long game replays hundreds of moves); anything else is found by the slower passes below.
    let from_matches = |m: Move| m.kind() == MoveKind::Pass || text.starts_with(geo.name(m.from()));
    if let Some(&mv) = moves.iter().find(|&&m| from_matches(m) && move_string(game, m) == text) {
        return Ok(mv);
    }
    if let Some(&mv) = moves.iter().find(|&&m| move_string(game, m).eq_ignore_ascii_case(text)) {
        return Ok(mv);
    }
    let cells = |leg: &str| -> Option<(Cell, Cell)> {
        let (from, n) = geo.parse_cell_prefix(leg)?;
        let (to, m) = geo.parse_cell_prefix(&leg[n..])?;
        (n + m == leg.len()).then_some((from, to))
    };
    if let Some((from, to)) = cells(text) {
        let same_cells: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| !matches!(m.kind(), MoveKind::Pass | MoveKind::Charge) && m.from() == from && m.to() == to)
            .collect();
        if let [only] = same_cells[..]
            && only.promotion().is_some()
        {
            return Ok(only);
        }
    }
    // A move as a record writes it (SAN in chess, `Ra1-a5` elsewhere), check marks and
    // annotations aside: records can be read back.
    let bare = |t: &str| t.trim_end_matches(['+', '#', '!', '?']).to_string();
    if let Some(&mv) = moves.iter().find(|&&m| bare(&record_text(pos, m)) == bare(text)) {
        return Ok(mv);
    }
    // Well-formed but not legal, or not a move at all?
    let well_formed = text == "0000"
        || text.split(',').all(|leg| geo.parse_cell_prefix(leg).and_then(|(_, n)| geo.parse_cell_prefix(&leg[n..])).is_some());
    if well_formed { err(format!("illegal move '{text}'")) } else { err(format!("malformed move '{text}'")) }
}
