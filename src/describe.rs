//! Descriptions of a game for GUI authors: the cell listing of the `geometry` command and the
//! piece listing of the `pieces` command, both generated from the game definition.

use std::fmt::Write;

use crate::game::GameDef;
use crate::geometry::Vec3;
use crate::movement::{Component, Mode, PieceDef, PromotionChoices, Vectors};
use crate::moves::Man;
use crate::types::{Cell, PieceType, Table};

/// Formats a decimal without a trailing `.0` and with at most four decimals.
fn number(x: f64) -> String {
    let s = format!("{:.4}", x);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".to_string() } else { s.to_string() }
}

/// Lines of the `geometry` command: a header (ending with where a step along each of the first
/// two lattice axes goes in the drawing), one line per cell with its centre and the corners of its
/// outline, and `geometry end`.
pub fn geometry_lines(def: &GameDef) -> Vec<String> {
    let geo = &def.geometry;
    let levels: Vec<&str> = geo.level_names.iter().map(|n| if n.is_empty() { "-" } else { n.as_str() }).collect();
    let axes: Vec<String> = geo.drawing_axes().iter().map(|&(x, y)| format!("{},{}", number(x), number(y))).collect();
    let mut out = vec![format!(
        "geometry game {} cells {} levels {} names {} shape {} axes {}",
        def.id,
        geo.len(),
        geo.levels,
        levels.join(","),
        geo.shape.name(),
        axes.join(" ")
    )];
    for (i, c) in geo.cells.entries() {
        let corners: Vec<String> = geo.shape.outline(c.draw).iter().map(|&(x, y)| format!("{},{}", number(x), number(y))).collect();
        out.push(format!(
            "cell {} index {} level {} x {} y {} outline {}",
            c.name,
            i.index(),
            c.level,
            number(c.draw.0),
            number(c.draw.1),
            corners.join(" ")
        ));
    }
    out.push("geometry end".to_string());
    out
}

/// Lines of the `board` command: one `man <cell> <player letter> <piece code>` per occupied
/// cell in canonical order, then `board end`.
pub fn board_lines(def: &GameDef, men: &[(Cell, Man)]) -> Vec<String> {
    let geo = &def.geometry;
    let mut out: Vec<String> =
        men.iter().map(|&(c, m)| format!("man {} {} {}", geo.name(c), def.players[m.owner()].code, def.pieces[m.kind()].code)).collect();
    out.push("board end".to_string());
    out
}

/// How many lattice components a vector is written with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Axes {
    /// `(dx,dy)` on one-level boards.
    Flat,
    /// `(dx,dy,dz)` on boards of several levels.
    Spatial,
}

fn vector(v: Vec3, axes: Axes) -> String {
    match axes {
        Axes::Spatial => format!("({},{},{})", v[0], v[1], v[2]),
        Axes::Flat => format!("({},{})", v[0], v[1]),
    }
}

fn vectors(vs: &[Vec3], axes: Axes) -> String {
    vs.iter().map(|&v| vector(v, axes)).collect::<Vec<_>>().join(" ")
}

fn oriented(def: &GameDef, vs: &Vectors, axes: Axes) -> String {
    match vs {
        Vectors::Same(v) => vectors(v, axes),
        Vectors::PerOrientation(per) => {
            per.entries().map(|(p, v)| format!("{}: {}", def.players[p].name, vectors(v, axes))).collect::<Vec<_>>().join("; ")
        }
    }
}

fn mode(m: Mode) -> &'static str {
    match m {
        Mode::Both => "",
        Mode::MoveOnly => " (moving only)",
        Mode::CaptureOnly => " (capturing only)",
    }
}

fn component(def: &GameDef, c: &Component, axes: Axes) -> String {
    match c {
        Component::Leap { vectors, mode: m } => format!("leaps{} by {}", mode(*m), oriented(def, vectors, axes)),
        Component::Ride { dirs, range, mode: m } => {
            let limit = range.map(|r| format!(" up to {r} steps")).unwrap_or_default();
            format!("rides{}{} along {}", mode(*m), limit, oriented(def, dirs, axes))
        }
        Component::Hop { dirs } => {
            format!("moves as a rider and captures by hopping over exactly one man along {}", oriented(def, dirs, axes))
        }
        Component::Curved { ring, max_steps } => format!(
            "rides a curved path of up to {max_steps} steps, each step turned one place further the same way round {} \
             (every cell passed must be empty)",
            vectors(ring, axes)
        ),
        Component::Bent { legs } => {
            let legs: Vec<String> =
                legs.iter().map(|(first, then)| format!("{} then {}", vector(*first, axes), vectors(then, axes))).collect();
            format!("steps once and may stop there, or (if that cell is empty) rides on: {}", legs.join("; "))
        }
    }
}

/// How a piece moves, in words and vectors `(dx,dy[,dz])` of the game's lattice.
pub fn piece_moves(def: &GameDef, piece: &PieceDef) -> String {
    let axes = if def.geometry.levels > 1 { Axes::Spatial } else { Axes::Flat };
    let mut parts: Vec<String> = piece.components.iter().map(|c| component(def, c, axes)).collect();
    if let Some(pawn) = &piece.pawn {
        if pawn.double_step.iter().any(|cells| !cells.is_empty()) {
            parts.push("may move two steps at once from its start cells".into());
        }
        if pawn.en_passant {
            parts.push("captures and is captured en passant".into());
        }
        if let Some(pr) = &pawn.promotion {
            let codes = |ts: &[PieceType]| ts.iter().map(|&t| def.pieces[t].code.clone()).collect::<Vec<_>>().join(",");
            let choice = match &pr.choices {
                PromotionChoices::Fixed(ts) => format!("to any of {}", codes(ts)),
                PromotionChoices::ByCell(_) => "to the type its destination cell decides".to_string(),
                PromotionChoices::CapturedPool(ts) => format!("to one of {} that its owner has lost", codes(ts)),
            };
            let compulsory = if pr.zone == pr.mandatory { "must promote" } else { "may promote (on its last cells must)" };
            parts.push(format!("{compulsory} on reaching its promotion zone, {choice}"));
        }
    }
    parts.join("; ")
}

/// Lines of the `pieces` command: a header, one line per piece type with its material value in
/// centipawns (`values`, the evaluation's; 0 for royal pieces), and `pieces end`.
pub fn piece_lines(def: &GameDef, values: &Table<PieceType, i32>) -> Vec<String> {
    let mut out = vec![format!("pieces game {} count {}", def.id, def.pieces.len())];
    for (p, value) in def.pieces.iter().zip(values) {
        let mut line = String::new();
        let _ = write!(
            line,
            "piece code {} name {} royal {} pawn {} value {} moves {}",
            p.code,
            p.name,
            if p.royal { "yes" } else { "no" },
            if p.pawn.is_some() { "yes" } else { "no" },
            value,
            piece_moves(def, p)
        );
        out.push(line);
    }
    out.push("pieces end".to_string());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{Evaluator, PARAMS};
    use crate::games;
    use crate::registry;

    #[test]
    fn chess_listings() {
        let def = games::definition("chess").expect("chess");
        let g = geometry_lines(&def);
        assert_eq!(g[0], "geometry game chess cells 64 levels 1 names - shape square axes 1,0 0,1");
        assert_eq!(g[1], "cell a1 index 0 level 0 x 0 y 0 outline -0.5,-0.5 0.5,-0.5 0.5,0.5 -0.5,0.5");
        assert_eq!(g[64], "cell h8 index 63 level 0 x 7 y 7 outline 6.5,6.5 7.5,6.5 7.5,7.5 6.5,7.5");
        assert_eq!(g.len(), 66);
        let values = Evaluator::new(registry::compiled::<1>(def.clone()), &PARAMS).values().clone();
        let p = piece_lines(&def, &values);
        assert_eq!(p.len(), 8);
        assert_eq!(
            p[1],
            "piece code K name King royal yes pawn no value 0 moves leaps by (1,0) (-1,0) (0,1) (0,-1) (1,1) (1,-1) (-1,1) (-1,-1)"
        );
        assert!(
            p[2].starts_with("piece code P name Pawn royal no pawn yes value 100 moves leaps (moving only) by White: (0,1); Black: (0,-1)")
        );
        assert!(p[2].ends_with("must promote on reaching its promotion zone, to any of R,N,B,Q"), "{}", p[2]);
    }
}
