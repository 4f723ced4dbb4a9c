#!/usr/bin/env python3
"""A chess match between two UCI engines with real clocks, for calibrating tessera's strength
levels against Stockfish (e.g. `UCI_Elo`) until `tessera match` plays outside engines itself.

One game at a time, colours alternated, each opening (a few plies from a fixed list) played
once with each colour. Clocks are kept from wall time as a GUI keeps them; a flag fall loses.
Prints each game and, at the end, the score of the first engine with an Elo difference and its
95% margin. Needs python-chess (`pip install chess`).

    tuning/uci_match.py --games 40 --tc 10+0.1 \\
        --first "target/release/tessera" --first-option UCI_LimitStrength=true --first-option UCI_Elo=1500 \\
        --second /usr/games/stockfish --second-option UCI_LimitStrength=true --second-option UCI_Elo=1500
"""

import argparse
import math
import time

import chess
import chess.engine

# Short, common openings (a few plies each), so that games differ.
OPENINGS = [
    "e2e4 e7e5 g1f3 b8c6", "e2e4 c7c5 g1f3 d7d6", "d2d4 d7d5 c2c4 e7e6", "d2d4 g8f6 c2c4 g7g6",
    "e2e4 e7e6 d2d4 d7d5", "e2e4 c7c6 d2d4 d7d5", "c2c4 e7e5 b1c3 g8f6", "g1f3 d7d5 g2g3 g8f6",
    "e2e4 e7e5 f1c4 g8f6", "d2d4 d7d5 g1f3 g8f6", "e2e4 d7d6 d2d4 g8f6", "c2c4 c7c5 g1f3 b8c6",
    "e2e4 c7c5 b1c3 b8c6", "d2d4 g8f6 g1f3 e7e6", "e2e4 g7g6 d2d4 f8g7", "d2d4 f7f5 g2g3 g8f6",
    "e2e4 e7e5 g1f3 g8f6", "d2d4 d7d5 c2c4 c7c6", "e2e4 b7b6 d2d4 c8b7", "c2c4 g8f6 b1c3 e7e6",
]


def parse_tc(text):
    base, _, inc = text.partition("+")
    return float(base), float(inc or 0)


def open_engine(command, options):
    engine = chess.engine.SimpleEngine.popen_uci(command.split())
    config = {}
    for opt in options:
        name, _, value = opt.partition("=")
        config[name] = value
    if config:
        engine.configure(config)
    return engine


def play_game(engines, opening, base, inc, overhead_ms):
    """engines[0] plays White. Returns (result string from White's view, reason, plies)."""
    board = chess.Board()
    for uci in opening.split():
        board.push_uci(uci)
    clocks = [base, base]
    while not board.is_game_over(claim_draw=True):
        side = 0 if board.turn == chess.WHITE else 1
        limit = chess.engine.Limit(white_clock=clocks[0], black_clock=clocks[1], white_inc=inc, black_inc=inc)
        start = time.monotonic()
        try:
            result = engines[side].play(board, limit)
        except chess.engine.EngineError as e:
            return ("0-1" if side == 0 else "1-0"), f"engine error: {e}", board.ply()
        used = time.monotonic() - start
        clocks[side] -= used
        if clocks[side] < -overhead_ms / 1000.0:
            return ("0-1" if side == 0 else "1-0"), "time forfeit", board.ply()
        clocks[side] += inc
        if result.move is None or result.move not in board.legal_moves:
            return ("0-1" if side == 0 else "1-0"), f"illegal move {result.move}", board.ply()
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    return outcome.result(), outcome.termination.name.lower(), board.ply()


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--first", required=True)
    ap.add_argument("--second", required=True)
    ap.add_argument("--first-option", action="append", default=[])
    ap.add_argument("--second-option", action="append", default=[])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--tc", default="10+0.1", help="base+increment in seconds")
    ap.add_argument("--overhead-ms", type=float, default=0, help="grace before a flag falls")
    args = ap.parse_args()
    base, inc = parse_tc(args.tc)
    first = open_engine(args.first, args.first_option)
    second = open_engine(args.second, args.second_option)
    points, scores = 0.0, []
    wins = draws = losses = 0
    try:
        for g in range(args.games):
            opening = OPENINGS[(g // 2) % len(OPENINGS)]
            first_white = g % 2 == 0
            engines = [first, second] if first_white else [second, first]
            for e in engines:
                e.protocol.send_line("ucinewgame")
            result, reason, plies = play_game(engines, opening, base, inc, args.overhead_ms)
            white_points = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
            p = white_points if first_white else 1 - white_points
            points += p
            scores.append(p)
            wins += p == 1.0
            draws += p == 0.5
            losses += p == 0.0
            print(f"game {g + 1}: first plays {'White' if first_white else 'Black'}, {result} ({reason}, {plies} plies)", flush=True)
    finally:
        first.quit()
        second.quit()
    n = len(scores)
    mean = points / n
    sigma = math.sqrt(sum((s - mean) ** 2 for s in scores) / n / n)
    low, high = elo(mean - 1.96 * sigma), elo(mean + 1.96 * sigma)
    print(f"first: {wins} wins, {draws} draws, {losses} losses of {n}: score {100 * mean:.1f}%, "
          f"Elo {elo(mean):+.0f} +/- {(high - low) / 2:.0f} (95%)")


if __name__ == "__main__":
    main()
