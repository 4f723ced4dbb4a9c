//! A game and its current position behind one interface that does not depend on the bitboard
//! width, so that the protocol, the match runner and the benchmark can hold any game. The width
//! is chosen here from the geometry. A session speaks in moves, statuses and search reports;
//! text comes only from `notation` (moves, positions, boards) and the protocol (everything else).

use std::sync::atomic::AtomicBool;

use crate::eval::{Breakdown, EvalOverrides, EvalParams, Evaluator};
use crate::game::GameDef;
use crate::games::{self, Profile};
use crate::notation::{self, NotationError};
use crate::position::{GameEnd, Man, Move, MoveKind, Position};
use crate::registry::{self, with_width};
use crate::search::{self, Bound, Control, HelperPool, Heuristics, Info, Limits, Report, Resources, SearchSettings};
use crate::tables::Game;
use crate::tt::TransTable;
use crate::types::{Cell, PieceType, Player, PlayerSet, Table};

/// Occurrences of a position that make a repetition draw.
const REPETITIONS_FOR_DRAW: usize = 3;

/// How a game stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    /// Why and with what result the game ended; `None` while it goes on.
    pub end: Option<GameEnd>,
    pub to_move: Player,
    /// Players still in the game.
    pub active: PlayerSet,
    /// Players still in whose royal piece an opponent attacks.
    pub in_check: PlayerSet,
    /// (eliminated player, eliminated by), in order of elimination.
    pub eliminated: Vec<(Player, Player)>,
    /// Final placings, best first (only when the game is over); players sharing a place are one
    /// set.
    pub placings: Vec<PlayerSet>,
}

impl Status {
    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    pub fn winner(&self) -> Option<Player> {
        self.end.and_then(|e| e.winner)
    }
}

/// What a finished search found.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// `None` when the game is over (no legal move).
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    /// The last completed iteration.
    pub last: Option<Report>,
}

/// A search request besides the position: the limits, the table, the signals, the threads and
/// the search settings.
pub struct SearchRequest<'a> {
    pub limits: &'a Limits,
    pub control: &'a Control,
    pub tt: &'a TransTable,
    /// What earlier searches of the game learned about moves (empty: start afresh).
    pub heuristics: &'a Heuristics,
    /// The Lazy SMP helper threads (their number is the search's thread count less one).
    pub helpers: &'a HelperPool,
    pub settings: SearchSettings,
}

pub trait Session: Send + Sync {
    fn def(&self) -> &'static GameDef;
    /// How the engine plays the game.
    fn profile(&self) -> &Profile;
    /// Sets the position (`None` = the start) and plays `moves`; on error nothing changes.
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), NotationError>;
    /// The legal move written as `text`.
    fn parse_move(&self, text: &str) -> Result<Move, NotationError>;
    /// Plays a legal move of the current position.
    fn play(&mut self, mv: Move) -> Result<(), NotationError>;
    /// The text of a move of this game.
    fn move_text(&self, mv: Move) -> String;
    /// The legal move `mv` in standard algebraic notation where the game's records use it (see
    /// [`notation::writes_san`]), else as [`Session::move_text`].
    fn move_san(&self, mv: Move) -> String;
    /// Whether the game's records are written in standard algebraic notation.
    fn writes_san(&self) -> bool;
    /// The legal move `mv` as a record shows it to a reader ([`notation::record_text`]).
    fn move_record(&self, mv: Move) -> String;
    fn position_string(&self) -> String;
    fn board_text(&self) -> String;
    /// Every man on the board with its cell, in canonical cell order.
    fn men(&self) -> Vec<(Cell, Man)>;
    /// Whether the legal move `mv` is quiet: it takes nothing, promotes nothing and is not a pass.
    fn is_quiet(&self, mv: Move) -> bool;
    /// The cells `man` reaches from `from` on an otherwise empty board (and those it would
    /// capture on), in canonical order.
    fn reach(&self, from: Cell, man: Man) -> Vec<Cell>;
    /// The static evaluation split by term and player.
    fn eval_breakdown(&self) -> Breakdown;
    /// The static evaluation for the player to move: its terms less its opponents' average
    /// (centipawns; [`Evaluator::evaluate_for`](crate::eval::Evaluator::evaluate_for)).
    fn static_eval(&self) -> i32;
    fn legal_moves(&self) -> Vec<Move>;
    fn perft(&self, depth: u32) -> u64;
    /// Perft split by first move, each count given to `each` as soon as it is known; false if
    /// `stop` was set before the end.
    fn divide_until(&self, depth: u32, stop: &AtomicBool, each: &mut dyn FnMut(Move, u64)) -> bool;
    fn status(&self) -> Status;
    fn to_move(&self) -> Player;
    /// Plies played since the game's first move (from the move number).
    fn game_ply(&self) -> u32;
    fn hash(&self) -> u64;
    /// Evaluates with the game's own parameters and these settings over them from now on (the
    /// position stays).
    fn set_eval_overrides(&mut self, overrides: &EvalOverrides);
    fn eval_params(&self) -> EvalParams;
    /// The material value of each piece type under the current parameters.
    fn piece_values(&self) -> Table<PieceType, i32>;
    /// Searches the current position on the calling thread; `report` receives each completed
    /// iteration.
    fn think(&self, request: &SearchRequest<'_>, report: &mut (dyn FnMut(&Info) + Send)) -> SearchResult;
    fn boxed_clone(&self) -> Box<dyn Session>;
}

impl dyn Session + '_ {
    /// Parses and plays a move written as text.
    pub fn play_text(&mut self, text: &str) -> Result<Move, NotationError> {
        let mv = self.parse_move(text)?;
        self.play(mv)?;
        Ok(mv)
    }

    /// Perft split by first move.
    pub fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        let mut out = Vec::new();
        self.divide_until(depth, &AtomicBool::new(false), &mut |mv, n| out.push((mv, n)));
        out
    }

    /// The legal moves as text.
    pub fn legal_move_texts(&self) -> Vec<String> {
        self.legal_moves().into_iter().map(|m| self.move_text(m)).collect()
    }

    /// A player's display name.
    pub fn player_name(&self, p: Player) -> &'static str {
        &self.def().players[p].name
    }
}

#[derive(Clone)]
struct GameSession<const W: usize> {
    game: &'static Game<W>,
    /// How the engine plays the game.
    profile: Profile,
    pos: Position<W>,
    /// Hashes of every position of the game so far, the current one last.
    history: Vec<u64>,
    eval: Evaluator,
}

/// Opens a game by id at its start position.
pub fn open(id: &str) -> Option<Box<dyn Session>> {
    let (def, profile) = (games::definition(id)?, games::profile(id)?);
    Some(with_width!(def.geometry.len(), W => Box::new(GameSession::<W>::new(registry::compiled(def), profile))))
}

impl<const W: usize> GameSession<W> {
    fn new(game: &'static Game<W>, profile: Profile) -> Self {
        let eval = Evaluator::of_profile(game, &profile.eval, &EvalOverrides::default());
        let mut pos = Position::start(game);
        eval.prepare(&mut pos);
        GameSession { game, profile, history: vec![pos.hash()], pos, eval }
    }

    fn repetitions(&self) -> usize {
        let h = self.pos.hash();
        let window = self.pos.halfmove_clock() as usize + 1;
        self.history.iter().rev().take(window).filter(|&&x| x == h).count()
    }

    fn make_legal(&mut self, mv: Move) {
        self.pos.make(mv);
        self.pos.settle();
        self.history.push(self.pos.hash());
    }
}

impl<const W: usize> Session for GameSession<W> {
    fn def(&self) -> &'static GameDef {
        &self.game.def
    }

    fn profile(&self) -> &Profile {
        &self.profile
    }

    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), NotationError> {
        let mut pos = match fen {
            None => Position::start(self.game),
            Some(f) => notation::parse_position(self.game, f)?,
        };
        self.eval.prepare(&mut pos);
        let mut next = GameSession { game: self.game, profile: self.profile, history: vec![pos.hash()], pos, eval: self.eval.clone() };
        for m in moves {
            let mv = notation::parse_move(&next.pos, m)?;
            next.make_legal(mv);
        }
        *self = next;
        Ok(())
    }

    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        notation::parse_move(&self.pos, text)
    }

    fn play(&mut self, mv: Move) -> Result<(), NotationError> {
        let mut legal = Vec::new();
        self.pos.legal_moves(&mut legal);
        if !legal.contains(&mv) {
            return Err(NotationError(format!("illegal move '{}'", self.move_text(mv))));
        }
        self.make_legal(mv);
        Ok(())
    }

    fn move_text(&self, mv: Move) -> String {
        notation::move_string(self.game, mv)
    }

    fn move_san(&self, mv: Move) -> String {
        notation::san(&self.pos, mv)
    }

    fn writes_san(&self) -> bool {
        notation::writes_san(&self.pos)
    }

    fn move_record(&self, mv: Move) -> String {
        notation::record_text(&self.pos, mv)
    }

    fn position_string(&self) -> String {
        notation::position_string(&self.pos)
    }

    fn board_text(&self) -> String {
        notation::board_text(&self.pos)
    }

    fn men(&self) -> Vec<(Cell, Man)> {
        self.pos.occupied().iter().map(|c| (c, self.pos.man_at(c))).collect()
    }

    fn is_quiet(&self, mv: Move) -> bool {
        !matches!(mv.kind(), MoveKind::Pass | MoveKind::EnPassant | MoveKind::Charge)
            && self.pos.man_at(mv.to()).is_none()
            && mv.promotion().is_none()
    }

    fn reach(&self, from: Cell, man: Man) -> Vec<Cell> {
        crate::movegen::targets::empty_board_reach(self.game, from, man.kind(), man.orientation()).iter().collect()
    }

    fn eval_breakdown(&self) -> Breakdown {
        self.eval.breakdown(&self.pos)
    }

    fn static_eval(&self) -> i32 {
        self.eval.evaluate_for(&self.pos, self.pos.to_move())
    }

    fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.pos.legal_moves(&mut moves);
        moves
    }

    fn perft(&self, depth: u32) -> u64 {
        self.pos.clone().perft(depth)
    }

    fn divide_until(&self, depth: u32, stop: &AtomicBool, each: &mut dyn FnMut(Move, u64)) -> bool {
        self.pos.clone().divide_until(depth, stop, each)
    }

    fn status(&self) -> Status {
        let pos = &self.pos;
        let has_move = !self.legal_moves().is_empty();
        let end = pos.game_end(has_move, self.repetitions() >= REPETITIONS_FOR_DRAW);
        let eliminated = pos.elimination_order().iter().map(|&v| (v, pos.eliminated_by(v).unwrap_or(v))).collect();
        let mut placings = Vec::new();
        if let Some(end) = end {
            // Winner first, then the other survivors (sharing one place in a draw), then the
            // eliminated in reverse order of elimination.
            let mut survivors = pos.active_players();
            if let Some(w) = end.winner {
                placings.push(PlayerSet::only(w));
                survivors.remove(w);
            }
            if end.reason.is_draw() {
                placings.push(survivors);
            } else {
                placings.extend(survivors.iter().map(PlayerSet::only));
            }
            placings.extend(pos.elimination_order().iter().rev().map(|&p| PlayerSet::only(p)));
            placings.retain(|s| !s.is_empty());
        }
        let in_check = pos.active_players().iter().filter(|&p| pos.in_check(p)).collect();
        Status { end, to_move: pos.to_move(), active: pos.active_players(), in_check, eliminated, placings }
    }

    fn to_move(&self) -> Player {
        self.pos.to_move()
    }

    fn game_ply(&self) -> u32 {
        let n = u32::try_from(self.game.nplayers).unwrap_or(2);
        (self.pos.fullmove_number() - 1).saturating_mul(n).saturating_add(u32::try_from(self.pos.to_move().index()).unwrap_or(0))
    }

    fn hash(&self) -> u64 {
        self.pos.hash()
    }

    fn set_eval_overrides(&mut self, overrides: &EvalOverrides) {
        self.eval = Evaluator::of_profile(self.game, &self.profile.eval, overrides);
        self.eval.prepare(&mut self.pos);
    }

    fn eval_params(&self) -> EvalParams {
        self.eval.params()
    }

    fn piece_values(&self) -> Table<PieceType, i32> {
        self.eval.values().clone()
    }

    fn think(&self, request: &SearchRequest<'_>, report: &mut (dyn FnMut(&Info) + Send)) -> SearchResult {
        let resources = Resources {
            tt: request.tt,
            heuristics: request.heuristics,
            control: request.control,
            helpers: request.helpers,
            eval: &self.eval,
            settings: request.settings,
            game_search: self.profile.multi_search,
        };
        let mut last = None;
        let mut keep = |info: Info| {
            report(&info);
            if let Info::Line(r) = info
                && r.multipv == 1
                && r.bound == Bound::Exact
            {
                last = Some(r);
            }
        };
        let outcome = search::think(&self.pos, &self.history, request.limits, &resources, &mut keep);
        SearchResult { best: outcome.best, ponder: outcome.ponder, last }
    }

    fn boxed_clone(&self) -> Box<dyn Session> {
        Box::new(self.clone())
    }
}
