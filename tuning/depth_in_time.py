"""Depth completed in a fixed time: `go movetime T` with one thread from a game's start and from
plies 40, 60, 80, 100 and 120 of a recorded game (the first game of a `tessera match --jsonl`
record in which every player is still in the game at ply 120: middle-game positions), a fresh
table (`ucinewgame`) before each search. Prints the deepest completed iteration per position and
time.

    python3 tuning/depth_in_time.py BINARY GAME RECORD.jsonl [GAME RECORD.jsonl ...]

Times are 1000 and 10000 ms unless `--times 1000,3000` says otherwise. Wall-clock figures: run
it on an otherwise idle machine."""
import json
import subprocess
import sys

PLIES = [0, 40, 60, 80, 100, 120]


def send(p, text):
    p.stdin.write(text + "\n")
    p.stdin.flush()


def depth_reached(p, movetime):
    send(p, f"go movetime {movetime}")
    depth = 0
    while True:
        line = p.stdout.readline()
        if not line or line.startswith("bestmove"):
            return depth
        words = line.split()
        # Lines of a completed iteration carry a principal variation and no bound.
        if words[:2] == ["info", "depth"] and "pv" in words and "lowerbound" not in words and "upperbound" not in words:
            depth = max(depth, int(words[2]))


def all_in(p, moves, players):
    """Whether every player is still in the game after `moves` (the engine's `status`)."""
    send(p, "position startpos moves " + " ".join(moves) + "\nstatus")
    while True:
        words = p.stdout.readline().split()
        if words[:1] == ["status"]:
            return words[1] == "playing" and len(words[words.index("active") + 1].split(",")) == players


def main():
    args = sys.argv[1:]
    times = [1000, 10000]
    if "--times" in args:
        i = args.index("--times")
        times = [int(t) for t in args[i + 1].split(",")]
        del args[i:i + 2]
    if len(args) < 3 or len(args) % 2 != 1:
        sys.exit(__doc__)
    binary = args[0]
    for game, record in zip(args[1::2], args[2::2]):
        p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        send(p, f"setoption name UCI_Variant value {game}\nsetoption name Threads value 1")
        with open(record) as f:
            games = [g for g in map(json.loads, f) if len(g["moves"]) > PLIES[-1]]
        moves = next(g["moves"] for g in games if all_in(p, g["moves"][:PLIES[-1]], len(g["players"])))
        cells = []
        for ply in PLIES:
            depths = []
            for t in times:
                send(p, "ucinewgame\nposition startpos moves " + " ".join(moves[:ply]))
                depths.append(depth_reached(p, t))
            cells.append(("start" if ply == 0 else f"ply {ply}") + " " + "/".join(map(str, depths)))
        send(p, "quit")
        p.wait()
        print(f"{game} ({'/'.join(str(t) for t in times)} ms): " + ", ".join(cells), flush=True)


if __name__ == "__main__":
    main()
