#!/usr/bin/env python3
"""Positions of recorded chess games labelled by Stockfish's search, for `tessera tune --labels`.

Texel's method on game results learns slowly: a result says little about any one position of a
long game, and in self-play it rewards what the other engine misjudges. A stronger engine's search
of each position is a far less noisy label. This reads the JSON lines of `tessera match` (chess),
replays each game and, for every `--every`-th position past `--skip` plies that is not in check,
asks Stockfish for its score at `--depth`; it writes one line per position,

    <expected score of the player to move, 0 to 1> <FEN>

the score being 1 / (1 + 10^(-cp / 400)) (a mate: 0 or 1). Positions met twice are labelled once,
and none that the `--exclude` files already label. `--every N --offsets A,B` takes the plies
whose number modulo N is A or B; every ply (`--every 1`) labels about twice as many positions a
second as every fourth, as consecutive positions share Stockfish's hash.

    python3 tuning/label_stockfish.py --depth 8 --out labels.txt runs/sprt-*.jsonl
    python3 tuning/label_stockfish.py --depth 9 --skip 10 --every 1 --exclude data/chess-sf-*.txt.gz \
        --out labels.txt data/sprt-NN19-*.jsonl.gz
"""
import argparse
import gzip
import json
import sys

import chess
import chess.engine


def positions(files, skip, every, offsets, seen):
    for name in files:
        with (gzip.open(name, "rt") if name.endswith(".gz") else open(name)) as f:
            for line in f:
                if not line.strip():
                    continue
                g = json.loads(line)
                if g.get("game") != "chess":
                    sys.exit(f"{name}: a game of {g.get('game')}, not chess")
                board = chess.Board(g["start"]) if g.get("start") else chess.Board()
                for ply, text in enumerate(g["moves"]):
                    if ply >= skip and ply % every in offsets and not board.is_check():
                        fen = board.fen()
                        if key(fen) not in seen:
                            seen.add(key(fen))
                            yield fen
                    board.push(chess.Move.from_uci(text))


def key(fen):
    """A position without its move counters: met twice, it is labelled once."""
    return " ".join(fen.split()[:4])


def labelled(files):
    """The positions the label files already score."""
    seen = set()
    for name in files:
        with (gzip.open(name, "rt") if name.endswith(".gz") else open(name)) as f:
            seen.update(key(" ".join(line.split()[1:7])) for line in f if line.strip())
    return seen


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="JSON-lines files of tessera match (chess)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--skip", type=int, default=8, help="plies left out at each game's start")
    ap.add_argument("--every", type=int, default=1, help="label every N-th ply")
    ap.add_argument("--offsets", default="0", help="the plies labelled: those whose number modulo --every is among these (comma-separated)")
    ap.add_argument("--exclude", nargs="*", default=[], help="label files (plain or gzip-ed) whose positions are not labelled again")
    ap.add_argument("--limit", type=int, default=0, help="stop after this many positions (0: all)")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--hash", type=int, default=16)
    args = ap.parse_args()
    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    engine.configure({"Threads": 1, "Hash": args.hash})
    n = 0
    with open(args.out, "w") as out:
        offsets = {int(o) for o in args.offsets.split(",")}
        for fen in positions(args.files, args.skip, args.every, offsets, labelled(args.exclude)):
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
