"""Lazy SMP time to a fixed depth: `go depth D` with 1 and with 2 threads from plies 10, 20, ...,
100 of a recorded game (the first game of a match record written by `tessera match --jsonl`),
a fresh table (`ucinewgame`) before each search.

    python3 tuning/smp_depth.py BINARY GAME RECORD.jsonl DEPTH [GAME RECORD.jsonl DEPTH ...]

A record to start from: `tessera match --game aof3 --engine name=a,movetime=100 --games 1
--max-plies 120 --jsonl aof3.jsonl`. Prints per game the total seconds of each thread count and
the geometric mean of the per-position speed-ups (one slow position does not dominate it).
Wall-clock figures: run it on an otherwise idle machine."""
import json
import math
import subprocess
import sys
import time


def times(binary, game, moves, depth, threads):
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    send(f"setoption name UCI_Variant value {game}")
    send(f"setoption name Threads value {threads}")
    seconds = []
    for ply in range(10, 101, 10):
        send("ucinewgame")
        send("position startpos moves " + " ".join(moves[:ply]))
        send("isready")
        while p.stdout.readline().strip() != "readyok":
            pass
        t0 = time.perf_counter()
        send(f"go depth {depth}")
        while not p.stdout.readline().startswith("bestmove"):
            pass
        seconds.append(time.perf_counter() - t0)
    send("quit")
    p.wait()
    return seconds


def main():
    binary, rest = sys.argv[1], sys.argv[2:]
    if not rest or len(rest) % 3:
        sys.exit(__doc__)
    for game, record, depth in zip(rest[0::3], rest[1::3], rest[2::3]):
        with open(record) as f:
            moves = json.loads(f.readline())["moves"]
        one, two = times(binary, game, moves, depth, 1), times(binary, game, moves, depth, 2)
        mean = math.exp(sum(math.log(a / b) for a, b in zip(one, two)) / len(one))
        print(f"{game} depth {depth}: 1 thread {sum(one):.2f} s, 2 threads {sum(two):.2f} s, "
              f"total speed-up {sum(one) / sum(two):.2f}x, geometric mean {mean:.2f}x", flush=True)


if __name__ == "__main__":
    main()
