//! Board geometry as data: a list of cells with integer lattice coordinates and names.
//!
//! Every board of the engine (square, cubic, layered square, hex prism) is a set of lattice
//! points `(x, y, z)`. A move vector is a lattice vector; stepping is "add the vector and look the
//! point up". Everything else (rays, leap tables, curved paths) is derived from this by
//! `crate::tables`. Cells are listed in canonical-index order, and every board lists them
//! lexicographically by some ordering of its axes, so a straight ray always runs monotonically
//! through the cell indices (the nearest blocker on a ray is its lowest or highest set bit).

use std::collections::HashMap;

use crate::types::{Cell, MAX_CELLS, Table};

/// A lattice vector or point `(x, y, z)`; 2-D boards use `z = 0`.
pub type Vec3 = [i32; 3];

pub fn add(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

pub fn neg(a: Vec3) -> Vec3 {
    [-a[0], -a[1], -a[2]]
}

pub fn scale(a: Vec3, k: i32) -> Vec3 {
    [a[0] * k, a[1] * k, a[2] * k]
}

/// The six hex diagonals of a hex lattice from its six orthogonal steps in angular order:
/// `D[k] = H[k] + H[k + 1]`, the step of length √3 that passes between those two neighbours.
pub const fn hex_diagonals(orthogonals: [Vec3; 6]) -> [Vec3; 6] {
    let mut d = [[0; 3]; 6];
    let mut k = 0;
    while k < 6 {
        let (a, b) = (orthogonals[k], orthogonals[(k + 1) % 6]);
        d[k] = [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
        k += 1;
    }
    d
}

/// Each horizontal vector `dz` levels up, then `dz` levels down: with `dz = 1`, a hex lattice's
/// orthogonals give the prism's square diagonals and its hex diagonals the hybrid diagonals.
pub fn with_levels(horizontal: &[Vec3], dz: i32) -> Vec<Vec3> {
    horizontal.iter().flat_map(|&v| [[v[0], v[1], dz], [v[0], v[1], -dz]]).collect()
}

/// The `i`-th lower-case letter (`0` gives `a`), for cell names.
pub fn letter(i: i32) -> char {
    usize::try_from(i).ok().and_then(|i| ('a'..='z').nth(i)).expect("a letter from a to z")
}

#[derive(Clone, Debug)]
pub struct CellInfo {
    /// Lattice coordinates.
    pub coord: Vec3,
    /// The name used in moves and position strings (`e4`, `3c5`, `Ue5`).
    pub name: String,
    /// Level (0-based) for multi-level boards; 0 for flat boards.
    pub level: usize,
    /// 2-D drawing position of the cell's centre within its level (x to the right, y upwards,
    /// one unit = one cell width). Used for `d` and by GUIs.
    pub draw: (f64, f64),
}

#[derive(Clone, Debug)]
pub struct Geometry {
    /// Short description, e.g. "8x8 square".
    pub description: String,
    /// Cells in canonical-index order.
    pub cells: Table<Cell, CellInfo>,
    /// Number of levels.
    pub levels: usize,
    /// Names of the levels (empty strings for flat boards).
    pub level_names: Vec<String>,
    lo: Vec3,
    dims: [usize; 3],
    grid: Vec<Cell>,
    /// Horizontal column pairs (x, y) that no single step or leap may join (notch barriers).
    barred: Vec<([i32; 2], [i32; 2])>,
    /// Places inside a level's outline that hold no cell (notches), as (level, drawing position):
    /// drawn as `##` by `d`.
    pub holes: Vec<(usize, (f64, f64))>,
    /// The shape of every cell in the drawing.
    pub shape: CellShape,
    by_name: HashMap<String, Cell>,
}

/// The shape of the cells in the 2-D drawing of a level, one unit wide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellShape {
    Square,
    /// A hexagon with a corner at the top: rows of cells one unit apart side by side, √3/2 apart
    /// between rows.
    Hexagon,
}

impl CellShape {
    pub fn name(self) -> &'static str {
        match self {
            CellShape::Square => "square",
            CellShape::Hexagon => "hexagon",
        }
    }

    /// The corners of a cell centred on `(x, y)`, anticlockwise.
    pub fn outline(self, (x, y): (f64, f64)) -> Vec<(f64, f64)> {
        match self {
            CellShape::Square => vec![(x - 0.5, y - 0.5), (x + 0.5, y - 0.5), (x + 0.5, y + 0.5), (x - 0.5, y + 0.5)],
            CellShape::Hexagon => {
                let r = 1.0 / 3f64.sqrt();
                (0..6).map(|k| (f64::from(k) * 60.0 - 30.0).to_radians()).map(|a| (x + r * a.cos(), y + r * a.sin())).collect()
            }
        }
    }
}

/// Grid points without a cell.
const NO_CELL: Cell = Cell::new(MAX_CELLS - 1);

impl Geometry {
    /// Builds a geometry from cells already in canonical order.
    pub fn new(description: &str, cells: Vec<CellInfo>, level_names: Vec<String>) -> Self {
        let mut lo = [i32::MAX; 3];
        let mut hi = [i32::MIN; 3];
        for c in &cells {
            for a in 0..3 {
                lo[a] = lo[a].min(c.coord[a]);
                hi[a] = hi[a].max(c.coord[a]);
            }
        }
        let dims = [0, 1, 2].map(|a| usize::try_from(hi[a] - lo[a] + 1).expect("non-empty bounds"));
        let mut grid = vec![NO_CELL; dims[0] * dims[1] * dims[2]];
        let mut by_name = HashMap::new();
        assert!(cells.len() < MAX_CELLS, "{} cells: fewer than {MAX_CELLS}", cells.len());
        let cells: Table<Cell, CellInfo> = cells.into();
        for (i, c) in cells.entries() {
            let g = Self::grid_index(lo, dims, c.coord).expect("cell inside its own bounds");
            assert_eq!(grid[g], NO_CELL, "two cells at {:?}", c.coord);
            grid[g] = i;
            assert!(by_name.insert(c.name.clone(), i).is_none(), "duplicate cell name {}", c.name);
        }
        let levels = level_names.len().max(1);
        Geometry {
            description: description.to_string(),
            cells,
            levels,
            level_names,
            lo,
            dims,
            grid,
            barred: Vec::new(),
            holes: Vec::new(),
            shape: CellShape::Square,
            by_name,
        }
    }

    /// Declares column pairs that no step or leap may join, on any level (and between levels).
    pub fn with_barriers(mut self, pairs: &[([i32; 2], [i32; 2])]) -> Self {
        for &(a, b) in pairs {
            self.barred.push((a, b));
            self.barred.push((b, a));
        }
        self
    }

    /// Declares the cells' shape in the drawing (squares unless said otherwise).
    pub fn with_shape(mut self, shape: CellShape) -> Self {
        self.shape = shape;
        self
    }

    /// Declares places without a cell that `d` should draw (notches in a level's outline).
    pub fn with_holes(mut self, holes: Vec<(usize, (f64, f64))>) -> Self {
        self.holes = holes;
        self
    }

    fn grid_index(lo: Vec3, dims: [usize; 3], p: Vec3) -> Option<usize> {
        let mut idx = 0usize;
        for a in (0..3).rev() {
            let d = usize::try_from(p[a] - lo[a]).ok().filter(|&d| d < dims[a])?;
            idx = idx * dims[a] + d;
        }
        Some(idx)
    }

    /// A plain `files × ranks` board named `a1`…, canonical index `files·rank + file`.
    pub fn square(files: i32, ranks: i32) -> Self {
        assert!((1..=26).contains(&files), "files are single letters");
        let mut cells = Vec::new();
        for r in 0..ranks {
            for f in 0..files {
                cells.push(CellInfo {
                    coord: [f, r, 0],
                    name: format!("{}{}", letter(f), r + 1),
                    level: 0,
                    draw: (f64::from(f), f64::from(r)),
                });
            }
        }
        Geometry::new(&format!("{files}x{ranks} square"), cells, vec![String::new()])
    }

    /// A prism of hexagonal triangles: one level per entry of `level_names`, each a triangle of
    /// hexes with `side` cells per edge. A column `(x, y)` has `1 ≤ x ≤ y ≤ side`; the cell on
    /// level `l` is named `{x}{level}{y}` (`3c5`) and has lattice point `(x, y, l)` and canonical
    /// index `T·l + y(y−1)/2 + (x−1)` with `T = side(side+1)/2` (lexicographic in `(l, y, x)`).
    /// Hex neighbours differ by `(±1, 0)`, `(0, ±1)` or `±(1, 1)`; the drawing puts column
    /// `(x, y)` at `((y+1)/2 − x, y·√3/2)`, so `(1, 1)` is the bottom corner.
    pub fn hex_triangle_prism(side: i32, level_names: &[&str]) -> Self {
        assert!((1..=9).contains(&side), "single-digit column coordinates");
        let mut cells = Vec::new();
        for ((l, z), level) in (0..).zip(0..).zip(level_names) {
            for y in 1..=side {
                for x in 1..=y {
                    let (fx, fy) = (f64::from(x), f64::from(y));
                    cells.push(CellInfo {
                        coord: [x, y, z],
                        name: format!("{x}{level}{y}"),
                        level: l,
                        draw: ((fy + 1.0) / 2.0 - fx, fy * 3f64.sqrt() / 2.0),
                    });
                }
            }
        }
        let names = level_names.iter().map(|s| s.to_string()).collect();
        Geometry::new(&format!("{} levels x hex triangle of side {side}", level_names.len()), cells, names).with_shape(CellShape::Hexagon)
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Every cell, in canonical order.
    pub fn all(&self) -> impl Iterator<Item = Cell> + Clone + use<> {
        (0..self.cells.len()).map(Cell::new)
    }

    pub fn cell_at(&self, p: Vec3) -> Option<Cell> {
        let g = Self::grid_index(self.lo, self.dims, p)?;
        Some(self.grid[g]).filter(|&c| c != NO_CELL)
    }

    pub fn coord(&self, cell: Cell) -> Vec3 {
        self.cells[cell].coord
    }

    pub fn name(&self, cell: Cell) -> &str {
        &self.cells[cell].name
    }

    pub fn cell_by_name(&self, name: &str) -> Option<Cell> {
        self.by_name.get(name).copied()
    }

    /// Where a step of one along each of the first two lattice axes goes in the drawing of a
    /// level, as (dx, dy) pairs: what a GUI needs to draw movement vectors as the board shows
    /// them. Read off the first cell that has a neighbour along the axis on its own level.
    pub fn drawing_axes(&self) -> [(f64, f64); 2] {
        [[1, 0, 0], [0, 1, 0]].map(|unit| {
            self.cells
                .iter()
                .find_map(|c| {
                    let n = &self.cells[self.cell_at(add(c.coord, unit))?];
                    (n.level == c.level).then_some((n.draw.0 - c.draw.0, n.draw.1 - c.draw.1))
                })
                .unwrap_or((f64::from(unit[0]), f64::from(unit[1])))
        })
    }

    /// True when the horizontal displacement between the two cells crosses a barrier.
    pub fn is_barred(&self, from: Cell, to: Cell) -> bool {
        if self.barred.is_empty() {
            return false;
        }
        let a = self.cells[from].coord;
        let b = self.cells[to].coord;
        self.barred.iter().any(|&(p, q)| p == [a[0], a[1]] && q == [b[0], b[1]])
    }

    /// The cell one vector away, unless it is off the board or the step crosses a barrier.
    pub fn step(&self, from: Cell, v: Vec3) -> Option<Cell> {
        let to = self.cell_at(add(self.cells[from].coord, v))?;
        if self.is_barred(from, to) { None } else { Some(to) }
    }

    /// Cells reached by repeating `v` from `from` (exclusive), at most `max` of them.
    pub fn ray(&self, from: Cell, v: Vec3, max: usize) -> Vec<Cell> {
        let mut out = Vec::new();
        let mut cur = from;
        while out.len() < max {
            match self.step(cur, v) {
                Some(n) => {
                    out.push(n);
                    cur = n;
                }
                None => break,
            }
        }
        out
    }

    /// Parses a cell name at the start of `s`, returning the cell and the length consumed.
    /// Cell names are never prefixes of each other except by a trailing digit (`a1`/`a10`), so the
    /// longest name that matches wins.
    pub fn parse_cell_prefix(&self, s: &str) -> Option<(Cell, usize)> {
        let mut best = None;
        let max_len = s.len().min(8);
        for len in 1..=max_len {
            if !s.is_char_boundary(len) {
                continue;
            }
            if let Some(&c) = self.by_name.get(&s[..len]) {
                best = Some((c, len));
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(i: usize) -> Cell {
        Cell::new(i)
    }

    #[test]
    fn square_board_names_and_steps() {
        let g = Geometry::square(8, 8);
        assert_eq!(g.len(), 64);
        assert_eq!(g.name(c(0)), "a1");
        assert_eq!(g.name(c(63)), "h8");
        assert_eq!(g.cell_by_name("e4"), Some(c(28)));
        assert_eq!(g.step(c(28), [1, 1, 0]), Some(c(37)));
        assert_eq!(g.step(c(7), [1, 0, 0]), None);
        assert_eq!(g.ray(c(0), [1, 1, 0], 100).len(), 7);
        assert_eq!(g.ray(c(0), [0, 1, 0], 4), vec![c(8), c(16), c(24), c(32)]);
        assert_eq!(g.parse_cell_prefix("e2e4"), Some((c(12), 2)));
    }

    #[test]
    fn hex_triangle_prism_index_names_and_steps() {
        let g = Geometry::hex_triangle_prism(8, &["a", "b", "c", "d", "e"]);
        assert_eq!(g.len(), 180);
        assert_eq!(g.levels, 5);
        for (i, info) in g.cells.entries() {
            let [x, y, l] = info.coord;
            assert_eq!(i.index() as i32, 36 * l + y * (y - 1) / 2 + (x - 1));
        }
        let c = |n: &str| g.cell_by_name(n).unwrap();
        assert_eq!(c("1a1"), Cell::new(0));
        assert_eq!(c("3c5"), Cell::new(72 + 10 + 2));
        assert_eq!(c("8e8"), Cell::new(179));
        // Column arithmetic of the rules: +1, +11, +10 are (0,1), (1,1), (1,0).
        assert_eq!(g.step(c("3c5"), [0, 1, 0]), Some(c("3c6")));
        assert_eq!(g.step(c("3c5"), [1, 1, 0]), Some(c("4c6")));
        assert_eq!(g.step(c("3c5"), [1, 0, 0]), Some(c("4c5")));
        assert_eq!(g.step(c("5c5"), [1, 0, 0]), None);
        assert_eq!(g.step(c("3c5"), [0, 0, 2]), Some(c("3e5")));
        assert_eq!(g.ray(c("1a1"), [0, 1, 0], 100).len(), 7);
        // Drawing: 11 at the bottom, 18 upper right, 88 upper left, rows half a cell apart.
        let d = |n: &str| g.cells[c(n)].draw;
        assert!(d("1a1").1 < d("1a8").1 && d("1a8").0 > d("8a8").0);
        assert_eq!(d("1a2").0 - d("1a1").0, 0.5);
        assert_eq!(d("1a2").0 - d("2a2").0, 1.0);
    }

    #[test]
    fn barriers_block_steps_both_ways() {
        let g = Geometry::square(4, 4).with_barriers(&[([0, 0], [1, 1])]);
        assert_eq!(g.step(c(0), [1, 1, 0]), None);
        assert_eq!(g.step(c(5), [-1, -1, 0]), None);
        assert_eq!(g.step(c(0), [1, 0, 0]), Some(c(1)));
    }
}
