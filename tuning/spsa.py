#!/usr/bin/env python3
"""SPSA tuning of tessera's evaluation parameters by self-play.

Each iteration perturbs every tuned parameter by +/- c_k at random, plays a few game pairs of the
"plus" against the "minus" configuration with `tessera match` (same openings, seats swapped), and
moves the parameters along the measured difference. The schedule is the usual one (as in
Fishtest): c_k = c / k^0.101, a_k = a / (A + k)^0.602, with c and a chosen so that the last
iteration perturbs by `c_end` and steps by `r_end * c_end^2` per unit of result.

Standard library only. See README.md in this directory.
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SUMMARY = re.compile(r"^(\S+)\s+games\s+(\d+)\s+score\s+[\d.]+%.*\spoints\s+([\d.]+)/(\d+)\s*$")


def eval_params(tessera):
    """name -> (default, min, max), from `tessera eval-params`."""
    out = subprocess.run([tessera, "eval-params"], check=True, capture_output=True, text=True).stdout
    params = {}
    for line in out.splitlines():
        name, default, lo, hi = line.split()
        params[name] = (int(default), int(lo), int(hi))
    return params


def spec(name, values, limit):
    return ",".join([f"name={name}", limit] + [f"{k}={v}" for k, v in sorted(values.items())])


def play(tessera, game, limit, plus, minus, games, seed, plies, max_plies, concurrency):
    """Points of `plus` and of `minus` over `games` games (both from head-to-head comparisons)."""
    cmd = [tessera, "match", "--game", game, "--games", str(games), "--quiet", "--seed", str(seed),
           "--max-plies", str(max_plies), "--engine", spec("plus", plus, limit), "--engine", spec("minus", minus, limit)]
    if plies > 0:
        cmd += ["--openings", f"random:{plies}"]
    if concurrency:
        cmd += ["--concurrency", str(concurrency)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    points = {}
    for line in out.splitlines():
        m = SUMMARY.match(line)
        if m:
            points[m.group(1)] = float(m.group(3))
    if "plus" not in points or "minus" not in points:
        raise RuntimeError(f"cannot read the match result from:\n{out}")
    return points["plus"], points["minus"], out


def clamp(v, lo, hi):
    return max(lo, min(hi, v))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tessera", default=os.path.join(ROOT, "target", "release", "tessera"), help="the engine binary")
    ap.add_argument("--game", default="chess", help="game id (default chess)")
    ap.add_argument("--params", default="", help="comma-separated parameters to tune (default: all)")
    ap.add_argument("--start", default="", help="start values name=value,... (default: the PARAMS table)")
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--pairs", type=int, default=2, help="game pairs per iteration (default 2)")
    ap.add_argument("--limit", default="nodes=3000", help="search limit per move, as in tessera match (default nodes=3000)")
    ap.add_argument("--opening-plies", type=int, default=8, help="random opening length (0: start position)")
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--concurrency", type=int, default=0, help="games at once (default: tessera's choice)")
    ap.add_argument("--c-end", type=float, default=0.0,
                    help="final perturbation, in parameter units (default: 1/20 of each range, at least 2)")
    ap.add_argument("--r-end", type=float, default=0.01, help="final learning rate (default 0.01)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--verify-games", type=int, default=0, help="finally play tuned against the defaults")
    ap.add_argument("--out", default="", help="log file (default tuning/runs/<game>-<time>.jsonl)")
    args = ap.parse_args()

    if not os.path.exists(args.tessera):
        sys.exit(f"{args.tessera} not found: build it with `cargo build --release`")
    known = eval_params(args.tessera)
    names = [n.strip() for n in args.params.split(",") if n.strip()] or list(known)
    for n in names:
        if n not in known:
            sys.exit(f"unknown parameter {n}; known: {', '.join(known)}")
    theta = {n: float(known[n][0]) for n in names}
    for part in filter(None, args.start.split(",")):
        n, v = part.split("=")
        if n not in theta:
            sys.exit(f"--start names {n}, which is not tuned")
        theta[n] = float(v)

    N = max(1, args.iterations)
    A = 0.1 * N
    alpha, gamma = 0.602, 0.101
    c_end = {n: args.c_end or max(2.0, (known[n][2] - known[n][1]) / 20.0) for n in names}
    c0 = {n: c_end[n] * N**gamma for n in names}
    a0 = {n: args.r_end * c_end[n] ** 2 * (A + N) ** alpha for n in names}

    rng = random.Random(args.seed)
    out_path = args.out or os.path.join(HERE, "runs", f"{args.game}-{time.strftime('%Y%m%d-%H%M%S')}.jsonl")
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    games = 2 * args.pairs
    print(f"tuning {', '.join(names)} on {args.game}: {N} iterations of {games} games at {args.limit}; log {out_path}")
    started = time.time()
    with open(out_path, "w") as log:
        log.write(json.dumps({"game": args.game, "params": names, "start": theta, "iterations": N, "games": games,
                              "limit": args.limit, "c_end": c_end, "r_end": args.r_end, "seed": args.seed}) + "\n")
        for k in range(1, N + 1):
            ck = {n: c0[n] / k**gamma for n in names}
            ak = {n: a0[n] / (A + k) ** alpha for n in names}
            delta = {n: rng.choice((-1, 1)) for n in names}
            plus, minus = {}, {}
            for n in names:
                _, lo, hi = known[n]
                plus[n] = clamp(round(theta[n] + ck[n] * delta[n]), lo, hi)
                minus[n] = clamp(round(theta[n] - ck[n] * delta[n]), lo, hi)
            p, m, _ = play(args.tessera, args.game, args.limit, plus, minus, games, args.seed * 100_003 + k,
                           args.opening_plies, args.max_plies, args.concurrency)
            result = p - m
            for n in names:
                _, lo, hi = known[n]
                # a_k / c_k^2 * c_k * result * delta: the gradient step along the perturbation.
                theta[n] = clamp(theta[n] + ak[n] / ck[n] * result * delta[n], lo, hi)
            log.write(json.dumps({"iteration": k, "plus": plus, "minus": minus, "result": result,
                                  "theta": {n: round(v, 3) for n, v in theta.items()}}) + "\n")
            log.flush()
            shown = " ".join(f"{n}={theta[n]:.2f}" for n in names)
            print(f"{k:>5} result {result:+.1f}  {shown}  ({time.time() - started:.0f} s)", flush=True)

        tuned = {n: int(round(v)) for n, v in theta.items()}
        log.write(json.dumps({"tuned": tuned}) + "\n")
        print("tuned: " + ",".join(f"{n}={v}" for n, v in tuned.items()))
        print("as fields of the game's EvalParams (src/games/): " + ", ".join(f"{n}: {v}" for n, v in tuned.items()))
        if args.verify_games > 0:
            defaults = {n: known[n][0] for n in names}
            p, m, out = play(args.tessera, args.game, args.limit, tuned, defaults, args.verify_games, args.seed + 7,
                             args.opening_plies, args.max_plies, args.concurrency)
            print("verification, tuned (plus) against the defaults (minus):")
            print(out.rstrip())
            log.write(json.dumps({"verify": {"games": args.verify_games, "tuned": p, "defaults": m}}) + "\n")


if __name__ == "__main__":
    main()
