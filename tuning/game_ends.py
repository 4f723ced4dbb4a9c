#!/usr/bin/env python3
"""How the games of match records end: per game its ending, length and the plies of its
checkmates (eliminations); per file the share decided by the rules, the median length, the
median ply of the first checkmate, the winners by seat, how often the winner was the player who
gave the first checkmate, and (with two or more engines) the first checkmates given and taken
and the wins by engine. The checkmates come from replaying each game through the engine's
`status` (no search).

    python3 tuning/game_ends.py [--engine target/release/tessera] [--quiet] RECORDS.jsonl ...
"""

import argparse
import collections
import json
import statistics
import subprocess

DECIDED = ("win rule", "checkmate", "elimination")


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.ask("uci", "uciok")

    def ask(self, command, answer):
        self.proc.stdin.write(command + "\n")
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the engine exited after '{command}'")
            if line.startswith(answer):
                return line.strip()

    def eliminations(self, start, moves):
        """The (victim, mater) pairs, in order, after `moves` from `start` (a position string or
        None)."""
        position = f"position fen {start}" if start else "position startpos"
        if moves:
            position += " moves " + " ".join(moves)
        words = self.ask(position + "\nstatus", "status").split()
        if "eliminated" not in words:
            return []
        return [tuple(pair.split(":")) for pair in words[words.index("eliminated") + 1].split(",")]

    def eliminated(self, start, moves):
        """How many players are out after `moves` from `start`."""
        return len(self.eliminations(start, moves))


def checkmate_plies(engine, record, step=10):
    """The plies after which each checkmate took effect (two at once give the ply twice)."""
    moves, start = record["moves"], record.get("start")
    engine.ask(f"setoption name UCI_Variant value {record['game']}\nisready", "readyok")
    plies, out = [], 0
    for coarse in list(range(step, len(moves), step)) + [len(moves)]:
        if engine.eliminated(start, moves[:coarse]) == out:
            continue
        for ply in range(coarse - step + 1 if coarse > step else 1, coarse + 1):
            now = engine.eliminated(start, moves[:ply])
            plies += [ply] * (now - out)
            out = now
    return plies


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="target/release/tessera")
    parser.add_argument("--quiet", action="store_true", help="the totals only")
    parser.add_argument("records", nargs="+")
    args = parser.parse_args()
    engine = Engine(args.engine)
    for path in args.records:
        lengths, firsts, decided, winners = [], [], 0, collections.Counter()
        # Decided games with a checkmate, and those the first mater won; by engine: first
        # checkmates given and taken, wins.
        mated_and_decided, first_mater_won = 0, 0
        by_engine = collections.defaultdict(collections.Counter)
        with open(path) as f:
            records = [json.loads(line) for line in f if line.strip()]
        for r in records:
            mates = checkmate_plies(engine, r)
            engine_of = dict(zip(r["players"], r["seats"]))
            pairs = engine.eliminations(r.get("start"), r["moves"])
            lengths.append(len(r["moves"]))
            firsts.append(mates[0] if mates else None)
            if pairs:
                victim, mater = pairs[0]
                by_engine[engine_of[mater]]["first mates given"] += 1
                by_engine[engine_of[victim]]["first mates taken"] += 1
            if r["end"] in DECIDED:
                decided += 1
                winner = r["players"][r["places"].index(1)]
                winners[winner] += 1
                by_engine[engine_of[winner]]["wins"] += 1
                if pairs:
                    mated_and_decided += 1
                    first_mater_won += pairs[0][1] == winner
            if not args.quiet:
                print(f"{path}: game {r['index'] + 1}: {r['end']} after {len(r['moves'])} plies, checkmates at {mates}")
        reached = [f for f in firsts if f is not None]
        print(
            f"{path}: {len(records)} games, {decided} decided ({100 * decided / max(1, len(records)):.0f} %), "
            f"median length {statistics.median(lengths) if lengths else '-'}, "
            f"median first checkmate {statistics.median(reached) if reached else '-'} "
            f"({len(records) - len(reached)} games without one), winners by seat {dict(winners)}, "
            f"won by the first mater {first_mater_won} of {mated_and_decided}"
        )
        if len(by_engine) > 1:
            print(f"{path}: by engine " + ", ".join(f"{e} {dict(c)}" for e, c in sorted(by_engine.items())))


if __name__ == "__main__":
    main()
