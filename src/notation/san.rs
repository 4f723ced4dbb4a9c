//! Standard algebraic notation (SAN) for the PGN records of games on one flat board of lettered
//! files and numbered ranks with two players (chess and the Cwda pairings): the piece's code (none
//! for a pawn), the file, rank or both of the origin where another man of the same kind could go
//! to the same cell, `x` for a capture, the destination, `=` and the code of a promotion, `O-O` /
//! `O-O-O` for castling, and `+` / `#` for check and checkmate.

use super::move_string;
use crate::position::{Move, MoveKind, Position};
use crate::types::Cell;

/// Whether the game's records are written in SAN: two players on one level whose cells are named
/// by one file letter and a rank number (otherwise records use the game's own move strings).
pub fn writes_san<const W: usize>(pos: &Position<W>) -> bool {
    let game = pos.game();
    let geo = game.geometry();
    game.nplayers == 2
        && geo.levels == 1
        && (0..geo.len()).all(|c| {
            let name = geo.name(Cell::new(c));
            let mut chars = name.chars();
            chars.next().is_some_and(|f| f.is_ascii_lowercase()) && chars.as_str().parse::<u32>().is_ok()
        })
}

/// The SAN of the legal move `mv` in `pos` (the game's own move string where [`writes_san`] is
/// false).
pub fn san<const W: usize>(pos: &Position<W>, mv: Move) -> String {
    let game = pos.game();
    if !writes_san(pos) {
        return move_string(game, mv);
    }
    let geo = game.geometry();
    let (from, to) = (geo.name(mv.from()), geo.name(mv.to()));
    let mut text = String::new();
    if mv.kind() == MoveKind::Castle {
        text.push_str(if to.as_bytes()[0] > from.as_bytes()[0] { "O-O" } else { "O-O-O" });
    } else {
        let man = pos.man_at(mv.from());
        let piece = &game.def.pieces[man.kind()];
        let capture = mv.kind() == MoveKind::EnPassant || pos.man_at(mv.to()).is_some();
        let mut legal = Vec::new();
        pos.legal_moves(&mut legal);
        if piece.pawn.is_some() {
            if capture {
                text.push_str(&from[..1]);
            }
        } else {
            text.push_str(&piece.code.to_uppercase());
            let rivals: Vec<&str> = legal
                .iter()
                .filter(|m| m.to() == mv.to() && m.from() != mv.from() && pos.man_at(m.from()).kind() == man.kind())
                .map(|m| geo.name(m.from()))
                .collect();
            if !rivals.is_empty() {
                if rivals.iter().all(|r| r[..1] != from[..1]) {
                    text.push_str(&from[..1]);
                } else if rivals.iter().all(|r| r[1..] != from[1..]) {
                    text.push_str(&from[1..]);
                } else {
                    text.push_str(from);
                }
            }
        }
        if capture {
            text.push('x');
        }
        text.push_str(to);
        if let Some(t) = mv.promotion() {
            text.push('=');
            text.push_str(&game.def.pieces[t].code.to_uppercase());
        }
    }
    let mut after = pos.clone();
    after.make(mv);
    if after.in_check(after.to_move()) {
        let mut replies = Vec::new();
        after.legal_moves(&mut replies);
        text.push(if replies.is_empty() { '#' } else { '+' });
    }
    text
}

/// A move as a game record shows it to a reader: SAN where the game's records use it
/// ([`writes_san`]); elsewhere the moving man's code (none for a pawn), its cell, `-` or `×` for a
/// capture, the destination and `=` with a promotion's code (`Ra1-a5`, `Ue2×Uf3=R`); the legs of
/// a multi-leg move joined by `,`; a pass `0000`.
pub fn record_text<const W: usize>(pos: &Position<W>, mv: Move) -> String {
    if writes_san(pos) {
        return san(pos, mv);
    }
    let game = pos.game();
    let geo = game.geometry();
    let man = pos.man_at(mv.from());
    let code = |kind| {
        let piece = &game.def.pieces[kind];
        if piece.pawn.is_some() { String::new() } else { piece.code.to_uppercase() }
    };
    match mv.kind() {
        MoveKind::Pass => "0000".to_string(),
        MoveKind::Charge => {
            let legs: Vec<String> = game
                .charge_legs(mv)
                .iter()
                .map(|l| {
                    let capture = if pos.man_at(l.to).is_some() { '×' } else { '-' };
                    format!("{}{capture}{}", geo.name(l.from), geo.name(l.to))
                })
                .collect();
            format!("{}{}", code(man.kind()), legs.join(","))
        }
        _ => {
            let capture = mv.kind() == MoveKind::EnPassant || pos.man_at(mv.to()).is_some();
            let mut text = format!("{}{}{}{}", code(man.kind()), geo.name(mv.from()), if capture { '×' } else { '-' }, geo.name(mv.to()));
            if let Some(t) = mv.promotion() {
                text.push('=');
                text.push_str(&game.def.pieces[t].code.to_uppercase());
            }
            text
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Position, record_text};
    use crate::session;

    /// The SAN of each move of `moves` played from the start of `game`.
    fn sans(game: &str, fen: Option<&str>, moves: &[&str]) -> Vec<String> {
        let mut s = session::open(game).expect("game");
        s.set_position(fen, &[]).expect("position");
        moves
            .iter()
            .map(|m| {
                let mv = s.parse_move(m).expect("legal");
                let text = s.move_san(mv);
                s.play(mv).expect("legal");
                text
            })
            .collect()
    }

    #[test]
    fn chess_moves_in_san() {
        // The fool's mate: pawn moves, a Queen's mate.
        assert_eq!(sans("chess", None, &["f2f3", "e7e5", "g2g4", "d8h4"]), ["f3", "e5", "g4", "Qh4#"]);
        // Castling both ways, captures by pieces and pawns, a check.
        let fen = "r3k2r/8/8/8/3p4/8/4P3/R3K2R w KQkq - 0 1";
        assert_eq!(sans("chess", Some(fen), &["e2e4", "d4e3", "e1g1", "e8c8"]), ["e4", "dxe3", "O-O", "O-O-O"]);
        assert_eq!(sans("chess", Some(fen), &["a1a8"]), ["Rxa8+"]);
        // Disambiguation by file, by rank and by both; a promotion with capture and check.
        assert_eq!(sans("chess", Some("4k3/8/8/8/8/8/4K3/R6R w - - 0 1"), &["a1d1"]), ["Rad1"]);
        assert_eq!(sans("chess", Some("7k/8/8/8/R7/8/8/R3K3 w - - 0 1"), &["a1a2"]), ["R1a2"]);
        assert_eq!(sans("chess", Some("8/7k/8/8/Q1Q5/8/Q7/4K3 w - - 0 1"), &["a4b3"]), ["Qa4b3"]);
        assert_eq!(sans("chess", Some("1r5k/P7/8/8/8/8/8/4K3 w - - 0 1"), &["a7b8q"]), ["axb8=Q+"]);
    }

    #[test]
    fn other_boards_keep_their_own_move_strings() {
        let mut s = session::open("honeycomb3").expect("game");
        let mv = s.legal_moves()[0];
        assert_eq!(s.move_san(mv), s.move_text(mv));
        s.play(mv).expect("legal");
    }

    /// Outside chess a record names the moving man (not a pawn), its cells and whether it takes.
    #[test]
    fn records_outside_chess_name_the_man_and_its_cells() {
        let record = |id: &str, moves: &[&str]| {
            let def = crate::games::definition(id).expect("a game");
            let game = crate::registry::compiled::<4>(def);
            let mut pos = Position::start(game);
            moves
                .iter()
                .map(|m| {
                    let mv = crate::notation::parse_move(&pos, m).expect("legal");
                    let text = record_text(&pos, mv);
                    pos.make(mv);
                    text
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(record("guru2", &["Ue3Ue4", "Ui4Ug3"]), ["Ue3-Ue4", "NUi4×Ug3"]);
        assert_eq!(record("honeycomb3", &["1b21a4"]), ["N1b2-1a4"]);
    }
}
