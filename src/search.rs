//! Search: iterative deepening over an alpha-beta (PVS) search with quiescence, a shared
//! transposition table and Lazy SMP threads.
//!
//! With two players this is ordinary negamax. With three or four it is, as chosen by
//! [`MultiSearch`], the paranoid search (the root player against a coalition of all the others),
//! best-reply search (the same, but at the coalition's turn only the strongest single reply of
//! any opponent is played, the others passing), or max-n (module `maxn`). Negamax, paranoid and
//! best-reply are one code path: a node's value is from the point of view of the "team" to move
//! (the root player, or the coalition), and a child's value is negated only when the team
//! changes.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::bitboard::Bitboard;
use crate::position::{Move, MoveKind, Position, Undo};
use crate::tables::MAX_PLAYERS;
use crate::tt::{Bound, TransTable};

pub const MATE: i32 = 30_000;
const INF: i32 = 31_000;
const MAX_PLY: usize = 128;

mod maxn;

/// The search used while three or more players are in the game (with two it is always
/// alpha-beta).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MultiSearch {
    /// The root player against a coalition of all the others.
    #[default]
    Paranoid,
    /// Every player maximises its own share (max-n with shallow pruning).
    MaxN,
    /// Best-reply search: the root player's moves alternate with the single strongest reply of
    /// any opponent; the other opponents pass.
    BestReply,
}

impl MultiSearch {
    /// Names as the protocol's `MultiplayerSearch` option takes them.
    pub const NAMES: [&'static str; 3] = ["paranoid", "maxn", "brs"];

    pub fn name(self) -> &'static str {
        match self {
            MultiSearch::Paranoid => "paranoid",
            MultiSearch::MaxN => "maxn",
            MultiSearch::BestReply => "brs",
        }
    }

    /// Parses a name (case-insensitive).
    pub fn parse(name: &str) -> Option<Self> {
        match name.to_ascii_lowercase().as_str() {
            "paranoid" => Some(MultiSearch::Paranoid),
            "maxn" => Some(MultiSearch::MaxN),
            "brs" => Some(MultiSearch::BestReply),
            _ => None,
        }
    }
}

crate::params::tunable! {
    /// Search parameters. The pruning terms and the aspiration window apply in two-player games
    /// only; 0 turns a term off.
    SearchParams, "search parameter",
    /// Null-move reduction R (plies; 0: no null move).
    null_move_r: 0..=4,
    /// Aspiration window around the previous iteration's score, in centipawns (0: full window).
    aspiration: 0..=1000,
    /// Reverse futility pruning at depth 1 to 3: a node whose static evaluation beats beta by
    /// this much per ply of depth returns at once.
    rfp_margin: 0..=1000,
    /// Futility pruning at depth 1 and 2: quiet moves that give no check are skipped where the
    /// static evaluation plus this much per ply of depth does not reach alpha.
    futility_margin: 0..=1000,
    /// Delta pruning in quiescence: captures that cannot bring the score within this margin of
    /// alpha, even winning the captured man for free, are skipped.
    delta_margin: 0..=2000,
    /// Longest capture sequence of the paranoid and best-reply quiescence with three or more
    /// players (plies), where every opponent's captures are searched.
    multi_quiesce_plies: 1..=12,
}

/// The defaults: the search's one table.
pub const SEARCH_PARAMS: SearchParams =
    SearchParams { null_move_r: 2, aspiration: 30, rfp_margin: 100, futility_margin: 150, delta_margin: 200, multi_quiesce_plies: 12 };

impl Default for SearchParams {
    fn default() -> Self {
        SEARCH_PARAMS
    }
}

/// How to search: the N-player algorithm and the parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchSettings {
    pub algorithm: MultiSearch,
    pub params: SearchParams,
}

/// What `go` asked for.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Milliseconds for this move.
    pub movetime: Option<u64>,
    /// Remaining clock time per player (milliseconds).
    pub time: [Option<u64>; MAX_PLAYERS],
    /// Increment per player (milliseconds).
    pub inc: [u64; MAX_PLAYERS],
    pub movestogo: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
}

/// Shared between the protocol thread and the search threads.
#[derive(Default)]
pub struct Control {
    pub stop: AtomicBool,
    /// While set, the search does not stop on its own (UCI `go ponder` / `go infinite`).
    pub pondering: AtomicBool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Centipawns(i32),
    /// Mate in this many moves of the mover (negative: the mover is mated).
    Mate(i32),
}

impl Score {
    fn from_value(v: i32) -> Score {
        if v >= MATE - MAX_PLY as i32 {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE + MAX_PLY as i32 {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Centipawns(v)
        }
    }
}

/// One `info` line's worth of progress.
#[derive(Clone, Debug)]
pub struct Report {
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    /// From the mover's point of view.
    pub score: Score,
    /// Static evaluation of the PV's end for every player (each from its own point of view).
    pub scores: Vec<i32>,
    pub pv: Vec<Move>,
}

pub struct Outcome {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
}

struct Deadline {
    start: Instant,
    /// Stop starting new iterations after this.
    soft: Option<Duration>,
    /// Abort the search after this.
    hard: Option<Duration>,
}

impl Deadline {
    fn new(limits: &Limits, mover: usize) -> Self {
        let start = Instant::now();
        if limits.infinite {
            return Deadline { start, soft: None, hard: None };
        }
        if let Some(ms) = limits.movetime {
            let d = Duration::from_millis(ms);
            return Deadline { start, soft: Some(d), hard: Some(d) };
        }
        match limits.time[mover] {
            None => Deadline { start, soft: None, hard: None },
            Some(left) => {
                let inc = limits.inc[mover];
                let moves = limits.movestogo.unwrap_or(30).clamp(1, 60) as u64;
                let reserve = 30u64.min(left / 2);
                let usable = left.saturating_sub(reserve);
                let soft = (usable / moves + inc * 3 / 4).min(usable);
                let hard = (soft * 4).min(usable / 2 + inc / 2).max(soft.min(usable));
                Deadline { start, soft: Some(Duration::from_millis(soft)), hard: Some(Duration::from_millis(hard)) }
            }
        }
    }
}

struct Worker<'a, const W: usize> {
    pos: Position<W>,
    root: usize,
    multi: bool,
    /// Hashes of the game so far and of the current search path.
    path: Vec<u64>,
    /// Length of `path` at the root.
    root_len: usize,
    tt: &'a TransTable,
    control: &'a Control,
    deadline: &'a Deadline,
    node_limit: Option<u64>,
    total_nodes: &'a AtomicU64,
    nodes: u64,
    seldepth: usize,
    aborted: bool,
    main: bool,
    killers: Vec<[Move; 2]>,
    history: Vec<i32>,
    pv: Vec<Vec<Move>>,
    buffers: Vec<Vec<Move>>,
    /// Per ply, beside `buffers`: passes before each move (best-reply nodes), ordering scores,
    /// and the undo records of the move being searched.
    pass_buffers: Vec<Vec<u8>>,
    score_buffers: Vec<Vec<i32>>,
    undo_buffers: Vec<Vec<(Move, Undo<W>)>>,
    root_key: u64,
    algorithm: MultiSearch,
    params: SearchParams,
}

impl<'a, const W: usize> Worker<'a, W> {
    #[allow(clippy::too_many_arguments)]
    fn new(
        root: &Position<W>,
        mover: usize,
        multi: bool,
        path: &[u64],
        tt: &'a TransTable,
        control: &'a Control,
        deadline: &'a Deadline,
        node_limit: Option<u64>,
        total_nodes: &'a AtomicU64,
        main: bool,
        root_key: u64,
        settings: SearchSettings,
    ) -> Self {
        let n = root.game().ncells;
        Worker {
            pos: root.clone(),
            root: mover,
            multi,
            path: path.to_vec(),
            root_len: path.len(),
            tt,
            control,
            deadline,
            node_limit,
            total_nodes,
            nodes: 0,
            seldepth: 0,
            aborted: false,
            main,
            killers: vec![[Move::NONE; 2]; MAX_PLY],
            history: vec![0; n * n],
            pv: vec![Vec::new(); MAX_PLY + 1],
            buffers: vec![Vec::new(); MAX_PLY + 1],
            pass_buffers: vec![Vec::new(); MAX_PLY + 1],
            score_buffers: vec![Vec::new(); MAX_PLY + 1],
            undo_buffers: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            root_key,
            algorithm: settings.algorithm,
            params: settings.params,
        }
    }

    fn team_is_root(&self, player: usize) -> bool {
        player == self.root
    }

    fn static_eval(&self) -> i32 {
        let v = self.pos.evaluate_for(self.root);
        if self.team_is_root(self.pos.to_move()) { v } else { -v }
    }

    fn check_limits(&mut self) {
        if self.nodes & 1023 != 0 {
            return;
        }
        let total = self.total_nodes.fetch_add(1024, Ordering::Relaxed) + 1024;
        if self.control.stop.load(Ordering::Relaxed) {
            self.aborted = true;
            return;
        }
        if !self.main {
            return;
        }
        if let Some(n) = self.node_limit
            && total >= n
        {
            self.aborted = true;
        }
        if !self.control.pondering.load(Ordering::Relaxed)
            && let Some(h) = self.deadline.hard
            && self.deadline.start.elapsed() >= h
        {
            self.aborted = true;
        }
    }

    fn is_capture(&self, mv: Move) -> bool {
        mv.kind() == MoveKind::EnPassant || (mv.kind() != MoveKind::Pass && self.pos.man_at(mv.to()).is_some())
    }

    /// A capture by a more valuable man on a cell that another player then attacks: likely to
    /// lose material, so quiescence can skip it.
    fn losing_capture(&self, mv: Move) -> bool {
        if mv.kind() != MoveKind::Normal {
            return false;
        }
        let values = &self.pos.eval_tables().values;
        let attacker = values[self.pos.man_at(mv.from()).kind()];
        let victim = self.pos.man_at(mv.to());
        if victim.is_none() || attacker <= values[victim.kind()] {
            return false;
        }
        let mut occ = self.pos.occupied();
        occ.clear(mv.from());
        let others = self.pos.active_mask() & !(1 << self.pos.to_move());
        self.pos.attacked(mv.to(), occ, others, Bitboard::EMPTY, false)
    }

    fn order_score(&self, mv: Move, tt_move: Move, ply: usize) -> i32 {
        if mv == tt_move {
            return 1 << 30;
        }
        let values = &self.pos.eval_tables().values;
        let mut s = 0;
        if self.is_capture(mv) {
            let victim = if mv.kind() == MoveKind::EnPassant { self.pos.man_at(mv.aux()) } else { self.pos.man_at(mv.to()) };
            let attacker = self.pos.man_at(mv.from());
            s += (1 << 24) + values[victim.kind()] * 16 - values[attacker.kind()] / 16;
        }
        if let Some(t) = mv.promotion() {
            s += (1 << 23) + values[t];
        }
        if s == 0 {
            if self.killers[ply].contains(&mv) {
                return 1 << 22;
            }
            if mv.kind() != MoveKind::Pass {
                s = self.history[mv.from() * self.pos.game().ncells + mv.to()];
            }
        }
        s
    }

    fn repeated(&self) -> bool {
        let h = self.pos.hash();
        let window = self.pos.halfmove_clock() as usize;
        let len = self.path.len();
        // path's last entry is the current position itself.
        self.path[len.saturating_sub(window + 1)..len.saturating_sub(1)].contains(&h)
    }

    /// Plies played from the root (more than `ply` below best-reply nodes, whose passes are
    /// plies of their own): mate scores count these.
    fn distance(&self) -> i32 {
        (self.path.len() - self.root_len) as i32
    }

    fn terminal_or_draw(&self, ply: usize) -> Option<i32> {
        // The game is over for the root player when it is decided or when the root player has
        // been eliminated (the others may play on, but the root has lost).
        let root_out = !self.pos.is_active(self.root);
        if self.pos.is_decided() || root_out {
            let root_wins = !root_out && self.pos.winner() == Some(self.root);
            let v = MATE - self.distance();
            return Some(if root_wins == self.team_is_root(self.pos.to_move()) { v } else { -v });
        }
        if ply > 0 && (self.repeated() || self.pos.halfmove_clock() >= 50 * self.pos.active_count()) {
            return Some(0);
        }
        None
    }

    fn make(&mut self, mv: Move) -> Undo<W> {
        let u = self.pos.make(mv);
        self.path.push(self.pos.hash());
        u
    }

    fn unmake(&mut self, mv: Move, u: Undo<W>) {
        self.path.pop();
        self.pos.unmake(mv, u);
    }

    /// Whether this node pools the replies of all the root player's opponents (best-reply
    /// search, while three or more players are in the game).
    fn brs_node(&self, mover: usize) -> bool {
        self.algorithm == MultiSearch::BestReply && mover != self.root && self.pos.active_count() > 2
    }

    /// Best-reply search: the moves of every opponent who moves before the root player's next
    /// turn, each with the number of opponents who pass before it (the others pass after it).
    /// Forced passes are left out; if no opponent has a move, everyone passes.
    fn best_replies(&mut self, moves: &mut Vec<Move>, passes: &mut Vec<u8>, scores: &mut Vec<i32>, tt_move: Move, ply: usize) {
        moves.clear();
        let mut own = Vec::new();
        let mut undos = Vec::new();
        while self.pos.to_move() != self.root && self.pos.is_active(self.root) && !self.pos.is_decided() {
            self.pos.legal_moves(&mut own);
            for &m in own.iter().filter(|m| !m.is_pass()) {
                moves.push(m);
                passes.push(undos.len() as u8);
                scores.push(self.order_score(m, tt_move, ply));
            }
            undos.push(self.pos.make(Move::PASS));
        }
        while let Some(u) = undos.pop() {
            self.pos.unmake(Move::PASS, u);
        }
        if moves.is_empty() {
            moves.push(Move::PASS);
            passes.push(0);
            scores.push(0);
        }
    }

    /// Plays `mv` after `passes` passes, then (at a best-reply node) passes for the remaining
    /// opponents until the root player is to move again.
    fn make_play(&mut self, passes: u8, mv: Move, undos: &mut Vec<(Move, Undo<W>)>) {
        let brs = self.brs_node(self.pos.to_move());
        for _ in 0..passes {
            let u = self.make(Move::PASS);
            undos.push((Move::PASS, u));
        }
        let u = self.make(mv);
        undos.push((mv, u));
        if brs {
            while self.pos.to_move() != self.root && self.pos.is_active(self.root) && !self.pos.is_decided() {
                let u = self.make(Move::PASS);
                undos.push((Move::PASS, u));
            }
        }
    }

    fn unmake_play(&mut self, undos: &mut Vec<(Move, Undo<W>)>) {
        while let Some((m, u)) = undos.pop() {
            self.unmake(m, u);
        }
    }

    fn key(&self) -> u64 {
        self.pos.hash() ^ self.root_key
    }

    /// Bookkeeping on entering a node: its PV is cleared, it is counted, the limits are checked
    /// and the selective depth updated. False when the search has been aborted.
    pub(super) fn enter_node(&mut self, ply: usize) -> bool {
        self.pv[ply].clear();
        self.nodes += 1;
        self.check_limits();
        self.seldepth = self.seldepth.max(ply);
        !self.aborted
    }

    fn search(&mut self, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        if !self.enter_node(ply) {
            return 0;
        }
        if let Some(v) = self.terminal_or_draw(ply) {
            return v;
        }
        let mover = self.pos.to_move();
        let in_check = self.pos.in_check(mover);
        if depth <= 0 && !in_check || ply >= MAX_PLY - 2 {
            return self.quiesce(ply, alpha, beta, 0);
        }
        let duel = !self.multi;
        let depth = depth.max(1);
        let pv_node = beta - alpha > 1;
        let tt_entry = self.tt.probe(self.key());
        let mut tt_move = Move::NONE;
        if let Some(e) = tt_entry {
            tt_move = e.mv;
            let score = from_tt(e.score, self.distance());
            if !pv_node && ply > 0 && e.depth >= depth {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    return score;
                }
            }
        }

        let prune = duel && !pv_node && !in_check && ply > 0;
        let static_eval = if prune { self.static_eval() } else { 0 };
        let no_mate = |v: i32| v.abs() < MATE - MAX_PLY as i32;

        // Reverse futility: far enough above beta near the leaves.
        let rfp = self.params.rfp_margin;
        if prune && rfp > 0 && depth <= 3 && no_mate(beta) && static_eval - rfp * depth >= beta {
            return static_eval;
        }

        // Null move: only where the side to move alternates (two players) and is not in check.
        let r = self.params.null_move_r;
        if prune && r > 0 && depth > r && static_eval >= beta && self.has_pieces(mover) {
            let u = self.make(Move::PASS);
            let v = -self.search(depth - 1 - r, ply + 1, -beta, -beta + 1);
            self.unmake(Move::PASS, u);
            if self.aborted {
                return 0;
            }
            if v >= beta && v < MATE - MAX_PLY as i32 {
                return v;
            }
        }

        let mut moves = std::mem::take(&mut self.buffers[ply]);
        let mut passes = std::mem::take(&mut self.pass_buffers[ply]);
        let mut scores = std::mem::take(&mut self.score_buffers[ply]);
        passes.clear();
        scores.clear();
        if self.brs_node(mover) {
            self.best_replies(&mut moves, &mut passes, &mut scores, tt_move, ply);
        } else {
            self.pos.legal_moves(&mut moves);
            if moves.is_empty() {
                self.buffers[ply] = moves;
                self.pass_buffers[ply] = passes;
                self.score_buffers[ply] = scores;
                return if in_check { -(MATE - self.distance()) } else { 0 };
            }
            for &m in moves.iter() {
                scores.push(self.order_score(m, tt_move, ply));
            }
            passes.resize(moves.len(), 0);
        }
        let fm = self.params.futility_margin;
        let futile = prune && fm > 0 && depth <= 2 && no_mate(alpha) && static_eval + fm * depth <= alpha;
        let mut best = -INF;
        let mut best_move = Move::NONE;
        let alpha0 = alpha;
        let mut undos = std::mem::take(&mut self.undo_buffers[ply]);
        for i in 0..moves.len() {
            let j = (i..moves.len()).max_by_key(|&j| scores[j]).unwrap_or(i);
            moves.swap(i, j);
            scores.swap(i, j);
            passes.swap(i, j);
            let mv = moves[i];
            let quiet = !self.is_capture(mv) && mv.promotion().is_none();
            self.make_play(passes[i], mv, &mut undos);
            if futile && i > 0 && quiet && !self.pos.in_check(self.pos.to_move()) {
                self.unmake_play(&mut undos);
                continue;
            }
            let same_team = self.team_is_root(self.pos.to_move()) == self.team_is_root(mover);
            let child = |w: &mut Self, d: i32, a: i32, b: i32| -> i32 {
                if same_team { w.search(d, ply + 1, a, b) } else { -w.search(d, ply + 1, -b, -a) }
            };
            let mut v;
            if i == 0 {
                v = child(self, depth - 1, alpha, beta);
            } else {
                let reduction = if quiet && depth >= 3 && i >= 3 && !in_check { 1 + (i >= 8) as i32 } else { 0 };
                v = if same_team {
                    child(self, depth - 1 - reduction, alpha, beta)
                } else {
                    child(self, depth - 1 - reduction, alpha, alpha + 1)
                };
                if !same_team && v > alpha && (reduction > 0 || v < beta) {
                    v = child(self, depth - 1, alpha, beta);
                }
            }
            self.unmake_play(&mut undos);
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_move = mv;
                if v > alpha {
                    alpha = v;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if v >= beta {
                        if quiet && mv.kind() != MoveKind::Pass {
                            self.remember_cutoff(mv, ply, depth);
                        }
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = moves;
        self.pass_buffers[ply] = passes;
        self.score_buffers[ply] = scores;
        self.undo_buffers[ply] = undos;
        if self.aborted {
            return 0;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(self.key(), best_move, to_tt(best, self.distance()), depth, bound);
        best
    }

    /// A quiet move caused a cutoff: a killer at this ply, and history credit.
    fn remember_cutoff(&mut self, mv: Move, ply: usize, depth: i32) {
        let k = &mut self.killers[ply];
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
        let n = self.pos.game().ncells;
        let h = &mut self.history[mv.from() * n + mv.to()];
        *h = (*h + depth * depth).min(1 << 20);
    }

    /// One iteration from the root; the value is from the root player's point of view (for
    /// max-n: the evaluation at the end of the principal variation, see [`pv_end_value`]).
    fn iterate(&mut self, root: &Position<W>, depth: i32, previous: Option<i32>) -> i32 {
        if self.algorithm == MultiSearch::MaxN {
            self.maxn(depth, 0, self.root, 0);
            return pv_end_value(root, &self.pv[0], self.root);
        }
        let mut delta = self.params.aspiration;
        let Some(centre) = previous.filter(|&p| delta > 0 && depth >= 4 && !self.multi && p.abs() < MATE - MAX_PLY as i32) else {
            return self.search(depth, 0, -INF, INF);
        };
        // Aspiration: a window around the last score, widened on the failing side until the
        // score falls inside.
        let (mut lo, mut hi) = (centre - delta, centre + delta);
        loop {
            let v = self.search(depth, 0, lo, hi);
            if self.aborted || (lo < v && v < hi) {
                return v;
            }
            delta *= 2;
            if v <= lo {
                lo = if delta > 2_000 { -INF } else { (centre - delta).max(-INF) };
            } else {
                hi = if delta > 2_000 { INF } else { (centre + delta).min(INF) };
            }
        }
    }

    fn has_pieces(&self, p: usize) -> bool {
        let game = self.pos.game();
        let mut mine = self.pos.pieces_of(p);
        for (t, info) in game.types.iter().enumerate() {
            if info.pawn || info.royal {
                mine &= !self.pos.pieces_of_type(t);
            }
        }
        mine.any()
    }

    fn quiesce(&mut self, ply: usize, mut alpha: i32, beta: i32, qdepth: u32) -> i32 {
        if !self.enter_node(ply) {
            return 0;
        }
        if let Some(v) = self.terminal_or_draw(ply) {
            return v;
        }
        // The per-ply tables end here, in check or not.
        if ply >= MAX_PLY - 2 {
            return self.static_eval();
        }
        let mover = self.pos.to_move();
        let in_check = !self.multi && self.pos.in_check(mover);
        let mut best = -INF;
        if !in_check {
            best = self.static_eval();
            let max_plies = if self.multi { self.params.multi_quiesce_plies as u32 } else { 12 };
            if best >= beta || ply >= MAX_PLY - 2 || qdepth > max_plies {
                return best;
            }
            alpha = alpha.max(best);
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        self.pos.legal_moves(&mut moves);
        if moves.is_empty() {
            // Mate or stalemate; `in_check` is not computed above for N-player games, whose
            // two-player phase ends this way too.
            self.buffers[ply] = moves;
            return if in_check || self.pos.in_check(mover) { -(MATE - self.distance()) } else { 0 };
        }
        if !in_check {
            let delta = if self.multi { 0 } else { self.params.delta_margin };
            let values = &self.pos.eval_tables().values;
            let hopeless = |m: Move| {
                let victim = if m.kind() == MoveKind::EnPassant { self.pos.man_at(m.aux()) } else { self.pos.man_at(m.to()) };
                delta > 0 && m.promotion().is_none() && victim.is_some() && best + values[victim.kind()] + delta <= alpha
            };
            moves.retain(|&m| (self.is_capture(m) || m.promotion().is_some()) && !hopeless(m));
        }
        let mut scores: Vec<i32> = moves.iter().map(|&m| self.order_score(m, Move::NONE, ply)).collect();
        for i in 0..moves.len() {
            let j = (i..moves.len()).max_by_key(|&j| scores[j]).unwrap_or(i);
            moves.swap(i, j);
            scores.swap(i, j);
            let mv = moves[i];
            let u = self.make(mv);
            let same_team = self.team_is_root(self.pos.to_move()) == self.team_is_root(mover);
            let v =
                if same_team { self.quiesce(ply + 1, alpha, beta, qdepth + 1) } else { -self.quiesce(ply + 1, -beta, -alpha, qdepth + 1) };
            self.unmake(mv, u);
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = moves;
        best
    }
}

fn to_tt(v: i32, distance: i32) -> i32 {
    if v >= MATE - MAX_PLY as i32 {
        v + distance
    } else if v <= -MATE + MAX_PLY as i32 {
        v - distance
    } else {
        v
    }
}

fn from_tt(v: i32, distance: i32) -> i32 {
    if v >= MATE - MAX_PLY as i32 {
        v - distance
    } else if v <= -MATE + MAX_PLY as i32 {
        v + distance
    } else {
        v
    }
}

/// The legal beginning of `pv` from `root`. A best-reply line leaves out the passes of the
/// opponents who did not reply: forced passes are put back, and the line ends at the first move
/// that is not legal in turn.
fn legal_prefix<const W: usize>(root: &Position<W>, pv: &[Move]) -> (Vec<Move>, Position<W>) {
    let mut end = root.clone();
    let mut legal = Vec::new();
    let mut out = Vec::new();
    'line: for &m in pv {
        loop {
            end.legal_moves(&mut legal);
            if legal.contains(&m) {
                break;
            }
            if legal.as_slice() != [Move::PASS] || out.len() >= MAX_PLY {
                break 'line;
            }
            end.make(Move::PASS);
            out.push(Move::PASS);
        }
        end.make(m);
        out.push(m);
    }
    (out, end)
}

/// The value for `player` of the position at the end of `pv`: a mate score if the game is over
/// there (or `player` is out of it), else the static evaluation.
fn pv_end_value<const W: usize>(root: &Position<W>, pv: &[Move], player: usize) -> i32 {
    let (line, end) = legal_prefix(root, pv);
    let distance = MATE - line.len() as i32;
    if let Some(w) = end.winner() {
        return if w == player { distance } else { -distance };
    }
    if !end.is_active(player) {
        return -distance;
    }
    let mut legal = Vec::new();
    end.legal_moves(&mut legal);
    if legal.is_empty() {
        // Only with two players left: mate or stalemate.
        return if !end.in_check(end.to_move()) {
            0
        } else if end.to_move() == player {
            -distance
        } else {
            distance
        };
    }
    end.evaluate_for(player)
}

/// Searches `root` (reached through the positions hashed in `history`, oldest first) and returns
/// the best move. `report` receives one report per completed iteration of the main thread.
/// `settings.algorithm` applies while three or more players are in the game.
#[allow(clippy::too_many_arguments)]
pub fn think<const W: usize>(
    root: &Position<W>,
    history: &[u64],
    limits: &Limits,
    control: &Control,
    tt: &TransTable,
    threads: usize,
    settings: &SearchSettings,
    report: &mut (dyn FnMut(Report) + Send),
) -> Outcome {
    let mut legal = Vec::new();
    root.legal_moves(&mut legal);
    if legal.is_empty() {
        return Outcome { best: None, ponder: None };
    }
    let mover = root.to_move();
    let deadline = Deadline::new(limits, mover);
    tt.new_search();
    let total_nodes = AtomicU64::new(0);
    let helpers_stop = AtomicBool::new(false);
    let multi = root.game().nplayers > 2;
    let algorithm = if root.active_count() > 2 { settings.algorithm } else { MultiSearch::Paranoid };
    let settings = SearchSettings { algorithm, params: settings.params };
    // Entries mean different things per root player and per search: keep them apart.
    let root_key = if multi {
        0x51ED_2701_A5A5_0000u64.wrapping_mul(mover as u64 + 1) ^ 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(algorithm as u64)
    } else {
        0
    };

    let mut path: Vec<u64> = history.to_vec();
    if path.last() != Some(&root.hash()) {
        path.push(root.hash());
    }
    let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 8).clamp(1, MAX_PLY as u32 - 8) as i32;
    let helper_control = Control::default();
    let mut best = legal[0];
    let mut ponder = None;

    std::thread::scope(|scope| {
        for t in 1..threads.max(1) {
            let mut w =
                Worker::new(root, mover, multi, &path, tt, &helper_control, &deadline, None, &total_nodes, false, root_key, settings);
            let stop = &helpers_stop;
            scope.spawn(move || {
                let mut d = 1 + (t as i32 & 1);
                let mut previous = None;
                while d <= max_depth && !stop.load(Ordering::Relaxed) {
                    previous = Some(w.iterate(root, d, previous));
                    if w.aborted {
                        break;
                    }
                    d += 1;
                }
            });
        }

        let mut w = Worker::new(root, mover, multi, &path, tt, control, &deadline, limits.nodes, &total_nodes, true, root_key, settings);
        let mut previous = None;
        for depth in 1..=max_depth {
            let v = w.iterate(root, depth, previous);
            previous = Some(v);
            if w.aborted && depth > 1 {
                break;
            }
            let (pv, end) = legal_prefix(root, &w.pv[0]);
            if let Some(&m) = pv.first() {
                best = m;
                ponder = pv.get(1).copied();
            }
            let scores = (0..root.game().nplayers).map(|p| if end.is_active(p) { end.evaluate_for(p) } else { -MATE }).collect();
            let elapsed = deadline.start.elapsed();
            report(Report {
                depth: depth as u32,
                seldepth: w.seldepth as u32,
                nodes: total_nodes.load(Ordering::Relaxed) + (w.nodes & 1023),
                time_ms: elapsed.as_millis() as u64,
                hashfull: tt.hashfull(),
                score: Score::from_value(v),
                scores,
                pv,
            });
            if w.aborted {
                break;
            }
            let pondering = control.pondering.load(Ordering::Relaxed);
            if !pondering
                && let Some(s) = deadline.soft
                && elapsed >= s * 6 / 10
            {
                break;
            }
            if !pondering && legal.len() == 1 && deadline.soft.is_some() {
                break;
            }
            if v.abs() >= MATE - depth && limits.depth.is_none() && !limits.infinite && !pondering && deadline.soft.is_some() {
                break;
            }
        }
        helpers_stop.store(true, Ordering::Relaxed);
        helper_control.stop.store(true, Ordering::Relaxed);
    });
    // `go infinite` and `go ponder` must not answer before `stop` / `ponderhit`.
    while (limits.infinite || control.pondering.load(Ordering::Relaxed)) && !control.stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(2));
        if !limits.infinite && !control.pondering.load(Ordering::Relaxed) {
            break;
        }
    }
    Outcome { best: Some(best), ponder }
}
