"""Material imbalances (chess): tessera's evaluation against Stockfish's labels, grouped by the
imbalance between the player to move and the other (a Queen against two Rooks, a Rook against
a minor piece, ...): the mean of each, in centipawns for the player to move. A linear fit over
all positions prices these rare groups little; a mean far from Stockfish's in a pair of mirrored
groups (Q vs 2R and 2R vs Q) is a material term the evaluation lacks.

usage: imbalance.py ENGINE LABELS...        (LABELS: label files, gunzipped: tuning/data.md)

OPTS=name=value,... sets Eval_<name> options first, as for residuals.py.
"""
import collections
import sys

import chess

from eval_client import Evaluator, label_cp

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

tessera = Evaluator(sys.argv[1])

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
        groups[name].append((label_cp(label, 1e-3), tessera.evaluate(fen)[1], diff(PAWN)))

for name, rows in sorted(groups.items()):
    n = len(rows)
    sf, te, pawns = (sum(r[i] for r in rows) / n for i in range(3))
    print(f"{name:10s} n {n:5d}  stockfish {sf:7.1f}  tessera {te:7.1f}  difference {te - sf:+7.1f}  pawns {pawns:+.2f}")
