//! The text board of the `d` command.

use std::fmt::Write;

use super::fen::position_string;
use super::placement::{man_token, placement_rows};
use crate::attacks::Facing;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::Cell;

/// The text board of `d`: each level drawn from the cells' 2-D positions, each row labelled with
/// its first and last cell. Neighbours in a row are one cell apart, a cell being as wide as the
/// widest token on the board plus a space (an even width where rows are offset by half a cell, as
/// on hex boards, so that every cell sits exactly between the two it touches in the next rows).
/// Holes of the geometry (notches) are drawn as `##`.
pub fn board_text<const W: usize>(pos: &Position<W>) -> String {
    let game = pos.game();
    let geo = game.geometry();
    let mut out = String::new();
    let rows = placement_rows(game.geometry());
    let token = |c: Cell| {
        let m = pos.man_at(c);
        if m.is_none() { ".".to_string() } else { man_token(game, m) }
    };
    let token_width = geo.all().map(|c| token(c).chars().count()).max().unwrap_or(1).max(3);
    let min_gap = rows
        .iter()
        .flat_map(|r| r.windows(2).map(|w| (geo.cells[w[1]].draw.0 - geo.cells[w[0]].draw.0).abs()))
        .filter(|&g| g > 1e-9)
        .fold(f64::INFINITY, f64::min);
    let min_gap = if min_gap.is_finite() { min_gap } else { 1.0 };
    let half_steps = geo.cells.iter().any(|c| ((c.draw.0 / min_gap) * 2.0).round() as i64 % 2 != 0);
    let mut cell_width = token_width + 1;
    if half_steps && cell_width % 2 == 1 {
        cell_width += 1;
    }
    let unit = cell_width as f64 / min_gap;
    for level in 0..geo.levels {
        let cells: Vec<Cell> = geo.all().filter(|&c| geo.cells[c].level == level).collect();
        if cells.is_empty() {
            continue;
        }
        if geo.levels > 1 {
            let _ = writeln!(out, "Level {}:", geo.level_names.get(level).cloned().unwrap_or_else(|| level.to_string()));
        }
        let minx = cells.iter().map(|&c| geo.cells[c].draw.0).fold(f64::INFINITY, f64::min);
        let mut lines = Vec::new();
        for row in rows.iter().filter(|r| geo.cells[r[0]].level == level) {
            let y = geo.cells[row[0]].draw.1;
            let mut tokens: Vec<(f64, String)> = row.iter().map(|&c| (geo.cells[c].draw.0, token(c))).collect();
            for &(_, (x, _)) in geo.holes.iter().filter(|&&(l, (_, hy))| l == level && (hy - y).abs() < 1e-6) {
                tokens.push((x, "##".to_string()));
            }
            tokens.sort_by(|a, b| a.0.total_cmp(&b.0));
            let mut line = String::new();
            for (x, tok) in tokens {
                let col = ((x - minx) * unit).round() as usize;
                while line.chars().count() < col {
                    line.push(' ');
                }
                let _ = write!(line, " {tok:<token_width$}");
            }
            let first = geo.name(row[0]);
            let last = geo.name(*row.last().unwrap_or(&row[0]));
            lines.push((line.trim_end().to_string(), format!("{first}..{last}")));
        }
        let width = lines.iter().map(|(l, _)| l.chars().count()).max().unwrap_or(0);
        for (line, label) in lines {
            let _ = writeln!(out, "{line:<width$}   {label}");
        }
        out.push('\n');
    }
    let _ = writeln!(out, "Position: {}", position_string(pos));
    let _ = writeln!(out, "Key: {:016X}", pos.hash());
    let p = pos.to_move();
    let checkers = match pos.royal_cell(p) {
        Some(k) => pos.attackers(k, pos.occupied(), pos.opponents(p), Bitboard::EMPTY, Facing::Counted),
        None => Bitboard::EMPTY,
    };
    let names: Vec<&str> = checkers.iter().map(|c| geo.name(c)).collect();
    let _ = writeln!(out, "Checkers: {}", names.join(" "));
    out
}
