//! The Elephant Charge (rule switch [`crate::game::ChargeRule`]; `guru2level.md` §4.2, §7.6, §7.11): one move
//! made of several leaps, each by a charger of the mover over another charger of the mover.
//!
//! A Charge is a multi-leg [`Move`] (see `moves`). Generation is a depth-first
//! search on a scratch copy of the position that applies each leap (captures included), so the
//! conditions after every leap are tested exactly: no royal man of any active player attacked,
//! and the whole placement different from the one before the Charge and after every earlier leap.

use arrayvec::ArrayVec;

use crate::bitboard::Bitboard;
use crate::moves::MAX_LEGS;
use crate::position::{Man, Move, Position};
use crate::tables::ChargeTables;
use crate::types::{Cell, Player};

/// The whole placement, compared exactly: only the mover's chargers move and only enemies are
/// removed, so the occupied cells and the chargers' cells and men determine the board.
#[derive(PartialEq, Eq)]
struct Placement<const W: usize> {
    occ: Bitboard<W>,
    chargers: Bitboard<W>,
    men: Vec<Man>,
}

/// The leaps of a Charge so far: (from, leap-vector index, to).
type Legs = ArrayVec<(Cell, u8, Cell), MAX_LEGS>;

impl<const W: usize> Position<W> {
    fn chargers_of(&self, rule: &ChargeTables, p: Player) -> Bitboard<W> {
        self.pieces_of_types(rule.chargers.iter()) & self.by_owner[p]
    }

    fn placement(&self, chargers: Bitboard<W>) -> Placement<W> {
        Placement { occ: self.occ, chargers, men: chargers.iter().map(|c| self.man_at(c)).collect() }
    }

    /// True if the royal man of some active player is attacked by another active player.
    fn any_royal_attacked(&self) -> bool {
        self.active.iter().any(|q| self.in_check(q))
    }

    /// Appends every legal Charge of the player to move.
    pub(super) fn push_charges(&self, rule: &ChargeTables, out: &mut Vec<Move>) {
        let p = self.to_move;
        let chargers = self.chargers_of(rule, p);
        let side = self.side_men(p);
        let first_leap_exists =
            chargers.iter().any(|a| rule.steps[a].iter().flatten().any(|step| chargers.has(step.mid) && !side.has(step.to)));
        if !first_leap_exists || self.any_royal_attacked() {
            return;
        }
        // The search makes each leap on a copy of the position, so that the attack tests after
        // every leap are exact.
        let mut scratch = self.clone();
        let mut seen = vec![self.placement(chargers)];
        scratch.charge_search(rule, p, &mut Legs::new(), &mut seen, out);
    }

    fn charge_search(&mut self, rule: &ChargeTables, p: Player, legs: &mut Legs, seen: &mut Vec<Placement<W>>, out: &mut Vec<Move>) {
        let game = self.game;
        let chargers = self.chargers_of(rule, p);
        for from in chargers {
            for (dir, step) in (0u8..).zip(rule.steps[from]) {
                let Some(step) = step.filter(|s| chargers.has(s.mid)) else { continue };
                let to = step.to;
                let target = self.man_at(to);
                // A royal target would mean a royal man was attacked before this leap.
                if target.is_some() && (self.side_of(p).has(target.owner()) || game.types[target.kind()].royal) {
                    continue;
                }
                let captured = if target.is_some() { self.take(to) } else { Man::NONE };
                let m = self.take(from);
                self.put(to, m);
                legs.push((from, dir, to));
                if !self.any_royal_attacked() {
                    let placement = self.placement(self.chargers_of(rule, p));
                    if !seen.contains(&placement) {
                        if legs.len() >= rule.min_legs {
                            out.push(Move::multi_leg(legs));
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
