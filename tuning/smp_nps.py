"""Lazy SMP nodes per second: `go movetime T` from a game's start with 1 and with 2 threads, a
fresh table before each search, the nps of the last `info` line; the median of RUNS runs per
thread count, and their ratio.

    python3 tuning/smp_nps.py BINARY [--movetime 4000] [--runs 3] GAME [GAME ...]

Wall-clock figures: run it on an otherwise idle machine."""
import statistics
import subprocess
import sys


def nps(binary, game, threads, movetime):
    script = (f"setoption name UCI_Variant value {game}\nsetoption name Threads value {threads}\n"
              f"ucinewgame\nposition startpos\ngo movetime {movetime}\n")
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    p.stdin.write(script)
    p.stdin.flush()
    last = 0
    for line in p.stdout:
        words = line.split()
        if "nps" in words:
            last = int(words[words.index("nps") + 1])
        if line.startswith("bestmove"):
            break
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    return last


def main():
    args = sys.argv[1:]
    options = {"--movetime": 4000, "--runs": 3}
    for name in list(options):
        if name in args:
            i = args.index(name)
            options[name] = int(args[i + 1])
            del args[i:i + 2]
    if len(args) < 2:
        sys.exit(__doc__)
    binary, games = args[0], args[1:]
    for game in games:
        one = statistics.median(nps(binary, game, 1, options["--movetime"]) for _ in range(options["--runs"]))
        two = statistics.median(nps(binary, game, 2, options["--movetime"]) for _ in range(options["--runs"]))
        print(f"{game}: 1 thread {one / 1e6:.2f} M nps, 2 threads {two / 1e6:.2f} M nps, {two / one:.2f}x", flush=True)


if __name__ == "__main__":
    main()
