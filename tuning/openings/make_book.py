# Writes balanced 8-ply chess openings (tuning/openings/chess8.txt): at each ply a random move
# among Stockfish's best three at depth 10 within 35 cp of the best; kept where Stockfish scores the
# final position within 60 cp at depth 12. Needs python-chess and /usr/games/stockfish.
#
#   python3 tuning/openings/make_book.py [COUNT] [OUT]      (defaults: 300, chess8.txt beside it)
import os
import chess, chess.engine, random, sys
random.seed(20261124)
sf = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
sf.configure({"Threads": 1, "Hash": 64})
lines = set(); out = []
target = int(sys.argv[1]) if len(sys.argv) > 1 else 300
while len(out) < target:
    b = chess.Board(); moves = []
    ok = True
    for ply in range(8):
        infos = sf.analyse(b, chess.engine.Limit(depth=10), multipv=3)
        scored = [(i["score"].pov(b.turn).score(mate_score=10000), i["pv"][0]) for i in infos if "pv" in i]
        best = max(s for s, _ in scored)
        cands = [m for s, m in scored if s >= best - 35]
        m = random.choice(cands)
        moves.append(m.uci()); b.push(m)
    key = " ".join(moves)
    if key in lines: continue
    s = sf.analyse(b, chess.engine.Limit(depth=12))["score"].white().score(mate_score=10000)
    if abs(s) > 60: continue
    lines.add(key); out.append(key)
    print(len(out), key, s, file=sys.stderr, flush=True)
sf.quit()
with open(sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "chess8.txt"), "w") as f:
    f.write("# Balanced 8-ply chess openings for matches (tuning/openings/make_book.py: Stockfish 15.1's best three moves\n# within 35 cp at depth 10, final position within 60 cp at depth 12).\n")
    for l in out: f.write(l + "\n")
