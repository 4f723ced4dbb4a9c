//! The terms that need every piece's moves: mobility, attacks near each royal piece, its pawn
//! shield and the opponents' rider lines through it, pairs of colour-bound men, redundant riders,
//! riders on pawn lines free of pawns, leapers on outposts, trapped pieces, threats against men.
//! One pass over the men computes them all.

use super::EvalTables;
use super::tables::Shape;
use crate::bitboard::Bitboard;
use crate::movegen::targets::attack_targets;
use crate::position::{Position, Tapered};
use crate::tables::{Game, LineMemo};
use crate::types::{Cell, MAX_TYPES, PerPlayer, PieceType, Player};

/// `params` with every weight of these terms at 0.
pub const fn activity_off(params: super::EvalParams) -> super::EvalParams {
    super::EvalParams {
        mobility_quarter: 0,
        mobility_eg_quarter: 0,
        king_attack: 0,
        king_danger: 0,
        king_shield: 0,
        king_exposure: 0,
        pair: 0,
        pair_eg: 0,
        redundancy: 0,
        open_line: 0,
        half_open_line: 0,
        outpost: 0,
        outpost_eg: 0,
        trapped: 0,
        trapped_eg: 0,
        threat_pawn: 0,
        threat_pawn_eg: 0,
        threat_lesser: 0,
        threat_lesser_eg: 0,
        hanging: 0,
        hanging_eg: 0,
        ..params
    }
}

/// Whether any weight of these terms is set.
pub(super) fn enabled(params: &super::EvalParams) -> bool {
    activity_off(*params) != *params
}

/// Whether any weight of the threats against men is set.
fn threats_enabled(params: &super::EvalParams) -> bool {
    [params.threat_pawn, params.threat_pawn_eg, params.threat_lesser, params.threat_lesser_eg, params.hanging, params.hanging_eg]
        .iter()
        .any(|&w| w != 0)
}

pub(super) struct Activity {
    pub mobility: PerPlayer<Tapered>,
    pub king_safety: PerPlayer<Tapered>,
    pub pieces: PerPlayer<Tapered>,
}

/// A piece with fewer safe moves than this is trapped.
const TRAPPED_BELOW: i32 = 3;

/// No colour class seen yet.
const NO_CLASS: u16 = u16::MAX;

/// A man's attacks ([`attack_targets`]), its rides from `memo` where there is one.
#[inline(always)]
fn attacks_of<const W: usize>(
    game: &Game<W>,
    c: Cell,
    kind: PieceType,
    orient: Player,
    occ: Bitboard<W>,
    memo: Option<&mut LineMemo<W>>,
) -> Bitboard<W> {
    match (game.types[kind].plain_attacks[orient], memo) {
        (Some(plain), Some(memo)) => game.moves.reach_with(plain, c, occ, memo),
        _ => attack_targets(game, c, kind, orient, occ),
    }
}

/// The terms, the riders' lines from `memo` where there is one.
pub(super) fn activity<const W: usize>(t: &EvalTables, pos: &Position<W>, mut memo: Option<&mut LineMemo<W>>) -> Activity {
    let params = &t.params;
    let game = pos.game();
    let active = pos.active_players();
    let pawns = pos.pawn_men();
    let pawn_tables = game.pawns.as_ref();
    let outposts = params.outpost != 0 || params.outpost_eg != 0;
    let lines = params.open_line != 0 || params.half_open_line != 0;
    let redundant = params.redundancy != 0;
    let kings = params.king_attack != 0 || params.king_danger != 0;
    let threats = threats_enabled(params);
    // Every man's attacks, for the threats.
    let attack_sets = threats;

    // Where each player's pawns attack now, and where they could ever attack.
    let mut pawn_attacks = PerPlayer::splat(Bitboard::<W>::EMPTY);
    let mut pawn_spans = PerPlayer::splat(Bitboard::<W>::EMPTY);
    if let Some(tables) = pawn_tables {
        for c in pawns {
            let m = pos.man_at(c);
            let pt = &tables[m.orientation()];
            pawn_attacks[m.owner()] |= pt.attacks[c];
            if outposts {
                pawn_spans[m.owner()] |= pt.attack_span[c];
            }
        }
    }
    // The cells next to each royal piece, and the own pawns shielding it.
    let mut zones = PerPlayer::splat(Bitboard::<W>::EMPTY);
    let mut king_safety = PerPlayer::splat(Tapered::ZERO);
    for q in active.iter() {
        let Some(k) = pos.royal_cell(q) else { continue };
        let m = pos.man_at(k);
        zones[q] = pos.piece_targets(k, m.kind(), m.orientation(), Bitboard::EMPTY);
        if params.king_shield != 0
            && let Some(tables) = pawn_tables
        {
            let near = zones[q] | Bitboard::from_cell(k);
            let ahead = near.iter().fold(near, |b, x| b | tables[q].step[x]);
            let shield = (ahead & pawns & pos.pieces_of(q)).count() as i32;
            king_safety[q] += Tapered::new(shield * params.king_shield, 0);
        }
        if params.king_exposure != 0 {
            let open = (pos.ride_lines(k, pos.opponents(q), memo.as_deref_mut()) & !pos.pieces_of(q)).count() as i32;
            king_safety[q] -= Tapered::new(open * params.king_exposure, 0);
        }
    }

    // Per player: the cells its men attack (`attack_sets` only; the royal piece's apart), its
    // men, where enemy pawns attack and could ever attack.
    let occupied = pos.occupied();
    let mut attacked_by = pawn_attacks;
    let mut royal_attacks = PerPlayer::splat(Bitboard::<W>::EMPTY);
    let mut royals = Bitboard::<W>::EMPTY;
    if attack_sets {
        for q in active.iter() {
            if let Some(k) = pos.royal_cell(q) {
                let m = pos.man_at(k);
                royal_attacks[q] = attacks_of(game, k, m.kind(), m.orientation(), occupied, memo.as_deref_mut());
                royals.set(k);
            }
        }
    }
    let mut own_men = PerPlayer::splat(Bitboard::<W>::EMPTY);
    let mut enemy_pawn_attacks = PerPlayer::splat(Bitboard::<W>::EMPTY);
    let mut enemy_spans = PerPlayer::splat(Bitboard::<W>::EMPTY);
    for p in active.iter() {
        own_men[p] = pos.pieces_of(p);
        for q in pos.opponents(p).iter() {
            enemy_pawn_attacks[p] |= pawn_attacks[q];
            enemy_spans[p] |= pawn_spans[q];
        }
    }
    let mut moves = PerPlayer::splat(0i32);
    let mut units = PerPlayer::splat(0i32);
    let mut attackers = PerPlayer::splat(0i32);
    let mut pieces = PerPlayer::splat(Tapered::ZERO);
    // Per player, its men that an enemy piece of lower value attacks.
    let mut by_lesser = PerPlayer::splat(Bitboard::<W>::EMPTY);
    let mut first_class = PerPlayer::splat([NO_CLASS; MAX_TYPES]);
    let mut paired = PerPlayer::splat([false; MAX_TYPES]);
    let mut riders = PerPlayer::splat([0i32; MAX_TYPES]);
    let open = Tapered::new(params.open_line, 0);
    let half_open = Tapered::new(params.half_open_line, 0);
    let outpost = Tapered::new(params.outpost, params.outpost_eg);
    let trapped = Tapered::new(params.trapped, params.trapped_eg);
    for p in active.iter() {
        let own = own_men[p];
        let opponents = pos.opponents(p);
        // The enemy men a threat can be against, and the cells next to the enemy royal pieces:
        // a man's attacks seldom meet either, so one test spares the per-opponent ones.
        let (mut enemy_men, mut enemy_zones) = (Bitboard::<W>::EMPTY, Bitboard::<W>::EMPTY);
        for q in opponents.iter() {
            enemy_men |= own_men[q];
            enemy_zones |= zones[q];
        }
        let victims = enemy_men & !pawns & !royals;
        // Type by type, so that what a type decides is looked up once for all its men.
        for &kind in &t.piece_kinds {
            let men = own & pos.pieces_of_type(kind);
            if men.is_empty() {
                continue;
            }
            let shape = t.shapes[kind];
            let plain = t.moves_are_attacks[kind];
            let value = t.values[kind];
            let average_moves = t.average_moves[kind];
            let classes = t.colour_classes[kind].as_ref();
            let rider = redundant && shape == Shape::Rider && classes.is_none();
            for c in men {
                let orient = pos.man_at(c).orientation();
                let attacks =
                    if attack_sets || plain { attacks_of(game, c, kind, orient, occupied, memo.as_deref_mut()) } else { Bitboard::EMPTY };
                let targets = if plain { attacks & !own } else { pos.piece_targets(c, kind, orient, own) };
                if attack_sets {
                    attacked_by[p] |= attacks;
                }
                if threats {
                    for x in attacks & victims {
                        let victim = pos.man_at(x);
                        if t.values[victim.kind()] > value {
                            by_lesser[victim.owner()].set(x);
                        }
                    }
                }
                let safe_moves = (targets & !enemy_pawn_attacks[p]).count() as i32;
                moves[p] += safe_moves - average_moves;
                if safe_moves < TRAPPED_BELOW {
                    pieces[p] -= trapped * (TRAPPED_BELOW - safe_moves);
                }
                if kings && targets.intersects(&enemy_zones) {
                    for q in opponents.iter() {
                        let n = (targets & zones[q]).count() as i32;
                        if n > 0 {
                            units[q] += n;
                            attackers[q] += 1;
                        }
                    }
                }
                if let Some(classes) = classes {
                    let class = classes[c];
                    let first = &mut first_class[p][kind.index()];
                    if *first == NO_CLASS {
                        *first = class;
                    } else if *first != class {
                        paired[p][kind.index()] = true;
                    }
                }
                if rider {
                    riders[p][kind.index()] += 1;
                }
                if lines && !t.pawn_line_rides[kind][orient].is_empty() {
                    let line =
                        t.pawn_line_rides[kind][orient].iter().fold(Bitboard::EMPTY, |b, &r| b | game.moves.rays[usize::from(r)].mask[c]);
                    if (line & pawns & own).is_empty() {
                        pieces[p] += if (line & pawns).is_empty() { open } else { half_open };
                    }
                }
                if outposts
                    && shape == Shape::Leaper
                    && let Some(tables) = pawn_tables
                    && (tables[p].cells[c].attacked_from & pawns & own).any()
                    && !enemy_spans[p].has(c)
                {
                    pieces[p] += outpost;
                }
            }
        }
    }
    for q in active.iter() {
        attacked_by[q] |= royal_attacks[q];
    }
    let pair = Tapered::new(params.pair, params.pair_eg);
    let redundancy = Tapered::new(params.redundancy, 0);
    let mut mobility = PerPlayer::splat(Tapered::ZERO);
    if threats {
        let (by_pawn_w, lesser_w, hanging_w) = (
            Tapered::new(params.threat_pawn, params.threat_pawn_eg),
            Tapered::new(params.threat_lesser, params.threat_lesser_eg),
            Tapered::new(params.hanging, params.hanging_eg),
        );
        for p in active.iter() {
            let victims = own_men[p] & !pawns & !royals;
            let enemy_attacks = pos.opponents(p).iter().fold(Bitboard::EMPTY, |b, q| b | attacked_by[q]);
            let by_pawn = victims & enemy_pawn_attacks[p];
            pieces[p] -= by_pawn_w * by_pawn.count() as i32
                + lesser_w * (by_lesser[p] & !by_pawn).count() as i32
                + hanging_w * (victims & enemy_attacks & !attacked_by[p]).count() as i32;
        }
    }
    for p in game.players() {
        mobility[p] = Tapered::new(params.mobility_quarter, params.mobility_eg_quarter) * moves[p] / 4;
        king_safety[p] -= Tapered::new(units[p] * params.king_attack + units[p] * attackers[p] * params.king_danger / 8, 0);
        pieces[p] += pair * paired[p].iter().filter(|&&b| b).count() as i32;
        if redundant {
            pieces[p] -= redundancy * riders[p].iter().map(|&n| n * (n - 1) / 2).sum::<i32>();
        }
    }
    Activity { mobility, king_safety, pieces }
}
