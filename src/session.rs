//! A game and its current position behind one interface that does not depend on the bitboard
//! width, so that the protocol can hold any game. The width is chosen here from the geometry.

use std::sync::Arc;

use crate::eval::{self, EvalParams, EvalTables};
use crate::game::GameDef;
use crate::games;
use crate::notation::{self, NotationError};
use crate::position::{Move, Position};
use crate::registry::{self, width_for};
use crate::search::{self, Control, Limits, MultiSearch, Report, SearchParams, SearchSettings};
use crate::tables::Game;
use crate::tt::TransTable;

/// Why a game is over, or that it is not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    pub over: bool,
    /// `checkmate`, `stalemate`, `repetition`, `fifty-move rule`, `elimination`, `win rule`, or
    /// empty while the game goes on.
    pub reason: String,
    /// Winner's name, if any.
    pub winner: Option<String>,
    /// Players still in the game, in turn order.
    pub active: Vec<String>,
    /// (eliminated player, eliminated by), in order of elimination.
    pub eliminated: Vec<(String, String)>,
    /// Final placings, best first (only when the game is over); players sharing a place are
    /// joined by `=`.
    pub placings: Vec<String>,
}

/// A search ready to run on another thread: returns the `bestmove` line.
pub type SearchJob = Box<dyn FnOnce() -> String + Send>;

/// What a finished search found (moves in protocol notation).
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// `None` when the game is over (no legal move).
    pub best: Option<String>,
    pub ponder: Option<String>,
    /// The last completed iteration's score, from the mover's point of view.
    pub score: Option<search::Score>,
    pub depth: u32,
    pub nodes: u64,
}

pub trait Session: Send {
    fn def(&self) -> &'static GameDef;
    /// Sets the position (`None` = the start) and plays `moves`; on error nothing changes.
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), NotationError>;
    /// Plays one more move from the current position.
    fn play(&mut self, mv: &str) -> Result<(), NotationError>;
    fn position_string(&self) -> String;
    fn board_text(&self) -> String;
    fn legal_moves(&self) -> Vec<String>;
    fn perft(&self, depth: u32) -> u64;
    fn divide(&self, depth: u32) -> Vec<(String, u64)>;
    fn status(&self) -> Status;
    fn to_move_name(&self) -> String;
    fn hash(&self) -> u64;
    /// Evaluates with these parameters from now on (the position stays).
    fn set_eval_params(&mut self, params: &EvalParams);
    fn eval_params(&self) -> EvalParams;
    /// The search used while three or more players are in the game.
    fn set_multiplayer_search(&mut self, algorithm: MultiSearch);
    fn multiplayer_search(&self) -> MultiSearch;
    fn set_search_params(&mut self, params: &SearchParams);
    fn search_params(&self) -> SearchParams;
    /// Searches the current position on the calling thread; `info` receives one `info` line per
    /// completed iteration.
    fn think(
        &self,
        limits: &Limits,
        control: &Control,
        tt: &TransTable,
        threads: usize,
        info: &mut (dyn FnMut(String) + Send),
    ) -> SearchResult;
    /// A search of the current position; `info` receives one line per report.
    fn search_job(
        &self,
        limits: Limits,
        control: Arc<Control>,
        tt: Arc<TransTable>,
        threads: usize,
        info: Box<dyn FnMut(String) + Send>,
    ) -> SearchJob;
    fn boxed_clone(&self) -> Box<dyn Session>;
}

#[derive(Clone)]
struct GameSession<const W: usize> {
    game: &'static Game<W>,
    pos: Position<W>,
    /// Hashes of every position of the game so far, the current one last.
    history: Vec<u64>,
    eval: &'static EvalTables,
    settings: SearchSettings,
}

/// Opens a game by id at its start position.
pub fn open(id: &str) -> Option<Box<dyn Session>> {
    let def = games::definition(id)?;
    Some(match width_for(def.geometry.len()) {
        1 => Box::new(GameSession::<1>::new(registry::compiled(def))),
        4 => Box::new(GameSession::<4>::new(registry::compiled(def))),
        6 => Box::new(GameSession::<6>::new(registry::compiled(def))),
        _ => Box::new(GameSession::<8>::new(registry::compiled(def))),
    })
}

impl<const W: usize> GameSession<W> {
    fn new(game: &'static Game<W>) -> Self {
        let pos = Position::start(game);
        GameSession { game, history: vec![pos.hash()], pos, eval: &game.eval, settings: SearchSettings::default() }
    }

    fn repetitions(&self) -> usize {
        let h = self.pos.hash();
        let window = self.pos.halfmove_clock() as usize + 1;
        self.history.iter().rev().take(window).filter(|&&x| x == h).count()
    }

    fn player_name(&self, p: usize) -> String {
        self.game.def.players[p].name.clone()
    }
}

fn report_line<const W: usize>(game: &Game<W>, r: &Report) -> String {
    let score = match r.score {
        search::Score::Centipawns(cp) => format!("cp {cp}"),
        search::Score::Mate(m) => format!("mate {m}"),
    };
    let nps = (r.nodes * 1000).checked_div(r.time_ms).unwrap_or(r.nodes * 1000);
    let pv: Vec<String> = r.pv.iter().map(|&m| notation::move_string(game, m)).collect();
    let scores = if game.nplayers > 2 {
        let parts: Vec<String> = game.def.players.iter().zip(&r.scores).map(|(p, s)| format!("{}:{}", p.code, s)).collect();
        format!(" scores {}", parts.join(","))
    } else {
        String::new()
    };
    format!(
        "info depth {} seldepth {} score {}{} nodes {} nps {} hashfull {} time {} pv {}",
        r.depth,
        r.seldepth,
        score,
        scores,
        r.nodes,
        nps,
        r.hashfull,
        r.time_ms,
        pv.join(" ")
    )
}

impl<const W: usize> Session for GameSession<W> {
    fn def(&self) -> &'static GameDef {
        &self.game.def
    }

    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), NotationError> {
        let mut pos = match fen {
            None => Position::start(self.game),
            Some(f) => notation::parse_position(self.game, f)?,
        };
        pos.set_eval(self.eval);
        let mut next = GameSession { game: self.game, history: vec![pos.hash()], pos, eval: self.eval, settings: self.settings };
        for m in moves {
            next.play(m)?;
        }
        *self = next;
        Ok(())
    }

    fn play(&mut self, text: &str) -> Result<(), NotationError> {
        let mv: Move = notation::parse_move(&self.pos, text)?;
        self.pos.make(mv);
        self.history.push(self.pos.hash());
        Ok(())
    }

    fn position_string(&self) -> String {
        notation::position_string(&self.pos)
    }

    fn board_text(&self) -> String {
        notation::board_text(&self.pos)
    }

    fn legal_moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.pos.legal_moves(&mut moves);
        moves.into_iter().map(|m| notation::move_string(self.game, m)).collect()
    }

    fn perft(&self, depth: u32) -> u64 {
        self.pos.clone().perft(depth)
    }

    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        self.pos.clone().divide(depth).into_iter().map(|(m, n)| (notation::move_string(self.game, m), n)).collect()
    }

    fn status(&self) -> Status {
        let n = self.game.nplayers;
        let active: Vec<String> = (0..n).filter(|&p| self.pos.is_active(p)).map(|p| self.player_name(p)).collect();
        let eliminated: Vec<(String, String)> = self
            .pos
            .elimination_order()
            .into_iter()
            .map(|v| (self.player_name(v), self.pos.eliminated_by(v).map(|m| self.player_name(m)).unwrap_or_default()))
            .collect();
        let mut status = Status { over: false, reason: String::new(), winner: None, active, eliminated, placings: Vec::new() };
        let mut winner = self.pos.winner();
        let mut draw = false;
        if winner.is_some() {
            status.reason = if self.pos.active_count() == 1 { "elimination" } else { "win rule" }.into();
        } else {
            let mut moves = Vec::new();
            self.pos.legal_moves(&mut moves);
            let p = self.pos.to_move();
            if moves.is_empty() {
                if self.pos.in_check(p) {
                    status.reason = "checkmate".into();
                    winner = Some(self.pos.next_active(p));
                } else {
                    status.reason = "stalemate".into();
                    draw = true;
                }
            } else if self.repetitions() >= 3 {
                status.reason = "repetition".into();
                draw = true;
            } else if self.pos.halfmove_clock() >= 50 * self.pos.active_count() {
                status.reason = "fifty-move rule".into();
                draw = true;
            }
        }
        if winner.is_some() || draw {
            status.over = true;
            status.winner = winner.map(|w| self.player_name(w));
            // Winner first, then the other survivors (sharing one place in a draw), then the
            // eliminated in reverse order of elimination.
            let survivors: Vec<String> =
                (0..n).filter(|&p| self.pos.is_active(p) && Some(p) != winner).map(|p| self.player_name(p)).collect();
            status.placings = winner.map(|w| self.player_name(w)).into_iter().collect();
            if draw {
                status.placings.push(survivors.join("="));
            } else {
                status.placings.extend(survivors);
            }
            status.placings.extend(self.pos.elimination_order().into_iter().rev().map(|p| self.player_name(p)));
        }
        status
    }

    fn to_move_name(&self) -> String {
        self.player_name(self.pos.to_move())
    }

    fn hash(&self) -> u64 {
        self.pos.hash()
    }

    fn set_eval_params(&mut self, params: &EvalParams) {
        self.eval = eval::tables_for(self.game, params);
        self.pos.set_eval(self.eval);
    }

    fn eval_params(&self) -> EvalParams {
        self.eval.params
    }

    fn set_multiplayer_search(&mut self, algorithm: MultiSearch) {
        self.settings.algorithm = algorithm;
    }

    fn multiplayer_search(&self) -> MultiSearch {
        self.settings.algorithm
    }

    fn set_search_params(&mut self, params: &SearchParams) {
        self.settings.params = *params;
    }

    fn search_params(&self) -> SearchParams {
        self.settings.params
    }

    fn think(
        &self,
        limits: &Limits,
        control: &Control,
        tt: &TransTable,
        threads: usize,
        info: &mut (dyn FnMut(String) + Send),
    ) -> SearchResult {
        let game = self.game;
        let mut last: Option<(search::Score, u32, u64)> = None;
        let mut report = |r: Report| {
            last = Some((r.score, r.depth, r.nodes));
            info(report_line(game, &r));
        };
        let outcome = search::think(&self.pos, &self.history, limits, control, tt, threads, &self.settings, &mut report);
        let (score, depth, nodes) = match last {
            Some((s, d, n)) => (Some(s), d, n),
            None => (None, 0, 0),
        };
        SearchResult {
            best: outcome.best.map(|m| notation::move_string(game, m)),
            ponder: outcome.ponder.map(|m| notation::move_string(game, m)),
            score,
            depth,
            nodes,
        }
    }

    fn search_job(
        &self,
        limits: Limits,
        control: Arc<Control>,
        tt: Arc<TransTable>,
        threads: usize,
        mut info: Box<dyn FnMut(String) + Send>,
    ) -> SearchJob {
        let session = self.clone();
        Box::new(move || {
            let result = session.think(&limits, &control, &tt, threads, &mut *info);
            match result.best {
                None => "bestmove (none)".to_string(),
                Some(b) => match result.ponder {
                    Some(p) => format!("bestmove {b} ponder {p}"),
                    None => format!("bestmove {b}"),
                },
            }
        })
    }

    fn boxed_clone(&self) -> Box<dyn Session> {
        Box::new(self.clone())
    }
}
