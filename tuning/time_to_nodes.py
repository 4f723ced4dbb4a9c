#!/usr/bin/env python3
"""Wall time for a fixed number of nodes, binaries alternated: a speed A/B that the search order
does not blur (same nodes, same tree), for changes that should only make tessera faster.

    python3 tuning/time_to_nodes.py --nodes 4000000 --rounds 3 BIN_A BIN_B

Each round starts every binary afresh (a new table, its pages touched anew), sets the hash,
sends the position and times `go nodes N` to `bestmove`. Timings on a shared or virtual machine
vary; alternate and compare the means.
"""

import argparse
import statistics
import subprocess
import time

QGD = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9"


def seconds_to_nodes(binary: str, fen: str, nodes: int, hash_mb: int) -> float:
    engine = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    assert engine.stdin is not None and engine.stdout is not None
    engine.stdin.write(f"uci\nsetoption name Hash value {hash_mb}\nposition fen {fen}\nisready\n")
    for line in engine.stdout:
        if line.startswith("readyok"):
            break
    start = time.time()
    engine.stdin.write(f"go nodes {nodes}\n")
    for line in engine.stdout:
        if line.startswith("bestmove"):
            break
    elapsed = time.time() - start
    engine.stdin.write("quit\n")
    engine.wait()
    return elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binaries", nargs="+")
    ap.add_argument("--nodes", type=int, default=4_000_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--hash", type=int, default=64, help="MiB")
    ap.add_argument("--fen", default=QGD, help="a chess position (default: a Queen's Gambit middle game)")
    args = ap.parse_args()
    times: dict[str, list[float]] = {b: [] for b in args.binaries}
    for _ in range(args.rounds):
        for b in args.binaries:
            t = seconds_to_nodes(b, args.fen, args.nodes, args.hash)
            times[b].append(t)
            print(f"{b} {t:.2f} s", flush=True)
    for b, ts in times.items():
        print(f"{b}: mean {statistics.mean(ts):.2f} s over {len(ts)}")


if __name__ == "__main__":
    main()
