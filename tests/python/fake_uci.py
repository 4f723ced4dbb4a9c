"""A misbehaving UCI engine for the match runner's tests.

    fake_uci.py sleep     answers every `go` with a legal-looking move only after 3 seconds
    fake_uci.py illegal   answers every `go` with a move no piece can make (a1a1)
    fake_uci.py exit      exits at the first `go`
"""
import sys
import time

mode = sys.argv[1]
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name fake-" + mode)
        print("option name Hash type spin default 16 min 1 max 1024")
        print("uciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "go":
        if mode == "sleep":
            time.sleep(3)
            print("bestmove e2e4", flush=True)
        elif mode == "illegal":
            print("bestmove a1a1", flush=True)
        else:
            sys.exit(0)
    elif words[0] == "quit":
        break
