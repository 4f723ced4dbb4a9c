"""Learned evaluation values for chess, fitted to Stockfish's labels on top of tessera's
evaluation: the middle- and end-game centipawns that a man of each type adds on each square (a
piece-square table per type), beyond what the generic terms (centrality, advance, King line, ...)
give; then, on top of those, what it adds at each King distance from the enemy King and from its
own.

usage: squares.py OUT LABELS...   (TESSERA=path of the engine, target/release/tessera if unset;
                                 OPTS=name=value,... sets Eval_<name> options first)

Everything is float32 (a float64 factor would copy the feature matrix at every step). The
evaluation is read with `square_values_permille=0` (the table off) and held fixed; the table
is the least-squares fit of the labels' expected scores through the logistic curve, shrunk
towards 0 (ridge), by gradient descent. The last fifth of each label file (later games) is held
out and the error there reported with and without the table. OUT is written in the format of
src/games/chess-squares.txt. Needs numpy.
"""
import os
import sys

import chess
import numpy as np
from eval_client import Evaluator, is_quiet, label_cp

CODES = "PNBRQK"
# The ridge weight was chosen by the held-out error on the three self-play label files
# (0: 0.018786, 3e-10: 0.018667, 1e-9: 0.018658, 3e-9: 0.018681, 1e-8: 0.018748; without the
# table 0.019362); 400 steps converge (1,000 give the same).
RIDGE = 1e-9
STEPS = 400
HELD_OUT = 0.2

out, files = sys.argv[1], sys.argv[2:]
os.environ["OPTS"] = ",".join(filter(None, [os.environ.get("OPTS", ""), "square_values_permille=0,royal_distance_permille=0"]))
tessera = Evaluator(os.environ.get("TESSERA", "target/release/tessera"))

squares, distances, scores, labels, phases, test = [], [], [], [], [], []
for name in files:
    lines = open(name).read().splitlines()
    for i, line in enumerate(lines):
        label, fen = line.split(" ", 1)
        board = chess.Board(fen)
        if not is_quiet(board) or abs(label_cp(label, 1e-4)) > 800:
            continue
        phase, score = tessera.evaluate(fen)
        # Features: +1 per man of the player to move, -1 per opponent's man, on its square seen
        # from its owner's side (Black's mirrored top to bottom), and (not Kings) at its distance
        # 1 to 7 from the enemy King and from its own.
        x = np.zeros(6 * 64, dtype=np.float32)
        d = np.zeros((5, 2, 7), dtype=np.float32)
        kings = {colour: board.king(colour) for colour in chess.COLORS}
        for sq, man in board.piece_map().items():
            sign = 1 if man.color == board.turn else -1
            own = sq if man.color == chess.WHITE else chess.square_mirror(sq)
            x[(man.piece_type - 1) * 64 + own] += sign
            if man.piece_type != chess.KING:
                for which, king in enumerate((kings[not man.color], kings[man.color])):
                    d[man.piece_type - 1, which, chess.square_distance(sq, king) - 1] += sign
        squares.append(x)
        distances.append(d.ravel())
        scores.append(score)
        labels.append(float(label))
        phases.append(phase / 256)
        test.append(i >= len(lines) * (1 - HELD_OUT))

t = np.array(scores, dtype=np.float32)
y = np.array(labels, dtype=np.float32)
ph = np.array(phases, dtype=np.float32)[:, None]
test = np.array(test)
train = ~test
C = np.float32(np.log(10) / 400)


def split_by_phase(rows):
    """The features times the middle-game share, then times the end-game share."""
    x = np.array(rows)
    return np.concatenate([x * ph, x * (1 - ph)], axis=1)


def sig(z):
    return 1 / (1 + np.exp(-z))


# The scale of tessera's centipawns against the labels' (as `tessera tune` fits its k).
ks = np.linspace(0.5, 1.6, 111)
k = np.float32(ks[int(np.argmin([((sig(kk * C * t[train]) - y[train]) ** 2).mean() for kk in ks]))])


def fit(A, base):
    """The weights (centipawns) on the features A that fit the training labels best on top of
    the evaluation `base`, by Adam's steps of about a centipawn."""
    At, bt, yt = A[train], base[train], y[train]
    w = np.zeros(A.shape[1], dtype=np.float32)
    m, v = np.zeros_like(w), np.zeros_like(w)
    for step in range(1, STEPS + 1):
        s = sig(k * C * (bt + At @ w))
        grad = At.T @ (2 * (s - yt) * s * (1 - s) * k * C) / len(yt) + np.float32(2 * RIDGE) * w
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-12)
    return w


def error(mask, values):
    return float(((sig(k * C * values[mask]) - y[mask]) ** 2).mean())


A = split_by_phase(squares)
w = fit(A, t)
with_squares = t + A @ w
D = split_by_phase(distances)
wd = fit(D, with_squares)
with_both = with_squares + D @ wd
summary = (
    f"{len(y)} quiet positions ({int(test.sum())} held out), k {k:.3f}; held-out error {error(test, t):.6f}, "
    f"with the square values {error(test, with_squares):.6f}, with the distance values too {error(test, with_both):.6f}"
)
print(summary)


def rows_of(values, per_row):
    values = np.rint(values).astype(int)
    return "".join(" ".join(f"{v:4d}" for v in values[i : i + per_row]) + "\n" for i in range(0, len(values), per_row))


with open(out, "w") as f:
    f.write("# Learned evaluation values for chess (tuning/squares.py), centipawns. Per piece code, middle\n")
    f.write("# game then end game: per square from White's side, a1..h1 first; then per King distance\n")
    f.write("# 1..7 from the enemy King and from the man's own.\n")
    f.write(f"# {' '.join(os.path.basename(n) for n in files)}: {summary}.\n")
    for p, code in enumerate(CODES):
        for phase, offset in (("mg", 0), ("eg", 384)):
            f.write(f"{code} {phase}\n" + rows_of(w[offset + p * 64 : offset + (p + 1) * 64], 8))
    for p, code in enumerate(CODES[:5]):
        for which, name in enumerate(("enemy", "own")):
            for phase, offset in (("mg", 0), ("eg", 70)):
                start = offset + p * 14 + which * 7
                f.write(f"{code} {phase} {name}\n" + rows_of(wd[start : start + 7], 7))
