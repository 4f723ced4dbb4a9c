//! The placement field of position strings: men on cells, row by row.

use std::fmt::Write;

use super::{NotationError, err};
use crate::geometry::Geometry;
use crate::position::{Man, Position};
use crate::tables::Game;
use crate::types::{Cell, Player};

/// The cells in position-string order: level by level, each level's rows from the top of its
/// drawing down, each row left to right.
pub fn placement_rows(geo: &Geometry) -> Vec<Vec<Cell>> {
    // (level, drawing height, cells with their horizontal position)
    type Row = (usize, i64, Vec<(i64, Cell)>);
    let mut rows: Vec<Row> = Vec::new();
    for (i, c) in geo.cells.entries() {
        let y = (c.draw.1 * 1000.0).round() as i64;
        let x = (c.draw.0 * 1000.0).round() as i64;
        match rows.iter_mut().find(|r| r.0 == c.level && r.1 == y) {
            Some(r) => r.2.push((x, i)),
            None => rows.push((c.level, y, vec![(x, i)])),
        }
    }
    rows.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    rows.into_iter()
        .map(|mut r| {
            r.2.sort();
            r.2.into_iter().map(|(_, i)| i).collect()
        })
        .collect()
}

/// A placement field from men given as (cell name, man token) pairs on an otherwise empty board
/// (tokens are written as they are, e.g. `rK`, `[RN]`, `P`).
pub fn placement_from(geo: &Geometry, men: &[(&str, &str)]) -> Result<String, NotationError> {
    for (cell, _) in men {
        if geo.cell_by_name(cell).is_none() {
            return err(format!("no cell '{cell}'"));
        }
    }
    let rows: Vec<String> = placement_rows(geo)
        .iter()
        .map(|row| {
            let mut text = String::new();
            let mut empty = 0;
            for &c in row {
                match men.iter().find(|(cell, _)| *cell == geo.name(c)) {
                    Some((_, token)) => {
                        if empty > 0 {
                            let _ = write!(text, "{empty}");
                            empty = 0;
                        }
                        text.push_str(token);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                let _ = write!(text, "{empty}");
            }
            text
        })
        .collect();
    Ok(rows.join("/"))
}

fn code_token(code: &str) -> String {
    if code.chars().count() == 1 { code.to_string() } else { format!("[{code}]") }
}

/// The text of one man in a placement.
pub fn man_token<const W: usize>(game: &Game<W>, m: Man) -> String {
    let code = &game.def.pieces[m.kind()].code;
    let mut s = if game.nplayers == 2 {
        let t = code_token(code);
        if m.owner().index() == 0 { t.to_uppercase() } else { t.to_lowercase() }
    } else {
        format!("{}{}", game.def.players[m.owner()].code, code_token(&code.to_uppercase()))
    };
    if m.orientation() != m.owner() {
        let _ = write!(s, "({})", game.def.players[m.orientation()].code);
    }
    if m.flagged() {
        s.push('*');
    }
    s
}

/// Parses one man token at the start of `s`; returns it and the bytes consumed.
fn parse_man<const W: usize>(game: &Game<W>, s: &str) -> Result<(Man, usize), NotationError> {
    let bytes = s.as_bytes();
    let mut i = 0;
    let owner_prefix = if game.nplayers > 2 {
        let c = bytes[0] as char;
        let p = game.def.player_by_code(c).ok_or_else(|| NotationError(format!("'{c}' is not a player letter")))?;
        i = 1;
        Some(p)
    } else {
        None
    };
    let code: String = match bytes.get(i) {
        Some(b'[') => {
            let end = s[i..].find(']').ok_or_else(|| NotationError("unclosed '[' in placement".into()))? + i;
            let c = s[i + 1..end].to_string();
            i = end + 1;
            c
        }
        Some(&b) if (b as char).is_ascii_alphabetic() => {
            i += 1;
            (b as char).to_string()
        }
        _ => return err(format!("expected a piece code at '{}'", s.chars().take(8).collect::<String>())),
    };
    let first = code.chars().next().unwrap_or(' ');
    let owner = match owner_prefix {
        Some(p) => {
            if first.is_ascii_lowercase() {
                return err(format!("piece code '{code}' must be upper case after the player letter"));
            }
            p
        }
        None if first.is_ascii_uppercase() => Player::new(0),
        None => Player::new(1),
    };
    let kind = game.def.piece_by_code(&code).ok_or_else(|| NotationError(format!("unknown piece '{code}'")))?;
    let mut orientation = owner;
    if bytes.get(i) == Some(&b'(') {
        let c = *bytes.get(i + 1).ok_or_else(|| NotationError("unclosed '('".into()))? as char;
        orientation = game.def.player_by_code(c).ok_or_else(|| NotationError(format!("'{c}' is not a player letter")))?;
        if bytes.get(i + 2) != Some(&b')') {
            return err("expected ')' after the orientation letter");
        }
        i += 3;
    }
    let mut m = Man::new(kind, owner, orientation);
    if bytes.get(i) == Some(&b'*') {
        m = m.with_flag(true);
        i += 1;
    }
    Ok((m, i))
}

pub(super) fn parse_placement<const W: usize>(pos: &mut Position<W>, text: &str) -> Result<(), NotationError> {
    let game = pos.game();
    let rows = placement_rows(game.geometry());
    let parts: Vec<&str> = text.split('/').collect();
    if parts.len() != rows.len() {
        return err(format!("placement has {} rows, the board has {}", parts.len(), rows.len()));
    }
    for (ri, (part, row)) in parts.iter().zip(rows.iter()).enumerate() {
        let mut col = 0usize;
        let mut rest = *part;
        while !rest.is_empty() {
            let digits = rest.bytes().take_while(|b| b.is_ascii_digit()).count();
            if digits > 0 {
                let n: usize = rest[..digits].parse().map_err(|_| NotationError("bad empty-cell count".into()))?;
                if n == 0 {
                    return err("empty-cell count 0");
                }
                if n > row.len().saturating_sub(col) {
                    return err(format!("row {} is too long", ri + 1));
                }
                col += n;
                rest = &rest[digits..];
                continue;
            }
            let (m, used) = parse_man(game, rest)?;
            if col >= row.len() {
                return err(format!("row {} is too long", ri + 1));
            }
            // An orientation suffix on a man that does not move by orientation changes nothing.
            pos.put(row[col], game.normalized(m));
            col += 1;
            rest = &rest[used..];
        }
        if col != row.len() {
            return err(format!("row {} has {} cells, expected {}", ri + 1, col, row.len()));
        }
    }
    Ok(())
}

pub(super) fn write_placement<const W: usize>(pos: &Position<W>) -> String {
    let game = pos.game();
    let mut s = String::new();
    for (ri, row) in placement_rows(game.geometry()).iter().enumerate() {
        if ri > 0 {
            s.push('/');
        }
        let mut empty = 0;
        for &c in row {
            let m = pos.man_at(c);
            if m.is_none() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                let _ = write!(s, "{empty}");
                empty = 0;
            }
            s.push_str(&man_token(game, m));
        }
        if empty > 0 {
            let _ = write!(s, "{empty}");
        }
    }
    s
}
