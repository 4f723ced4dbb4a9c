"""Square values per piece type (a learned piece-square table) for chess, fitted to Stockfish's
labels on top of tessera's evaluation (`learned.py`): the middle- and end-game centipawns that a
man of each type adds on each square, beyond what the generic terms (centrality, advance, King
line, ...) give. The evaluation is read with `square_values_permille=0` (the table off).

usage: squares.py OUT LABELS...   (TESSERA=path of the engine, target/release/tessera if unset;
                                 OPTS=name=value,... sets Eval_<name> options first)

OUT is written in the format of src/games/chess-squares.txt.
"""
import sys

import chess
import numpy as np
from learned import fit, read, write

CODES = "PNBRQK"
# The ridge weight was chosen by the held-out error on the three self-play label files
# (0: 0.018786, 3e-10: 0.018667, 1e-9: 0.018658, 3e-9: 0.018681, 1e-8: 0.018748; without the
# table 0.019362); 400 steps converge (1,000 give the same).
RIDGE = 1e-9
STEPS = 400


def features(board):
    """+1 per man of the player to move, -1 per opponent's man, on its square seen from its
    owner's side (Black's mirrored top to bottom)."""
    x = np.zeros(6 * 64, dtype=np.float32)
    for sq, man in board.piece_map().items():
        own = sq if man.color == chess.WHITE else chess.square_mirror(sq)
        x[(man.piece_type - 1) * 64 + own] += 1 if man.color == board.turn else -1
    return x


out, files = sys.argv[1], sys.argv[2:]
A, t, y, test = read(files, features, "square_values_permille=0")
w, report = fit(A, t, y, test, RIDGE, STEPS)
print("\n".join(report))
blocks = [(code, w[p * 64 : (p + 1) * 64], w[384 + p * 64 : 384 + (p + 1) * 64]) for p, code in enumerate(CODES)]
title = [
    "Square values for chess (tuning/squares.py): per piece code, middle game then end game,",
    "centipawns per square from White's side, a1..h1 first",
]
write(out, title, files, report, blocks, 8)
