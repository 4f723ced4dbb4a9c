"""Material imbalances (chess): tessera's evaluation against Stockfish's labels, grouped by the
imbalance between the player to move and the other (a Queen against two Rooks, a Rook against
a minor piece, ...): the mean of each, in centipawns for the player to move. A linear fit over
all positions prices these rare groups little; a mean far from Stockfish's in a pair of mirrored
groups (Q vs 2R and 2R vs Q) is a material term the evaluation lacks.

usage: imbalance.py ENGINE LABELS...        (LABELS: files of tuning/data, gunzipped)

OPTS=name=value,... sets Eval_<name> options first, as for residuals.py.
"""
import collections
import math
import os
import subprocess
import sys

import chess

PAWN, KNIGHT, BISHOP, ROOK, QUEEN = chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN
# (queens, rooks, minor pieces) of the player to move less the other's: the group's name.
GROUPS = {
    (1, -1, -1): "Q vs R+m",
    (-1, 1, 1): "R+m vs Q",
    (1, -2, 0): "Q vs 2R",
    (-1, 2, 0): "2R vs Q",
    (1, 0, -3): "Q vs 3m",
    (-1, 0, 3): "3m vs Q",
    (0, 1, -1): "R vs m",
    (0, -1, 1): "m vs R",
    (0, -1, 2): "2m vs R",
    (0, 1, -2): "R vs 2m",
}

engine = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
for option in filter(None, os.environ.get("OPTS", "").split(",")):
    name, value = option.split("=")
    engine.stdin.write(f"setoption name Eval_{name} value {value}\n")


def tessera_eval(fen):
    """The `eval` command's score for the player to move."""
    engine.stdin.write(f"position fen {fen}\neval\n")
    engine.stdin.flush()
    white = fen.split()[1] == "w"
    score = None
    while True:
        line = engine.stdout.readline().strip()
        if line.startswith("eval end"):
            return score
        words = line.split()
        if words[1] == "score":
            values = [int(x.split(":")[1]) for x in words[2:]]
            score = values[0] if white else values[1]


groups = collections.defaultdict(list)
for path in sys.argv[2:]:
    for line in open(path):
        label, fen = line.split(" ", 1)
        fen = fen.strip()
        board = chess.Board(fen)
        if board.is_check():
            continue
        us = board.turn

        def diff(*kinds):
            return sum(len(board.pieces(k, us)) - len(board.pieces(k, not us)) for k in kinds)

        name = GROUPS.get((diff(QUEEN), diff(ROOK), diff(KNIGHT, BISHOP)))
        if name is None:
            continue
        s = min(max(float(label), 1e-3), 1 - 1e-3)
        groups[name].append((-400 * math.log10(1 / s - 1), tessera_eval(fen), diff(PAWN)))

for name, rows in sorted(groups.items()):
    n = len(rows)
    sf, te, pawns = (sum(r[i] for r in rows) / n for i in range(3))
    print(f"{name:10s} n {n:5d}  stockfish {sf:7.1f}  tessera {te:7.1f}  difference {te - sf:+7.1f}  pawns {pawns:+.2f}")
