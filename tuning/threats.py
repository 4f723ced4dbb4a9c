"""Threat values per attacker and victim type for chess, fitted to Stockfish's labels on top of
tessera's evaluation (`learned.py`), the square values included: the middle- and end-game
centipawns a man adds per enemy man of each type it attacks (as tessera's attack sets count
them: a pawn's capture cells, the pieces' and the King's attacks through the occupancy), beyond
the threat parameters. The evaluation is read with `threat_values_permille=0` (the values off).

usage: threats.py OUT LABELS...   (TESSERA=path of the engine, target/release/tessera if unset;
                                 OPTS=name=value,... sets Eval_<name> options first)

OUT is written in the format of src/games/chess-threats.txt (a line per pair of types).
"""
import sys

import chess
import numpy as np
from learned import fit, read

CODES = "PNBRQK"
# The ridge weight was chosen by the held-out error on the three self-play label files.
RIDGE = 1e-9
STEPS = 400


def features(board):
    """Per (attacker type, victim type): the pairs of the player to move less the opponent's."""
    x = np.zeros(36, dtype=np.float32)
    for sq, man in board.piece_map().items():
        sign = 1 if man.color == board.turn else -1
        for victim in board.attacks(sq) & board.occupied_co[not man.color]:
            x[(man.piece_type - 1) * 6 + board.piece_type_at(victim) - 1] += sign
    return x


out, files = sys.argv[1], sys.argv[2:]
A, t, y, test = read(files, features, "threat_values_permille=0")
w, report = fit(A, t, y, test, RIDGE, STEPS)
print("\n".join(report))
values = np.rint(w).astype(int)
with open(out, "w") as f:
    f.write("# Threat values for chess (tuning/threats.py): attacker, victim, centipawns in the middle\n")
    f.write("# and the end game, per enemy man of the victim's type the attacker attacks.\n")
    f.write(f"# {report[0].split(' (')[0]}; {report[2]}.\n")
    for a, attacker in enumerate(CODES):
        for v, victim in enumerate(CODES):
            mg, eg = values[a * 6 + v], values[36 + a * 6 + v]
            # A King is never attacked in the positions fitted (no checks): no values.
            if victim != "K":
                f.write(f"{attacker} {victim} {mg:4d} {eg:4d}\n")
