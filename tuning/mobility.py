"""Mobility values per piece type for chess, fitted to Stockfish's labels on top of tessera's
evaluation (`learned.py`), the square values included: the middle- and end-game centipawns a
piece adds by its number of safe moves (as tessera's mobility counts them: cells it attacks that
hold no own man and no enemy pawn attacks), beyond the linear mobility parameters. The
evaluation is read with `mobility_values_permille=0` (the values off).

usage: mobility.py OUT LABELS...   (TESSERA=path of the engine, target/release/tessera if unset;
                                  OPTS=name=value,... sets Eval_<name> options first)

OUT is written in the format of src/games/chess-mobility.txt.
"""
import sys

import chess
import numpy as np
from learned import fit, read, write

# Per type: its code and its most moves on the empty board.
TYPES = [(chess.KNIGHT, "N", 8), (chess.BISHOP, "B", 13), (chess.ROOK, "R", 14), (chess.QUEEN, "Q", 27)]
OFFSETS = np.cumsum([0] + [most + 1 for _, _, most in TYPES])
# The ridge weight was chosen by the held-out error on the three self-play label files
# (0: 0.018379, 1e-9: 0.018433, 3e-9: 0.018459; without the values 0.018640).
RIDGE = 0
STEPS = 400


def features(board):
    """+1 per piece of the player to move, -1 per opponent's piece, at its type's number of
    safe moves."""
    x = np.zeros(OFFSETS[-1], dtype=np.float32)
    for color in (chess.WHITE, chess.BLACK):
        own = int(board.occupied_co[color])
        enemy_pawns = chess.SquareSet()
        for sq in board.pieces(chess.PAWN, not color):
            enemy_pawns |= board.attacks(sq)
        unsafe = own | int(enemy_pawns)
        for i, (piece_type, _, _) in enumerate(TYPES):
            for sq in board.pieces(piece_type, color):
                moves = bin(int(board.attacks(sq)) & ~unsafe).count("1")
                x[OFFSETS[i] + moves] += 1 if color == board.turn else -1
    return x


out, files = sys.argv[1], sys.argv[2:]
A, t, y, test = read(files, features, "mobility_values_permille=0")
w, report = fit(A, t, y, test, RIDGE, STEPS)
print("\n".join(report))
half = OFFSETS[-1]
blocks = [(code, w[OFFSETS[i] : OFFSETS[i + 1]], w[half + OFFSETS[i] : half + OFFSETS[i + 1]]) for i, (_, code, _) in enumerate(TYPES)]
title = "Mobility values for chess (tuning/mobility.py): per piece code, middle game then end game,\n# centipawns by number of safe moves, 0 first"
write(out, title, files, report, blocks, 10)
