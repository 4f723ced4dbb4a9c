#!/usr/bin/env python3
"""Positions of recorded chess games labelled by Stockfish's search, for `tessera tune --labels`.

Texel's method on game results learns slowly: a result says little about any one position of a
long game, and in self-play it rewards what the other engine misjudges. A stronger engine's search
of each position is a far less noisy label. This reads the JSON lines of `tessera match` (chess),
replays each game and, for every `--every`-th position past `--skip` plies that is not in check,
asks Stockfish for its score at `--depth`; it writes one line per position,

    <expected score of the player to move, 0 to 1> <FEN>

the score being 1 / (1 + 10^(-cp / 400)) (a mate: 0 or 1). Positions met twice are labelled once.

    python3 tuning/label_stockfish.py --depth 8 --out labels.txt runs/sprt-*.jsonl
"""
import argparse
import json
import sys

import chess
import chess.engine


def positions(files, skip, every):
    seen = set()
    for name in files:
        with open(name) as f:
            for line in f:
                if not line.strip():
                    continue
                g = json.loads(line)
                if g.get("game") != "chess":
                    sys.exit(f"{name}: a game of {g.get('game')}, not chess")
                board = chess.Board(g["start"]) if g.get("start") else chess.Board()
                for ply, text in enumerate(g["moves"]):
                    if ply >= skip and ply % every == 0 and not board.is_check():
                        fen = board.fen()
                        key = " ".join(fen.split()[:4])
                        if key not in seen:
                            seen.add(key)
                            yield fen
                    board.push(chess.Move.from_uci(text))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="JSON-lines files of tessera match (chess)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--skip", type=int, default=8, help="plies left out at each game's start")
    ap.add_argument("--every", type=int, default=1, help="label every N-th ply")
    ap.add_argument("--limit", type=int, default=0, help="stop after this many positions (0: all)")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--hash", type=int, default=16)
    args = ap.parse_args()
    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    engine.configure({"Threads": 1, "Hash": args.hash})
    n = 0
    with open(args.out, "w") as out:
        for fen in positions(args.files, args.skip, args.every):
            info = engine.analyse(chess.Board(fen), chess.engine.Limit(depth=args.depth))
            score = info["score"].relative
            if score.is_mate():
                expected = 1.0 if score.mate() > 0 else 0.0
            else:
                expected = 1.0 / (1.0 + 10.0 ** (-score.score() / 400.0))
            out.write(f"{expected:.4f} {fen}\n")
            n += 1
            if n % 1000 == 0:
                out.flush()
                print(f"{n} positions", file=sys.stderr)
            if args.limit and n >= args.limit:
                break
    engine.quit()
    print(f"{n} positions labelled at depth {args.depth}", file=sys.stderr)


if __name__ == "__main__":
    main()
