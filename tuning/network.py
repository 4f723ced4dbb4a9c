"""Chess's learned correction network (its text, which `tessera network` turns into
`src/games/chess.network`, read by `src/eval/network.rs`): one hidden layer over the men seen from the player to move, fitted to
Stockfish's labels on top of tessera's evaluation with the network off, so that it learns what the
evaluation's terms and tables miss.

    python3 tuning/network.py dump DATA.npz LABELS... [--train-only LABELS...] [--held-out LABELS...]
                                      [--cache DIR]       (TESSERA=engine, OPTS=name=value,...)
    python3 tuning/network.py train DATA.npz OUT [--hidden 512 --epochs 32 --buckets 8 --perspectives 2
                                                           --mirror --check OTHER.npz ...]

`dump` reads label files (lines `<expected score> <FEN> [game number]`, plain or gzip-ed: those of
`label_stockfish.py` have no game numbers) and keeps the positions the linear fits keep
(`eval_client.fits`: quiet, within 800 cp); per position it stores the men as inputs (relation to
the mover, type, square from the mover's side), tessera's score with `network_permille=0` and the
label. Positions of every fifth game (by number; without numbers, the last fifth of each file) are
held out; none of `--train-only`'s (labels of a shallower search, six times as many for the time,
depth 9 against 12, that leave the error measured on the deeper labels) and all of `--held-out`'s
(games no other file labels: with `train --check`, an error no training position leaks into, where
positions of one game in both halves would). With `--cache DIR` each file's part of the dump is kept
in DIR and read back by later dumps (a dump of two million labels takes some ten minutes of
tessera's evaluations; its parts belong to the binary that made them: clear DIR when the evaluation
changes). `train` fits the network by AdamW (its weight decay keeps the network from learning the
training games by heart, which it does from the third epoch without) on the squared error of the
expected score through the logistic curve (the scale k fitted first, as `tessera tune` does),
reports the error on the held-out positions each epoch, and writes the network in integers: hidden
weights and biases in 1/1024 of a unit, output weights in 1/16 cp. With `--buckets B` the output
layer has B rows, one per range of men on the board (a position with n men uses row (n - 1) * B /
32: NNUE's output buckets), which the engine reads alike. With `--perspectives 2` the output weighs
the hidden units of the same men seen from the other player too (NNUE's two perspectives, one first
layer for both). With `--mirror` a viewer whose King stands on files a-d sees the board mirrored
left to right (NNUE's horizontal mirroring), so that the network learns one King side's patterns
from both.

`results` finds each dump position's game result: the recorded games (`tessera match --jsonl`
records, plain or gzip-ed) are replayed, and a position (its men as the mover sees them) gets the
mean result for its mover of the games that reached it; `train --results FILE --result-weight W`
then fits to (1 - W) * label + W * result where a result is known (the labels alone elsewhere),
and reports its errors against the labels alone, as without:

    python3 tuning/network.py results DATA.npz RESULTS.npz RECORDS...

Needs numpy and torch (CPU).
"""
import argparse
import gzip
import json
import math
import os
import sys

import chess
import numpy as np
from eval_client import Evaluator, fits

CODES = "PNBRQK"
HELD_OUT_EVERY = 5
ONE = 1024
OUTPUT_UNIT = 16
MAX_MEN = 32
# The engine's bound on output weights (`src/eval/network.rs`: a perspective's sum below 2^31 at its
# most hidden units, 1024).
MAX_OUTPUT = (2**31 - 1) // (ONE * 1024)


def inputs(board):
    """The input index of each man: (enemy?) * 384 + type * 64 + square, seen from the mover's
    side (Black's board mirrored top to bottom and its colours swapped)."""
    b = board if board.turn == chess.WHITE else board.mirror()
    return [(0 if man.color == chess.WHITE else 6) * 64 + (man.piece_type - 1) * 64 + sq for sq, man in b.piece_map().items()]


def open_text(name):
    return gzip.open(name, "rt") if name.endswith(".gz") else open(name)


def dump_file(tessera, name, role):
    """One label file's quiet positions: (men, scores, labels, held out?) arrays; `role` is
    "train", "held-out" or "split" (every fifth game held out; the last fifth without numbers)."""
    men, scores, labels, test = [], [], [], []
    lines = open_text(name).read().splitlines()
    for i, line in enumerate(lines):
        words = line.split()
        label, fen = words[0], " ".join(words[1:7])
        if role != "split":
            held_out = role == "held-out"
        elif len(words) > 7:
            held_out = int(words[7]) % HELD_OUT_EVERY == 0
        else:
            held_out = i >= len(lines) * (1 - 1 / HELD_OUT_EVERY)
        board = chess.Board(fen)
        if not fits(board, label):
            continue
        row = inputs(board)
        men.append(row + [768] * (MAX_MEN - len(row)))
        scores.append(tessera.evaluate(fen)[1])
        labels.append(float(label))
        test.append(held_out)
    return (np.array(men, np.int16).reshape(-1, MAX_MEN), np.array(scores, np.float32), np.array(labels, np.float32), np.array(test, bool))


def dump(out, files, train_only, held_out_only, cache):
    """The label files' positions in one dump; with `cache`, each file's part is kept there (by
    its name and role) and read back instead of evaluated again."""
    os.environ["OPTS"] = ",".join(filter(None, [os.environ.get("OPTS", ""), "network_permille=0"]))
    tessera = None
    parts = []
    for name in files + train_only + held_out_only:
        role = "train" if name in train_only else "held-out" if name in held_out_only else "split"
        kept = cache and os.path.join(cache, f"{os.path.basename(name)}.{role}.npz")
        if kept and os.path.exists(kept):
            c = np.load(kept)
            part = (c["men"], c["scores"], c["labels"], c["test"])
        else:
            tessera = tessera or Evaluator(os.environ.get("TESSERA", "target/release/tessera"))
            part = dump_file(tessera, name, role)
            if kept:
                os.makedirs(cache, exist_ok=True)
                np.savez(kept, men=part[0], scores=part[1], labels=part[2], test=part[3])
        parts.append(part)
        print(f"{name}: {len(part[2])} positions", file=sys.stderr)
    men, scores, labels, test = (np.concatenate([p[i] for p in parts]) for i in range(4))
    np.savez(out, men=men, scores=scores, labels=labels, test=test, files=np.array([os.path.basename(n) for n in files + train_only + held_out_only]))


WHITE_SCORE = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}


def position_keys(men):
    """A 64-bit key per row of inputs (any order, padded with 768): the same men seen by the same
    relation give the same key."""
    key = np.zeros(len(men), np.uint64)
    for column in np.sort(men.astype(np.int64), axis=1).T.astype(np.uint64):
        key = key * np.uint64(1_000_003) + column
    return key


def record_results(records):
    """Every position of the recorded chess games: its key and its game's result for the mover."""
    keys, results = [], []
    for name in records:
        for line in open_text(name):
            game = json.loads(line)
            white = WHITE_SCORE.get(game.get("result"))
            if game.get("game") != "chess" or white is None:
                continue
            board = chess.Board(game["start"]) if game.get("start") else chess.Board()
            rows, movers = [], []
            for ply in range(len(game["moves"]) + 1):
                if ply:
                    board.push_uci(game["moves"][ply - 1])
                row = inputs(board)
                rows.append(row + [768] * (MAX_MEN - len(row)))
                movers.append(white if board.turn == chess.WHITE else 1 - white)
            keys.append(position_keys(np.array(rows)))
            results.append(np.array(movers))
        print(f"{name}: {sum(map(len, keys))} positions so far", file=sys.stderr)
    return np.concatenate(keys), np.concatenate(results)


def results(data, out, records):
    """Each dump position's mean game result for its mover over the records' games that reached
    it (NaN where none did), written to `out` as `results`."""
    keys, scores = record_results(records)
    unique, inverse = np.unique(keys, return_inverse=True)
    total, count = np.bincount(inverse, weights=scores), np.bincount(inverse)
    wanted = position_keys(np.load(data)["men"])
    at = np.minimum(np.searchsorted(unique, wanted), len(unique) - 1)
    found = unique[at] == wanted
    mean = np.where(found, total[at] / np.maximum(count[at], 1), np.nan).astype(np.float32)
    np.savez(out, results=mean)
    print(f"{found.sum()} of {len(wanted)} positions found in {len(records)} records ({len(unique)} distinct positions); mean result {np.nanmean(mean):.4f}")


def buckets_of(men, buckets):
    """Each position's output bucket: its men counted, (men - 1) * B / 32."""
    return ((men != 768).sum(1) - 1).clamp(0, MAX_MEN - 1) * buckets // MAX_MEN


def other_side(men):
    """The same men's inputs seen from the other player: relation swapped, board mirrored."""
    relation, rest = men // 384, men % 384
    return ((1 - relation) * 384 + rest // 64 * 64 + (rest % 64 ^ 56)).masked_fill(men == 768, 768)


def mirror_view(men):
    """Each man's input seen by a viewer that mirrors the board left to right where its own King
    stands on files a-d (NNUE's horizontal mirroring, `mirror` in the engine's text): `men` are
    inputs relative to that viewer; padding stays."""
    import torch

    own_king = (men >= 5 * 64) & (men < 6 * 64)
    king = torch.where(own_king, men - 5 * 64, torch.zeros_like(men)).sum(1)
    flip = (king % 8 < 4).long() * 7
    return (men // 64 * 64 + (men % 64 ^ flip.unsqueeze(1))).masked_fill(men == 768, 768)


def train(data, out, hidden, epochs, lr, batch, seed, check, fixed_k, decay, buckets, perspectives, mirror, results_file, result_weight):
    import torch

    torch.manual_seed(seed)
    d = np.load(data)
    men = torch.from_numpy(d["men"].astype(np.int64))
    bucket = buckets_of(men, buckets)
    t, y = torch.from_numpy(d["scores"]), torch.from_numpy(d["labels"])
    test = torch.from_numpy(d["test"])
    train_rows, test_rows = (~test).nonzero().squeeze(1), test.nonzero().squeeze(1)
    c = math.log(10) / 400
    ks = np.linspace(0.5, 1.6, 111)
    k = float(ks[int(np.argmin([((torch.sigmoid(kk * c * t[train_rows]) - y[train_rows]) ** 2).mean().item() for kk in ks]))])
    if fixed_k:
        k = fixed_k
    print(f"{len(y)} positions, {len(test_rows)} held out, k {k:.3f}")
    target = y
    if results_file:
        r = torch.from_numpy(np.load(results_file)["results"])
        known = ~torch.isnan(r)
        target = torch.where(known, (1 - result_weight) * y + result_weight * torch.nan_to_num(r), y)
        print(f"labels blended with game results at {result_weight} for {int(known.sum())} positions")

    first = torch.nn.EmbeddingBag(769, hidden, mode="sum", padding_idx=768)
    torch.nn.init.normal_(first.weight, 0, 0.05)
    with torch.no_grad():
        first.weight[768].zero_()

    def views(m):
        sides = [m, other_side(m)][:perspectives]
        return [mirror_view(side) for side in sides] if mirror else sides

    seen = views(men)
    bias = torch.nn.Parameter(torch.zeros(hidden))
    output = torch.nn.Linear(perspectives * hidden, buckets)
    torch.nn.init.zeros_(output.weight)
    torch.nn.init.zeros_(output.bias)
    params = list(first.parameters()) + [bias] + list(output.parameters())

    def correction(sides):
        # The output in centipawns per bucket: a unit's weight of 1 is 100 cp at full activation.
        return output(torch.cat([torch.clamp(first(side) + bias, 0, 1) for side in sides], 1)) * 100

    def net(rows):
        return correction([side[rows] for side in seen]).gather(1, bucket[rows].unsqueeze(1)).squeeze(1)

    def error(rows):
        with torch.no_grad():
            total = sum(((torch.sigmoid(k * c * (t[r] + net(r))) - y[r]) ** 2).sum().item() for r in rows.split(65536))
            return total / len(rows)

    base = ((torch.sigmoid(k * c * t[test_rows]) - y[test_rows]) ** 2).mean().item()
    print(f"held-out error without the network {base:.6f}")
    opt = torch.optim.AdamW(params, lr=lr, weight_decay=decay)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, epochs)
    for epoch in range(epochs):
        for rows in train_rows[torch.randperm(len(train_rows))].split(batch):
            loss = ((torch.sigmoid(k * c * (t[rows] + net(rows))) - target[rows]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
        print(f"epoch {epoch + 1}: held-out error {error(test_rows):.6f}", flush=True)
    held_out = error(test_rows)
    for other in check:
        # The same network on another dump's held-out positions (its own scale k).
        o = np.load(other)
        rows = torch.from_numpy(o["test"]).nonzero().squeeze(1)
        om, ot, oy = torch.from_numpy(o["men"].astype(np.int64))[rows], torch.from_numpy(o["scores"])[rows], torch.from_numpy(o["labels"])[rows]
        ok = fixed_k or float(ks[int(np.argmin([((torch.sigmoid(kk * c * ot) - oy) ** 2).mean().item() for kk in ks]))])
        with torch.no_grad():
            corr = correction(views(om)).gather(1, buckets_of(om, buckets).unsqueeze(1)).squeeze(1)
        before = ((torch.sigmoid(ok * c * ot) - oy) ** 2).mean().item()
        after = ((torch.sigmoid(ok * c * (ot + corr)) - oy) ** 2).mean().item()
        print(f"{other}: held-out error {before:.6f} -> {after:.6f} (k {ok:.3f})")

    w1 = np.rint(first.weight.detach().numpy()[:768] * ONE).astype(int)
    b1 = np.rint(bias.detach().numpy() * ONE).astype(int)
    w2 = np.rint(output.weight.detach().numpy() * 100 * OUTPUT_UNIT).astype(int)
    b2 = np.rint(output.bias.detach().numpy() * 100 * OUTPUT_UNIT).astype(int)
    if np.abs(w1).max() > 32767:
        sys.exit("a hidden weight does not fit in 16 bits")
    # The engine keeps the first layer's sums in 16 bits: a unit's bias and, per square, its
    # largest weight over the twelve inputs a man there may be must stay within them.
    largest = (np.abs(b1) + np.abs(w1.reshape(12, 64, -1)).max(0).sum(0)).max()
    if largest > 32767:
        sys.exit(f"a hidden unit's sum may reach {largest}, beyond the engine's 16 bits")
    if max(np.abs(w2).max(), np.abs(b2).max()) > MAX_OUTPUT:
        sys.exit(f"an output weight beyond {MAX_OUTPUT}, the engine's bound")
    with open(out, "w") as f:
        f.write("# Chess's correction network (tuning/network.py): inputs per relation to the mover, piece code\n")
        f.write("# and square from the mover's side (a1..h1 first), hidden weights in 1/1024, output in 1/16 cp;\n")
        f.write(f"# {len(y)} quiet positions of {' '.join(d['files'])}\n")
        blend = f", labels blended with game results at {result_weight}" if results_file else ""
        f.write(f"# held-out error {base:.6f} -> {held_out:.6f} ({hidden} hidden units, {epochs} epochs{blend}).\n")
        f.write(f"hidden {hidden}\n" + (f"buckets {buckets} {MAX_MEN}\n" if buckets > 1 else "") + (f"perspectives {perspectives}\n" if perspectives > 1 else "") + ("mirror\n" if mirror else "") + f"bias\n{' '.join(map(str, b1))}\n")
        for b in range(buckets):
            f.write(f"output\n{' '.join(map(str, w2[b]))} {b2[b]}\n")
        for relation in range(2):
            for kind, code in enumerate(CODES):
                f.write(f"{'own' if relation == 0 else 'enemy'} {code}\n")
                for sq in range(64):
                    f.write(" ".join(map(str, w1[relation * 384 + kind * 64 + sq])) + "\n")



def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump")
    d.add_argument("data")
    d.add_argument("labels", nargs="*")
    d.add_argument("--train-only", nargs="*", default=[], help="label files none of whose positions are held out")
    d.add_argument("--held-out", nargs="*", default=[], help="label files all of whose positions are held out")
    d.add_argument("--cache", default="", help="a folder keeping each file's part of the dump, read back by later dumps")
    t = sub.add_parser("train")
    t.add_argument("data")
    t.add_argument("out")
    t.add_argument("--hidden", type=int, default=512)
    t.add_argument("--epochs", type=int, default=32)
    t.add_argument("--lr", type=float, default=3e-3)
    t.add_argument("--batch", type=int, default=4096)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--decay", type=float, default=1.0, help="AdamW's weight decay")
    t.add_argument("--k", type=float, default=0, help="the logistic scale (0: fitted to the data)")
    t.add_argument("--buckets", type=int, default=8, help="output buckets by the men on the board")
    t.add_argument("--perspectives", type=int, default=2, choices=(1, 2), help="2: the output weighs the units seen from the other player too")
    t.add_argument("--mirror", action="store_true", help="a viewer whose King is on files a-d sees the board mirrored left to right")
    t.add_argument("--check", nargs="*", default=[], help="other dumps whose held-out positions to report")
    t.add_argument("--results", default="", help="`results`' output for DATA: labels blended with game results")
    t.add_argument("--result-weight", type=float, default=0.25, help="the game results' share of the fitted target")
    r = sub.add_parser("results", help="each dump position's game result from recorded games")
    r.add_argument("data")
    r.add_argument("out")
    r.add_argument("records", nargs="+")
    args = ap.parse_args()
    if args.command == "dump":
        dump(args.data, args.labels, args.train_only, args.held_out, args.cache)
    elif args.command == "results":
        results(args.data, args.out, args.records)
    else:
        train(args.data, args.out, args.hidden, args.epochs, args.lr, args.batch, args.seed, args.check, args.k, args.decay, args.buckets, args.perspectives, args.mirror, args.results, args.result_weight)


if __name__ == "__main__":
    main()
