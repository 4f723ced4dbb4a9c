//! The mop-up term: a player with men besides its royal piece, against an opponent who has only
//! the royal piece left, gains by driving that piece to where it has few moves, by boxing it in
//! and by bringing its own royal piece near. All of it follows from the royal piece's moves on
//! the empty board and the attacks on the board, so the term knows no game. A player who has
//! checkmated an opponent keeps the most that opponent's bare royal piece could have given, plus
//! the `elimination` bonus. While every opponent is bare, each man a player keeps counts extra: its
//! men are what mates.

use super::EvalTables;
use crate::attacks::Facing;
use crate::bitboard::Bitboard;
use crate::movegen::targets::attacked_cells;
use crate::movement::Mode;
use crate::position::Position;
use crate::tables::CompiledComponent;
use crate::types::{Cell, PerPlayer, Player, PlayerSet};

/// Slots of a [`NetCache`] (a power of two).
const NET_CACHE_SLOTS: usize = 1024;

/// The boxes of bare royal pieces already flooded, one per slot, by the cells open to the royal
/// piece and its steps. A search's positions mostly differ by moves that leave the stronger
/// player's attacks as they were (the bare royal piece's own, above all), and the flood is most
/// of the mop-up's cost: in a `guru2` ending of an Emperor and a Vicereine against two bare Kings
/// it took half the search's time, and nine of ten floods had been made before.
pub struct NetCache<const W: usize> {
    slots: Vec<Option<FloodedBox<W>>>,
}

impl<const W: usize> Default for NetCache<W> {
    /// An empty cache; its slots are allocated at first use (most positions have no bare royal
    /// piece).
    fn default() -> Self {
        NetCache { slots: Vec::new() }
    }
}

/// One flood: the cells open to a royal piece that steps by one table of leaps, and the region
/// it reaches through them from a cell of that region.
#[derive(Clone, Copy)]
struct FloodedBox<const W: usize> {
    open: Bitboard<W>,
    table: u16,
    region: Bitboard<W>,
}

impl<const W: usize> NetCache<W> {
    /// The region that a royal piece stepping by leap table `table` and standing on `start`
    /// reaches through the cells of `open`, from the cache where a flood of the same cells reached
    /// `start`, else from `flood`. Only a start among the open cells: a royal piece's steps go
    /// both ways, so from any cell of a region the flood reaches that region, while a start
    /// outside joins the regions around it.
    fn region(&mut self, open: Bitboard<W>, table: u16, start: Cell, flood: impl FnOnce() -> Bitboard<W>) -> Bitboard<W> {
        if !open.has(start) {
            return flood();
        }
        if self.slots.is_empty() {
            self.slots = vec![None; NET_CACHE_SLOTS];
        }
        let slot = &mut self.slots[open.fold_hash() as usize & (NET_CACHE_SLOTS - 1)];
        if let Some(hit) = slot.filter(|b| b.open == open && b.table == table && b.region.has(start)) {
            debug_assert!(hit.region == flood(), "a royal piece's steps that do not go both ways");
            return hit.region;
        }
        let region = flood();
        *slot = Some(FloodedBox { open, table, region });
        region
    }
}

/// The term for every player (centipawns, the same in both phases), with the floods of `nets`
/// where given.
pub(super) fn bonus<const W: usize>(t: &EvalTables, pos: &Position<W>, mut nets: Option<&mut NetCache<W>>) -> PerPlayer<i32> {
    let params = &t.params;
    let mut bonus = PerPlayer::splat(0);
    let boxes = params.mopup_box > 0 || params.mopup_level_box > 0 || params.mopup_cover > 0;
    if params.mopup_edge == 0 && params.mopup_close == 0 && !boxes && params.mopup_men == 0 && params.elimination == 0 {
        return bonus;
    }
    let active = pos.active_players();
    // The usual case, nobody bare and nobody out: nothing to pay.
    if pos.elimination_order().is_empty() && !active.iter().any(|q| pos.is_bare(q)) {
        return bonus;
    }
    for &out in pos.elimination_order() {
        if let Some(mater) = pos.eliminated_by(out).filter(|&p| active.has(p)) {
            bonus[mater] += params.elimination
                + t.royal_edge_cover_most[out]
                + params.mopup_close * t.royal_max_distance
                + box_bonus(params.mopup_box, pos.game().rules.royal_zone[out].count(), 1)
                + box_bonus(params.mopup_level_box, level_zone_count(pos, out), 1);
        }
    }
    // Against several bare royal pieces a player is paid for the one it has done most against,
    // so that it works on one mate at a time.
    let mut best = PerPlayer::splat(0);
    for target in active.iter().filter(|&q| pos.is_bare(q)) {
        let Some(royal) = pos.royal_cell(target) else { continue };
        for strong in pos.opponents(target).iter().filter(|&p| !pos.is_bare(p)) {
            let mut b = params.mopup_edge * (t.royal_max_mobility[target] - t.royal_mobility[target][royal]);
            if let Some(own) = pos.royal_cell(strong) {
                b += params.mopup_close * (t.royal_max_distance - t.royal_distance(own, royal));
            }
            if boxes {
                let zone = pos.game().rules.royal_zone[target];
                let net = royal_net(pos, royal, strong, zone, params.mopup_level_box > 0, nets.as_deref_mut());
                b += box_bonus(params.mopup_box, zone.count(), net.region.count());
                if let Some(level_region) = net.level_region {
                    let level = zone & pos.game().level_of(royal);
                    b += box_bonus(params.mopup_level_box, level.count(), level_region.count());
                }
                b += params.mopup_cover * net.covered as i32;
            }
            best[strong] = best[strong].max(b);
        }
    }
    for p in active.iter() {
        bonus[p] += best[p];
        // Paid before and after a mate alike: a man given up for a mate is lost for the next one.
        if params.mopup_men > 0 && !pos.is_bare(p) && pos.opponents_bare(p) {
            bonus[p] += params.mopup_men * (pos.pieces_of(p).count() as i32 - 1);
        }
    }
    bonus
}

/// The box term: `weight` for each halving of the cells the bare royal piece may reach, from all
/// `cells` of its zone down to `region`. A logarithm, so that closing the last few cells of a small
/// box pays as much as halving a large one: the gradient that mates on big boards.
fn box_bonus(weight: i32, cells: u32, region: u32) -> i32 {
    (f64::from(weight) * (f64::from(cells.max(1)) / f64::from(region.max(1))).log2()).round() as i32
}

/// The cells of the largest level of `player`'s royal zone: what a level box is measured against
/// once that player is out.
fn level_zone_count<const W: usize>(pos: &Position<W>, player: Player) -> u32 {
    let zone = pos.game().rules.royal_zone[player];
    pos.game().level_cells.iter().map(|&level| (level & zone).count()).max().unwrap_or(0)
}

/// How far `strong` has caught a bare royal piece.
pub(super) struct Net<const W: usize> {
    /// The cells the royal piece reaches by its steps within its zone without stepping onto a cell
    /// that the stronger player attacks (its own cell included): the box it is kept in.
    region: Bitboard<W>,
    /// The same by steps that stay on its level (when asked for).
    level_region: Option<Bitboard<W>>,
    /// Its steps (within the zone) onto attacked cells.
    covered: u32,
}

/// The net `strong` has around the bare royal piece on `weak`, confined to `zone`; with `levels`,
/// its box on its own level too; floods from `nets` where given.
pub(super) fn royal_net<const W: usize>(
    pos: &Position<W>,
    weak: Cell,
    strong: Player,
    zone: Bitboard<W>,
    levels: bool,
    mut nets: Option<&mut NetCache<W>>,
) -> Net<W> {
    let game = pos.game();
    let mut occ = pos.occupied();
    occ.clear(weak);
    // The facing rule (ninjachess) closes the stronger royal piece's open lines to the bare one
    // as it does for the legality of its moves.
    let attacked = attacked_cells(pos, PlayerSet::only(strong), occ, Facing::Counted);
    let king = pos.man_at(weak);
    let open = zone & !attacked;
    let steps = pos.piece_targets(weak, king.kind(), king.orientation(), Bitboard::EMPTY) & zone;
    let covered = (steps & attacked).count();
    // A royal piece that only steps (so far every game's) floods through its one table: the flood
    // is most of this term's cost.
    let table = match game.types[king.kind()].comps[king.orientation()].as_slice() {
        [CompiledComponent::Leap { table, mode: Mode::Both }] => Some(*table),
        _ => None,
    };
    let step_table = table.map(|t| &game.moves.leaps[usize::from(t)]);
    let flood = |open: Bitboard<W>| {
        let mut region = Bitboard::from_cell(weak);
        let mut frontier = region;
        while frontier.any() {
            let mut next = Bitboard::EMPTY;
            for c in frontier {
                next |= match step_table {
                    Some(t) => t[c],
                    None => pos.piece_targets(c, king.kind(), king.orientation(), Bitboard::EMPTY),
                };
            }
            frontier = next & open & !region;
            region |= frontier;
        }
        region
    };
    // Two players' Kings share a table whatever their orientation: they share its floods too.
    let mut flood_cached = |open: Bitboard<W>| match (nets.as_deref_mut(), table) {
        (Some(cache), Some(table)) => cache.region(open, table, weak, || flood(open)),
        _ => flood(open),
    };
    let region = flood_cached(open);
    // On a flat board the level's box is the whole box.
    let level_region = levels.then(|| if game.level_cells.len() > 1 { flood_cached(open & game.level_of(weak)) } else { region });
    Net { region, level_region, covered }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{Evaluator, PARAMS};
    use crate::notation::{parse_position, placement_from};
    use crate::registry;

    /// The box of a bare King: the cells it reaches without stepping onto an attacked cell.
    #[test]
    fn a_bare_king_is_boxed_in_by_attacked_cells() {
        let game = registry::compiled::<1>(crate::games::definition("chess").expect("chess"));
        let (white, black) = (Player::new(0), Player::new(1));
        // The Rook on a4, protected, holds the King on e8 to b5–h8 (the a-file and the 4th rank
        // attacked).
        let pos = parse_position(game, "4k3/8/8/8/R7/1K6/8/8 b - - 0 1").expect("fen");
        let king = pos.royal_cell(black).expect("a King");
        let net = royal_net(&pos, king, white, game.all_cells, false, None);
        assert_eq!(net.region.count(), 28);
        assert_eq!(net.covered, 0, "no step of the King on e8 is attacked");
        let only_box = Evaluator::new(
            game,
            &PARAMS.with_overrides("mopup_edge=0,mopup_close=0,mopup_box=100,mopup_cover=0,mopup_men=0").expect("valid"),
        );
        // log2(64 / 28) = 1.19 halvings of the board.
        assert_eq!(bonus(&only_box.tables, &pos, None)[white], 119);
        // Unprotected, the Rook can be taken: the King gets past the 4th rank through a4.
        let pos = parse_position(game, "4k3/8/8/8/R7/8/8/K7 b - - 0 1").expect("fen");
        let net = royal_net(&pos, king, white, game.all_cells, false, None);
        assert_eq!(net.region.count(), 64 - 15 - 1, "all but the 15 attacked cells and a1 behind them");
    }

    /// Where royal pieces may not face each other (ninjachess), the stronger royal piece's open
    /// lines are part of the net.
    #[test]
    fn the_facing_rule_closes_cells_to_a_bare_royal_piece() {
        let def = crate::games::definition("ninjachess").expect("ninjachess");
        let text = format!("{} b - - 0 1", placement_from(&def.geometry, &[("m5", "K"), ("l8", "k")]).expect("cells"));
        let game = registry::compiled::<4>(def);
        let pos = parse_position(game, &text).expect("position");
        let king = pos.royal_cell(Player::new(1)).expect("a King");
        let net = royal_net(&pos, king, Player::new(0), pos.game().rules.royal_zone[Player::new(1)], false, None);
        // From m5 the m-file (m7, m8, m9) and the diagonal l6-k7 reach steps of the King on l8;
        // White's King itself never steps into Black's half.
        assert_eq!(net.covered, 4);
    }

    /// The men a player keeps count only while every opponent is bare.
    #[test]
    fn men_are_kept_against_bare_royal_pieces_only() {
        let game = registry::compiled::<1>(crate::games::definition("chess").expect("chess"));
        let white = Player::new(0);
        let only_men = Evaluator::new(
            game,
            &PARAMS.with_overrides("mopup_edge=0,mopup_close=0,mopup_box=0,mopup_cover=0,mopup_men=100").expect("valid"),
        );
        let bonus_of = |fen: &str| bonus(&only_men.tables, &parse_position(game, fen).expect("fen"), None)[white];
        assert_eq!(bonus_of("4k3/8/8/8/R7/1K6/8/8 b - - 0 1"), 100);
        assert_eq!(bonus_of("4k3/8/8/8/R7/1KP5/8/8 b - - 0 1"), 200, "a pawn is a man too");
        assert_eq!(bonus_of("4k3/8/8/8/R7/1K6/8/7n b - - 0 1"), 0, "Black has a Knight");
    }

    /// A man given up for the first of two mates costs more than the mate pays: three Rooks mate
    /// the last bare King, two rarely do. The mate pays what the net around the mated King did at
    /// most, not the most any term could give (wildhoney3 at 100 ms a move: Red let Blue take the
    /// Rook beside Blue's King that held Yellow's, mated Yellow, and K + 2R vs K was drawn).
    #[test]
    fn a_rook_is_not_given_for_the_first_of_two_mates() {
        let game = registry::compiled::<4>(crate::games::definition("wildhoney3").expect("wildhoney3"));
        let eval = Evaluator::new(game, &crate::games::profile("wildhoney3").expect("wildhoney3").eval.params);
        let red = Player::new(0);
        let score = |text: &str| {
            let mut pos = parse_position(game, text).expect("position");
            eval.prepare(&mut pos);
            eval.evaluate_for(&pos, red)
        };
        // Red has checked Yellow's King, which cannot move; Blue to move beside the Rook on 3e7.
        let kept =
            score("8/7/6/5/4/3/2/1/8/7/6/5/4/3/2/1/8/7/6/5/2rK1/3/2/1/5bK2/6rR/5rR/5/4/3/2/1/8/4rR2/5yK/5/4/3/2/1 b ryb - - 52 18 0:");
        // Blue has taken the Rook, and Yellow is mated at the start of Red's turn.
        let given = score("8/7/6/5/4/3/2/1/8/7/6/5/4/3/2/1/8/7/6/5/2rK1/3/2/1/8/6rR/5rR/5/4/3/2/1/8/4bK2/6/5/4/3/2/1 r rb - - 0 19 1:yr");
        assert!(given < kept, "Rook given for the mate {given}, kept {kept}");
    }

    /// The floods kept in a cache give the mop-up it gives without one: random play from an
    /// Emperor and a Vicereine against two bare Kings (a `guru2` ending), the cache kept over
    /// the games.
    #[test]
    fn cached_floods_agree() {
        use rand::rngs::StdRng;
        use rand::{RngExt, SeedableRng};
        let game = registry::compiled::<4>(crate::games::definition("guru2").expect("guru2"));
        let eval = Evaluator::new(game, &crate::games::profile("guru2").expect("guru2").eval.params);
        let start = "10/7bK1rK/10/10/10/9gM*/10/10/10/10/10/10/10/10/10/10/8gV*1/10/10/10 g rbg - - 0 285 1:og";
        let mut cache = NetCache::default();
        let mut moves = Vec::new();
        for seed in 0..20 {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut pos = parse_position(game, start).expect("position");
            for _ in 0..60 {
                assert_eq!(bonus(&eval.tables, &pos, Some(&mut cache)), bonus(&eval.tables, &pos, None), "seed {seed}");
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                pos.make(moves[rng.random_range(0..moves.len())]);
            }
        }
    }

    /// On two levels a wall on one level does not box the King in (it walks round on the other),
    /// but it shrinks the box of the King's own level.
    #[test]
    fn a_wall_on_one_level_shrinks_the_level_box() {
        let def = crate::games::definition("guru2").expect("guru2");
        let men = [("Ue8", "rK"), ("Ua6", "gR"), ("Ub5", "gK")];
        let text = format!("{} r rg - - 0 1 2:bgog", placement_from(&def.geometry, &men).expect("cells"));
        let game = registry::compiled::<4>(def);
        let pos = parse_position(game, &text).expect("position");
        let (red, green) = (Player::new(0), Player::new(2));
        let king = pos.royal_cell(red).expect("a King");
        let net = royal_net(&pos, king, green, game.all_cells, true, None);
        assert_eq!(
            net.level_region.map(|r| r.count()),
            Some(36),
            "ranks 7 to 10 of the Upper level but the a-file, which the Rook holds too"
        );
        assert!(net.region.count() > 100, "the Lower level is open: {}", net.region.count());
        let only_level_box = Evaluator::new(
            game,
            &PARAMS
                .with_overrides("mopup_edge=0,mopup_close=0,mopup_box=0,mopup_level_box=100,mopup_cover=0,mopup_men=0,elimination=0")
                .expect("valid"),
        );
        // log2(100 / 36) = 1.47 halvings of the level, on top of Blue's and Orange's, whom Green
        // has mated: a whole level each, log2(100).
        assert_eq!(bonus(&only_level_box.tables, &pos, None)[green], 147 + 2 * 664);
    }
}
