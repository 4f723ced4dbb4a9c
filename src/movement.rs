//! Piece types described by movement components.
//!
//! A piece type is a union of components (leap, ride, hop, curved ride, bent ride), each with a
//! mode (move and capture, move only, capture only). Direction-dependent components list their
//! vectors per orientation: a man's orientation is the player whose "forward" it uses, which is
//! its owner unless it was recruited from another army. Pawn-like men add a [`PawnDef`].
//! Attack generation and move generation both read the tables derived from these components.

use crate::geometry::Vec3;
use crate::types::{Cell, PieceType, Player, Table};

/// What a component may do on its target cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    Both,
    MoveOnly,
    CaptureOnly,
}

impl Mode {
    pub fn captures(self) -> bool {
        self != Mode::MoveOnly
    }
    pub fn moves(self) -> bool {
        self != Mode::CaptureOnly
    }
}

/// Vectors that are either the same for every orientation or given per orientation (the
/// player whose forward direction applies).
#[derive(Clone, Debug)]
pub enum Vectors {
    Same(Vec<Vec3>),
    PerOrientation(Table<Player, Vec<Vec3>>),
}

impl Vectors {
    pub fn for_orientation(&self, o: Player) -> &[Vec3] {
        match self {
            Vectors::Same(v) => v,
            Vectors::PerOrientation(v) => &v[o],
        }
    }
    pub fn is_oriented(&self) -> bool {
        matches!(self, Vectors::PerOrientation(_))
    }
}

#[derive(Clone, Debug)]
pub enum Component {
    /// Jumps to `cell + v` for each vector; cannot be blocked.
    Leap { vectors: Vectors, mode: Mode },
    /// Slides along each direction through empty cells, at most `range` steps (`None` = no limit).
    Ride { dirs: Vectors, range: Option<u32>, mode: Mode },
    /// Cannon-style hopper: moves like a rider without capturing; captures by jumping exactly one
    /// man (either side) along the line and landing on the first man beyond it.
    Hop { dirs: Vectors },
    /// Curved rider: step `k` (0-based) goes along `ring[(i + s·k) mod n]` for a first direction `i`
    /// and a fixed turning sense `s = ±1`; every cell passed must be empty; at most `max_steps`.
    Curved { ring: Vec<Vec3>, max_steps: u32 },
    /// Bent rider: one step along `first`, which may stop or capture there; if that cell is empty
    /// it may go on as a rider along any of `then`.
    Bent { legs: Vec<(Vec3, Vec<Vec3>)> },
}

impl Component {
    pub fn leap(vectors: Vec<Vec3>) -> Self {
        Component::Leap { vectors: Vectors::Same(vectors), mode: Mode::Both }
    }
    pub fn ride(dirs: Vec<Vec3>) -> Self {
        Component::Ride { dirs: Vectors::Same(dirs), range: None, mode: Mode::Both }
    }
    pub fn ride_limited(dirs: Vec<Vec3>, range: u32) -> Self {
        Component::Ride { dirs: Vectors::Same(dirs), range: Some(range), mode: Mode::Both }
    }
    pub fn hop(dirs: Vec<Vec3>) -> Self {
        Component::Hop { dirs: Vectors::Same(dirs) }
    }
}

/// How a pawn-like man promotes.
#[derive(Clone, Debug)]
pub struct PromotionDef {
    /// Per orientation: cells where a move by this man may promote.
    pub zone: Table<Player, Vec<Cell>>,
    /// Per orientation: cells where it must promote (a subset of the zone).
    pub mandatory: Table<Player, Vec<Cell>>,
    pub choices: PromotionChoices,
}

#[derive(Clone, Debug)]
pub enum PromotionChoices {
    /// Any of these types, without limit.
    Fixed(Vec<PieceType>),
    /// The destination cell decides the type.
    ByCell(Table<Cell, Option<PieceType>>),
    /// Only types of which the promoting player has fewer on the board than at the start.
    CapturedPool(Vec<PieceType>),
}

/// Extra rules of forward-only men (pawns, yeomen).
#[derive(Clone, Debug, Default)]
pub struct PawnDef {
    /// Per orientation: cells from which the man may move two steps along one of its
    /// non-capturing step vectors, both cells empty.
    pub double_step: Table<Player, Vec<Cell>>,
    /// May capture en passant and be captured en passant.
    pub en_passant: bool,
    pub promotion: Option<PromotionDef>,
}

#[derive(Clone, Debug)]
pub struct PieceDef {
    pub name: String,
    /// Letter or short code, upper case (`N`, `Q`); position strings and promotion suffixes use it.
    pub code: String,
    pub components: Vec<Component>,
    /// Losing it loses the game (King, Emperor).
    pub royal: bool,
    pub pawn: Option<PawnDef>,
    /// Material value in centipawns; 0 means "derive from mobility".
    pub value: i32,
}

impl PieceDef {
    pub fn new(name: &str, code: &str, components: Vec<Component>) -> Self {
        PieceDef { name: name.to_string(), code: code.to_string(), components, royal: false, pawn: None, value: 0 }
    }
    pub fn royal(mut self) -> Self {
        self.royal = true;
        self
    }
    pub fn value(mut self, v: i32) -> Self {
        self.value = v;
        self
    }
    pub fn pawn(mut self, p: PawnDef) -> Self {
        self.pawn = Some(p);
        self
    }
}

/// All sign/permutation variants of a 3-D leap `(a, b, c)`, e.g. `(1, 2, 0)` gives the knight.
pub fn leaper(a: i32, b: i32, c: i32) -> Vec<Vec3> {
    let base = [a, b, c];
    let perms = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    let mut out: Vec<Vec3> = Vec::new();
    for p in perms {
        for signs in 0..8 {
            let mut v = [0; 3];
            for i in 0..3 {
                let s = if signs >> i & 1 == 1 { -1 } else { 1 };
                v[i] = base[p[i]] * s;
            }
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out.sort();
    out
}

/// All sign/swap variants of a flat leap `(a, b)` in the x-y plane.
pub fn leaper2d(a: i32, b: i32) -> Vec<Vec3> {
    let mut out: Vec<Vec3> = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let v = [x * sx, y * sy, 0];
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaper_counts() {
        assert_eq!(leaper(1, 2, 0).len(), 24);
        assert_eq!(leaper(2, 2, 1).len(), 24);
        assert_eq!(leaper(1, 1, 0).len(), 12);
        assert_eq!(leaper(1, 0, 0).len(), 6);
        assert_eq!(leaper2d(1, 2).len(), 8);
        assert_eq!(leaper2d(1, 1).len(), 4);
        assert_eq!(leaper2d(0, 1).len(), 4);
        assert_eq!(leaper2d(2, 2).len(), 4);
    }
}
