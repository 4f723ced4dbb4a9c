//! Each player's frame: the symmetry of the board that carries a player's start onto the first
//! player's, so that what is learned from one player's side (a table, a network's inputs) reads
//! every player's men as the first player reads its own. Two players: chess's mirror top to
//! bottom; three or four: a rotation or reflection of the lattice.
//!
//! Found from the definition alone: among the lattice's linear maps (in each level's plane a
//! 2 × 2 matrix of −1, 0 and 1 with determinant ±1, levels kept or reversed) and the translations
//! that follow from them, the first that maps the board's cells onto themselves and the player's
//! start men onto the first player's, kind for kind (or, where the armies differ, cell for cell).

use crate::game::GameDef;
use crate::geometry::Vec3;
use crate::types::{Cell, Player, Table};

/// Per player, per cell, the cell it is from the first player's side; `None` when some player's
/// start is not the first player's under any map of the lattice.
pub fn player_frames(def: &GameDef) -> Option<Table<Player, Table<Cell, Cell>>> {
    let frames: Option<Vec<Table<Cell, Cell>>> = def.players.entries().map(|(p, _)| frame(def, p)).collect();
    frames.map(Table::from)
}

/// The men of `p` at the start: lattice coordinates and kind.
fn start_of(def: &GameDef, p: Player) -> Vec<(Vec3, usize)> {
    let mut men: Vec<(Vec3, usize)> =
        def.setup.iter().filter(|m| m.owner == p).map(|m| (def.geometry.coord(m.cell), m.kind.index())).collect();
    men.sort_unstable();
    men
}

/// The in-plane maps tried: the unimodular 2 × 2 matrices of −1, 0 and 1, the identity first.
fn plane_maps() -> Vec<[[i32; 2]; 2]> {
    let values: [i32; 3] = [1, 0, -1];
    let mut maps = Vec::new();
    for a in values {
        for b in values {
            for c in values {
                for d in values {
                    if (a * d - b * c).abs() == 1 {
                        maps.push([[a, b], [c, d]]);
                    }
                }
            }
        }
    }
    maps
}

fn frame(def: &GameDef, p: Player) -> Option<Table<Cell, Cell>> {
    let geo = &def.geometry;
    let first = Player::new(0);
    if p == first {
        return Some(Table::from_fn(geo.len(), |c: Cell| c));
    }
    let (ours, theirs) = (start_of(def, p), start_of(def, first));
    if ours.is_empty() || ours.len() != theirs.len() {
        return None;
    }
    // Kind for kind where both armies hold the same kinds, else cell for cell.
    let same_army = ours.iter().map(|m| m.1).collect::<Vec<_>>().iter().all(|k| theirs.iter().any(|m| m.1 == *k));
    let key = |m: &(Vec3, usize)| if same_army { m.1 } else { 0 };
    for m in plane_maps() {
        for z in [1, -1] {
            let apply = |v: Vec3| [m[0][0] * v[0] + m[0][1] * v[1], m[1][0] * v[0] + m[1][1] * v[1], z * v[2]];
            // The translation that takes our first man onto one of theirs of its kind.
            for target in theirs.iter().filter(|t| key(t) == key(&ours[0])) {
                let moved = apply(ours[0].0);
                let shift = [target.0[0] - moved[0], target.0[1] - moved[1], target.0[2] - moved[2]];
                let map = |v: Vec3| {
                    let w = apply(v);
                    [w[0] + shift[0], w[1] + shift[1], w[2] + shift[2]]
                };
                let mut mapped: Vec<(Vec3, usize)> = ours.iter().map(|man| (map(man.0), man.1)).collect();
                mapped.sort_unstable();
                let matches = mapped.iter().zip(&theirs).all(|(a, b)| a.0 == b.0 && key(a) == key(b));
                if !matches {
                    continue;
                }
                let cells: Option<Vec<Cell>> = geo.all().map(|c| geo.cell_at(map(geo.coord(c)))).collect();
                if let Some(cells) = cells {
                    return Some(Table::from(cells));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games;

    fn frames(id: &str) -> (GameDef, Table<Player, Table<Cell, Cell>>) {
        let def = games::definition(id).expect("a game");
        let frames = player_frames(&def).unwrap_or_else(|| panic!("{id}: every player has a frame"));
        (def, frames)
    }

    #[test]
    fn chess_black_sees_the_board_mirrored_top_to_bottom() {
        let (def, frames) = frames("chess");
        for c in def.geometry.all() {
            assert_eq!(frames[Player::new(1)][c].index(), c.index() ^ 56);
        }
    }

    /// In every game each player's frame is a bijection of the board that takes its start men
    /// onto the first player's.
    #[test]
    fn every_player_has_a_frame_in_every_game() {
        for id in ["chess", "cwda-nr", "ninjachess", "honeycomb3", "wildhoney3", "guru2", "guru2-teams", "aof3"] {
            let (def, frames) = frames(id);
            for (p, frame) in frames.entries() {
                let mut seen: Vec<Cell> = frame.iter().copied().collect();
                seen.sort_unstable();
                seen.dedup();
                assert_eq!(seen.len(), def.geometry.len(), "{id}: player {p:?}'s frame is not a bijection");
                let mut ours: Vec<Cell> = def.setup.iter().filter(|m| m.owner == p).map(|m| frame[m.cell]).collect();
                let mut theirs: Vec<Cell> = def.setup.iter().filter(|m| m.owner == Player::new(0)).map(|m| m.cell).collect();
                ours.sort_unstable();
                theirs.sort_unstable();
                assert_eq!(ours, theirs, "{id}: player {p:?}");
            }
        }
    }
}
