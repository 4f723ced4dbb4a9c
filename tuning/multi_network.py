"""A learned evaluation for any game and number of players (issue 78): one hidden layer over the
men seen from each player, fitted to tessera's own self-play.

    tessera match --game G --engine name=gen,nodes=4000 --games 100 --openings random:8 \\
        --seed 21 --max-plies 3000 --positions G.pos
    tessera features --game G G.pos > G.feat
    python3 tuning/multi_network.py G.feat G-network.txt [--hidden 32] [--epochs 20]
        [--result-weight 0.5] [--lr 3e-3] [--decay 1e-4] [--seed 1]
    tessera network --game G G-network.txt G.network

Model: for each viewer v its units h_v = clip(bias + the columns of the inputs its men switch on,
0, 1) (inputs: relation to v, type and cell in v's frame, as `tessera features` numbers them) and
its output o_v = w . h_v + b in centipawns. The engine adds o_p to player p's own terms and scores
p against the mean of the others still in, so the evaluation of p with the network is
e_p + o_p - mean(o_q over the others still in), e_p its evaluation with the network off.

Target: t_p = (1 - W) sigma(s_p / K) + W r_p, s_p the sampled score of p, r_p its place in the
game (1 first, 0 last, tied players sharing), W `--result-weight`, K the scale that fits the
evaluation with the network off best (fitted first, as `tessera tune` fits its k). Loss: the mean
squared error of sigma(prediction / K) over the players still in. The lines are in game order
(`--positions` appends a game's positions when it ends): the last fifth is held out whole games at
a time, its error is printed before training and after each epoch, and the network of the epoch
with the lowest is written.

Writes the network as the text `tessera network` converts (`src/eval/network_file.rs`): hidden
weights and biases in 1/1024 of a unit, output weights in 1/16 cp, one `relation R CODE` block per
relation and piece type. Needs numpy and torch (CPU).
"""
import argparse
import math
import sys

import numpy as np
import torch

ONE = 1024
OUTPUT_UNIT = 16
# The engine's bound on output weights and bias (`src/eval/network_file.rs`: MAX_OUTPUT).
MAX_OUTPUT = 2047


def read(path):
    """The header's fields and per position: scores, ranks, active, evaluations, inputs per viewer."""
    with open(path) as f:
        head = f.readline().split()
        if head[:2] != ["#", "features"]:
            sys.exit(f"{path}: not `tessera features` output")
        fields = dict(zip(head[2::2], head[3::2]))
        rows = [line.rstrip("\n").split(";") for line in f if line.strip()]
    n = int(fields["players"])
    ints = lambda part: [int(x) for x in part.split()]
    data = {
        "scores": np.array([ints(r[0]) for r in rows], dtype=np.float32),
        "ranks": np.array([ints(r[1]) for r in rows], dtype=np.int64),
        "active": np.array([ints(r[2]) for r in rows], dtype=np.float32),
        "evals": np.array([ints(r[3]) for r in rows], dtype=np.float32),
        "inputs": [[ints(r[4 + v]) for v in range(n)] for r in rows],
    }
    return fields, data


def places(ranks):
    """Each player's place as a share: 1 for first, 0 for last, tied players sharing."""
    n = ranks.shape[1]
    out = np.zeros(ranks.shape, dtype=np.float32)
    for p in range(n):
        worse = (ranks > ranks[:, [p]]).sum(axis=1)
        tied = (ranks == ranks[:, [p]]).sum(axis=1) - 1
        out[:, p] = (worse + 0.5 * tied) / (n - 1)
    return out


def fit_k(evals, targets, active):
    """The scale K of sigma(e / K) that fits the targets best with the network off."""
    best = None
    for k in np.arange(25, 6000, 5, dtype=np.float32):
        err = (((1 / (1 + np.exp(-np.clip(evals / k, -50, 50)))) - targets) ** 2 * active).sum() / active.sum()
        if best is None or err < best[1]:
            best = (float(k), float(err))
    return best


class Network(torch.nn.Module):
    def __init__(self, inputs, hidden):
        super().__init__()
        self.columns = torch.nn.EmbeddingBag(inputs, hidden, mode="sum")
        torch.nn.init.normal_(self.columns.weight, 0.0, 0.02)
        self.bias = torch.nn.Parameter(torch.full((hidden,), 0.5))
        self.out = torch.nn.Linear(hidden, 1)
        torch.nn.init.zeros_(self.out.weight)
        torch.nn.init.zeros_(self.out.bias)

    def forward(self, flat, offsets, batch, players):
        units = torch.clamp(self.columns(flat, offsets) + self.bias, 0.0, 1.0)
        return self.out(units).view(batch, players)


def batch_tensors(inputs, rows):
    flat, offsets = [], []
    for r in rows:
        for viewer in inputs[r]:
            offsets.append(len(flat))
            flat.extend(viewer)
    return torch.tensor(flat, dtype=torch.long), torch.tensor(offsets, dtype=torch.long)


def predictions(net, data, rows, k):
    n = data["evals"].shape[1]
    flat, offsets = batch_tensors(data["inputs"], rows)
    out = net(flat, offsets, len(rows), n) * 100.0  # units of the output: centipawns per 0.01
    active = torch.tensor(data["active"][rows])
    # Each player against the mean of the others still in.
    others = (active.sum(dim=1, keepdim=True) - active).clamp(min=1)
    mean_others = ((out * active).sum(dim=1, keepdim=True) - out * active) / others
    pred = torch.tensor(data["evals"][rows]) + out - mean_others
    return torch.sigmoid(pred / k), active


def error(net, data, rows, targets, k):
    with torch.no_grad():
        total, weight = 0.0, 0.0
        for start in range(0, len(rows), 4096):
            part = rows[start : start + 4096]
            p, active = predictions(net, data, part, k)
            total += float((((p - torch.tensor(targets[part])) ** 2) * active).sum())
            weight += float(active.sum())
    return total / max(weight, 1)


def write(net, fields, path, note):
    hidden = net.bias.shape[0]
    n, ntypes, ncells = int(fields["players"]), int(fields["types"]), int(fields["cells"])
    codes = fields["codes"].split(",")
    weights = np.rint(net.columns.weight.detach().numpy() * ONE).astype(np.int64)
    bias = np.rint(net.bias.detach().numpy() * ONE).astype(np.int64)
    # The output is in centipawns per 0.01 of a unit's activation (see `predictions`).
    out = np.clip(np.rint(net.out.weight.detach().numpy()[0] * 100.0 * OUTPUT_UNIT), -MAX_OUTPUT, MAX_OUTPUT).astype(np.int64)
    out_bias = int(np.clip(round(float(net.out.bias.detach()[0]) * 100.0 * OUTPUT_UNIT), -MAX_OUTPUT, MAX_OUTPUT))
    lines = [f"# {note}", f"hidden {hidden}", "bias", " ".join(map(str, bias)), "output", " ".join(map(str, out)) + f" {out_bias}"]
    for r in range(n):
        for t in range(ntypes):
            start = (r * ntypes + t) * ncells
            lines.append(f"relation {r} {codes[t]}")
            lines.extend(" ".join(map(str, weights[start + c])) for c in range(ncells))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("features")
    ap.add_argument("out")
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--decay", type=float, default=1e-4)
    ap.add_argument("--result-weight", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    fields, data = read(args.features)
    n, ntypes, ncells = int(fields["players"]), int(fields["types"]), int(fields["cells"])
    if n < 3:
        sys.exit("two players: the engine adds the mover's output alone; chess has tuning/network.py")
    rows = len(data["evals"])
    active = data["active"]
    result = places(data["ranks"])
    split = rows * 4 // 5
    train, held = np.arange(split), np.arange(split, rows)
    # K: the scale at which the evaluation with the network off best predicts the places.
    k, _ = fit_k(data["evals"][train], result[train], active[train])
    targets = ((1 - args.result_weight) / (1 + np.exp(-data["scores"] / k)) + args.result_weight * result).astype(np.float32)
    net = Network(n * ntypes * ncells, args.hidden)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=args.decay)
    before = error(net, data, held, targets, k)
    print(f"{rows} positions ({split} to train), {n} players, K {k:.0f}; held-out error with the network off {before:.6f}", flush=True)
    # The engine keeps the first layer's sums in 16 bits: a unit's bias (at most one unit) and on
    # every cell its largest weight must stay within them, so each weight is bounded.
    limit = (32767 - ONE) / ncells / ONE
    rng = np.random.default_rng(args.seed)
    best = None
    for epoch in range(args.epochs):
        order = rng.permutation(train)
        for start in range(0, len(order), args.batch):
            part = order[start : start + args.batch]
            p, act = predictions(net, data, part, k)
            loss = (((p - torch.tensor(targets[part])) ** 2) * act).sum() / act.sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
            with torch.no_grad():
                net.columns.weight.clamp_(-limit, limit)
                net.bias.clamp_(-1.0, 1.0)
        now = error(net, data, held, targets, k)
        print(f"epoch {epoch + 1}: held-out error {now:.6f}", flush=True)
        if best is None or now < best[0]:
            best = (now, epoch + 1, {name: value.clone() for name, value in net.state_dict().items()})
    # The epoch that did best on the held-out games (training goes on learning the training games).
    after, kept, state = best
    net.load_state_dict(state)
    note = (
        f"game {fields['game']}: {rows} positions, hidden {args.hidden}, epoch {kept} of {args.epochs}, "
        f"result weight {args.result_weight}, K {k:.0f}; held-out error {before:.6f} -> {after:.6f}"
    )
    write(net, fields, args.out, note)
    print(note)


if __name__ == "__main__":
    main()
