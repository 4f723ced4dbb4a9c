"""Square values per piece type (a learned piece-square table) for chess, fitted to Stockfish's
labels on top of tessera's evaluation: the middle- and end-game centipawns that a man of each type
adds on each square, beyond what the generic terms (centrality, advance, King line, ...) give.

usage: squares.py OUT LABELS...   (TESSERA=path of the engine, target/release/tessera if unset;
                                 OPTS=name=value,... sets Eval_<name> options first)

Everything is float32 (a float64 factor would copy the feature matrix at every step). The
evaluation is read with `square_values_permille=0` (the table off) and held fixed; the table
is the least-squares fit of the labels' expected scores through the logistic curve, shrunk
towards 0 (ridge), by Adam's gradient steps of about a centipawn. The last fifth of each label
file (later games) is held out and the error there reported with and without the table. OUT is
written in the format of src/games/chess-squares.txt. Needs numpy.
"""
import os
import sys

import chess
import numpy as np
from eval_client import Evaluator, fits

CODES = "PNBRQK"
# The ridge weight was chosen by the held-out error on the three self-play label files
# (0: 0.018786, 3e-10: 0.018667, 1e-9: 0.018658, 3e-9: 0.018681, 1e-8: 0.018748; without the
# table 0.019362); 400 steps converge (1,000 give the same).
RIDGE = 1e-9
STEPS = 400
HELD_OUT = 0.2

out, files = sys.argv[1], sys.argv[2:]
os.environ["OPTS"] = ",".join(filter(None, [os.environ.get("OPTS", ""), "square_values_permille=0"]))
tessera = Evaluator(os.environ.get("TESSERA", "target/release/tessera"))

rows, scores, labels, phases, test = [], [], [], [], []
for name in files:
    lines = open(name).read().splitlines()
    for i, line in enumerate(lines):
        label, fen = line.split(" ", 1)
        board = chess.Board(fen)
        if not fits(board, label):
            continue
        phase, score = tessera.evaluate(fen)
        # Features: +1 per man of the player to move, -1 per opponent's man, on its square seen
        # from its owner's side (Black's mirrored top to bottom).
        x = np.zeros(6 * 64, dtype=np.float32)
        for sq, man in board.piece_map().items():
            own = sq if man.color == chess.WHITE else chess.square_mirror(sq)
            x[(man.piece_type - 1) * 64 + own] += 1 if man.color == board.turn else -1
        rows.append(x)
        scores.append(score)
        labels.append(float(label))
        phases.append(phase / 256)
        test.append(i >= len(lines) * (1 - HELD_OUT))

X = np.array(rows)
t = np.array(scores, dtype=np.float32)
y = np.array(labels, dtype=np.float32)
ph = np.array(phases, dtype=np.float32)[:, None]
test = np.array(test)
A = np.concatenate([X * ph, X * (1 - ph)], axis=1)
del X, rows
C = np.float32(np.log(10) / 400)


def sig(z):
    return 1 / (1 + np.exp(-z))


# The scale of tessera's centipawns against the labels' (as `tessera tune` fits its k).
ks = np.linspace(0.5, 1.6, 111)
k = np.float32(ks[int(np.argmin([((sig(kk * C * t[~test]) - y[~test]) ** 2).mean() for kk in ks]))])
train = ~test
At, tt, yt = A[train], t[train], y[train]
w = np.zeros(A.shape[1], dtype=np.float32)
m, v = np.zeros_like(w), np.zeros_like(w)
for step in range(1, STEPS + 1):
    s = sig(k * C * (tt + At @ w))
    grad = At.T @ (2 * (s - yt) * s * (1 - s) * k * C) / len(yt) + np.float32(2 * RIDGE) * w
    m = 0.9 * m + 0.1 * grad
    v = 0.999 * v + 0.001 * grad * grad
    w -= (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-12)


def error(mask, weights):
    return float(((sig(k * C * (t[mask] + A[mask] @ weights)) - y[mask]) ** 2).mean())


zero = np.zeros_like(w)
print(f"{len(y)} quiet positions ({int(test.sum())} held out), k {k:.3f}")
print(f"train error {error(train, zero):.6f} -> {error(train, w):.6f}")
print(f"held-out error {error(test, zero):.6f} -> {error(test, w):.6f}")

with open(out, "w") as f:
    f.write("# Square values for chess (tuning/squares.py): per piece code, middle game then end game,\n")
    f.write(f"# centipawns per square from White's side, a1..h1 first. {len(y)} quiet positions of\n")
    f.write(f"# {' '.join(os.path.basename(n) for n in files)}; held-out error {error(test, zero):.6f} -> {error(test, w):.6f}.\n")
    for p, code in enumerate(CODES):
        for phase, offset in (("mg", 0), ("eg", 384)):
            f.write(f"{code} {phase}\n")
            values = np.rint(w[offset + p * 64 : offset + (p + 1) * 64]).astype(int)
            for rank in range(8):
                f.write(" ".join(f"{value:4d}" for value in values[rank * 8 : rank * 8 + 8]) + "\n")
