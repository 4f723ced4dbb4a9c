//! Principal variation search (negamax for two players; paranoid and best-reply for more, the
//! value being the team to move's): transposition table cut-offs, reverse futility, null move and
//! futility pruning (on the static evaluation as the table's score refines it, and with two
//! players the correction history's learned error), late move reductions and (two players) late
//! move pruning, singular extensions (double far below the margin, negative where the table's
//! move is not singular but beat beta), check extensions and the extension of a bare royal
//! piece's few replies, moves put off while another thread searches them ([`abdada`]), and the aspiration
//! windows of the iterations.

use super::history::NO_CONTEXT;
use super::movepick::MovePicker;
use super::see::see_ge;
use super::smp::abdada;
use super::worker::Worker;
use super::{INF, MATE, MATE_BOUND, MAX_PLY, MultiSearch, SearchParams, is_mate_score};
use crate::position::{Move, MoveKind};
use crate::tt::Bound;
use crate::types::MAX_PLAYERS;
use arrayvec::ArrayVec;
use std::sync::LazyLock;

/// Late move reductions: from this depth, from this move number on (0-based), one ply; two
/// plies from the second move number on.
const LMR_MIN_DEPTH: i32 = 3;
const LMR_FIRST_MOVE: usize = 3;
const LMR_DEEPER_MOVE: usize = 8;
/// Aspiration windows: from this depth; a window wider than this on a side becomes unbounded.
const ASPIRATION_MIN_DEPTH: i32 = 4;
const ASPIRATION_MAX_DELTA: i32 = 2_000;

/// Static-exchange pruning with two players, up to this depth: quiet moves losing more than this
/// times the square of the depth, captures losing more than this times the depth.
const SEE_PRUNE_MAX_DEPTH: i32 = 8;
const SEE_QUIET_MARGIN: i32 = 30;
const SEE_CAPTURE_MARGIN: i32 = 100;
/// Ordering credit (history and continuation history) worth a ply of late-move reduction.
const LMR_HISTORY_DIVISOR: i32 = 16_384;
/// The null move's reduction grows by a ply per this many plies of depth, and by a ply per
/// `NULL_MOVE_EVAL_STEP` centipawns of static evaluation above beta (at most
/// `NULL_MOVE_EVAL_PLIES`).
const NULL_MOVE_DEPTH_DIVISOR: i32 = 3;
const NULL_MOVE_EVAL_STEP: i32 = 200;
const NULL_MOVE_EVAL_PLIES: i32 = 3;
/// Internal iterative reduction with two players: from this depth, a node without a move from the
/// table is searched a ply shallower.
const IIR_MIN_DEPTH: i32 = 4;
/// Singular extensions with two players: from the `se_depth` parameter, where the table's entry
/// for the node is a lower bound or exact and at most `SE_TT_DEPTH_MARGIN` plies shallower, the
/// table's move is searched a ply deeper if every other move, searched to half the depth, stays
/// `se_margin` centipawns per ply of depth below the entry's score. Not against a bare royal
/// piece: there the mop-up gradient, not one forcing line, mates, and the extension's searches
/// slowed the conversions measured.
const SE_TT_DEPTH_MARGIN: i32 = 3;

/// Late move pruning with two players: up to the `lmp_depth` parameter, quiet moves after the
/// first `LMP_BASE + depth²` of a node that is not on the principal variation are not searched.
const LMP_BASE: usize = 3;

/// A bare royal piece's moves are searched a ply deeper where it has at most this many.
const FEW_REPLIES: usize = 2;

/// Plies to reduce the `index`-th move of a node (0-based) with three or four players.
fn reduction(quiet: bool, depth: i32, index: usize, in_check: bool) -> i32 {
    if quiet && depth >= LMR_MIN_DEPTH && index >= LMR_FIRST_MOVE && !in_check { 1 + i32::from(index >= LMR_DEEPER_MOVE) } else { 0 }
}

/// Plies to reduce a late quiet move with two players: growing with the logarithms of the depth and of the move's number, as in the strong
/// open engines (`lmr_base` + ln depth · ln number / `lmr_divisor`, both in hundredths); less on
/// the principal variation and for checks and killers. A reduced move that raises alpha is
/// searched again at full depth; a ply less on the principal variation.
fn duel_reduction(params: &SearchParams, depth: i32, index: usize, pv_node: bool, forcing: bool) -> i32 {
    if depth < LMR_MIN_DEPTH || index < 2 {
        return 0;
    }
    let (base, divisor) = (params.lmr_base as f32 / 100.0, params.lmr_divisor as f32 / 100.0);
    let r = (base + ln(depth as usize) * ln(index + 1) / divisor) as i32 - i32::from(pv_node) - i32::from(forcing);
    r.clamp(0, depth - 2)
}

/// The natural logarithm of `n`, from a table for the depths and move numbers of a search (a
/// library call per reduced move cost about 1 % of the search's instructions).
fn ln(n: usize) -> f32 {
    const TABLE_LEN: usize = 1024;
    static TABLE: LazyLock<[f32; TABLE_LEN]> = LazyLock::new(|| std::array::from_fn(|n| (n as f32).ln()));
    if n < TABLE_LEN { TABLE[n] } else { (n as f32).ln() }
}

/// Plies to reduce a late quiet move with two players: [`duel_reduction`], less for a move with a
/// good ordering `credit` (history and continuation history), more for one with a bad one.
fn quiet_reduction(params: &SearchParams, depth: i32, index: usize, pv_node: bool, forcing: bool, credit: i32) -> i32 {
    let r = duel_reduction(params, depth, index, pv_node, forcing);
    if r > 0 { (r - credit / LMR_HISTORY_DIVISOR).clamp(0, depth - 2) } else { r }
}

/// A score for the table: mate scores counted from this node instead of the root.
pub(super) fn to_tt(v: i32, distance: i32) -> i32 {
    if v >= MATE_BOUND {
        v + distance
    } else if v <= -MATE_BOUND {
        v - distance
    } else {
        v
    }
}

/// A score from the table, mate scores counted from the root again.
pub(super) fn from_tt(v: i32, distance: i32) -> i32 {
    if v >= MATE_BOUND {
        v - distance
    } else if v <= -MATE_BOUND {
        v + distance
    } else {
        v
    }
}

impl<const W: usize> Worker<'_, W> {
    pub(super) fn search(&mut self, depth: i32, ply: usize, mut alpha: i32, mut beta: i32) -> i32 {
        if !self.enter_node(ply) {
            return 0;
        }
        if let Some(v) = self.terminal_or_draw(ply) {
            return v;
        }
        let mover = self.pos.to_move();
        let in_check = self.mover_in_check(ply);
        self.note_check(ply, in_check);
        // At the horizon a check is searched out. With three or four players, checks among the
        // root's opponents only within twice the iteration's depth: they can follow one another
        // without end, and blew a depth-1 search up into minutes.
        let extend = in_check
            && (!self.multi
                || self.team_is_root(mover)
                || ply < 2 * self.depth.unsigned_abs() as usize
                || self.checked_by_root_side(mover));
        if depth <= 0 && !extend || ply >= MAX_PLY - 2 {
            return self.quiesce(ply, alpha, beta, 0);
        }
        let duel = !self.multi;
        let mut depth = depth.max(1);
        let pv_node = beta - alpha > 1;
        // Mate-distance pruning: no line from here can beat a mate already found nearer the root.
        if duel && ply > 0 {
            let d = self.distance();
            alpha = alpha.max(-MATE + d);
            beta = beta.min(MATE - d - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        // A singular-extension search of this node leaves out the table's move, and neither takes
        // nor leaves the table's value: it answers another question.
        let excluded = self.stack[ply].excluded;
        let mut tt_move = Move::NONE;
        let mut singular_candidate = None;
        // The table's score and bound.
        let mut tt_bound = None;
        if let Some(e) = self.shared.tt.probe(self.key()) {
            tt_move = e.mv;
            let score = from_tt(e.score, self.distance());
            tt_bound = Some((score, e.bound));
            if duel
                && ply > 0
                && excluded == Move::NONE
                && depth >= self.params.se_depth
                && e.mv != Move::NONE
                && e.bound != Bound::Upper
                && e.depth >= depth - SE_TT_DEPTH_MARGIN
                && !is_mate_score(score)
                && !self.pos.is_bare(mover)
                && !self.pos.opponents_bare(mover)
            {
                singular_candidate = Some(score);
            }
            if !pv_node && ply > 0 && e.depth >= depth && excluded == Move::NONE && e.bound.settles(score, alpha, beta) {
                return score;
            }
        }

        let prune = duel && !pv_node && !in_check && ply > 0;
        let (static_eval, pawn_key) = if duel && !in_check { self.corrected_eval() } else { (0, None) };
        self.stack[ply].static_eval = (duel && !in_check).then_some(static_eval);
        // Whether the static evaluation is better than at the mover's previous turn.
        let improving = !in_check && ply >= 2 && self.stack[ply - 2].static_eval.is_none_or(|before| static_eval > before);
        // The table's score, where its bound says it is nearer the truth, refines the static
        // evaluation (`eval`) for the pruning decisions below.
        let eval = match tt_bound {
            Some((score, bound)) if duel && !in_check && !is_mate_score(score) && bound.settles(score, static_eval, static_eval + 1) => {
                score
            }
            _ => static_eval,
        };

        // Reverse futility: far enough above beta near the leaves. Not where a royal piece is bare:
        // its static evaluation knows no mate threat, and the return at its node hid a mate in
        // two (the mating check is searched a ply further).
        let rfp = self.params.rfp_margin;
        if prune
            && rfp > 0
            && depth <= self.params.rfp_depth
            && !is_mate_score(beta)
            && eval - rfp * (depth - i32::from(improving)) >= beta
            && !self.pos.is_bare(mover)
            && !self.pos.opponents_bare(mover)
        {
            return eval;
        }

        // Null move: only where the side to move alternates (two players) and is not in check.
        let mut r = self.params.null_move_r;
        if prune && r > 0 && depth >= self.params.null_move_depth && eval >= beta && excluded == Move::NONE && self.has_pieces(mover) {
            r += depth / NULL_MOVE_DEPTH_DIVISOR + ((eval - beta) / NULL_MOVE_EVAL_STEP).min(NULL_MOVE_EVAL_PLIES);
            let u = self.make(Move::PASS);
            self.stack[ply + 1].previous = Move::NONE;
            self.stack[ply + 1].context = NO_CONTEXT;
            let v = -self.search((depth - 1 - r).max(0), ply + 1, -beta, -beta + 1);
            self.unmake(Move::PASS, u);
            if self.aborted {
                return 0;
            }
            if v >= beta && v < MATE_BOUND {
                return v;
            }
        }

        // Internal iterative reduction: without a move from the table the node is likely new or
        // not worth much; a ply less finds a move to try first for the next visit.
        if duel && depth >= IIR_MIN_DEPTH && tt_move == Move::NONE {
            depth -= 1;
        }

        // Singular extension: the table's move is searched a ply deeper when no other move comes
        // near its value; when another move too beats beta by the margin, the node is cut at once
        // (multi-cut).
        let mut tt_move_extension = 0;
        if let Some(tt_score) = singular_candidate {
            let singular_beta = tt_score - self.params.se_margin * depth;
            self.stack[ply].excluded = tt_move;
            let v = self.search((depth - 1) / 2, ply, singular_beta - 1, singular_beta);
            self.stack[ply].excluded = Move::NONE;
            if self.aborted {
                return 0;
            }
            let double_margin = self.params.double_extension_margin;
            if v < singular_beta {
                tt_move_extension = 1;
                // Far below: two plies, within twice the iteration's depth so that the doubled
                // extensions cannot pile up along one line.
                if double_margin > 0 && !pv_node && v < singular_beta - double_margin && (ply as i32) < 2 * self.depth {
                    tt_move_extension = 2;
                }
            } else if singular_beta >= beta {
                return singular_beta;
            } else if self.params.negative_extension != 0 && tt_score >= beta {
                tt_move_extension = -1;
            }
        }

        let mut list = std::mem::take(&mut self.stack[ply].list);
        list.clear();
        if self.brs_node(mover) {
            self.best_replies(&mut list, tt_move, ply);
        } else {
            self.pos.legal_moves_with(Some(in_check), self.term_cache.lines(), &mut list.moves);
            if list.moves.is_empty() {
                self.stack[ply].list = list;
                return self.no_move_value();
            }
            self.filter_root(ply, &mut list.moves);
            self.score_moves(&mut list, tt_move, ply);
            if duel && !in_check && self.hunts_bare_royals(mover) {
                self.order_hunt(&mut list, tt_move);
            }
        }
        // Futility: quiet moves searched to `d` plies cannot bring the evaluation up to `alpha`.
        let (fm, futility_depth) = (self.params.futility_margin, self.params.futility_depth);
        let futile_at = |d: i32, alpha: i32| prune && fm > 0 && d <= futility_depth && !is_mate_score(alpha) && eval + fm * d <= alpha;
        let futile = futile_at(depth, alpha);
        let mut best = -INF;
        let mut best_move = Move::NONE;
        let alpha0 = alpha;
        let mut undos = std::mem::take(&mut self.stack[ply].undos);
        // A bare royal piece with at most `FEW_REPLIES` moves: they are searched a ply deeper, as
        // they add next to no branching (within twice the iteration's depth).
        let few_replies = i32::from(duel && list.moves.len() <= FEW_REPLIES && self.pos.is_bare(mover) && (ply as i32) < 2 * self.depth);
        let mut picker = MovePicker::new(list);
        // With several threads, a move whose position another thread is searching waits until
        // the node's other moves are done.
        let busy = self.shared.busy.filter(|_| depth >= abdada::MIN_DEPTH);
        let mut deferred = std::mem::take(&mut self.stack[ply].deferred);
        deferred.clear();
        let mut quiets = std::mem::take(&mut self.stack[ply].quiets);
        quiets.clear();
        let (mut handed_out, mut next_deferred) = (0, 0);
        let mut check_lines = None;
        let quiet_order = self.quiet_order(ply);
        // Checks are searched a ply deeper (two players, within twice the iteration's depth, not
        // against bare royal pieces, where the mop-up's gradient mates and not one forcing line).
        let extend_checks = duel && self.params.check_extension != 0 && (ply as i32) < 2 * self.depth && !self.pos.opponents_bare(mover);
        loop {
            let (mv, passes, put_off) = match picker.next_move() {
                Some((mv, passes)) => (mv, passes, false),
                None if next_deferred < deferred.len() => {
                    next_deferred += 1;
                    let (mv, passes) = deferred[next_deferred - 1];
                    (mv, passes, true)
                }
                None => break,
            };
            if mv == excluded {
                continue;
            }
            let i = handed_out;
            let quiet = self.is_quiet(mv);
            let may_check = duel && self.may_give_check(mv, &mut check_lines);
            let late =
                prune && depth <= self.params.lmp_depth && i >= (LMP_BASE + (depth * depth) as usize) / if improving { 1 } else { 2 };
            // Futility and late-move pruning spare quiet moves that give check. One that cannot
            // give check is skipped before the exchange test and before it is made, so that most
            // pruned moves cost nothing; it still counts in the move number, as it would once made.
            let prunable = (futile || late) && i > 0 && quiet;
            if prunable && !may_check {
                handed_out += 1;
                continue;
            }
            // Static-exchange pruning near the leaves: a move that loses more material than the
            // depth can win back.
            if prune && i > 0 && depth <= SEE_PRUNE_MAX_DEPTH && best > -MATE_BOUND {
                let threshold = if quiet { -SEE_QUIET_MARGIN * depth * depth } else { -SEE_CAPTURE_MARGIN * depth };
                if !see_ge(&self.pos, mv, threshold, self.shared.eval.values()) {
                    continue;
                }
            }
            // The move's credit for late-move reductions, taken before it is made and only once the
            // pruning above has spared it.
            let credit_due = duel && quiet && mv.kind() != MoveKind::Pass && depth >= LMR_MIN_DEPTH && i >= 2;
            let credit = if credit_due { self.quiet_score(mv, &quiet_order) } else { 0 };
            // Only a check that does not lose material by static exchange is extended.
            let safe_check = extend_checks && may_check && see_ge(&self.pos, mv, 0, self.shared.eval.values());
            self.make_play(passes, mv, ply, &mut undos);
            let child_key = self.key();
            if i > 0 && !put_off && busy.is_some_and(|b| b.contains(child_key)) {
                self.unmake_play(&mut undos);
                deferred.push((mv, passes));
                continue;
            }
            handed_out += 1;
            if ply == 0 {
                self.at_root.current = Some((mv, i + 1));
            }
            let gives_check = may_check && self.pos.in_check(self.pos.to_move());
            // With two players a move that may not give check gives none.
            if duel {
                self.note_check(ply + 1, gives_check);
            }
            let extension = few_replies.max(i32::from(safe_check && gives_check));
            if prunable && !gives_check {
                self.unmake_play(&mut undos);
                continue;
            }
            if let Some(busy) = busy {
                busy.mark(child_key);
            }
            let same_team = self.team_is_root(self.pos.to_move()) == self.team_is_root(mover);
            let child = |w: &mut Self, d: i32, a: i32, b: i32| -> i32 {
                if same_team { w.search(d, ply + 1, a, b) } else { -w.search(d, ply + 1, -b, -a) }
            };
            let mut v;
            if i == 0 {
                let extension = match mv == tt_move {
                    true if tt_move_extension < 0 => extension + tt_move_extension,
                    true => extension.max(tt_move_extension),
                    false => extension,
                };
                v = child(self, depth - 1 + extension, alpha, beta);
            } else {
                let reduction = if !duel {
                    // A check of a bare royal piece is how a mate begins, and the mate takes a
                    // round to take effect: reduced, it fell below the horizon.
                    let r = reduction(quiet, depth, i, in_check);
                    if r > 0 && self.checks_bare_royal(mover) { 0 } else { r }
                } else if quiet && !in_check {
                    quiet_reduction(&self.params, depth, i, pv_node, gives_check || self.stack[ply].killers.contains(&mv), credit)
                } else {
                    0
                };
                let depth = depth + extension;
                v = if same_team {
                    child(self, depth - 1 - reduction, alpha, beta)
                } else {
                    child(self, depth - 1 - reduction, alpha, alpha + 1)
                };
                if !same_team && v > alpha && (reduction > 0 || v < beta) {
                    v = child(self, depth - 1, alpha, beta);
                }
            }
            if let Some(busy) = busy {
                busy.unmark(child_key);
            }
            // The moves of the play, for a principal variation it joins: with the static moves
            // of the opponents who do not reply, so that the line stays legal move by move.
            let played: ArrayVec<Move, MAX_PLAYERS> = if v > alpha { undos.iter().map(|&(m, _)| m).collect() } else { ArrayVec::new() };
            self.unmake_play(&mut undos);
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_move = mv;
                if v > alpha {
                    alpha = v;
                    self.update_pv_line(ply, &played);
                    if v >= beta {
                        if quiet && mv.kind() != MoveKind::Pass {
                            self.remember_cutoff(mv, ply, depth, &quiets);
                        }
                        break;
                    }
                }
            }
            if quiet && mv.kind() != MoveKind::Pass {
                quiets.push(mv);
            }
        }
        self.stack[ply].quiets = quiets;
        self.stack[ply].list = picker.into_list();
        self.stack[ply].undos = undos;
        self.stack[ply].deferred = deferred;
        if self.aborted {
            return 0;
        }
        if excluded != Move::NONE {
            return best;
        }
        let bound = Bound::of(best, alpha0, beta);
        // The correction history learns from values the static evaluation should have seen: no
        // capture or promotion best, and a bound on the side of the evaluation it corrects.
        if let Some(key) = pawn_key
            && !is_mate_score(best)
            && (best_move == Move::NONE || self.is_quiet(best_move))
            && bound.settles(best, static_eval, static_eval)
        {
            self.learned.correction.learn(mover, key, best - static_eval, depth, self.params.correction);
        }
        self.shared.tt.store(self.key(), best_move, to_tt(best, self.distance()), depth, bound);
        best
    }

    /// One iteration from the root; the value is from the root player's point of view (for
    /// max-n: the evaluation at the end of the principal variation).
    pub(super) fn iterate(&mut self, depth: i32, previous: Option<i32>) -> i32 {
        self.depth = depth;
        if self.algorithm == MultiSearch::MaxN {
            self.maxn(depth, 0, self.root, 0);
            return self.pv_end_value(self.root);
        }
        let mut delta = self.params.aspiration;
        let Some(centre) = previous.filter(|&p| delta > 0 && depth >= ASPIRATION_MIN_DEPTH && !self.multi && !is_mate_score(p)) else {
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
            self.tell_bound(depth, v, if v <= lo { Bound::Upper } else { Bound::Lower });
            delta *= 2;
            if v <= lo {
                lo = if delta > ASPIRATION_MAX_DELTA { -INF } else { (centre - delta).max(-INF) };
            } else {
                hi = if delta > ASPIRATION_MAX_DELTA { INF } else { (centre + delta).min(INF) };
            }
        }
    }
}
