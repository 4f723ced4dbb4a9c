"""tessera's `eval` command from Python, Stockfish's labels back in centipawns and which labelled
positions the fits read: what residuals.py, imbalance.py and squares.py share."""
import math
import os
import subprocess

import chess


class Evaluator:
    """A tessera process answering `eval`; OPTS=name=value,... in the environment sets its
    Eval_<name> options first."""

    def __init__(self, path):
        self.engine = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        for option in filter(None, os.environ.get("OPTS", "").split(",")):
            name, value = option.split("=")
            self.engine.stdin.write(f"setoption name Eval_{name} value {value}\n")
        self.engine.stdin.flush()

    def evaluate(self, fen):
        """(phase, score for the player to move) of a chess position."""
        self.engine.stdin.write(f"position fen {fen}\neval\n")
        self.engine.stdin.flush()
        white = fen.split()[1] == "w"
        phase = score = None
        while True:
            line = self.engine.stdout.readline().strip()
            if line.startswith("eval end"):
                return phase, score
            words = line.split()
            if words[1] == "phase":
                phase = int(words[2])
            if words[1] == "score":
                values = [int(x.split(":")[1]) for x in words[2:]]
                score = values[0] if white else values[1]


def label_cp(label, clip):
    """A label (expected score of the player to move) as Stockfish's centipawns, the score kept
    `clip` away from 0 and 1."""
    s = min(max(float(label), clip), 1 - clip)
    return -400 * math.log10(1 / s - 1)


# Men's values for the quiet test: a capture of a man worth as much as the capturer, or of an
# unguarded one, makes a position not quiet.
VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 100}


def is_quiet(board):
    """Not in check, no en passant capture, and no capture that wins material at once."""
    if board.is_check():
        return False
    for move in board.generate_legal_captures():
        capturer = board.piece_at(move.from_square)
        victim = board.piece_at(move.to_square)
        if victim is None:
            return False
        if VALUES[victim.piece_type] >= VALUES[capturer.piece_type] or not board.is_attacked_by(not board.turn, move.to_square):
            return False
    return True


def fits(board, label):
    """Whether a labelled position is one the fits read: quiet, and the label within 800 of
    Stockfish's centipawns (beyond, the logistic curve is flat and the game decided)."""
    return is_quiet(board) and abs(label_cp(label, 1e-4)) <= 800
