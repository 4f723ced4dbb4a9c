//! One search thread: its copy of the position, the path of hashes for repetitions, its
//! heuristics and the per-ply stack, and the bookkeeping every node does.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::time::Instant;

use super::history::{Learned, NO_CONTEXT};
use super::movepick::MoveList;
use super::placing::{self, Placings};
use super::replies::{ReplyScratch, StaticMoves};
use super::smp::abdada::Busy;
use super::smp::pool::{TURN_NODES, Turns};
use super::time::Deadline;
use super::{Control, Info, MATE, MAX_PLY, MultiSearch, SearchParams, SearchSettings, team_search};
use crate::attacks::Facing;
use crate::bitboard::Bitboard;
use crate::eval::{EVAL_LIMIT, EvalCache, Evaluator};
use crate::position::{Move, MoveKind, Position, Undo};
use crate::tt::TransTable;
use crate::types::{Player, PlayerSet};

/// Slots of a thread's cache of static evaluations (a power of two).
const EVAL_CACHE_SLOTS: usize = 1 << 16;

/// Nodes between two looks at the clock, the node limit and the stop signal.
const NODES_PER_CHECK: u64 = 1024;

/// Whether a thread reports and keeps the time, or only helps fill the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    Main,
    Helper,
}

/// What a ply of the search keeps between its visits, so that no node allocates.
pub(super) struct Ply<const W: usize> {
    /// The node's moves, ordering scores and passes.
    pub list: MoveList,
    /// The undo records of the move being searched (several at best-reply nodes: passes).
    pub undos: Vec<(Move, Undo<W>)>,
    /// Two quiet moves that caused cut-offs at this ply.
    pub killers: [Move; 2],
    /// The principal variation from this ply.
    pub pv: Vec<Move>,
    /// Best-reply search's scratch at this ply.
    pub brs: ReplyScratch<W>,
    /// Moves put off because another thread was searching them, with their passes.
    pub deferred: Vec<(Move, u8)>,
    /// The quiet moves searched so far at this node (they lose history credit at a cut-off).
    pub quiets: Vec<Move>,
    /// The quiet checks a capture-search node adds against a bare royal piece.
    pub checks: Vec<Move>,
    /// The node's static evaluation, with two players, where the mover is not in check.
    pub static_eval: Option<i32>,
    /// The move that led to this node (`Move::NONE` after a null move or at the root).
    pub previous: Move,
    /// That move's continuation-history context ([`NO_CONTEXT`] where there is none).
    pub context: usize,
    /// The move left out of this node's search: the table's move while a singular-extension
    /// search asks whether any other move comes near it (`Move::NONE` otherwise).
    pub excluded: Move,
    /// Whether the mover is in check in the position of this hash, as the parent found it after
    /// its move (or this node's main search before it went to the capture search): the check
    /// test is not repeated. A stale pair never misleads: the hash decides.
    pub check: (u64, bool),
}

impl<const W: usize> Default for Ply<W> {
    fn default() -> Self {
        Ply {
            list: MoveList::default(),
            undos: Vec::new(),
            killers: [Move::NONE; 2],
            pv: Vec::new(),
            brs: ReplyScratch::default(),
            deferred: Vec::new(),
            quiets: Vec::new(),
            checks: Vec::new(),
            static_eval: None,
            previous: Move::NONE,
            context: NO_CONTEXT,
            excluded: Move::NONE,
            check: (0, false),
        }
    }
}

/// The deepest iteration a helper thread has completed, with its value and principal variation:
/// the main thread takes it over instead of finishing that depth itself, so that with two or more
/// threads a depth is done when the first of them is done with it.
#[derive(Default)]
pub(super) struct Completed {
    depth: AtomicI32,
    line: Mutex<(i32, i32, Vec<Move>)>,
}

impl Completed {
    /// The deepest depth completed so far (0: none).
    pub fn depth(&self) -> i32 {
        self.depth.load(Ordering::Acquire)
    }

    /// Records an iteration a helper completed, if it is deeper than any before.
    pub fn offer(&self, depth: i32, value: i32, pv: &[Move]) {
        if pv.is_empty() || depth <= self.depth() {
            return;
        }
        let mut line = self.line.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if depth > line.0 {
            *line = (depth, value, pv.to_vec());
            self.depth.store(depth, Ordering::Release);
        }
    }

    /// The deepest completed iteration: (depth, value, principal variation).
    pub fn take(&self) -> (i32, i32, Vec<Move>) {
        self.line.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }
}

/// What a search keeps about its root position.
#[derive(Default)]
pub(super) struct RootState {
    /// The root moves searched (`go searchmoves`); `None`: all.
    pub moves: Option<Vec<Move>>,
    /// Root moves left out of this search (the lines already found, with several PVs).
    pub excluded: Vec<Move>,
    /// Which principal variation of the iteration is being searched (from 0).
    pub pv_index: usize,
    /// The principal variations of the last completed iteration, by line: the bound lines of a
    /// failed aspiration window show them while no move of the new iteration has a line yet.
    pub previous_pvs: Vec<Vec<Move>>,
    /// The root move being searched, with its number in the search order (from 1).
    pub current: Option<(Move, usize)>,
}

/// What a worker shares with the other threads of one search.
pub(super) struct Shared<'a> {
    pub tt: &'a TransTable,
    /// The caller's stop signal, seen by every thread.
    pub control: &'a Control,
    /// Set once the main thread has chosen its move: the helpers stop.
    pub main_done: &'a AtomicBool,
    /// Set by the first thread to find a hard limit (nodes, time) passed: every thread stops.
    pub ended: &'a AtomicBool,
    /// The helpers' seats when they outnumber the cores.
    pub turns: Option<&'a Turns>,
    pub deadline: &'a Deadline,
    pub total_nodes: &'a AtomicU64,
    pub eval: &'a Evaluator,
    /// The helpers' deepest completed iteration.
    pub completed: &'a Completed,
    /// The positions being searched, with two or more threads.
    pub busy: Option<&'a Busy>,
}

/// Whether three or more players are left at the root: the multi-player searches. Once only two
/// are left (eliminations never bring one back) the turns alternate between them and the
/// two-player search with all its pruning applies, whatever the game's player count: a 3- or
/// 4-player game reduced to a mating race is searched as deep as chess.
pub(super) fn several_left<const W: usize>(root: &Position<W>) -> bool {
    root.active_count() > 2
}

pub(super) struct Worker<'a, const W: usize> {
    pub pos: Position<W>,
    /// The player the search is for.
    pub root: Player,
    /// The players it plays for: the root player, and its partners in a team search.
    pub root_side: PlayerSet,
    /// Three or more players are still in the game (see `several_left`).
    pub multi: bool,
    /// How values below eliminations read on the root's scale (`None`: as they are).
    placings: Option<Placings>,
    /// Hashes of the game so far and of the current search path.
    pub path: Vec<u64>,
    /// Length of `path` at the root.
    root_len: usize,
    pub shared: Shared<'a>,
    node_limit: Option<u64>,
    pub nodes: u64,
    pub seldepth: usize,
    pub aborted: bool,
    /// The main thread gave up its iteration because a helper completed that depth first.
    pub overtaken: bool,
    /// Whether the main thread may take over a helper's iteration (not with several lines).
    pub may_be_overtaken: bool,
    role: Role,
    /// What the thread knows of quiet moves: history, continuation history, counter moves.
    pub learned: Learned,
    /// Static evaluations by position hash (the root player is fixed for a search).
    eval_cache: Vec<(u64, i32)>,
    /// What this search's evaluations keep: pawn structures, mop-up floods, riders' lines (which
    /// its move generation reads too).
    pub(super) term_cache: EvalCache<W>,
    /// BRS+: the static moves of the opponents who do not reply, by position.
    pub static_moves: StaticMoves,
    pub stack: Vec<Ply<W>>,
    /// Salt of this search's table keys (see `threads::think`).
    root_key: u64,
    pub algorithm: MultiSearch,
    pub params: SearchParams,
    /// What the search keeps about its root: the moves it may search and the lines found.
    pub at_root: RootState,
    /// The iteration being searched.
    pub depth: i32,
    /// Where the main thread's lines and progress go.
    pub reporter: Option<&'a mut (dyn FnMut(Info) + Send)>,
    /// When something was last reported.
    pub last_info: Instant,
}

impl<'a, const W: usize> Worker<'a, W> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        root: &Position<W>,
        path: &[u64],
        shared: Shared<'a>,
        node_limit: Option<u64>,
        role: Role,
        root_key: u64,
        settings: SearchSettings,
        learned: Learned,
    ) -> Self {
        let mut worker = Worker {
            pos: root.clone(),
            root: root.to_move(),
            root_side: if team_search(root, &settings) { root.side_of(root.to_move()) } else { PlayerSet::only(root.to_move()) },
            multi: several_left(root),
            placings: None,
            path: path.to_vec(),
            root_len: path.len(),
            shared,
            node_limit,
            nodes: 0,
            seldepth: 0,
            aborted: false,
            overtaken: false,
            may_be_overtaken: false,
            role,
            learned,
            static_moves: StaticMoves::default(),
            eval_cache: vec![(0, 0); EVAL_CACHE_SLOTS],
            term_cache: EvalCache::default(),
            stack: (0..=MAX_PLY).map(|_| Ply::default()).collect(),
            root_key,
            algorithm: settings.algorithm,
            params: settings.params,
            at_root: RootState::default(),
            depth: 0,
            reporter: None,
            last_info: Instant::now(),
        };
        if let Some(placings) = placing::for_root(root, worker.shared.eval.params().placing_stake) {
            let lead = worker.side_eval();
            worker.placings = Some(placings.with_lead(lead));
        }
        worker
    }

    /// At the root, keeps only the moves this search may play.
    pub fn filter_root(&self, ply: usize, moves: &mut Vec<Move>) {
        if ply == 0 {
            if let Some(allowed) = &self.at_root.moves {
                moves.retain(|m| allowed.contains(m));
            }
            moves.retain(|m| !self.at_root.excluded.contains(m));
        }
    }

    /// Whether `player` plays for the root player (with two or more opponents in the paranoid and
    /// best-reply searches, every opponent is one team; in a team search the root's partners
    /// play for it).
    pub fn team_is_root(&self, player: Player) -> bool {
        self.root_side.has(player)
    }

    /// Whether a man of the root's side attacks `player`'s royal piece.
    pub fn checked_by_root_side(&self, player: Player) -> bool {
        self.royal_attacked_by(player, PlayerSet::from_bits(self.pos.opponents(player).bits() & self.root_side.bits()))
    }

    /// Whether a man of `attackers` attacks `player`'s royal piece.
    fn royal_attacked_by(&self, player: Player, attackers: PlayerSet) -> bool {
        self.pos.royal_cell(player).is_some_and(|k| self.pos.attacked(k, self.pos.occupied(), attackers, Bitboard::EMPTY, Facing::Counted))
    }

    /// The static evaluation from the point of view of the team to move: in a team search, the
    /// root's side's ([`Evaluator::evaluate_side`](crate::eval::Evaluator::evaluate_side)).
    #[inline]
    pub fn static_eval(&mut self) -> i32 {
        let (key, slot) = self.eval_slot();
        let v = match self.eval_cache[slot] {
            (k, v) if k == key => v,
            _ => {
                let v = self.side_eval();
                self.eval_cache[slot] = (key, v);
                v
            }
        };
        self.mover_sign() * self.placings.map_or(v, |p| p.eval(self.pos.active_count(), v))
    }

    /// 1 where the mover plays for the root's side, whose point of view the cached evaluations
    /// take, else -1.
    fn mover_sign(&self) -> i32 {
        if self.team_is_root(self.pos.to_move()) { 1 } else { -1 }
    }

    /// The static evaluation with two players corrected by what the searches of positions with
    /// the same pawn structure found it missed ([`Correction`](super::history::Correction)),
    /// and that structure's key (`None`: not corrected). Not while a player is down to its royal
    /// piece: the mop-up's gradient is no judgement to correct, and one correction would shift
    /// every pawnless position alike.
    pub fn corrected_eval(&mut self) -> (i32, Option<u64>) {
        let v = self.static_eval();
        let (correction, key) = self.correction();
        ((v + correction).clamp(-EVAL_LIMIT, EVAL_LIMIT), key)
    }

    /// The correction history's correction for the mover and the pawn structure's key, where it
    /// applies (else 0 and `None`).
    fn correction(&self) -> (i32, Option<u64>) {
        let mover = self.pos.to_move();
        if self.multi || self.params.correction == 0 || self.pos.is_bare(mover) || self.pos.opponents_bare(mover) {
            return (0, None);
        }
        let key = self.pos.pawn_key();
        (self.learned.correction.get(mover, key), Some(key))
    }

    /// The position's key and its slot in the evaluation cache.
    fn eval_slot(&self) -> (u64, usize) {
        let key = self.pos.hash();
        (key, (key as usize) & (EVAL_CACHE_SLOTS - 1))
    }

    /// The player whose evaluation [`Worker::side_eval`] takes alone (`None`: a team's).
    fn viewer(&self) -> Option<Player> {
        (self.root_side.len() == 1).then_some(self.root)
    }

    /// The evaluation from the point of view of the root's side.
    fn side_eval(&mut self) -> i32 {
        match self.viewer() {
            Some(p) => self.shared.eval.evaluate_for_cached(&self.pos, p, &mut self.term_cache),
            None => self.shared.eval.evaluate_side(&self.pos, self.root_side, &mut self.term_cache),
        }
    }

    fn check_limits(&mut self) {
        // The signals that end every thread's search are read at every node: with more threads
        // than cores a thread may run only now and then, and must then stop at once.
        if self.shared.control.is_stopped()
            || self.shared.ended.load(Ordering::Relaxed)
            || (self.role == Role::Helper && self.shared.main_done.load(Ordering::Relaxed))
        {
            self.aborted = true;
            return;
        }
        if !self.nodes.is_multiple_of(NODES_PER_CHECK) {
            return;
        }
        let total = self.shared.total_nodes.fetch_add(NODES_PER_CHECK, Ordering::Relaxed) + NODES_PER_CHECK;
        // The hard limits are every thread's to see, and whichever sees them first ends the search
        // for all: the main thread may be waiting for its turn.
        let deadline = self.shared.deadline;
        let pondering = self.shared.control.is_pondering();
        if self.node_limit.is_some_and(|n| total >= n) || (!pondering && deadline.hard_passed()) {
            self.shared.ended.store(true, Ordering::Relaxed);
            self.aborted = true;
        }
        if self.role == Role::Helper {
            if let Some(turns) = self.shared.turns
                && self.nodes.is_multiple_of(TURN_NODES)
                && !turns.pass()
            {
                self.aborted = true;
            }
            return;
        }
        if self.may_be_overtaken && self.shared.completed.depth() >= self.depth {
            self.aborted = true;
            self.overtaken = true;
        }
        if !pondering && self.depth > 1 && deadline.give_up_iteration() {
            self.aborted = true;
        }
        self.tell_progress();
    }

    /// Nodes searched by all threads so far, this one's uncounted ones included.
    pub fn total_nodes(&self) -> u64 {
        self.shared.total_nodes.load(Ordering::Relaxed) + self.nodes % NODES_PER_CHECK
    }

    /// Bookkeeping on entering a node: its PV is cleared, it is counted, the limits are checked
    /// and the selective depth updated. False when the search has been aborted.
    pub fn enter_node(&mut self, ply: usize) -> bool {
        self.stack[ply].pv.clear();
        self.nodes += 1;
        self.check_limits();
        self.seldepth = self.seldepth.max(ply);
        !self.aborted
    }

    /// The principal variation of `ply` becomes `mv` followed by the child's.
    pub fn update_pv(&mut self, ply: usize, mv: Move) {
        self.update_pv_line(ply, &[mv]);
    }

    /// The principal variation of `ply` becomes `line` (the moves one play made) followed by the
    /// child's.
    pub fn update_pv_line(&mut self, ply: usize, line: &[Move]) {
        let (head, tail) = self.stack.split_at_mut(ply + 1);
        let pv = &mut head[ply].pv;
        pv.clear();
        pv.extend_from_slice(line);
        pv.extend_from_slice(&tail[0].pv);
    }

    /// The position occurred earlier in the game or on the path, since the last irreversible move.
    pub fn repeated(&self) -> bool {
        let h = self.pos.hash();
        let window = self.pos.halfmove_clock() as usize;
        let len = self.path.len();
        // path's last entry is the current position itself.
        self.path[len.saturating_sub(window + 1)..len.saturating_sub(1)].contains(&h)
    }

    /// Plies played from the root (more than `ply` below best-reply nodes, whose passes are
    /// plies of their own): mate scores count these.
    pub fn distance(&self) -> i32 {
        i32::try_from(self.path.len() - self.root_len).unwrap_or(i32::MAX)
    }

    /// A draw by repetition, the fifty-move rule or dead material below the root (dead material
    /// is only looked for with few men left, where it can happen).
    #[inline]
    pub fn drawn(&self, ply: usize) -> bool {
        ply > 0 && (self.pos.fifty_move_rule() || self.repeated() || (self.pos.occupied().count() <= 4 && self.pos.dead_position()))
    }

    /// The value of a position where the game is over for the root player, or drawn; from the
    /// point of view of the team to move.
    pub fn terminal_or_draw(&self, ply: usize) -> Option<i32> {
        // The game is over for the root player when it is decided or when the root player has
        // been eliminated (the others may play on, but the root has lost).
        let root_out = !self.pos.is_active(self.root);
        if self.pos.is_decided() || root_out {
            let root_wins = !root_out && self.pos.winner().is_some_and(|w| self.team_is_root(w));
            // Another player's win leaves the root in the game, placed above every player out.
            if let Some(p) = self.placings.filter(|_| !root_wins && !root_out) {
                return Some(self.mover_sign() * p.bystander(self.pos.active_count()));
            }
            let v = MATE - self.distance();
            return Some(if root_wins == self.team_is_root(self.pos.to_move()) { v } else { -v });
        }
        self.drawn(ply).then(|| self.draw_value())
    }

    /// A draw here, for the team to move.
    fn draw_value(&self) -> i32 {
        self.placings.map_or(0, |p| self.mover_sign() * p.draw(self.pos.active_count()))
    }

    /// The value, for the team to move, of a node without a legal move (mate or stalemate, by
    /// the rules' [`end_without_moves`](Position::end_without_moves)).
    pub fn no_move_value(&self) -> i32 {
        match self.pos.end_without_moves().winner {
            None => self.draw_value(),
            Some(_) => -(MATE - self.distance()),
        }
    }

    pub fn make(&mut self, mv: Move) -> Undo<W> {
        let u = self.pos.make(mv);
        self.shared.tt.prefetch(self.key());
        self.path.push(self.pos.hash());
        u
    }

    pub fn unmake(&mut self, mv: Move, u: Undo<W>) {
        self.path.pop();
        self.pos.unmake(mv, u);
    }

    /// Whether the player to move is in check: from [`Ply::check`] where it holds this position.
    pub fn mover_in_check(&self, ply: usize) -> bool {
        match self.stack[ply].check {
            (hash, checked) if hash == self.pos.hash() => checked,
            _ => self.pos.in_check(self.pos.to_move()),
        }
    }

    /// Records whether the mover of the current position at `ply` is in check.
    pub fn note_check(&mut self, ply: usize, checked: bool) {
        self.stack[ply].check = (self.pos.hash(), checked);
    }

    /// The table key of the current position in this search.
    pub fn key(&self) -> u64 {
        self.pos.hash() ^ self.root_key
    }

    /// Whether `mv` checks the player who moves next.
    pub fn gives_check(&mut self, mv: Move) -> bool {
        let u = self.pos.make(mv);
        let check = self.pos.in_check(self.pos.to_move());
        self.pos.unmake(mv, u);
        check
    }

    /// Whether `mv`, about to be made with two players left, may check the opponent: a plain move
    /// can only where it starts or ends on one of [`Position::check_lines`] (the opponent is not
    /// in check before it). The lines are found once per node, into `lines`.
    pub fn may_give_check(&self, mv: Move, lines: &mut Option<Bitboard<W>>) -> bool {
        if !matches!(mv.kind(), MoveKind::Normal | MoveKind::DoubleStep) || mv.promotion().is_some() {
            return true;
        }
        let lines = *lines.get_or_insert_with(|| {
            let mover = self.pos.to_move();
            let royal = self.pos.opponents(mover).iter().next().and_then(|q| self.pos.royal_cell(q));
            royal.map_or(self.pos.game().all_cells, |k| self.pos.check_lines(k, self.pos.side_of(mover)))
        });
        lines.has(mv.from()) || lines.has(mv.to())
    }

    /// Whether a man of `p` attacks the royal piece of an opponent who has nothing else.
    pub fn checks_bare_royal(&self, p: Player) -> bool {
        self.pos.opponents(p).iter().filter(|&q| self.pos.is_bare(q)).any(|q| self.royal_attacked_by(q, PlayerSet::only(p)))
    }

    /// Whether `p` hunts bare royal pieces: every opponent has its royal piece alone and `p` has a
    /// man that can help to mate.
    pub fn hunts_bare_royals(&self, p: Player) -> bool {
        self.pos.opponents_bare(p) && self.has_pieces(p)
    }

    /// Whether `p` has a man that is neither a pawn nor royal (null move is unsafe without).
    pub fn has_pieces(&self, p: Player) -> bool {
        let game = self.pos.game();
        let pawns_and_royals = self.pos.pieces_of_types(game.piece_types().filter(|&t| game.types[t].pawn || game.types[t].royal));
        (self.pos.pieces_of(p) & !pawns_and_royals).any()
    }
}
