"""Checks the records of a match against Stockfish: python-chess reads every game of the PGN
with every move legal, and each game's result, moves and termination equal its JSON line.

    match_records.py GAMES.pgn GAMES.jsonl
"""
import json
import sys

import chess
import chess.pgn

pgn_path, jsonl_path = sys.argv[1], sys.argv[2]
lines = [json.loads(l) for l in open(jsonl_path) if l.strip()]
games = []
with open(pgn_path) as f:
    while (game := chess.pgn.read_game(f)) is not None:
        games.append(game)
assert len(games) == len(lines), f"{len(games)} PGN games, {len(lines)} JSON lines"
by_round = {int(g.headers["Round"]): g for g in games}
for line in lines:
    game = by_round[line["index"] + 1]
    assert not game.errors, f"game {line['index'] + 1}: {game.errors}"
    board = game.board()
    ucis = []
    for move in game.mainline_moves():
        assert move in board.legal_moves, f"game {line['index'] + 1}: {move} is not legal"
        ucis.append(move.uci())
        board.push(move)
    assert ucis == line["moves"], f"game {line['index'] + 1}: the PGN's moves differ from the JSON line's"
    assert game.headers["Result"] == line["result"], (game.headers["Result"], line["result"])
    assert game.headers["White"] == line["seats"][0] and game.headers["Black"] == line["seats"][1]
    if line["end"] == "checkmate":
        assert board.is_checkmate(), f"game {line['index'] + 1}: no checkmate at the end"
    print(f"game {line['index'] + 1}: {len(ucis)} plies, {line['result']} by {line['end']}, every move legal")
print("records ok")
