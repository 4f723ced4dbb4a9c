//! The honeycomb3 family's boards, pieces and setups against the rules files.

use super::*;
use crate::registry;
use crate::tables::{CompiledComponent, Game};

fn game(id: &str) -> &'static Game<4> {
    registry::compiled::<4>(definition(id).expect("game id"))
}

fn cell(g: &Game<4>, name: &str) -> Cell {
    g.geometry().cell_by_name(name).expect("cell name")
}

fn type_named(g: &Game<4>, code: &str) -> PieceType {
    g.def.piece_by_code(code).expect("piece code")
}

/// Directions a piece may start in from `from` on an empty board (rules §6): open rays of
/// its rides, targets of its leaps, cells of its curved paths.
fn directions(g: &Game<4>, code: &str, owner: usize, from: Cell) -> usize {
    let t = type_named(g, code);
    let tables = &g.moves;
    let mut n = 0;
    for comp in &g.types[t].comps[Player::new(owner)] {
        n += match comp {
            CompiledComponent::Ride { rays, .. } => rays.iter().filter(|&&r| tables.rays[usize::from(r)].mask[from].any()).count(),
            CompiledComponent::Leap { table, .. } => tables.leaps[usize::from(*table)][from].count() as usize,
            CompiledComponent::Curved { set } => {
                let paths = &tables.curved[usize::from(*set)][from];
                crate::bitboard::Bitboard::<4>::from_cells(paths.iter().flatten().copied()).count() as usize
            }
            _ => unreachable!("no other components in this game"),
        };
    }
    n
}

#[test]
fn rider_direction_counts_of_section_6() {
    let g = game("honeycomb3");
    // interior, Rook level, rectangular face, edge of a Rook level, corner column, vertex
    let classes = ["3c5", "3a5", "1c5", "1a5", "1c1", "1a1"];
    for (code, expected) in [("R", [8, 7, 6, 5, 4, 3]), ("Q", [20, 13, 14, 9, 8, 5])] {
        for (name, want) in classes.iter().zip(expected) {
            assert_eq!(directions(g, code, 0, cell(g, name)), want, "{code} on {name}");
        }
    }
    // Bishop: interior 12, face 8, Rook level 6, edge of a Rook level 4, vertex 2.
    for (name, want) in [("3c5", 12), ("1c5", 8), ("3a5", 6), ("1a5", 4), ("1a1", 2), ("8e8", 2), ("4d4", 8)] {
        assert_eq!(directions(g, "B", 0, cell(g, name)), want, "B on {name}");
    }
    // The same counts hold on every cell of each class: an edge column loses two hex
    // directions, a corner column four; a Rook level loses one level direction.
    for c in g.geometry().all() {
        let [x, y, l] = g.geometry().coord(c);
        let level_dirs = if l == 0 || l == 4 { 1 } else { 2 };
        let hex_dirs = 6 - 2 * [x == 1, y == SIDE, x == y].iter().filter(|&&e| e).count();
        let name = g.geometry().name(c);
        assert_eq!(directions(g, "R", 0, c), hex_dirs + level_dirs, "R on {name}");
        assert_eq!(directions(g, "B", 0, c), hex_dirs * level_dirs, "B on {name}");
        assert_eq!(directions(g, "Q", 0, c), hex_dirs * (level_dirs + 1) + level_dirs, "Q on {name}");
    }
    // The Bishop is not colour-bound: from one cell it reaches all 180.
    let bishop = type_named(g, "B");
    let mut seen = crate::bitboard::Bitboard::<4>::from_cell(Cell::new(0));
    let mut frontier = vec![Cell::new(0)];
    while let Some(c) = frontier.pop() {
        for comp in &g.types[bishop].comps[Player::new(0)] {
            let CompiledComponent::Ride { rays, .. } = comp else { continue };
            for &r in rays {
                for t in g.moves.rays[usize::from(r)].mask[c] {
                    if !seen.has(t) {
                        seen.set(t);
                        frontier.push(t);
                    }
                }
            }
        }
    }
    assert_eq!(seen.count(), 180);
}

#[test]
fn leaper_counts_of_section_6() {
    let g = game("wildhoney3");
    let counts = |code: &str| -> Table<Cell, usize> { Table::from_fn(g.ncells, |c| directions(g, code, 0, c)) };
    let best = |v: &Table<Cell, usize>| -> (usize, Vec<String>) {
        let m = *v.iter().max().unwrap();
        (m, v.entries().filter(|&(_, &n)| n == m).map(|(c, _)| g.geometry().name(c).to_string()).collect())
    };
    let knight = counts("N");
    assert_eq!(best(&knight), (24, vec!["3c5".into(), "3c6".into(), "4c6".into()]));
    // The source's 18 for the Camel and 36 for the Gnu are wrong (§6): 14 and 28.
    let camel = counts("C");
    let mut camel_best = best(&camel);
    camel_best.1.sort();
    assert_eq!(camel_best, (14, ["2b5", "2d5", "4b5", "4b7", "4d5", "4d7"].map(String::from).to_vec()));
    for name in ["3b5", "3b6", "4b6", "3d5", "3d6", "4d6"] {
        assert_eq!(camel[cell(g, name)], 10, "Camel on {name}");
    }
    let gnu = counts("G");
    let (gnu_max, gnu_cells) = best(&gnu);
    assert_eq!((gnu_max, gnu_cells.len()), (28, 18));
    assert!(gnu_cells.contains(&"3c5".to_string()));
    assert_eq!((knight[cell(g, "3c5")], camel[cell(g, "3c5")]), (24, 4));
}

#[test]
fn pawn_moves_and_promotion_edges() {
    let g = game("honeycomb3");
    let p = type_named(g, "P");
    let comps = |o: usize| &g.types[p].comps[Player::new(o)];
    for (o, from, moves, captures) in [
        (0, "3c5", ["3c6", "4c6"], ["3b6", "3d6", "4b6", "4d6"]),
        (1, "3c5", ["4c5", "3c4"], ["4b5", "4d5", "3b4", "3d4"]),
        (2, "3c5", ["2c5", "2c4"], ["2b5", "2d5", "2b4", "2d4"]),
    ] {
        let mut want_moves: Vec<Cell> = moves.iter().map(|n| cell(g, n)).collect();
        let mut want_caps: Vec<Cell> = captures.iter().map(|n| cell(g, n)).collect();
        want_moves.sort();
        want_caps.sort();
        for comp in comps(o) {
            let CompiledComponent::Leap { table, mode } = comp else { panic!("pawns leap") };
            let got: Vec<Cell> = g.moves.leaps[usize::from(*table)][cell(g, from)].iter().collect();
            match mode {
                Mode::MoveOnly => assert_eq!(got, want_moves, "player {o}"),
                Mode::CaptureOnly => assert_eq!(got, want_caps, "player {o}"),
                Mode::Both => panic!("pawn components are move-only or capture-only"),
            }
        }
    }
    // On a Rook level: 2 moves and 2 captures.
    assert_eq!(directions(g, "P", 0, cell(g, "3a5")), 4);
    assert_eq!(directions(g, "P", 1, cell(g, "3e5")), 4);
    // Far edges (§2): Red y = 8, Yellow x = y, Blue x = 1; 40 cells each, all compulsory.
    for (o, rule) in [(0usize, (|_: i32, y: i32| y == 8) as fn(i32, i32) -> bool), (1, |x, y| x == y), (2, |x, _| x == 1)] {
        let zone = g.types[p].promo_zone[Player::new(o)];
        assert_eq!(zone, g.types[p].promo_mandatory[Player::new(o)]);
        assert_eq!(zone.count(), 40);
        for c in zone {
            let [x, y, _] = g.geometry().coord(c);
            assert!(rule(x, y), "player {o} promotes on {}", g.geometry().name(c));
        }
    }
}

#[test]
fn finch_paths_on_an_empty_board() {
    let g = game("honeycomb3");
    let from = cell(g, "3c5");
    assert_eq!(directions(g, "F", 0, from), 20);
    let finch = type_named(g, "F");
    let CompiledComponent::Curved { set } = g.types[finch].comps[Player::new(0)][0] else {
        panic!("the Finch starts with its curved ride")
    };
    let paths = &g.moves.curved[usize::from(set)][from];
    assert_eq!(paths.len(), 12);
    assert!(paths.iter().all(|p| p.len() == 5));
    // Distance-2 cells: straight ones on 2 circuits, the others on 4 (§4.1).
    let on_paths = |name: &str| paths.iter().filter(|p| p.contains(&cell(g, name))).count();
    for straight in ["1c5", "3c7", "5c7", "5c5", "3c3", "1c3"] {
        assert_eq!(on_paths(straight), 2, "{straight}");
    }
    for bent in ["2c6", "4c7", "5c6", "4c4", "2c3", "1c4"] {
        assert_eq!(on_paths(bent), 4, "{bent}");
    }
    // The worked example: from 1c2, first step H1, turning the same way each step.
    let corner = &g.moves.curved[usize::from(set)][cell(g, "1c2")];
    let circuit: Vec<Cell> = ["1c3", "2c4", "3c4", "3c3", "2c2"].iter().map(|n| cell(g, n)).collect();
    assert!(corner.iter().any(|p| p.as_slice() == circuit.as_slice()));
}

#[test]
fn setup_matches_section_3() {
    for (id, red) in [
        ("honeycomb3", [("1c1", "K"), ("1b1", "Q"), ("1d1", "Q"), ("1e1", "R"), ("2c2", "F"), ("1d2", "N"), ("2e2", "B"), ("3a3", "P")]),
        ("wildhoney3", [("1c1", "K"), ("1b1", "Q"), ("1d1", "G"), ("1e1", "R"), ("2c2", "N"), ("1d2", "C"), ("2e2", "B"), ("3a3", "P")]),
    ] {
        let g = game(id);
        assert_eq!(g.def.setup.len(), 90);
        let at =
            |name: &str| g.def.setup.iter().find(|s| s.cell == cell(g, name)).map(|s| (s.owner.index(), g.def.pieces[s.kind].code.clone()));
        for (name, code) in red {
            assert_eq!(at(name), Some((0, code.to_string())), "{id} {name}");
        }
        // Rotated armies (§3.2 table).
        assert_eq!(at("1c8"), Some((1, "K".into())));
        assert_eq!(at("8c8"), Some((2, "K".into())));
        assert_eq!(at("3e8"), Some((1, "P".into())));
        assert_eq!(at("6a6"), Some((2, "P".into())));
        assert_eq!(at("2a8"), Some((1, "B".into())));
        assert_eq!(at("7e7"), Some((2, "B".into())));
        for p in g.players() {
            assert_eq!(g.def.setup.iter().filter(|s| s.owner == p).count(), 30);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The sub-variants (`shared/rules/honeycomb3-subvariants.md`)

/// Cells a piece reaches from `from` on an otherwise empty board: every cell of its open rays,
/// its leaps and its curved paths (sub-variants §4 "destination counts").
fn reached(g: &Game<4>, code: &str, from: Cell) -> crate::bitboard::Bitboard<4> {
    let t = type_named(g, code);
    let tables = &g.moves;
    let mut reached = crate::bitboard::Bitboard::<4>::EMPTY;
    for comp in &g.types[t].comps[Player::new(0)] {
        match comp {
            CompiledComponent::Ride { rays, .. } => {
                for &r in rays {
                    reached |= tables.rays[usize::from(r)].mask[from];
                }
            }
            CompiledComponent::Leap { table, .. } => reached |= tables.leaps[usize::from(*table)][from],
            CompiledComponent::Curved { set } => {
                reached |= crate::bitboard::Bitboard::<4>::from_cells(tables.curved[usize::from(*set)][from].iter().flatten().copied())
            }
            _ => unreachable!("no other components in this game"),
        }
    }
    reached
}

fn destinations(g: &Game<4>, code: &str, from: Cell) -> usize {
    reached(g, code, from).count() as usize
}

fn sorted_names(names: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// The most a piece reaches from any cell, and the cells where it does.
fn best_cells(g: &Game<4>, code: &str) -> (usize, Vec<String>) {
    let counts: Vec<(Cell, usize)> = g.geometry().all().map(|c| (c, destinations(g, code, c))).collect();
    let most = counts.iter().map(|&(_, n)| n).max().expect("cells");
    let mut cells: Vec<String> = counts.iter().filter(|&&(_, n)| n == most).map(|&(c, _)| g.geometry().name(c).to_string()).collect();
    cells.sort();
    (most, cells)
}

#[test]
fn hex_diagonals_are_the_rules_vectors() {
    // Sub-variants §1.1: D0..D5 and their column arithmetic (10·dx + dy).
    assert_eq!(HEX_DIAGONAL, [[-1, 1, 0], [1, 2, 0], [2, 1, 0], [1, -1, 0], [-1, -2, 0], [-2, -1, 0]]);
    assert_eq!(HEX_DIAGONAL.map(|d| 10 * d[0] + d[1]), [-9, 12, 21, 9, -12, -21]);
}

/// The table of sub-variants §4: destinations from the centre cell 3c5, the vertex 1a1 and the
/// King's corner column 1c1, double strength with the base game's in the second row, and where
/// the double-strength piece reaches most.
#[test]
fn double_strength_destination_counts_of_section_4() {
    let nine = ["3b5", "3b6", "3c5", "3c6", "3d5", "3d6", "4b6", "4c6", "4d6"];
    let centre = ["3c5", "3c6", "4c6"];
    // Columns 35, 36 and 46 on every level.
    let rook_best: Vec<String> =
        ["35", "36", "46"].iter().flat_map(|col| LEVELS.map(|l| format!("{}{l}{}", &col[..1], &col[1..]))).collect();
    // (game the piece is in, its code, destinations from 3c5, 1a1 and 1c1 in double strength
    // and in the base game, the most from any cell, the cells where it reaches most)
    type Row = (&'static str, &'static str, [usize; 3], [usize; 3], usize, Vec<String>);
    let rows: [Row; 8] = [
        ("honeycomb3", "R", [27, 21, 21], [18, 18, 18], 27, rook_best),
        ("honeycomb3", "B", [42, 11, 12], [24, 8, 8], 42, sorted_names(&centre)),
        ("honeycomb3", "Q", [69, 32, 33], [42, 26, 26], 69, sorted_names(&centre)),
        ("honeycomb3", "K", [38, 7, 11], [20, 5, 8], 38, sorted_names(&nine)),
        ("honeycomb3", "N", [42, 6, 12], [24, 4, 8], 42, sorted_names(&centre)),
        ("wildhoney3", "C", [4, 6, 6], [4, 4, 4], 21, sorted_names(&["2b5", "2d5", "4b5", "4b7", "4d5", "4d7"])),
        ("wildhoney3", "G", [46, 12, 18], [28, 8, 12], 46, sorted_names(&nine)),
        ("honeycomb3", "H", [24, 8, 9], [20, 6, 7], 24, sorted_names(&nine)),
    ];
    for (base_id, code, double, single, most, where_most) in rows {
        let g = game(&format!("{base_id}-double"));
        let base = game(base_id);
        let base_code = if code == "H" { "F" } else { code };
        for ((name, want), base_want) in ["3c5", "1a1", "1c1"].iter().zip(double).zip(single) {
            assert_eq!(destinations(g, code, cell(g, name)), want, "{code} on {name}");
            assert_eq!(destinations(base, base_code, cell(base, name)), base_want, "base {base_code} on {name}");
        }
        let mut want_cells = where_most;
        want_cells.sort();
        assert_eq!(best_cells(g, code), (most, want_cells), "{code}");
    }
}

/// Sub-variants §5: from 3c5 the Cohen reaches the Finch's 18 in-level cells, the two vertical
/// steps and four cells only its Rabbi part reaches.
#[test]
fn cohen_is_finch_and_rabbi() {
    let g = game("honeycomb3-double");
    let base = game("honeycomb3");
    let from = cell(g, "3c5");
    let cells_of = |g: &Game<4>, code: &str| -> Vec<String> {
        let mut names: Vec<String> = reached(g, code, from).iter().map(|c| g.geometry().name(c).to_string()).collect();
        names.sort();
        names
    };
    let finch = cells_of(base, "F");
    let cohen = cells_of(g, "H");
    assert_eq!((finch.len(), cohen.len()), (20, 24));
    let rabbi_only: Vec<String> = cohen.iter().filter(|c| !finch.contains(c)).cloned().collect();
    assert_eq!(rabbi_only, sorted_names(&["1c7", "3c8", "6c8", "7c7"]));
    // A circuit round 3c5 along the hex diagonals turns right at every step.
    let rabbi = type_named(g, "H");
    let CompiledComponent::Curved { set } = g.types[rabbi].comps[Player::new(0)][1] else { panic!("the Rabbi part is second") };
    let circuit: Vec<Cell> = ["4c4", "5c6", "4c7", "2c6", "1c4"].iter().map(|n| cell(g, n)).collect();
    assert!(g.moves.curved[usize::from(set)][cell(g, "2c3")].iter().any(|p| p.as_slice() == circuit.as_slice()));
}

/// Sub-variants §6: per player 3 non-capturing steps and 6 captures off the Rook levels, 3 and 3
/// on them; the far edges are the Pawn's.
#[test]
fn pawnout_steps_and_captures() {
    let g = game("honeycomb3-double");
    let p = type_named(g, "P");
    assert_eq!(g.def.pieces[p].name, "Pawnout");
    let forward: [[Vec3; 3]; 3] =
        [[[0, 1, 0], [1, 1, 0], [1, 2, 0]], [[1, 0, 0], [0, -1, 0], [1, -1, 0]], [[-1, 0, 0], [-1, -1, 0], [-2, -1, 0]]];
    for (o, steps) in forward.iter().enumerate() {
        let comps = &g.types[p].comps[Player::new(o)];
        for (from, levels) in [("3c5", 2), ("3a5", 1), ("3e5", 1)] {
            let at = g.geometry().coord(cell(g, from));
            let on = |v: Vec3| g.geometry().cell_at([at[0] + v[0], at[1] + v[1], at[2] + v[2]]);
            let mut moves: Vec<Cell> = steps.iter().filter_map(|&v| on(v)).collect();
            let mut captures: Vec<Cell> = steps.iter().flat_map(|&v| [[v[0], v[1], 1], [v[0], v[1], -1]]).filter_map(on).collect();
            moves.sort();
            captures.sort();
            assert_eq!((moves.len(), captures.len()), (3, 3 * levels), "player {o} on {from}");
            for comp in comps {
                let CompiledComponent::Leap { table, mode } = comp else { panic!("Pawnouts leap") };
                let got: Vec<Cell> = g.moves.leaps[usize::from(*table)][cell(g, from)].iter().collect();
                let want = if *mode == Mode::MoveOnly { &moves } else { &captures };
                assert_eq!(&got, want, "player {o} on {from}, {mode:?}");
            }
        }
        assert_eq!(g.types[p].promo_zone[Player::new(o)], game("honeycomb3").types[p].promo_zone[Player::new(o)]);
    }
}

/// Sub-variants §3: a pawnless setup is its game's setup without the pawn columns.
#[test]
fn sub_variant_setups() {
    let men = |g: &Game<4>| -> Vec<(Cell, usize, String)> {
        let mut v: Vec<_> = g.def.setup.iter().map(|s| (s.cell, s.owner.index(), g.def.pieces[s.kind].code.clone())).collect();
        v.sort();
        v
    };
    for with_pawns in ["honeycomb3", "wildhoney3", "honeycomb3-double", "wildhoney3-double"] {
        let id = format!("{with_pawns}-pawnless");
        let g = game(&id);
        let want: Vec<_> = men(game(with_pawns)).into_iter().filter(|m| m.2 != "P").collect();
        assert_eq!((men(g), want.len()), (want, 45), "{id}");
        assert!(g.def.piece_by_code("P").is_none(), "{id} has no pawn type");
    }
    let g = game("honeycomb3-double");
    let at = |name: &str| g.def.setup.iter().find(|s| s.cell == cell(g, name)).map(|s| g.def.pieces[s.kind].code.clone());
    assert_eq!((at("1c2"), at("2c2"), at("3c3"), at("1c1")), (Some("H".into()), Some("H".into()), Some("P".into()), Some("K".into())));
    assert!(g.def.piece_by_code("F").is_none());
}
