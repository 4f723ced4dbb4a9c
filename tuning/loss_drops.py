#!/usr/bin/env python3
"""Where tessera's lost chess games turned: Stockfish's score after each of tessera's moves.

    python3 tuning/loss_drops.py --depth 14 cal-2200-c8f874c-tail.jsonl.gz   # tuning/data.md

Reads a match's JSON lines (`tessera match --jsonl`, gzipped or not), takes the games the engine
named `--engine` lost, and scores the position after each of its moves (from ply 9, after the
book) with Stockfish at a fixed depth, from tessera's side, until the score is past −600. Prints
per game the first ply below −150, the best score it had and its two largest single drops (cp
lost, ply, score before, score after), then how many losses had a drop of 150 cp or more.
Needs python-chess; run it at low priority (`nice`) beside a match.
"""

import argparse
import gzip
import json
import statistics

import chess
import chess.engine

LOST_BELOW = -150
GIVE_UP_BELOW = -600
BLUNDER = 150


def records(path: str):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        for line in f:
            yield json.loads(line)


def lost_by(record: dict, name: str) -> bool:
    seat = record["seats"].index(name)
    places = record["places"]
    return all(places[seat] > p for k, p in enumerate(places) if k != seat)


def scores_after_moves(engine, record: dict, name: str, depth: int) -> list[tuple[int, int]]:
    side = chess.WHITE if record["seats"].index(name) == 0 else chess.BLACK
    board = chess.Board()
    scores = []
    for ply, move in enumerate(record["moves"], start=1):
        board.push_uci(move)
        if ply <= 8 or board.turn == side or board.is_game_over():
            continue
        info = engine.analyse(board, chess.engine.Limit(depth=depth))
        score = info["score"].pov(side).score(mate_score=3000)
        scores.append((ply, score))
        if score < GIVE_UP_BELOW:
            break
    return scores


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="JSON lines of chess games")
    ap.add_argument("--engine", default="tessera", help="the engine's name in the records")
    ap.add_argument("--depth", type=int, default=14, help="Stockfish's depth per position")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    args = ap.parse_args()
    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    engine.configure({"Hash": 64, "Threads": 1})
    losses, with_blunder, first_plies = 0, 0, []
    for path in args.files:
        for record in records(path):
            if record["game"] != "chess" or args.engine not in record["seats"] or not lost_by(record, args.engine):
                continue
            scores = scores_after_moves(engine, record, args.engine, args.depth)
            if len(scores) < 2:
                continue
            losses += 1
            drops = sorted(((a[1] - b[1], b[0], a[1], b[1]) for a, b in zip(scores, scores[1:])), reverse=True)[:2]
            first = next((ply for ply, s in scores if s < LOST_BELOW), None)
            if first is not None:
                first_plies.append(first)
            if drops[0][0] >= BLUNDER:
                with_blunder += 1
            best = max(s for _, s in scores)
            print(f"game {record['index']}: {len(record['moves'])} plies, first below {LOST_BELOW} at ply {first}, best {best}, drops {drops}", flush=True)
    engine.quit()
    median = statistics.median(first_plies) if first_plies else None
    print(f"{losses} losses, {with_blunder} with a single drop of {BLUNDER} cp or more; first below {LOST_BELOW}: median ply {median}")


if __name__ == "__main__":
    main()
