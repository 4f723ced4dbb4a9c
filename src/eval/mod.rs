//! Evaluation: a score per player, from terms generated from geometry and movement, each with a
//! middle-game and an end-game weight blended by the game phase (the pieces' material left).
//!
//! - Material and placement ([`tables`]): values from the game definition or derived from a
//!   piece's average number of moves on the empty board, shifted per phase by the piece's shape
//!   (pawn, leaper, rider; a rider also by that average) and scaled in proportion; centrality
//!   (moves from a cell against the average), pawn advance, the royal piece's place, and the
//!   square values a game's definition may have learned from data (its `squares`: chess's are
//!   fitted to Stockfish's labels by `tuning/squares.py`; [`learned`]). Folded into one
//!   piece-square table that positions sum per owner as men move.
//! - Learned royal-pawn values ([`learned`]): a pawn's worth on each cell by where its owner's
//!   royal piece and the enemy's stand, where a game's definition has them (chess's are fitted
//!   by `tuning/royal_pawns.py`).
//! - Pawn structure ([`pawns`]): passed, isolated, doubled, backward and supported pawns, from
//!   the pawn tables of the game (`tables::pawns`), and the royal pieces' distances to passed
//!   pawns.
//! - Activity ([`activity`]): mobility, attacks near each royal piece, its pawn shield and the
//!   opponents' rider lines through it, pairs of colour-bound men, redundant riders (a second of one type), riders on open pawn lines, leapers on outposts,
//!   trapped pieces, threats against men.
//! - Mop-up ([`mopup`]): driving a bare royal piece to be mated.
//! - A learned correction network ([`network`]), where a game's definition has one and
//!   `network_permille` is set: one hidden layer over the men seen from the player to move,
//!   fitted by `tuning/network.py` to Stockfish's labels on top of the terms above.
//!
//! Every tunable number is in [`EvalParams`]; a game may give its own values (its definition's
//! `eval`), and users may override either.

mod activity;
mod learned;
mod mopup;
mod network;
pub mod network_file;
mod params;
mod pawns;
pub mod tables;

use std::sync::Arc;

use crate::params::ParamError;
use crate::position::{PHASE_FULL, Position, Tapered};
use crate::tables::{Game, LineMemo};
use crate::types::{PerPlayer, PieceType, Player, PlayerSet, Table};
pub use activity::activity_off;
use mopup::NetCache;
pub use params::{EvalParams, PARAMS};
use pawns::PawnCache;
pub use tables::EvalTables;

/// The largest evaluation in absolute value. The terms have no bound of their own (`mopup_men`
/// pays for every man, and an army of thirty against one bare King is worth tens of thousands),
/// while the search keeps the values beyond this for mates.
pub const EVAL_LIMIT: i32 = 25_000;

/// A game's learned tables (texts, as `tuning/` writes them) and network (binary); empty: none.
/// Only for two players, whose second player's cells are the first's mirrored top to bottom.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LearnedTexts {
    /// Square values (`tuning/squares.py`): per piece code, a middle-game and an end-game block
    /// of the centipawns a man of that type adds on each cell, in cell order, from the first
    /// player's side.
    pub squares: &'static str,
    /// Royal-pawn values (`tuning/royal_pawns.py`): a `buckets` block giving each cell, from the
    /// first player's side, the bucket of a royal piece standing there, then per bucket `own B
    /// mg|eg` and `enemy B mg|eg` blocks: the centipawns a pawn-like man adds on each cell (from
    /// its owner's side) while its owner's royal piece, or the enemy's, stands in bucket B.
    pub royal_pawns: &'static str,
    /// A correction network (`tuning/network.py`, converted by `tessera network`): one hidden
    /// layer over the men seen from the player to move, in the binary form of
    /// [`network_file`].
    pub network: &'static [u8],
}

impl LearnedTexts {
    pub const NONE: LearnedTexts = LearnedTexts { squares: "", royal_pawns: "", network: &[] };
}

/// How a game is evaluated: its own parameter values and its learned texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalProfile {
    pub params: EvalParams,
    pub learned: LearnedTexts,
}

impl EvalProfile {
    /// The defaults, nothing learned.
    pub const DEFAULT: EvalProfile = EvalProfile { params: PARAMS, learned: LearnedTexts::NONE };
}

/// Evaluation parameters a user set by name (protocol options, match settings), laid over a
/// game's own values whichever game is played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalOverrides(Vec<(&'static str, i32)>);

impl EvalOverrides {
    /// Sets one parameter (a later setting of the same name replaces an earlier one).
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), ParamError> {
        let &(known, _, _) = EvalParams::RANGES
            .iter()
            .find(|(n, _, _)| *n == name)
            .ok_or_else(|| ParamError(format!("unknown evaluation parameter '{name}'")))?;
        // Checks the value's range.
        let mut check = PARAMS;
        check.set(known, value)?;
        self.0.retain(|(n, _)| *n != known);
        self.0.push((known, value));
        Ok(())
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `base` with these settings.
    pub fn apply(&self, base: EvalParams) -> EvalParams {
        let mut params = base;
        for &(name, value) in &self.0 {
            params.set(name, value).expect("checked when set");
        }
        params
    }
}

/// What one search's evaluations keep from position to position, for one evaluator: the pawn
/// structures, the mop-up's boxes of bare royal pieces and the riders' lines. The same values,
/// found faster.
#[derive(Default)]
pub struct EvalCache<const W: usize> {
    pawns: PawnCache<W>,
    nets: NetCache<W>,
    lines: LineMemo<W>,
}

impl<const W: usize> EvalCache<W> {
    /// The riders' lines it keeps, which move generation reads too.
    pub fn lines(&mut self) -> &mut LineMemo<W> {
        &mut self.lines
    }
}

/// The evaluation of one game with one set of parameters: what the search and the session
/// evaluate with. Positions it evaluates must sum its piece-square table
/// ([`Evaluator::prepare`]).
#[derive(Clone, Debug)]
pub struct Evaluator {
    pub(crate) tables: Arc<EvalTables>,
    /// Whether any weight of the terms that need every piece's moves is set ([`activity`]).
    activity: bool,
}

/// A player's terms, each blended by the phase (centipawns).
#[derive(Clone, Copy, Debug, Default)]
struct Terms {
    pawns: Tapered,
    mobility: Tapered,
    king_safety: Tapered,
    pieces: Tapered,
}

impl Evaluator {
    /// `params` without learned tables.
    pub fn new<const W: usize>(game: &Game<W>, params: &EvalParams) -> Self {
        Evaluator::with_tables(tables::tables_for(game, params, &LearnedTexts::NONE, false))
    }

    /// `params` over `learned` (tables shared while in use).
    pub fn with_learned<const W: usize>(game: &Game<W>, params: &EvalParams, learned: &LearnedTexts) -> Self {
        Evaluator::with_tables(tables::tables_for(game, params, learned, false))
    }

    /// A game's evaluation by its `profile`, with a user's `overrides` laid over its values (its
    /// own tables, without overrides, are built once for the life of the process).
    pub fn of_profile<const W: usize>(game: &Game<W>, profile: &EvalProfile, overrides: &EvalOverrides) -> Self {
        let params = overrides.apply(profile.params);
        Evaluator::with_tables(tables::tables_for(game, &params, &profile.learned, overrides.is_empty()))
    }

    fn with_tables(tables: Arc<EvalTables>) -> Self {
        let activity = activity::enabled(&tables.params);
        Evaluator { tables, activity }
    }

    pub fn params(&self) -> EvalParams {
        self.tables.params
    }

    /// Material value per type (royal pieces 0), in the middle game.
    pub fn values(&self) -> &Table<PieceType, i32> {
        &self.tables.values
    }

    /// Makes `pos` sum this evaluator's piece-square values, and its network's first layer where
    /// it has one.
    pub fn prepare<const W: usize>(&self, pos: &mut Position<W>) {
        pos.set_piece_square(self.tables.psq.clone());
        pos.set_input_weights(self.tables.network.as_ref().map(|n| Arc::clone(&n.inputs)));
    }

    /// The game phase: [`PHASE_FULL`] with the start position's pieces on the board, falling
    /// to 0 as they go.
    pub fn phase<const W: usize>(&self, pos: &Position<W>) -> i32 {
        let t = &self.tables;
        let mut material = 0;
        for p in pos.game().players() {
            for kind in pos.game().piece_types() {
                material += i32::from(pos.count(p, kind)) * t.phase_weights[kind];
            }
        }
        (material * PHASE_FULL / t.phase_total).min(PHASE_FULL)
    }

    /// The evaluation of the position from player `p`'s point of view: own terms less the
    /// average of the active opponents', within [`EVAL_LIMIT`].
    pub fn evaluate_for<const W: usize>(&self, pos: &Position<W>, p: Player) -> i32 {
        self.relative(pos, &self.player_sums(pos, None), p)
    }

    /// [`Evaluator::evaluate_for`] with what earlier evaluations left in `cache` (the same
    /// value, found faster). A cache must serve one evaluator only.
    pub fn evaluate_for_cached<const W: usize>(&self, pos: &Position<W>, p: Player, cache: &mut EvalCache<W>) -> i32 {
        self.relative(pos, &self.player_sums(pos, Some(cache)), p)
    }

    /// [`Evaluator::evaluate_for`] for every player at once (0 for players out of the game).
    pub fn evaluate_all<const W: usize>(&self, pos: &Position<W>) -> PerPlayer<i32> {
        let sums = self.player_sums(pos, None);
        let mut out = PerPlayer::splat(0);
        for p in pos.active_players().iter() {
            out[p] = self.relative(pos, &sums, p);
        }
        out
    }

    /// The evaluation of a team game from the point of view of `side` (a team, its players out
    /// of the game included): the terms of its players still in less those of every other
    /// player still in, per player the side began with, within [`EVAL_LIMIT`]. Not the mean of
    /// its players' [`Evaluator::evaluate_for`], which counts a partner among the opponents:
    /// there a mate of a weak opponent shrank the weight of the mater's own side and read as a
    /// loss (`guru2-teams`: two Rooks, two Knights, three Elephants and three Ferzes did not check a
    /// King without a move in 200 plies).
    pub fn evaluate_side<const W: usize>(&self, pos: &Position<W>, side: PlayerSet, cache: &mut EvalCache<W>) -> i32 {
        let sums = self.player_sums(pos, Some(cache));
        let active = pos.active_players();
        let own: i32 = active.iter().filter(|&p| side.has(p)).map(|p| sums[p]).sum();
        let others: i32 = active.minus(side).iter().map(|q| sums[q]).sum();
        let tempo = if side.has(pos.to_move()) { self.tables.params.tempo } else { 0 };
        ((own - others) / side.len().max(1) as i32 + tempo).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    fn relative<const W: usize>(&self, pos: &Position<W>, sums: &PerPlayer<i32>, p: Player) -> i32 {
        let others = pos.active_players().without(p);
        let total: i32 = others.iter().map(|q| sums[q]).sum();
        let tempo = if pos.to_move() == p { self.tables.params.tempo } else { 0 };
        let v = sums[p] + tempo - if others.is_empty() { 0 } else { total / others.len() as i32 };
        v.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// Each player's own terms added up and blended by the phase.
    fn player_sums<const W: usize>(&self, pos: &Position<W>, cache: Option<&mut EvalCache<W>>) -> PerPlayer<i32> {
        let (pawns, nets, lines) = match cache {
            Some(c) => (Some(&mut c.pawns), Some(&mut c.nets), Some(&mut c.lines)),
            None => (None, None, None),
        };
        self.sums(pos, &self.terms(pos, pawns, lines), self.phase(pos), &self.added(pos, nets))
    }

    /// What is added to each player's blended terms: the mop-up, and the network's correction.
    fn added<const W: usize>(&self, pos: &Position<W>, nets: Option<&mut NetCache<W>>) -> PerPlayer<i32> {
        let mut added = mopup::bonus(&self.tables, pos, nets);
        let network = self.network(pos);
        for p in pos.game().players() {
            added[p] += network[p];
        }
        added
    }

    /// Each player's `terms` and piece-square sum blended by `phase`, plus what is `added`.
    fn sums<const W: usize>(&self, pos: &Position<W>, terms: &PerPlayer<Terms>, phase: i32, added: &PerPlayer<i32>) -> PerPlayer<i32> {
        let totals = self.totals(pos, terms);
        let mut sums = PerPlayer::splat(0);
        for p in pos.game().players() {
            sums[p] = totals[p].blend(phase) + added[p];
        }
        sums
    }

    /// Each player's piece-square sum and terms added up.
    fn totals<const W: usize>(&self, pos: &Position<W>, terms: &PerPlayer<Terms>) -> PerPlayer<Tapered> {
        let psq = pos.piece_square_sums();
        let mut totals = PerPlayer::splat(Tapered::ZERO);
        for p in pos.game().players() {
            let t = terms[p];
            totals[p] = psq[p] + t.pawns + t.mobility + t.king_safety + t.pieces;
        }
        totals
    }

    /// The learned network's centipawns per player (0 without one): with two players for the
    /// player to move alone (its output weighs both sides' units), with more for every player.
    fn network<const W: usize>(&self, pos: &Position<W>) -> PerPlayer<i32> {
        let mut out = PerPlayer::splat(0);
        if let Some(network) = &self.tables.network {
            if pos.game().nplayers == 2 {
                out[pos.to_move()] = network.value(pos);
            } else {
                for p in pos.game().players() {
                    out[p] = network.value_for(pos, p);
                }
            }
        }
        out
    }

    /// The terms beyond the piece-square sums, each computed only where its weights are set.
    fn terms<const W: usize>(
        &self,
        pos: &Position<W>,
        pawns: Option<&mut PawnCache<W>>,
        lines: Option<&mut LineMemo<W>>,
    ) -> PerPlayer<Terms> {
        let mut terms = self.terms_without_activity(pos, pawns);
        if self.activity {
            self.add_activity(pos, &mut terms, lines);
        }
        terms
    }

    /// The terms that need no piece's moves: pawn structure and the learned royal-pawn values.
    fn terms_without_activity<const W: usize>(&self, pos: &Position<W>, cache: Option<&mut PawnCache<W>>) -> PerPlayer<Terms> {
        let mut terms = PerPlayer::splat(Terms::default());
        if let Some(royal_pawns) = &self.tables.royal_pawns {
            let values = royal_pawns.terms(pos);
            for p in pos.game().players() {
                terms[p].king_safety = values[p];
            }
        }
        if pawns::enabled(&self.tables.params) {
            let pawns = pawns::structure(&self.tables, pos, cache);
            for p in pos.game().players() {
                terms[p].pawns = pawns[p];
            }
        }
        terms
    }

    /// The terms that need every piece's moves, into `terms`.
    fn add_activity<const W: usize>(&self, pos: &Position<W>, terms: &mut PerPlayer<Terms>, lines: Option<&mut LineMemo<W>>) {
        let a = activity::activity(&self.tables, pos, lines);
        for p in pos.game().players() {
            terms[p].mobility = a.mobility[p];
            terms[p].king_safety += a.king_safety[p];
            terms[p].pieces = a.pieces[p];
        }
    }

    /// The evaluation split by term for every player (the protocol's `eval`).
    pub fn breakdown<const W: usize>(&self, pos: &Position<W>) -> Breakdown {
        let phase = self.phase(pos);
        let psq = pos.piece_square_sums();
        let terms = self.terms(pos, None, None);
        let mopup = mopup::bonus(&self.tables, pos, None);
        let mut material = PerPlayer::splat(Tapered::ZERO);
        for c in pos.occupied() {
            let m = pos.man_at(c);
            material[m.owner()] += self.tables.material[m.kind()];
        }
        let blend = |v: &PerPlayer<Tapered>| {
            let mut out = PerPlayer::splat(0);
            for p in pos.game().players() {
                out[p] = v[p].blend(phase);
            }
            out
        };
        let term = |f: fn(&Terms) -> Tapered| {
            let mut out = PerPlayer::splat(0);
            for p in pos.game().players() {
                out[p] = f(&terms[p]).blend(phase);
            }
            out
        };
        let totals = self.totals(pos, &terms);
        let mut b = Breakdown {
            phase,
            material: blend(&material),
            placement: PerPlayer::splat(0),
            pawns: term(|t| t.pawns),
            mobility: term(|t| t.mobility),
            king_safety: term(|t| t.king_safety),
            pieces: term(|t| t.pieces),
            mopup,
            network: PerPlayer::splat(0),
            tempo: PerPlayer::splat(0),
            total: PerPlayer::splat(0),
            score: self.evaluate_all(pos),
        };
        b.tempo[pos.to_move()] = self.tables.params.tempo;
        b.network = self.network(pos);
        for p in pos.game().players() {
            b.total[p] = totals[p].blend(phase) + mopup[p] + b.network[p];
            b.placement[p] = (psq[p] - material[p]).blend(phase);
        }
        b
    }
}

/// The evaluation of a position split by term, per player, in centipawns (each term blended by
/// the phase).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// The game phase, 0 (no pieces but pawns and royal ones) to 256 (the start's pieces).
    pub phase: i32,
    /// The values of the player's men.
    pub material: PerPlayer<i32>,
    /// The piece-square terms (centrality, pawn advance, the royal piece's place).
    pub placement: PerPlayer<i32>,
    /// Passed, isolated, doubled, backward and supported pawns.
    pub pawns: PerPlayer<i32>,
    pub mobility: PerPlayer<i32>,
    /// Attacks near the royal piece, its pawn shield, the open lines through it, and the learned royal-pawn values.
    pub king_safety: PerPlayer<i32>,
    /// Pairs of colour-bound men, riders on open lines, leapers on outposts, trapped pieces,
    /// threats against men.
    pub pieces: PerPlayer<i32>,
    /// Driving a bare royal piece to be mated.
    pub mopup: PerPlayer<i32>,
    /// The learned network's correction per player (with two players the mover's alone).
    pub network: PerPlayer<i32>,
    /// The bonus of the player to move.
    pub tempo: PerPlayer<i32>,
    /// The player's own terms added up (without the tempo).
    pub total: PerPlayer<i32>,
    /// The evaluation the search uses: own total and tempo less the average of the active
    /// opponents' totals (0 for players out of the game).
    pub score: PerPlayer<i32>,
}

#[cfg(test)]
mod tests;
