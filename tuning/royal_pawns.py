"""Royal-pawn values for chess (a learned pawn shield and pawn storm), fitted to Stockfish's labels
on top of tessera's evaluation (`learned.py`): the middle- and end-game centipawns a pawn adds on
each square while its own King, or the enemy's, stands in each of 32 buckets (the King's file, and
its rank from its own side up to the fourth). The evaluation is read with
`royal_pawn_values_permille=0` (the values off).

usage: royal_pawns.py OUT LABELS...   (TESSERA=path of the engine, target/release/tessera if unset;
                                     OPTS=name=value,... sets Eval_<name> options first)

OUT is written in the format of src/games/chess-royal-pawns.txt (its header names the script that
fitted it: squares_and_royal_pawns.py fits this table and the square values together).
"""
import sys

import chess
import numpy as np
from learned import Table, fit_tables

# Ranks from the King's own side counted apart: its first three, then the rest together.
RANKS = 4
BUCKETS = 8 * RANKS
# The ridge weight was chosen by the held-out error on the label files of `tuning/data.md` (the
# values played at 0.7: 1e-9: 0.018374, 2e-9: 0.018364; the table off 0.018628).
RIDGE = 2e-9
STEPS = 400


def bucket(own_square):
    """The bucket of a King on a square seen from its owner's side."""
    return chess.square_file(own_square) * RANKS + min(chess.square_rank(own_square), RANKS - 1)


def own_side(square, color):
    return square if color == chess.WHITE else chess.square_mirror(square)


def features(board):
    """Per pawn, +1 (the player to move's) or -1 at (its King's bucket, its square) and at
    (BUCKETS + the enemy King's bucket, its square), squares seen from the pawn's owner's side."""
    index, value = [], []
    for color in (chess.WHITE, chess.BLACK):
        own = bucket(own_side(board.king(color), color))
        enemy = bucket(own_side(board.king(not color), not color))
        sign = 1 if color == board.turn else -1
        for sq in board.pieces(chess.PAWN, color):
            s = own_side(sq, color)
            index += [own * 64 + s, (BUCKETS + enemy) * 64 + s]
            value += [sign, sign]
    return index, value


TABLE = Table(
    columns=2 * BUCKETS * 64,
    features=features,
    off="royal_pawn_values_permille=0",
    title=[
        "Royal-pawn values for chess: the buckets of a King's squares from its owner's side, then per",
        "bucket of the own King and of the enemy King, middle game then end game, centipawns per pawn",
        "square from the pawn's owner's side, a1..h1 first",
    ],
    headers=[f"{side} {b}" for side in ("own", "enemy") for b in range(BUCKETS)],
    head=[("buckets", np.array([bucket(s) for s in range(64)]))],
)

if __name__ == "__main__":
    fit_tables([TABLE], sys.argv[1:2], sys.argv[2:], RIDGE, STEPS)
