//! Search: iterative deepening over an alpha-beta (PVS) search with quiescence, a shared
//! transposition table and Lazy SMP threads.
//!
//! With two players this is ordinary negamax. With three or four it is the paranoid search: the
//! root player plays against a coalition of all the others. Both are one code path: a node's
//! value is from the point of view of the "team" to move (the root player, or the coalition), and
//! a child's value is negated only when the team changes.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::position::{Move, MoveKind, Position};
use crate::tables::MAX_PLAYERS;
use crate::tt::{Bound, TransTable};

pub const MATE: i32 = 30_000;
const INF: i32 = 31_000;
const MAX_PLY: usize = 128;

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
    root_key: u64,
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
    ) -> Self {
        let n = root.game().ncells;
        Worker {
            pos: root.clone(),
            root: mover,
            multi,
            path: path.to_vec(),
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
            root_key,
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

    fn terminal_or_draw(&self, ply: usize) -> Option<i32> {
        if self.pos.is_decided() {
            let root_wins = self.pos.winner() == Some(self.root);
            let v = MATE - ply as i32;
            return Some(if root_wins == self.team_is_root(self.pos.to_move()) { v } else { -v });
        }
        if ply > 0 && (self.repeated() || self.pos.halfmove_clock() >= 50 * self.pos.active_count()) {
            return Some(0);
        }
        None
    }

    fn make(&mut self, mv: Move) -> crate::position::Undo<W> {
        let u = self.pos.make(mv);
        self.path.push(self.pos.hash());
        u
    }

    fn unmake(&mut self, mv: Move, u: crate::position::Undo<W>) {
        self.path.pop();
        self.pos.unmake(mv, u);
    }

    fn key(&self) -> u64 {
        self.pos.hash() ^ self.root_key
    }

    fn search(&mut self, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.pv[ply].clear();
        self.nodes += 1;
        self.check_limits();
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(v) = self.terminal_or_draw(ply) {
            return v;
        }
        let mover = self.pos.to_move();
        let in_check = self.pos.in_check(mover);
        if depth <= 0 && !in_check || ply >= MAX_PLY - 2 {
            return self.quiesce(ply, alpha, beta, 0);
        }
        let depth = depth.max(1);
        let pv_node = beta - alpha > 1;
        let tt_entry = self.tt.probe(self.key());
        let mut tt_move = Move::NONE;
        if let Some(e) = tt_entry {
            tt_move = e.mv;
            let score = from_tt(e.score, ply);
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

        // Null move: only where the side to move alternates (two players) and is not in check.
        if !self.multi && !pv_node && !in_check && depth >= 3 && ply > 0 && self.static_eval() >= beta && self.has_pieces(mover) {
            let u = self.make(Move::PASS);
            let v = -self.search(depth - 3, ply + 1, -beta, -beta + 1);
            self.unmake(Move::PASS, u);
            if self.aborted {
                return 0;
            }
            if v >= beta && v < MATE - MAX_PLY as i32 {
                return v;
            }
        }

        let mut moves = std::mem::take(&mut self.buffers[ply]);
        self.pos.legal_moves(&mut moves);
        if moves.is_empty() {
            self.buffers[ply] = moves;
            return if in_check { -(MATE - ply as i32) } else { 0 };
        }
        let mut scores: Vec<i32> = moves.iter().map(|&m| self.order_score(m, tt_move, ply)).collect();
        let mut best = -INF;
        let mut best_move = Move::NONE;
        let alpha0 = alpha;
        for i in 0..moves.len() {
            let j = (i..moves.len()).max_by_key(|&j| scores[j]).unwrap_or(i);
            moves.swap(i, j);
            scores.swap(i, j);
            let mv = moves[i];
            let quiet = !self.is_capture(mv) && mv.promotion().is_none();
            let u = self.make(mv);
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
            self.unmake(mv, u);
            if self.aborted {
                self.buffers[ply] = moves;
                return 0;
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
                            let k = &mut self.killers[ply];
                            if k[0] != mv {
                                k[1] = k[0];
                                k[0] = mv;
                            }
                            let n = self.pos.game().ncells;
                            let h = &mut self.history[mv.from() * n + mv.to()];
                            *h = (*h + depth * depth).min(1 << 20);
                        }
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = moves;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(self.key(), best_move, to_tt(best, ply), depth, bound);
        best
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
        self.pv[ply].clear();
        self.nodes += 1;
        self.check_limits();
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(v) = self.terminal_or_draw(ply) {
            return v;
        }
        let mover = self.pos.to_move();
        let in_check = !self.multi && self.pos.in_check(mover);
        let mut best = -INF;
        if !in_check {
            best = self.static_eval();
            if best >= beta || ply >= MAX_PLY - 2 || qdepth > 12 {
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
            return if in_check || self.pos.in_check(mover) { -(MATE - ply as i32) } else { 0 };
        }
        if !in_check {
            moves.retain(|&m| self.is_capture(m) || m.promotion().is_some());
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

fn to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE - MAX_PLY as i32 {
        v + ply as i32
    } else if v <= -MATE + MAX_PLY as i32 {
        v - ply as i32
    } else {
        v
    }
}

fn from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE - MAX_PLY as i32 {
        v - ply as i32
    } else if v <= -MATE + MAX_PLY as i32 {
        v + ply as i32
    } else {
        v
    }
}

/// Searches `root` (reached through the positions hashed in `history`, oldest first) and returns
/// the best move. `report` receives one report per completed iteration of the main thread.
pub fn think<const W: usize>(
    root: &Position<W>,
    history: &[u64],
    limits: &Limits,
    control: &Control,
    tt: &TransTable,
    threads: usize,
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
    let root_key = if multi { 0x51ED_2701_A5A5_0000u64.wrapping_mul(mover as u64 + 1) } else { 0 };

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
            let mut w = Worker::new(root, mover, multi, &path, tt, &helper_control, &deadline, None, &total_nodes, false, root_key);
            let stop = &helpers_stop;
            scope.spawn(move || {
                let mut d = 1 + (t as i32 & 1);
                while d <= max_depth && !stop.load(Ordering::Relaxed) {
                    w.search(d, 0, -INF, INF);
                    if w.aborted {
                        break;
                    }
                    d += 1;
                }
            });
        }

        let mut w = Worker::new(root, mover, multi, &path, tt, control, &deadline, limits.nodes, &total_nodes, true, root_key);
        for depth in 1..=max_depth {
            let v = w.search(depth, 0, -INF, INF);
            if w.aborted && depth > 1 {
                break;
            }
            if let Some(&m) = w.pv[0].first() {
                best = m;
                ponder = w.pv[0].get(1).copied();
            }
            let pv = w.pv[0].clone();
            let mut end = root.clone();
            for &m in &pv {
                end.make(m);
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
