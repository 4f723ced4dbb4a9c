//! Pawn structure: passed, isolated, doubled, backward and supported pawns, read off
//! the game's pawn tables (`tables::pawns`), which know each orientation's steps and captures;
//! and in the end game the royal pieces' distances to a passed pawn's way. A search keeps what
//! the pawns alone decide per structure ([`PawnCache`]).

use super::{EvalParams, EvalTables};
use crate::bitboard::Bitboard;
use crate::position::{Position, Tapered};
use crate::tables::PawnTables;
use crate::types::{Cell, MAX_PLAYERS, PerPlayer, Player, PlayerSet, Table};

/// Whether any pawn-structure weight is set.
pub(super) fn enabled(params: &EvalParams) -> bool {
    [
        params.passed,
        params.passed_eg,
        params.isolated,
        params.isolated_eg,
        params.doubled,
        params.doubled_eg,
        params.backward,
        params.backward_eg,
        params.supported,
        params.supported_eg,
        params.passed_king_eg,
        params.passed_enemy_king_eg,
    ]
    .iter()
    .any(|&w| w != 0)
}

/// A pawn structure: per player its pawn-like men, per orientation but the last those of that
/// orientation (which fixes the last), and the players still in, on whom a pawn's enemies depend.
#[derive(Clone, Copy, PartialEq, Eq)]
struct StructureKey<const W: usize> {
    owned: [Bitboard<W>; MAX_PLAYERS],
    oriented: [Bitboard<W>; MAX_PLAYERS - 1],
    active: PlayerSet,
}

impl<const W: usize> StructureKey<W> {
    fn of(pos: &Position<W>, pawns: Bitboard<W>) -> Self {
        let mut key = StructureKey {
            owned: [Bitboard::EMPTY; MAX_PLAYERS],
            oriented: [Bitboard::EMPTY; MAX_PLAYERS - 1],
            active: pos.active_players(),
        };
        for p in pos.game().players() {
            key.owned[p.index()] = pawns & pos.pieces_of(p);
            if p.index() + 1 < pos.game().nplayers {
                key.oriented[p.index()] = pawns & pos.by_orient[p];
            }
        }
        key
    }
}

/// What the pawn structure alone decides: the terms that depend on nothing else (isolated,
/// doubled, backward and supported pawns) and where the passed pawns stand. A passed pawn's
/// worth also depends on the men in front of it and on the royal pieces, so it is added at every
/// evaluation.
#[derive(Clone, Copy)]
struct CachedStructure<const W: usize> {
    key: StructureKey<W>,
    fixed: PerPlayer<Tapered>,
    passed: Bitboard<W>,
}

/// Slots of a pawn cache.
const PAWN_CACHE_SLOTS: usize = 1 << 13;

/// Pawn structures already evaluated, one per slot, indexed by [`Position::pawn_key`]. A search's
/// positions share few structures, so most evaluations find theirs here.
pub struct PawnCache<const W: usize> {
    slots: Vec<Option<CachedStructure<W>>>,
}

impl<const W: usize> Default for PawnCache<W> {
    /// An empty cache; its slots are allocated at first use.
    fn default() -> Self {
        PawnCache { slots: Vec::new() }
    }
}

/// The pawn-structure term of every player; the part the pawns alone decide from `cache` where it
/// holds the structure.
pub(super) fn structure<const W: usize>(t: &EvalTables, pos: &Position<W>, cache: Option<&mut PawnCache<W>>) -> PerPlayer<Tapered> {
    let mut out = PerPlayer::splat(Tapered::ZERO);
    let Some(tables) = &pos.game().pawns else { return out };
    let pawns = pos.pawn_men();
    let key = StructureKey::of(pos, pawns);
    let computed = |key: StructureKey<W>| {
        let mut e = CachedStructure { key, fixed: PerPlayer::splat(Tapered::ZERO), passed: Bitboard::EMPTY };
        for p in key.active.iter() {
            let own = key.owned[p.index()];
            e.fixed[p] = fixed_terms(t, pos, own, tables);
            let enemy = pawns & pos.pieces_of_set(pos.opponents(p));
            e.passed |= Bitboard::from_cells(own.iter().filter(|&c| passes(pos, tables, c, enemy)));
        }
        e
    };
    let uncached;
    let entry = match cache {
        Some(cache) => {
            if cache.slots.is_empty() {
                cache.slots = vec![None; PAWN_CACHE_SLOTS];
            }
            let slot = &mut cache.slots[pos.pawn_key() as usize & (PAWN_CACHE_SLOTS - 1)];
            if slot.as_ref().is_none_or(|e| e.key != key) {
                *slot = Some(computed(key));
            }
            slot.as_ref().expect("filled above")
        }
        None => {
            uncached = computed(key);
            &uncached
        }
    };
    for p in key.active.iter() {
        out[p] = entry.fixed[p] + passed_terms(t, pos, entry.passed & key.owned[p.index()], tables);
    }
    out
}

/// Whether the pawn on `c` is passed: none of the `enemy` pawns can stop it, and it has a way to
/// promote.
fn passes<const W: usize>(pos: &Position<W>, tables: &Table<Player, PawnTables<W>>, c: Cell, enemy: Bitboard<W>) -> bool {
    let facts = &tables[pos.man_at(c).orientation()].cells[c];
    (facts.stoppers & enemy).is_empty() && facts.to_promotion.is_some()
}

/// The worth of one player's passed pawns: the more the further each has come, less when its
/// steps are blocked, and in the end game by the royal pieces' distances to its way (the enemy's
/// far, the own near).
fn passed_terms<const W: usize>(
    t: &EvalTables,
    pos: &Position<W>,
    passed_pawns: Bitboard<W>,
    tables: &Table<Player, PawnTables<W>>,
) -> Tapered {
    let params = &t.params;
    let kings = params.passed_king_eg != 0 || params.passed_enemy_king_eg != 0;
    let passed = Tapered::new(params.passed, params.passed_eg);
    let mut sum = Tapered::ZERO;
    for c in passed_pawns {
        let man = pos.man_at(c);
        let pt = &tables[man.orientation()];
        let Some(d) = pt.cells[c].to_promotion else { continue };
        // Worth more the further it has come: the square of the share of its way.
        let made = pt.max_to_promotion - d;
        let (share, whole) = (made * made, (pt.max_to_promotion * pt.max_to_promotion).max(1));
        let steps = pt.step[c];
        let blocked = steps.any() && (steps & !pos.occupied()).is_empty();
        let kept = if blocked { 100 - params.passed_blocked } else { 100 };
        sum += passed * (share * kept) / (whole * 100);
        if kings && steps.any() {
            let near = |k: Cell| steps.iter().map(|s| t.royal_distance(k, s)).min().unwrap_or(0).min(t.royal_max_distance);
            let p = man.owner();
            let enemy_distance = pos.opponents(p).iter().filter_map(|q| pos.royal_cell(q)).map(near).min().unwrap_or(t.royal_max_distance);
            let own_distance = pos.royal_cell(p).map_or(t.royal_max_distance, near);
            let eg = enemy_distance * params.passed_enemy_king_eg - own_distance * params.passed_king_eg;
            sum += Tapered::new(0, eg * share / whole);
        }
    }
    sum
}

/// The terms of one player's pawns (`own`) that depend on the pawns alone: doubled, isolated,
/// backward and supported pawns.
fn fixed_terms<const W: usize>(t: &EvalTables, pos: &Position<W>, own: Bitboard<W>, tables: &Table<Player, PawnTables<W>>) -> Tapered {
    let params = &t.params;
    let isolated = Tapered::new(params.isolated, params.isolated_eg);
    let doubled = Tapered::new(params.doubled, params.doubled_eg);
    let backward = Tapered::new(params.backward, params.backward_eg);
    let backward_on = params.backward != 0 || params.backward_eg != 0;
    let supported = Tapered::new(params.supported, params.supported_eg);
    let Some(owner) = own.iter().next().map(|c| pos.man_at(c).owner()) else { return Tapered::ZERO };
    let enemy = pos.pawn_men() & pos.pieces_of_set(pos.opponents(owner));
    let mut sum = Tapered::ZERO;
    // The cells the enemy pawns attack or hold, found once a pawn needs them.
    let mut enemy_control = None;
    for c in own {
        let pt = &tables[pos.man_at(c).orientation()];
        let facts = &pt.cells[c];
        if (facts.front & own).any() {
            sum -= doubled;
        }
        if (facts.neighbours & own).is_empty() {
            sum -= isolated;
        } else if backward_on {
            let steps = pt.step[c];
            if steps.any() && (facts.step_supporters & own).is_empty() {
                let control = *enemy_control
                    .get_or_insert_with(|| enemy.iter().fold(enemy, |b, e| b | tables[pos.man_at(e).orientation()].attacks[e]));
                if (steps & control).any() {
                    sum -= backward;
                }
            }
        }
        if (facts.attacked_from & own).any() {
            sum += supported;
        }
    }
    sum
}
