//! The Elephant Charge (rule switch [`ChargeRule`]; `guru2level.md` §4.2, §7.6, §7.11): one move
//! made of several leaps, each by a charger of the mover over another charger of the mover.
//!
//! A Charge is a [`Move`] of kind [`MoveKind::Charge`]: the first leg is the move's from/to; each
//! further leg is packed in 11 bits from bit 27 on (9-bit from cell, 2-bit leap index into the
//! rule's vectors), and bits 60–61 hold the number of further legs. Generation is a depth-first
//! search on a scratch copy of the position that applies each leap (captures included), so the
//! conditions after every leap are tested exactly: no royal man of any active player attacked,
//! and the whole placement different from the one before the Charge and after every earlier leap.

use arrayvec::ArrayVec;

use crate::bitboard::Bitboard;
use crate::game::ChargeRule;
use crate::geometry::{Geometry, Vec3, add};
use crate::position::{Man, Move, MoveKind, NO_CELL, Position};
use crate::tables::{Game, MAX_TYPES};

/// Most legs a packed move can hold.
pub const MAX_LEGS: usize = 4;
const MAX_LEAPS: usize = 4;
const KIND_SHIFT: u32 = 24;
const LEGS_SHIFT: u32 = 27;
const LEG_BITS: u32 = 11;
const COUNT_SHIFT: u32 = 60;

/// The rule resolved for move generation.
pub struct ChargeTables {
    /// Bit t set when men of type t charge and are charged over.
    chargers: u64,
    /// Per cell, per leap vector: (midpoint, landing cell), `NO_CELL` where it leaves the board.
    steps: Vec<[(u16, u16); MAX_LEAPS]>,
    min_legs: usize,
    max_legs: usize,
}

impl ChargeTables {
    pub fn compile(rule: &ChargeRule, geo: &Geometry) -> Self {
        assert!(rule.leaps.len() <= MAX_LEAPS, "a Charge packs at most {MAX_LEAPS} leap vectors");
        assert!((1..=MAX_LEGS).contains(&rule.max_legs) && rule.min_legs <= rule.max_legs, "Charge length out of range");
        let mut chargers = 0u64;
        for &t in &rule.chargers {
            assert!(t < MAX_TYPES, "charger type {t} out of range");
            chargers |= 1 << t;
        }
        let half = |v: Vec3| -> Vec3 {
            assert!(v.iter().all(|c| c % 2 == 0), "Charge leap {v:?} has no midpoint cell");
            [v[0] / 2, v[1] / 2, v[2] / 2]
        };
        let steps = (0..geo.len())
            .map(|c| {
                let mut row = [(NO_CELL, NO_CELL); MAX_LEAPS];
                for (i, &v) in rule.leaps.iter().enumerate() {
                    let mid = geo.cell_at(add(geo.coord(c), half(v)));
                    let to = geo.step(c, v);
                    if let (Some(m), Some(t)) = (mid, to) {
                        row[i] = (m as u16, t as u16);
                    }
                }
                row
            })
            .collect();
        ChargeTables { chargers, steps, min_legs: rule.min_legs.max(1), max_legs: rule.max_legs }
    }
}

/// One leap of a Charge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leg {
    pub from: usize,
    pub to: usize,
}

fn pack(legs: &[(u16, u8, u16)]) -> Move {
    let (from, _, to) = legs[0];
    let mut raw = from as u64 | (to as u64) << 9 | (MoveKind::Charge as u64) << KIND_SHIFT;
    for (i, &(f, dir, _)) in legs[1..].iter().enumerate() {
        raw |= (f as u64 | (dir as u64) << 9) << (LEGS_SHIFT + LEG_BITS * i as u32);
    }
    raw |= ((legs.len() - 1) as u64) << COUNT_SHIFT;
    Move::from_raw(raw)
}

/// The legs of a Charge move, in order (empty if `mv` is not a Charge of this game).
pub fn charge_legs<const W: usize>(game: &Game<W>, mv: Move) -> ArrayVec<Leg, MAX_LEGS> {
    let mut legs = ArrayVec::new();
    let Some(rule) = &game.charge else { return legs };
    if mv.kind() != MoveKind::Charge {
        return legs;
    }
    legs.push(Leg { from: mv.from(), to: mv.to() });
    let raw = mv.raw();
    let extra = ((raw >> COUNT_SHIFT) & 3) as usize;
    for i in 0..extra {
        let bits = raw >> (LEGS_SHIFT + LEG_BITS * i as u32);
        let from = (bits & 511) as usize;
        let dir = ((bits >> 9) & 3) as usize;
        let to = rule.steps.get(from).map_or(NO_CELL, |s| s[dir].1);
        if to == NO_CELL {
            break;
        }
        legs.push(Leg { from, to: to as usize });
    }
    legs
}

/// The whole placement, compared exactly: only the mover's chargers move and only enemies are
/// removed, so the occupied cells and the chargers' cells and men determine the board.
#[derive(PartialEq, Eq)]
struct Placement<const W: usize> {
    occ: Bitboard<W>,
    chargers: Bitboard<W>,
    men: Vec<Man>,
}

impl<const W: usize> Position<W> {
    fn chargers_of(&self, rule: &ChargeTables, p: usize) -> Bitboard<W> {
        let mut b = Bitboard::EMPTY;
        for t in 0..self.game.ntypes {
            if rule.chargers >> t & 1 == 1 {
                b |= self.by_type[t];
            }
        }
        b & self.by_owner[p]
    }

    fn placement(&self, chargers: Bitboard<W>) -> Placement<W> {
        Placement { occ: self.occ, chargers, men: chargers.iter().map(|c| self.board[c]).collect() }
    }

    /// True if the royal man of some active player is attacked by another active player.
    fn any_royal_attacked(&self) -> bool {
        (0..self.game.nplayers).any(|q| self.is_active(q) && self.in_check(q))
    }

    /// Appends every legal Charge of the player to move.
    pub(super) fn push_charges(&self, rule: &ChargeTables, out: &mut Vec<Move>) {
        let p = self.to_move as usize;
        let chargers = self.chargers_of(rule, p);
        let own = self.by_owner[p];
        let first_leap_exists = chargers
            .iter()
            .any(|a| rule.steps[a].iter().any(|&(mid, to)| mid != NO_CELL && chargers.has(mid as usize) && !own.has(to as usize)));
        if !first_leap_exists || self.any_royal_attacked() {
            return;
        }
        let mut scratch = self.clone();
        let mut seen = vec![self.placement(chargers)];
        let mut legs = ArrayVec::new();
        scratch.charge_search(rule, p, &mut legs, &mut seen, out);
    }

    fn charge_search(
        &mut self,
        rule: &ChargeTables,
        p: usize,
        legs: &mut ArrayVec<(u16, u8, u16), MAX_LEGS>,
        seen: &mut Vec<Placement<W>>,
        out: &mut Vec<Move>,
    ) {
        let game = self.game;
        let chargers = self.chargers_of(rule, p);
        for from in chargers {
            for (dir, &(mid, to)) in rule.steps[from].iter().enumerate() {
                if mid == NO_CELL || !chargers.has(mid as usize) {
                    continue;
                }
                let to = to as usize;
                let target = self.board[to];
                // A royal target would mean a royal man was attacked before this leap.
                if target.is_some() && (target.owner() == p || game.types[target.kind()].royal) {
                    continue;
                }
                let captured = if target.is_some() { self.take(to) } else { Man::NONE };
                let m = self.take(from);
                self.put(to, m);
                legs.push((from as u16, dir as u8, to as u16));
                if !self.any_royal_attacked() {
                    let placement = self.placement(self.chargers_of(rule, p));
                    if !seen.contains(&placement) {
                        if legs.len() >= rule.min_legs {
                            out.push(pack(legs));
                        }
                        if legs.len() < rule.max_legs {
                            seen.push(placement);
                            self.charge_search(rule, p, legs, seen, out);
                            seen.pop();
                        }
                    }
                }
                legs.pop();
                self.take(to);
                self.put(from, m);
                if captured.is_some() {
                    self.put(to, captured);
                }
            }
        }
    }

    /// Makes the leaps of a Charge; returns the man each leap captured (`Man::NONE` if none).
    pub(crate) fn apply_charge(&mut self, mv: Move) -> [Man; MAX_LEGS] {
        let game = self.game;
        let mut captured = [Man::NONE; MAX_LEGS];
        for (i, leg) in charge_legs(game, mv).into_iter().enumerate() {
            if self.board[leg.to].is_some() {
                captured[i] = self.take(leg.to);
            }
            let m = self.take(leg.from);
            self.put(leg.to, m);
            self.clear_castling_rights(leg.from, leg.to);
        }
        captured
    }

    /// Reverts [`Position::apply_charge`].
    pub(crate) fn revert_charge(&mut self, mv: Move, captured: &[Man; MAX_LEGS]) {
        let legs = charge_legs(self.game, mv);
        for (i, leg) in legs.into_iter().enumerate().rev() {
            let m = self.take(leg.to);
            self.put(leg.from, m);
            if captured[i].is_some() {
                self.put(leg.to, captured[i]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::games;
    use crate::notation::{move_string, parse_position, position_string};
    use crate::registry;

    /// Red Elephants on Uc3, Ud4 and Uf4 (so leaps go several ways), enemies to capture on Ue5 and
    /// Ub2, four kings: every move, Charges included, is made and unmade exactly.
    #[test]
    fn charges_make_and_unmake_exactly() {
        let game = registry::compiled::<4>(games::definition("guru2").expect("guru2"));
        let mut rows = vec!["10"; 5];
        rows.extend(["4bF5", "3rE1rE4", "2rE7", "1bP8", "10", "gK8oK"]);
        rows.extend(["10"; 8]);
        rows.push("rK8bK");
        let text = format!("{} r rbgo - - 0 1 0:", rows.join("/"));
        let mut pos = parse_position(game, &text).unwrap_or_else(|e| panic!("{e}: {text}"));
        let before = position_string(&pos);
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let charges: Vec<_> = moves.iter().filter(|m| move_string(game, **m).contains(',')).copied().collect();
        assert!(charges.len() > 10, "only {} charges", charges.len());
        for mv in moves {
            let undo = pos.make(mv);
            assert_eq!(pos.hash(), pos.compute_hash(), "hash after {}", move_string(game, mv));
            let after = parse_position(game, &position_string(&pos)).expect("written position parses");
            assert_eq!(after.hash(), pos.hash());
            pos.unmake(mv, undo);
            assert_eq!(position_string(&pos), before, "unmake {}", move_string(game, mv));
            assert_eq!(pos.hash(), pos.compute_hash());
        }
    }
}
