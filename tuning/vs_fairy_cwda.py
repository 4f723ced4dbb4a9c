#!/usr/bin/env python3
"""Chess with Different Armies against Fairy-Stockfish, over all 16 army pairings.

    tuning/vs_fairy_cwda.py [--elo 2000] [--games 100] [--tc 10+0.1] [--plies 4] [--seed 1] [--shard K/N]

Fairy-Stockfish (../shared/tools/fairy-stockfish) plays the armies from
../shared/reference/cwda-fairy-stockfish.ini, limited by UCI_LimitStrength/UCI_Elo; tessera plays
at full strength. One `tessera match` per pairing, one game at a time, colours alternated on each
opening, real clocks; the games are shared out over the pairings as evenly as whole game pairs
allow. Openings: the pairing's start and `--plies` random legal moves, sent to both engines as
`position fen`. `--shard K/N` plays every N-th pairing from the K-th (the same openings as the
whole run draws), so that N processes, one a core, share one run; add their totals.

The ini has a section per unordered pair of armies with the first army White; a pairing with the
armies the other way round plays that section from tessera's start position. Fairy-Stockfish's
long-castling file is one setting for both sides, while the Colorbound Clobberers castle long to
b1 and the other armies to c1: where the Clobberers meet another army the `-b` section is used
(castling to b1) and the other army starts without its long-castling right, the same for both
engines (the ini's own note on those sections).
"""
import argparse
import random
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
ARMIES = "fcnr"  # FIDE, Colorbound Clobberers, Nutty Knights, Remarkable Rookies (tessera's ids)


def fairy_section(white, black):
    """The ini section for White's army `white` against `black`, and the castling rights to drop."""
    first, second = (white, black) if ARMIES.index(white) <= ARMIES.index(black) else (black, white)
    section = f"cwda-{first}{second}"
    drop = ""
    if "c" in (white, black) and white != black:
        section += "-b"
        drop = "q" if white == "c" else "Q"
    return section, drop


def openings(tessera, pairing, drop, count, plies, rng):
    """`count` opening lines: the pairing's start without the castling rights in `drop`, and
    `plies` random legal moves each."""
    proc = subprocess.Popen([tessera], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(cmd):
        proc.stdin.write(f"{cmd}\nisready\n")
        proc.stdin.flush()
        lines = []
        while (line := proc.stdout.readline().strip()) != "readyok":
            lines.append(line)
        return lines

    ask(f"setoption name UCI_Variant value {pairing}")
    ask("position startpos")
    fields = ask("fen")[-1].split()
    fields[2] = "".join(c for c in fields[2] if c not in drop) or "-"
    fen = " ".join(fields)
    lines = []
    while len(lines) < count:
        moves = []
        for _ in range(plies):
            ask(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
            legal = ask("legal")[-1].split()
            if not legal:
                break
            moves.append(rng.choice(legal))
        if len(moves) == plies:
            lines.append(f"fen {fen} moves {' '.join(moves)}")
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait()
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--elo", type=int, default=2000)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--tc", default="10+0.1")
    ap.add_argument("--plies", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fairy", default=str(SHARED / "tools" / "fairy-stockfish"))
    ap.add_argument("--ini", default=str(SHARED / "reference" / "cwda-fairy-stockfish.ini"))
    ap.add_argument("--shard", default="1/1", help="K/N: play only the pairings i with i %% N == K - 1")
    args = ap.parse_args()
    try:
        shard, shards = map(int, args.shard.split("/"))
    except ValueError:
        sys.exit(f"--shard {args.shard}: expected K/N, two whole numbers")
    if not 1 <= shard <= shards:
        sys.exit(f"--shard {args.shard}: K must be 1 to N")
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    tessera = str(ROOT / "target" / "release" / "tessera")
    runs = ROOT / "tuning" / "runs"
    runs.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    pairings = [w + b for w in ARMIES for b in ARMIES]
    pairs = args.games // 2
    total = {"wins": 0, "draws": 0, "losses": 0}
    for i, armies in enumerate(pairings):
        n_openings = pairs // len(pairings) + (1 if i < pairs % len(pairings) else 0)
        if n_openings == 0:
            continue
        pairing = f"cwda-{armies}"
        section, drop = fairy_section(armies[0], armies[1])
        # Every shard draws every pairing's openings, so that the random sequence, and so each
        # pairing's openings, are the whole run's.
        lines = openings(tessera, pairing, drop, n_openings, args.plies, rng)
        if i % shards != shard - 1:
            continue
        book = runs / f"cwda-openings-{armies}.txt"
        book.write_text("\n".join(lines) + "\n")
        fairy = (f"name=fairy{args.elo},cmd={args.fairy},hash=64,option.VariantPath={args.ini},"
                 f"option.UCI_Variant={section},option.UCI_LimitStrength=true,option.UCI_Elo={args.elo}")
        out = subprocess.run(
            [tessera, "match", "--game", pairing, "--engine", f"name=tessera,cmd={tessera},hash=64", "--engine", fairy,
             "--games", str(2 * n_openings), "--tc", args.tc, "--concurrency", "1", "--openings", str(book),
             "--pgn", str(runs / f"vs-fairy-cwda-{armies}-{args.elo}.pgn"),
             "--jsonl", str(runs / f"vs-fairy-cwda-{armies}-{args.elo}.jsonl")],
            capture_output=True, text=True)
        summary = re.search(r"^tessera +games +\d+ .*wins (\d+) draws (\d+) losses (\d+)", out.stdout, re.M)
        if out.returncode != 0 or not summary:
            sys.exit(f"{pairing}: the match failed:\n{out.stdout}{out.stderr}")
        w, d, l = map(int, summary.groups())
        total["wins"] += w
        total["draws"] += d
        total["losses"] += l
        print(f"{pairing} (Fairy-Stockfish {section}): tessera +{w} ={d} -{l}", flush=True)
    n = sum(total.values())
    score = (total["wins"] + total["draws"] / 2) / n
    print(f"total {n} games: tessera +{total['wins']} ={total['draws']} -{total['losses']}, score {100 * score:.1f} %")


if __name__ == "__main__":
    main()
