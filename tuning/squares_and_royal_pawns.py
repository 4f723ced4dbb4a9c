"""Chess's square values (squares.py) and royal-pawn values (royal_pawns.py) fitted together to
Stockfish's labels on top of tessera's evaluation with both off (`learned.py`): a pawn's square
value and its royal-pawn values explain the same labels, so fitted one on top of the other the
first keeps what the second would explain better.

usage: squares_and_royal_pawns.py SQUARES_OUT PAWNS_OUT LABELS...
       (TESSERA=path of the engine, target/release/tessera if unset;
        OPTS=name=value,... sets Eval_<name> options first)

The outputs are src/games/chess-squares.txt and src/games/chess-royal-pawns.txt. Its tables showed
no gain over the ones fitted apart in 289 games of self-play (JF in README.md): those are played.
"""
import sys

import royal_pawns
import squares
from learned import fit_tables

# The ridge weight was chosen by the held-out error on the seven label files d10, d12, d12-sprt,
# d12-e4 to e4d (with the values played at 0.7: 1e-9: 0.018214, 2e-9: 0.018280; the tables fitted
# apart before 0.018347, both off 0.019407).
RIDGE = 1e-9
STEPS = 400

if __name__ == "__main__":
    fit_tables([squares.TABLE, royal_pawns.TABLE], sys.argv[1:3], sys.argv[3:], RIDGE, STEPS)
