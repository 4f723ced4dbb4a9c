"""Square values per piece type (a learned piece-square table) for chess, fitted to Stockfish's
labels on top of tessera's evaluation (`learned.py`): the middle- and end-game centipawns that a
man of each type adds on each square, beyond what the generic terms (centrality, advance, King
line, ...) give. The evaluation is read with `square_values_permille=0` (the table off).

usage: squares.py OUT LABELS...   (TESSERA=path of the engine, target/release/tessera if unset;
                                 OPTS=name=value,... sets Eval_<name> options first)

OUT is written in the format of src/games/chess-squares.txt (its header names the script that
fitted it: squares_and_royal_pawns.py fits this table and the royal-pawn values together).
"""
import sys

import chess
from learned import Table, fit_tables

CODES = "PNBRQK"
# The ridge weight was chosen by the held-out error on the three self-play label files
# (0: 0.018786, 3e-10: 0.018667, 1e-9: 0.018658, 3e-9: 0.018681, 1e-8: 0.018748; without the
# table 0.019362); 400 steps converge (1,000 give the same).
RIDGE = 1e-9
STEPS = 400


def features(board):
    """+1 per man of the player to move, -1 per opponent's man, at its type and its square seen
    from its owner's side (Black's mirrored top to bottom)."""
    index, value = [], []
    for sq, man in board.piece_map().items():
        own = sq if man.color == chess.WHITE else chess.square_mirror(sq)
        index.append((man.piece_type - 1) * 64 + own)
        value.append(1 if man.color == board.turn else -1)
    return index, value


TABLE = Table(
    columns=len(CODES) * 64,
    features=features,
    off="square_values_permille=0",
    title=[
        "Square values for chess: per piece code, middle game then end game,",
        "centipawns per square from White's side, a1..h1 first",
    ],
    headers=list(CODES),
)

if __name__ == "__main__":
    fit_tables([TABLE], sys.argv[1:2], sys.argv[2:], RIDGE, STEPS)
