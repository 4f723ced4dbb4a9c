#!/usr/bin/env python3
"""Where material goes in multi-player records: every capture made while all players were in,
classed by what its victim did within a round (replayed with the engine's `eval`).

- free: the victim took nothing of the capturer's in the round before or after;
- answer: it takes back what the victim took from the capturer in the round before;
- answered: the victim takes something of the capturer's before the capturer moves again.

    python3 tuning/captures.py [--engine target/release/tessera] [--games N] RECORDS.jsonl
"""

import argparse
import collections
import json

from bare_phase import material_and_active
from game_ends import Engine


def captures(engine, record):
    """(ply, capturer, victim, material taken) for each capture while every player was in."""
    engine.ask(f"setoption name UCI_Variant value {record['game']}\nisready", "readyok")
    moves, start, players = record["moves"], record.get("start"), record["players"]
    before, _ = material_and_active(engine, start, [])
    out = []
    for ply in range(len(moves)):
        after, active = material_and_active(engine, start, moves[: ply + 1])
        if len(active) < len(players):
            break
        mover = players[ply % len(players)][0].lower()
        out += [(ply, mover, p, before[p] - after.get(p, 0)) for p in before if p != mover and before[p] > after.get(p, 0)]
        before = after
    return out


def classify(events, players):
    """Counts and material of the captures by class."""
    count, material = collections.Counter(), collections.Counter()
    for t, x, y, v in events:
        back = [s for s, a, b, _ in events if a == y and b == x and abs(s - t) < players]
        kind = "answer" if any(s < t for s in back) else "answered" if any(s > t for s in back) else "free"
        count[kind] += 1
        material[kind] += v
    return count, material


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default="target/release/tessera")
    parser.add_argument("--games", type=int, default=None, help="the first N games only")
    parser.add_argument("records")
    args = parser.parse_args()
    engine = Engine(args.engine)
    records = [json.loads(line) for line in open(args.records)][: args.games]
    count, material = collections.Counter(), collections.Counter()
    for r in records:
        c, m = classify(captures(engine, r), len(r["players"]))
        count.update(c)
        material.update(m)
        print(f"game {r['index'] + 1}: {r['end']} after {len(r['moves'])} plies: {dict(c)}", flush=True)
    for kind in ("free", "answer", "answered"):
        print(f"{kind}: {count[kind]} captures, {material[kind] // max(count[kind], 1)} material each on average")


if __name__ == "__main__":
    main()
