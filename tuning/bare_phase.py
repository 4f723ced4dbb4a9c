#!/usr/bin/env python3
"""The phase of a multi-player game after a player is first down to its royal piece (bare).

`openings RECORDS.jsonl OUT`: per game, the ply (sampled every 10) at which an active player was
first bare, and the first checkmate's; the median of each, and the plies between them. The moves
up to the first bare player of each game in which nobody had been mated by then go to OUT, one
opening a line, for `tessera match --openings OUT`.

`report OPENINGS RECORDS.jsonl ...`: for matches played from those openings, the games won by
the rules and the plies from each opening's end to the first checkmate after it.

`finals RECORDS.jsonl OUT`: the last positions of the games the fifty-move rule ended in which a
player who has mated someone still has men beside its royal piece and every other player is
bare, with the fifty-move count set back to 0: one `fen` opening a line (conversions that
failed, to play again).

`leftovers RECORDS.jsonl ...`: per file, how the games that no rule decided end: the games per
number of players still in and of those bare, and the men left beside the royal pieces by kind
(a letter, `*` for a promotee of a checkmate).

    python3 tuning/bare_phase.py [--engine target/release/tessera] openings guru2.jsonl bare.txt
    python3 tuning/bare_phase.py [--engine target/release/tessera] report bare.txt played.jsonl
    python3 tuning/bare_phase.py [--engine target/release/tessera] finals guru2.jsonl finals.txt
    python3 tuning/bare_phase.py [--engine target/release/tessera] leftovers guru2.jsonl
"""

import argparse
import collections
import json
import re
import statistics

from game_ends import DECIDED, Engine, checkmate_plies

STEP = 10


def material_and_active(engine, start, moves):
    """Each player's material (by its letter) and the letters of the active players."""
    position = f"position fen {start}" if start else "position startpos"
    if moves:
        position += " moves " + " ".join(moves)
    engine.proc.stdin.write(position + "\neval\n")
    material = {}
    while True:
        line = engine.proc.stdout.readline()
        if line.startswith("eval term material"):
            material = {w.split(":")[0]: int(w.split(":")[1]) for w in line.split()[3:]}
        if line.startswith("eval end"):
            break
    words = engine.ask("status", "status").split()
    active = [name[0].lower() for name in words[words.index("active") + 1].split(",")]
    return material, active


def openings(engine, records, out_path):
    firsts_bare, gaps = [], []
    with open(out_path, "w") as out:
        for r in records:
            engine.ask(f"setoption name UCI_Variant value {r['game']}\nisready", "readyok")
            moves, start = r["moves"], r.get("start")
            first_bare, first_mate = None, None
            for ply in list(range(0, len(moves), STEP)) + [len(moves)]:
                material, active = material_and_active(engine, start, moves[:ply])
                if first_bare is None and any(material.get(p) == 0 for p in active):
                    first_bare = ply
                if first_mate is None and len(active) < len(r["players"]):
                    first_mate = ply
            print(f"game {r['index'] + 1}: {r['end']} after {len(moves)} plies, first bare {first_bare}, first checkmate {first_mate}")
            if first_bare is None:
                continue
            firsts_bare.append(first_bare)
            if first_mate is None or first_mate > first_bare:
                gaps.append((first_mate or len(moves)) - first_bare)
                out.write(("fen " + start + " moves " if start else "") + " ".join(moves[:first_bare]) + "\n")
    print(
        f"{len(records)} games, {len(firsts_bare)} with a bare player: median first bare ply "
        f"{statistics.median(firsts_bare) if firsts_bare else '-'}, then a median "
        f"{statistics.median(gaps) if gaps else '-'} plies to the first checkmate (or the end); "
        f"{len(gaps)} openings written"
    )


def finals(engine, records, out_path):
    written = 0
    with open(out_path, "w") as out:
        for r in records:
            if r["end"] != "fifty-move rule":
                continue
            engine.ask(f"setoption name UCI_Variant value {r['game']}\nisready", "readyok")
            start, moves = r.get("start"), r["moves"]
            material, active = material_and_active(engine, start, moves)
            armed = [p for p in active if material.get(p, 0) > 0]
            maters = {mater[0].lower() for _, mater in engine.eliminations(start, moves)}
            if len(armed) != 1 or armed[0] not in maters:
                continue
            fields = engine.ask("d", "Position:").split()[1:]
            fields[5] = "0"
            out.write("fen " + " ".join(fields) + "\n")
            written += 1
    print(f"{len(records)} games, {written} final positions written")


def leftovers(engine, records):
    """The players in, the bare ones and the men left at the end of the undecided games."""
    shapes, men, royal = collections.Counter(), collections.Counter(), {}
    for r in records:
        if r["end"] in DECIDED:
            continue
        if r["game"] not in royal:
            royal[r["game"]] = royal_kinds(engine, r["game"])
        engine.ask(f"setoption name UCI_Variant value {r['game']}\nisready", "readyok")
        start, moves = r.get("start"), r["moves"]
        material, active = material_and_active(engine, start, moves)
        shapes[(len(active), sum(material.get(p, 0) == 0 for p in active))] += 1
        board = engine.ask("d", "Position:").split()[1]
        # A man is its owner's letter, its kind's capital and `*` for a checkmate's promotee.
        for owner, kind in re.findall(r"([a-z])([A-Z]\*?)", board):
            if owner in active and kind.rstrip("*") not in royal[r["game"]]:
                men[kind] += 1
    for (players, bare), games in sorted(shapes.items()):
        print(f"{games} games end with {players} players in, {bare} of them bare")
    print("men left: " + ", ".join(f"{kind} {n}" for kind, n in men.most_common()))


def royal_kinds(engine, game):
    """The codes of the game's royal kinds (its `pieces` listing)."""
    engine.proc.stdin.write(f"setoption name UCI_Variant value {game}\npieces\n")
    kinds = set()
    while True:
        line = engine.proc.stdout.readline()
        if not line:
            raise RuntimeError("the engine exited after 'pieces'")
        words = line.split()
        if words[:1] == ["piece"] and words[words.index("royal") + 1] == "yes":
            kinds.add(words[2])
        if words[:1] == ["pieces"] and words[1] == "end":
            return kinds


def read_records(path):
    """The games of a match's JSON lines."""
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def report(engine, openings_path, paths):
    lines = [line.split() for line in open(openings_path)]
    lengths = [len(w) - w.index("moves") - 1 if w and w[0] == "fen" else len(w) for w in lines]
    for path in paths:
        records = read_records(path)
        to_mate, won = [], 0
        for r in records:
            start = lengths[r["opening"]]
            after = [p for p in checkmate_plies(engine, r) if p > start]
            to_mate.append(after[0] - start if after else None)
            won += r["end"] in DECIDED
        reached = [p for p in to_mate if p is not None]
        # Games without a checkmate count as longer than any with one.
        median = statistics.median([p if p is not None else float("inf") for p in to_mate]) if to_mate else None
        print(
            f"{path}: {len(records)} games, {won} won by the rules, median plies to the first checkmate "
            f"{median} ({len(to_mate) - len(reached)} games without one)"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="target/release/tessera")
    sub = parser.add_subparsers(dest="command", required=True)
    o = sub.add_parser("openings")
    o.add_argument("records")
    o.add_argument("out")
    r = sub.add_parser("report")
    r.add_argument("openings")
    r.add_argument("records", nargs="+")
    f = sub.add_parser("finals")
    f.add_argument("records")
    f.add_argument("out")
    lo = sub.add_parser("leftovers")
    lo.add_argument("records", nargs="+")
    args = parser.parse_args()
    engine = Engine(args.engine)
    if args.command in ("openings", "finals"):
        (openings if args.command == "openings" else finals)(engine, read_records(args.records), args.out)
    elif args.command == "leftovers":
        for path in args.records:
            print(f"{path}:")
            leftovers(engine, read_records(path))
    else:
        report(engine, args.openings, args.records)


if __name__ == "__main__":
    main()
