//! The board, the camps and the rule tables of Armies of Faith 3 against the rules file.

use super::*;

fn cell(g: &Geometry, name: &str) -> Cell {
    g.cell_by_name(name).unwrap_or_else(|| panic!("no cell {name}"))
}

#[test]
fn board_has_350_cells_and_the_level_map_of_the_rules() {
    let g = geometry();
    assert_eq!(g.len(), 350);
    assert_eq!(g.levels, 5);
    // Level map of §1.3, bottom row first, left to right: canonical order on level 1.
    let map = "jh kg lf me nd oc pb qa \
               ji kh lg mf ne od pc qb ra \
               ki lh mg nf oe pd qc rb \
               li mh ng of pe qd rc \
               mi nh og pf qe rd \
               mj ni oh pg qf re da \
               mk nj oi ph qg rf ea db \
               ml nk oj pi qh rg fa eb dc \
               nl ok pj qi rh ga fb ec";
    let names: Vec<&str> = map.split_whitespace().collect();
    assert_eq!(names.len(), 70);
    for (k, n) in names.iter().enumerate() {
        for z in 0..5 {
            assert_eq!(g.name(Cell::new(70 * z + k)), format!("{n}{}", z + 1));
        }
    }
    assert_eq!(g.coord(cell(&g, "ec3")), [21, 5, 2]);
    assert_eq!(g.coord(cell(&g, "jh1")), [10, 8, 0]);
    for notch in ["ba1", "ca1", "cb3", "kj1", "lj5", "lk2", "ab1"] {
        assert!(g.cell_by_name(notch).is_none(), "{notch}");
    }
}

#[test]
fn neighbour_counts_of_the_rules() {
    // §1.3: on a level 40 cells have 6 orthogonal neighbours, 2 have 5, 20 have 4, 8 have 3.
    let g = geometry();
    let mut by_count = [0; 7];
    for c in (0..70).map(Cell::new) {
        by_count[ORTHOGONAL.iter().filter(|&&v| g.step(c, v).is_some()).count()] += 1;
    }
    assert_eq!(by_count, [0, 0, 0, 8, 20, 2, 40]);
}

#[test]
fn barriers_are_exactly_the_lines_passing_a_notch() {
    // Every hex diagonal and root-7 pair of on-board columns whose segment passes within 0.87
    // cell widths of a notch cell must be barred, and no other (§1.6).
    let g = geometry();
    let xy = |[p, q]: [i32; 2]| -> (f64, f64) { ((p - q) as f64 / 2.0, (p + q) as f64 * 3f64.sqrt() / 2.0) };
    let mut found = Vec::new();
    let horizontal: Vec<Vec3> = cat(&[&HEX_DIAGONAL, &root7()]);
    for c in (0..70).map(Cell::new) {
        let a = g.coord(c);
        for &v in &horizontal {
            let b = [a[0] + v[0], a[1] + v[1]];
            if !column_exists(b[0], b[1]) {
                continue;
            }
            let (ax, ay) = xy([a[0], a[1]]);
            let (bx, by) = xy(b);
            let near = NOTCHES.iter().any(|&n| {
                let (nx, ny) = xy(n);
                let (dx, dy) = (bx - ax, by - ay);
                let t = (((nx - ax) * dx + (ny - ay) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
                let (px, py) = (ax + t * dx - nx, ay + t * dy - ny);
                (px * px + py * py).sqrt() < 0.87
            });
            let barred = g.step(c, v).is_none();
            assert_eq!(near, barred, "{} -> {}", g.name(c), column_name(b[0], b[1]));
            if barred {
                found.push(column_name(b[0], b[1]));
            }
        }
    }
    assert_eq!(found.len(), 20, "10 pairs, both ways");
}

#[test]
fn camps_follow_the_board_symmetries() {
    // Green's camp maps to Blue's by M1, to Orange's by M2 and to Red's by R (§1.8).
    type ColumnMap = fn([i32; 2]) -> [i32; 2];
    let maps: [(usize, ColumnMap); 3] =
        [(BLUE, |[p, q]| [q + 9, p - 9]), (ORANGE, |[p, q]| [22 - q, 22 - p]), (RED, |[p, q]| [31 - p, 13 - q])];
    let g = &CAMPS[GREEN];
    for (player, map) in maps {
        let c = &CAMPS[player];
        let image = |names: &[&str]| -> Vec<[i32; 2]> { names.iter().map(|n| map(col(n))).collect() };
        let own = |names: &[&str]| -> Vec<[i32; 2]> { names.iter().map(|n| col(n)).collect() };
        assert_eq!(image(&g.back), own(&c.back));
        assert_eq!(image(&g.trio[2..]), own(&c.trio[2..]));
        let mut a = image(&g.trio[..2]);
        let mut b = own(&c.trio[..2]);
        a.sort();
        b.sort();
        assert_eq!(a, b);
        let mut a = image(&g.pawn_rank);
        let mut b = own(&c.pawn_rank);
        a.sort();
        b.sort();
        assert_eq!(a, b);
        assert_eq!(image(&[g.extra]), own(&[c.extra]));
    }
}

#[test]
fn setup_has_47_men_each_as_itemised() {
    let def = build();
    for colour in 0..4 {
        let mut counts = [0; 12];
        for s in &def.setup {
            if s.owner == player(colour) {
                counts[s.kind.index()] += 1;
            }
        }
        // K R N P C E L A S M U B
        assert_eq!(counts, [1, 3, 2, 24, 2, 2, 2, 3, 2, 1, 3, 2], "colour {colour}");
    }
    let mut cells: Vec<Cell> = def.setup.iter().map(|s| s.cell).collect();
    cells.sort();
    cells.dedup();
    assert_eq!(cells.len(), 188);
    let at = |name: &str| def.setup.iter().find(|s| s.cell == def.cell(name)).map(|s| (TURN_ORDER[s.owner.index()], s.kind));
    assert_eq!(at("ec3"), Some((RED, KING)));
    assert_eq!(at("nl3"), Some((ORANGE, KING)));
    assert_eq!(at("jh3"), Some((GREEN, KING)));
    assert_eq!(at("qa3"), Some((BLUE, KING)));
    assert_eq!(at("dc3"), Some((RED, SIMURGH)));
    assert_eq!(at("kh1"), Some((GREEN, RABBI)));
    assert_eq!(at("qb5"), Some((BLUE, UNICORN)));
    assert_eq!(at("pd2"), Some((BLUE, PAWN)));
    assert_eq!(at("pd3"), None);
    assert_eq!(at("nk4"), None);
    assert_eq!(at("mk2"), Some((ORANGE, ROOK)));
}

#[test]
fn mandatory_promotion_cells_of_the_rules() {
    let def = build();
    let g = &def.geometry;
    let promo = def.pieces[PAWN].pawn.as_ref().and_then(|p| p.promotion.as_ref()).expect("pawns promote");
    let expected = [(RED, "jh ji mj mk ml"), (ORANGE, "da db dc qa ra"), (GREEN, "dc ec ra rb rc"), (BLUE, "ji ki li ml nl")];
    for (colour, cols) in expected {
        let p = player(colour);
        assert_eq!(promo.zone[p].len(), 17 * 5);
        let mut want: Vec<Cell> = cols.split(' ').flat_map(|c| (1..=5).map(move |z| format!("{c}{z}"))).map(|n| cell(g, &n)).collect();
        want.sort();
        let mut got = promo.mandatory[p].clone();
        got.sort();
        assert_eq!(got, want, "colour {colour}");
    }
}

#[test]
fn en_passant_table_is_exactly_the_four_patterns() {
    // For each pattern, the only double step over the skipped cell is the stepper's from its
    // pawn-rank cell, and the only capture onto it is from the capturer's pawn-rank cell.
    let patterns = [
        (RED, BLUE, "rd", "da", "rc"),
        (BLUE, RED, "rd", "rc", "da"),
        (ORANGE, GREEN, "mi", "mj", "li"),
        (GREEN, ORANGE, "mi", "li", "mj"),
    ];
    for (capturer, stepper, skipped, capture_from, step_from) in patterns {
        assert!(EN_PASSANT.contains(&(capturer, stepper, skipped)));
        let target = col(skipped);
        let sources: Vec<String> = PAWN_FORWARD[capturer]
            .iter()
            .filter(|v| column_exists(target[0] - v[0], target[1] - v[1]))
            .map(|v| column_name(target[0] - v[0], target[1] - v[1]))
            .collect();
        assert_eq!(sources, vec![capture_from.to_string()]);
        let steppers: Vec<String> = PAWN_FORWARD[stepper]
            .iter()
            .filter(|v| column_exists(target[0] - v[0], target[1] - v[1]))
            .map(|v| column_name(target[0] - v[0], target[1] - v[1]))
            .collect();
        assert_eq!(steppers, vec![step_from.to_string()]);
        assert!(CAMPS[stepper].pawn_rank.contains(&step_from));
        assert!(CAMPS[capturer].pawn_rank.contains(&capture_from));
    }
}
