"""The fit of chess's learned tables (squares.py, royal_pawns.py, both at once in
squares_and_royal_pawns.py; another learned table would describe itself as a `Table`): values a
game's definition reads, fitted to Stockfish's labels on top of tessera's evaluation held fixed.

Each labelled position the fits read (`fits`) gives a row of features, one per learned value,
split into a middle-game and an end-game part by tessera's phase; the values are the
least-squares fit of the labels' expected scores through the logistic curve, shrunk towards 0
(ridge), by Adam's gradient steps of about a centipawn. The last fifth of each label file (later
games) is held out and the error there reported with and without the values. Everything is
float32 (a float64 factor would copy the feature matrix at every step), and the features are
read sparse (`read_sparse`: a dense matrix of thousands of values would not fit in memory).
Needs numpy.
"""
import os
import sys
from dataclasses import dataclass
from typing import Callable

import chess
import numpy as np
from eval_client import Evaluator, fits

HELD_OUT = 0.2
C = np.float32(np.log(10) / 400)


def sig(z):
    return 1 / (1 + np.exp(-z))


def labelled(files, off):
    """(board, phase share 0-1, tessera's score, label, held out) of each labelled position that
    fits, tessera's scores with the option `off` (name=value, the values fitted switched off) and
    OPTS."""
    os.environ["OPTS"] = ",".join(filter(None, [os.environ.get("OPTS", ""), off]))
    tessera = Evaluator(os.environ.get("TESSERA", "target/release/tessera"))
    for name in files:
        lines = open(name).read().splitlines()
        for i, line in enumerate(lines):
            label, fen = line.split(" ", 1)
            board = chess.Board(fen)
            if not fits(board, label):
                continue
            phase, score = tessera.evaluate(fen)
            yield board, phase / 256, score, float(label), i >= len(lines) * (1 - HELD_OUT)


class Sparse:
    """A matrix of few values per row, as (row, column, value) triples: what `fit` needs of a
    matrix (`A[rows]`, `A @ w`, `A.T @ g`, `A.shape`) by sums over the triples, for tables of
    thousands of values (a dense matrix of them would not fit in memory)."""

    def __init__(self, rows, cols, vals, shape):
        self.rows, self.cols, self.vals, self.shape = rows, cols, vals, shape

    def __getitem__(self, mask):
        keep = mask[self.rows]
        renumber = np.cumsum(mask) - 1
        return Sparse(renumber[self.rows[keep]], self.cols[keep], self.vals[keep], (int(mask.sum()), self.shape[1]))

    def __matmul__(self, w):
        return np.bincount(self.rows, weights=self.vals * w[self.cols], minlength=self.shape[0]).astype(np.float32)

    @property
    def T(self):
        return Sparse(self.cols, self.rows, self.vals, (self.shape[1], self.shape[0]))


def read_sparse(files, features, columns, off):
    """`read` for features given as (column indices, values) of `columns` columns: A is
    `Sparse`."""
    rows, cols, vals, scores, labels, test = [], [], [], [], [], []
    for board, phase, score, label, held_out in labelled(files, off):
        index, value = features(board)
        index, value = np.asarray(index, np.int64), np.asarray(value, np.float32)
        row = np.full(len(index), len(scores), np.int64)
        rows += [row, row]
        cols += [index, index + columns]
        vals += [value * phase, value * (1 - phase)]
        scores.append(score)
        labels.append(label)
        test.append(held_out)
    A = Sparse(np.concatenate(rows), np.concatenate(cols), np.concatenate(vals), (len(scores), 2 * columns))
    return A, np.array(scores, dtype=np.float32), np.array(labels, dtype=np.float32), np.array(test)


def fit(A, t, y, test, ridge, steps):
    """The values (middle-game ones, then end-game ones), and the report of the fit."""
    # The scale of tessera's centipawns against the labels' (as `tessera tune` fits its k).
    ks = np.linspace(0.5, 1.6, 111)
    k = np.float32(ks[int(np.argmin([((sig(kk * C * t[~test]) - y[~test]) ** 2).mean() for kk in ks]))])
    train = ~test
    At, tt, yt = A[train], t[train], y[train]
    w = np.zeros(A.shape[1], dtype=np.float32)
    m, v = np.zeros_like(w), np.zeros_like(w)
    for step in range(1, steps + 1):
        s = sig(k * C * (tt + At @ w))
        grad = At.T @ (2 * (s - yt) * s * (1 - s) * k * C) / len(yt) + np.float32(2 * ridge) * w
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-12)

    def error(mask, weights):
        return float(((sig(k * C * (t[mask] + A[mask] @ weights)) - y[mask]) ** 2).mean())

    zero = np.zeros_like(w)
    report = [
        f"{len(y)} quiet positions ({int(test.sum())} held out), k {k:.3f}",
        f"train error {error(train, zero):.6f} -> {error(train, w):.6f}",
        f"held-out error {error(test, zero):.6f} -> {error(test, w):.6f}",
    ]
    return w, report


def write(out, title, files, report, blocks, per_line, head=()):
    """Writes the values as a definition reads them: the lines of `title` and the fit's data and
    held-out error as comments, the blocks of `head` (header, values) as they are, then per
    (header, middle-game values, end-game values) the two blocks `header mg` and `header eg`,
    `per_line` values a line."""

    def block(f, header, values):
        f.write(f"{header}\n")
        values = np.rint(values).astype(int)
        for i in range(0, len(values), per_line):
            f.write(" ".join(f"{value:4d}" for value in values[i : i + per_line]) + "\n")

    with open(out, "w") as f:
        for line in title:
            f.write(f"# {line}\n")
        f.write(f"# {report[0].split(' (')[0]} of {' '.join(os.path.basename(n) for n in files)};\n")
        f.write(f"# {report[2]}.\n")
        for header, values in head:
            block(f, header, values)
        for header, mg, eg in blocks:
            for phase, values in (("mg", mg), ("eg", eg)):
                block(f, f"{header} {phase}", values)


@dataclass
class Table:
    """A learned table: its features (column indices and values per position, `columns` of them),
    the option that switches its values off in tessera (`off`, name=value), and how it is written:
    the title's lines, the blocks written as they are (`head`), then its values in equal blocks
    in column order, one per header of `headers` (each as `header mg` and `header eg`)."""

    columns: int
    features: Callable
    off: str
    title: list
    headers: list
    head: tuple = ()


def fit_tables(tables, outs, files, ridge, steps):
    """Fits `tables` together on the labels of `files` (each table's values off in tessera while
    it reads them) and writes each to its file of `outs`: one table alone is fitted on top of the
    others' values, tables fitted together share what they explain."""
    offsets = np.cumsum([0] + [table.columns for table in tables])
    columns = int(offsets[-1])

    def features(board):
        index, value = [], []
        for table, offset in zip(tables, offsets):
            i, v = table.features(board)
            index += [offset + x for x in i]
            value += v
        return index, value

    A, t, y, test = read_sparse(files, features, columns, ",".join(table.off for table in tables))
    w, report = fit(A, t, y, test, ridge, steps)
    print("\n".join(report))
    for table, offset, out in zip(tables, offsets, outs):
        size = table.columns // len(table.headers)
        starts = [offset + i * size for i in range(len(table.headers))]
        blocks = [(header, w[s : s + size], w[columns + s : columns + s + size]) for header, s in zip(table.headers, starts)]
        title = table.title + [f"fitted by tuning/{os.path.basename(sys.argv[0])}"]
        write(out, title, files, report, blocks, 8, table.head)
