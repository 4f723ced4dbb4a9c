"""Residuals of tessera's evaluation against Stockfish's labels (chess), regressed on candidate
features computed with python-chess: what Stockfish sees that tessera's evaluation misses, per
feature alone and all together, split into middle-game and end-game parts. A feature with a large
gain is a candidate evaluation term (LINE in tuning/README.md was found this way).

usage: residuals.py LABELS N ENGINE        (OPTS=name=value,... sets Eval_<name> options first)

LABELS: a label file (tuning/data.md; gunzip first); N: quiet positions to read; needs numpy.
"""
import sys, random
import chess
import numpy as np
from eval_client import Evaluator, fits, label_cp

labels, n, engine = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lines = open(labels).read().splitlines()
random.seed(7)
random.shuffle(lines)

def rel_rank(c, sq):
    r = chess.square_rank(sq)
    return r if c == chess.WHITE else 7 - r


def passed(b, c, sq):
    f, r = chess.square_file(sq), chess.square_rank(sq)
    for ef in (f - 1, f, f + 1):
        if not 0 <= ef <= 7:
            continue
        for s in b.pieces(chess.PAWN, not c):
            if chess.square_file(s) == ef and (chess.square_rank(s) > r if c == chess.WHITE else chess.square_rank(s) < r):
                return False
    return True


def feats(b, c):
    o = not c
    f = {}
    pawns = b.pieces(chess.PAWN, c)
    opawns = b.pieces(chess.PAWN, o)
    k = b.king(c)
    ok = b.king(o)
    # rooks on the 7th with the enemy king on the 8th or enemy pawns on the 7th
    r7 = 0
    for s in b.pieces(chess.ROOK, c) | b.pieces(chess.QUEEN, c):
        if rel_rank(c, s) == 6 and (rel_rank(c, ok) == 7 or any(rel_rank(c, p) == 6 for p in opawns)):
            r7 += 1
    f["rook7"] = r7
    # bishops: own pawns on the bishop's colour
    bp = 0
    for s in b.pieces(chess.BISHOP, c):
        col = (chess.square_file(s) + chess.square_rank(s)) % 2
        bp += sum(1 for p in pawns if (chess.square_file(p) + chess.square_rank(p)) % 2 == col)
    f["bishop_pawns"] = bp
    # knights on the rim
    f["knight_rim"] = sum(1 for s in b.pieces(chess.KNIGHT, c) if chess.square_file(s) in (0, 7))
    # passed pawns: free path, connected, rank-weighted
    pp = [s for s in pawns if passed(b, c, s)]
    free = 0
    conn = 0
    safe_adv = 0
    for s in pp:
        step = 8 if c == chess.WHITE else -8
        t = s + step
        clear = True
        while 0 <= t < 64:
            if b.piece_at(t) is not None:
                clear = False
                break
            t += step
        rr = rel_rank(c, s)
        if clear:
            free += max(0, rr - 2) ** 2
        nxt = s + step
        if 0 <= nxt < 64 and b.piece_at(nxt) is None and not b.is_attacked_by(o, nxt):
            safe_adv += max(0, rr - 2) ** 2
        if any(q != s and abs(chess.square_file(q) - chess.square_file(s)) == 1 for q in pp):
            conn += max(0, rr - 2)
    f["passer_free"] = free
    f["passer_safe_step"] = safe_adv
    f["passer_connected"] = conn
    # pawn islands
    files = sorted({chess.square_file(s) for s in pawns})
    islands = 0
    prev = -5
    for fl in files:
        if fl != prev + 1:
            islands += 1
        prev = fl
    f["islands"] = islands
    # space: safe cells on ranks 2-4 of files c-f, behind or at own pawns
    space = 0
    for fl in range(2, 6):
        for rr in range(1, 4):
            sq = chess.square(fl, rr if c == chess.WHITE else 7 - rr)
            if b.piece_at(sq) is not None and b.piece_at(sq).piece_type == chess.PAWN and b.piece_at(sq).color == c:
                continue
            if any(b.attackers(o, sq) & opawns for _ in [0]):
                continue
            space += 1
    f["space"] = space
    # pinned men
    f["pinned"] = sum(1 for s in chess.SquareSet(b.occupied_co[c]) if s != k and b.is_pinned(c, s))
    # weak cells next to the king: attacked by the enemy, defended only by the king
    weak = 0
    for s in chess.SquareSet(chess.BB_KING_ATTACKS[k]):
        if b.is_attacked_by(o, s) and len(b.attackers(c, s)) <= 1:
            weak += 1
    f["king_weak"] = weak
    # enemy men attacking the king's zone, queens counted
    zone = chess.SquareSet(chess.BB_KING_ATTACKS[k]) | chess.SquareSet(chess.BB_SQUARES[k])
    att = 0
    for s in chess.SquareSet(b.occupied_co[o]):
        if b.piece_at(s).piece_type in (chess.PAWN, chess.KING):
            continue
        if b.attacks(s) & zone:
            att += 1
    f["zone_attackers"] = att
    # safe checks available to the enemy
    sc = 0
    for s in chess.SquareSet(b.occupied_co[o]):
        pt = b.piece_at(s).piece_type
        if pt in (chess.PAWN, chess.KING):
            continue
        for t in b.attacks(s):
            if b.piece_at(t) is not None and b.piece_at(t).color == o:
                continue
            if b.is_attacked_by(c, t):
                continue
            bb = b.copy(stack=False)
            bb.remove_piece_at(s)
            bb.set_piece_at(t, chess.Piece(pt, o))
            if bb.is_attacked_by(o, k) and k in bb.attacks(t):
                sc += 1
    f["safe_checks_against"] = sc
    # minor behind an own pawn
    mb = 0
    for s in b.pieces(chess.KNIGHT, c) | b.pieces(chess.BISHOP, c):
        t = s + (8 if c == chess.WHITE else -8)
        if 0 <= t < 64 and b.piece_at(t) is not None and b.piece_at(t).piece_type == chess.PAWN:
            mb += 1
    f["minor_behind_pawn"] = mb
    # rook behind a passed pawn (own)
    rb = 0
    for s in b.pieces(chess.ROOK, c):
        for p in pp:
            if chess.square_file(p) == chess.square_file(s) and (rel_rank(c, s) < rel_rank(c, p)):
                if all(b.piece_at(x) is None for x in chess.SquareSet(chess.between(s, p))):
                    rb += 1
    f["rook_behind_passer"] = rb
    # queen out early / undeveloped minors (middle game)
    f["undeveloped_minors"] = sum(1 for s in b.pieces(chess.KNIGHT, c) | b.pieces(chess.BISHOP, c) if rel_rank(c, s) == 0)
    # king's own pawn shelter: pawns directly in front (files k-1..k+1, ranks +1,+2)
    kf, kr = chess.square_file(k), rel_rank(c, k)
    shelter = 0
    for fl in (kf - 1, kf, kf + 1):
        if not 0 <= fl <= 7:
            continue
        if any(chess.square_file(p) == fl and 0 < rel_rank(c, p) - kr <= 2 for p in pawns):
            shelter += 1
    f["shelter_files"] = shelter
    # open files next to the king (no own pawn)
    f["king_open_files"] = sum(1 for fl in (kf - 1, kf, kf + 1) if 0 <= fl <= 7 and not any(chess.square_file(p) == fl for p in pawns))
    # king to enemy passed pawns / own pawns distance in the end game
    f["king_pawn_dist"] = min((chess.square_distance(k, p) for p in pawns | opawns), default=0)
    # mobility of the king (legal-ish)
    f["knights"] = len(b.pieces(chess.KNIGHT, c))
    f["bishops"] = len(b.pieces(chess.BISHOP, c))
    f["rooks"] = len(b.pieces(chess.ROOK, c))
    f["queens"] = len(b.pieces(chess.QUEEN, c))
    f["pawns"] = len(pawns)
    # imbalance: knights times own pawns, rooks times own pawns
    f["knight_x_pawns"] = len(b.pieces(chess.KNIGHT, c)) * (len(pawns) - 5)
    f["rook_x_pawns"] = len(b.pieces(chess.ROOK, c)) * (len(pawns) - 5)
    f["rook_pair"] = int(len(b.pieces(chess.ROOK, c)) >= 2)
    f["queen_rook"] = int(len(b.pieces(chess.QUEEN, c)) >= 1 and len(b.pieces(chess.ROOK, c)) >= 1)
    # the King's file and rank: on a flank, on the back rank
    f["king_flank"] = int(kf in (0, 1, 6, 7))
    f["king_back_rank"] = int(kr == 0)
    f["king_reach2"] = sum(1 for s in chess.SQUARES if chess.square_distance(s, k) <= 2)
    return f


tessera = Evaluator(engine)


X, Y, PH, names = [], [], [], None
for line in lines:
    if len(Y) >= n:
        break
    sc, fen = line.split(" ", 1)
    b = chess.Board(fen)
    if not fits(b, sc):
        continue
    sf = label_cp(sc, 1e-4)
    phase, t = tessera.evaluate(fen)
    fa, fb = feats(b, b.turn), feats(b, not b.turn)
    names = list(fa)
    X.append([fa[k] - fb[k] for k in names])
    Y.append((t, sf))
    PH.append(phase)

Y = np.array(Y, dtype=float)
X = np.array(X, dtype=float)
PH = np.array(PH, dtype=float) / 256.0
def sig(cp):
    return 1 / (1 + 10 ** (-cp / 400))
ks = np.linspace(0.5, 1.6, 111)
errs = [((sig(Y[:, 1]) - sig(kk * Y[:, 0])) ** 2).mean() for kk in ks]
k = ks[int(np.argmin(errs))]
# what Stockfish sees that tessera misses, in expected score (x1000) for the mover
res = 1000 * (sig(Y[:, 1]) - sig(k * Y[:, 0]))
print(f"n {len(Y)} k {k:.3f} residual sd {res.std():.1f} mean {res.mean():.1f}")
# each feature alone, split into middle-game and end-game parts
A = np.concatenate([X * PH[:, None], X * (1 - PH)[:, None]], axis=1)
coef, *_ = np.linalg.lstsq(A, res, rcond=None)
pred = A @ coef
print(f"all features together: residual sd {res.std():.2f} -> {(res - pred).std():.2f}")
print(f"{'feature':22s} {'sd':>6s} {'corr':>7s} {'alone mg/eg':>16s} {'joint mg/eg':>16s} {'gain':>6s}")
for i, name in enumerate(names):
    x = X[:, i]
    if x.std() == 0:
        continue
    a = np.stack([x * PH, x * (1 - PH)], axis=1)
    c1, *_ = np.linalg.lstsq(a, res, rcond=None)
    gain = res.std() - (res - a @ c1).std()
    corr = np.corrcoef(x, res)[0, 1]
    print(f"{name:22s} {x.std():6.2f} {corr:+7.3f} {c1[0]:+8.1f}/{c1[1]:+6.1f} {coef[i]:+8.1f}/{coef[i + len(names)]:+6.1f} {gain:6.3f}")
