"""An independent perft for the honeycomb3 family, written from the rules files alone
(`shared/rules/honeycomb3.md` and `honeycomb3-subvariants.md`), not from the engine's code.

    python3 tests/python/honeycomb_perft.py GAME DEPTH [POSITION]

prints the number of move paths of DEPTH plies from the start (or from POSITION, a position string
in the engine's notation). It checks the engine's deeper perft counts: the rules files anchor only
depth 1 of the sub-variants. The turn model is the rules' §5.2: at the start of a turn every
opponent whose King the mover attacks is mated and recruited; a player without a legal move passes
while three are in; a move may not leave the mover's King attacked by any opponent.
"""

import sys

LEVELS = "abcde"
ON = {(x, y, l) for y in range(1, 9) for x in range(1, y + 1) for l in range(5)}
H = [(-1, 0), (0, 1), (1, 1), (1, 0), (0, -1), (-1, -1)]
D = [(H[k][0] + H[(k + 1) % 6][0], H[k][1] + H[(k + 1) % 6][1]) for k in range(6)]
PLAYERS = "ryb"
# Pawn and Pawnout steps per player (honeycomb3.md §4.2, sub-variants §6), written out, not rotated.
PAWN = {"r": [(0, 1), (1, 1)], "y": [(1, 0), (0, -1)], "b": [(-1, 0), (-1, -1)]}
PAWNOUT = {"r": [(0, 1), (1, 1), (1, 2)], "y": [(1, 0), (0, -1), (1, -1)], "b": [(-1, 0), (-1, -1), (-2, -1)]}
FAR_EDGE = {"r": lambda x, y: y == 8, "y": lambda x, y: x == y, "b": lambda x, y: x == 1}


def name(c):
    return f"{c[0]}{LEVELS[c[2]]}{c[1]}"


def cell(text):
    return (int(text[0]), int(text[2]), LEVELS.index(text[1]))


class Game:
    def __init__(self, gid):
        self.wild = gid.startswith("wildhoney3")
        self.double = "-double" in gid
        self.pawns = "pawnless" not in gid
        flat = H + D if self.double else H
        rook = [(dx, dy, 0) for dx, dy in flat] + [(0, 0, 1), (0, 0, -1)]
        bishop = [(dx, dy, dl) for dx, dy in flat for dl in (1, -1)]

        def oblique(k):
            return [(k * dx, k * dy, dl) for dx, dy in flat for dl in (1, -1)] + [(dx, dy, k * dl) for dx, dy in flat for dl in (1, -1)]

        self.slides = {"R": rook, "B": bishop, "Q": rook + bishop}
        self.leaps = {"K": rook + bishop, "N": oblique(2), "C": oblique(3), "G": oblique(2) + oblique(3), "F": [(0, 0, 1), (0, 0, -1)]}
        self.leaps["H"] = self.leaps["F"]
        self.rings = {"F": [H], "H": [H, D]}
        self.pawn_steps = PAWNOUT if self.double else PAWN
        if self.wild:
            self.promotions = "QRBNCG"
        else:
            self.promotions = "QRBN" + ("H" if self.double else "F")

    def start(self):
        corner, adjacent = ("RQKGR", "BCNCB") if self.wild else ("RQKQR", "BNFNB")
        if self.double and not self.wild:
            adjacent = adjacent.replace("F", "H")
        red = [((1, 1), corner), ((1, 2), adjacent), ((2, 2), adjacent)]
        if self.pawns:
            red += [((1, 3), "PPPPP"), ((2, 3), "PPPPP"), ((3, 3), "PPPPP")]
        board = {}
        cols = red
        for p in PLAYERS:
            for (x, y), stack in cols:
                for l, k in enumerate(stack):
                    board[(x, y, l)] = (p, k, p)
            cols = [((y - x + 1, 9 - x), s) for (x, y), s in cols]
        return Position(self, board, "r", "ryb")

    def curved(self, c, ring):
        for i in range(6):
            for s in (1, -1):
                path, cur = [], c
                for k in range(5):
                    dx, dy = ring[(i + s * k) % 6]
                    cur = (cur[0] + dx, cur[1] + dy, cur[2])
                    if cur not in ON:
                        break
                    path.append(cur)
                yield path


class Position:
    """Men as cell -> (owner, code, orientation); the orientation is the player whose pawn steps a
    (recruited) pawn keeps."""

    def __init__(self, game, board, to_move, active):
        self.g, self.board, self.to_move, self.active = game, board, to_move, active

    def targets(self, c, man):
        """(cell, captures) pairs a man reaches, ignoring its own King's safety."""
        owner, k, orient = man
        g, b = self.g, self.board
        out = []

        def add(t):
            if t in ON:
                m = b.get(t)
                if m is None:
                    out.append(t)
                elif m[0] != owner:
                    out.append(t)

        if k == "P":
            for dx, dy in g.pawn_steps[orient]:
                t = (c[0] + dx, c[1] + dy, c[2])
                if t in ON and t not in b:
                    out.append(t)
                for dl in (1, -1):
                    t = (c[0] + dx, c[1] + dy, c[2] + dl)
                    if t in ON and t in b and b[t][0] != owner:
                        out.append(t)
            return out
        for v in g.leaps.get(k, []):
            add((c[0] + v[0], c[1] + v[1], c[2] + v[2]))
        for v in g.slides.get(k, []):
            t = c
            while True:
                t = (t[0] + v[0], t[1] + v[1], t[2] + v[2])
                if t not in ON:
                    break
                if t in b:
                    add(t)
                    break
                out.append(t)
        for ring in g.rings.get(k, []):
            for path in g.curved(c, ring):
                for t in path:
                    if t in b:
                        add(t)
                        break
                    out.append(t)
        return list(dict.fromkeys(out))

    def attacked_by(self, target, player):
        """Looks outward from `target`: every move here is reversible (a leap by its negation, a
        slide back along its line, a curved path run backwards in the other sense), so a man of
        `player` attacks `target` exactly when it stands where the same move from `target` ends."""
        g, b = self.g, self.board

        def holds(t, kinds):
            m = b.get(t)
            return m is not None and m[0] == player and m[1] in kinds

        for k, vs in g.leaps.items():
            for v in vs:
                if holds((target[0] - v[0], target[1] - v[1], target[2] - v[2]), k):
                    return True
        for k, vs in g.slides.items():
            for v in vs:
                t = target
                while True:
                    t = (t[0] - v[0], t[1] - v[1], t[2] - v[2])
                    if t not in ON:
                        break
                    if t in b:
                        if holds(t, k):
                            return True
                        break
        for k, rings in g.rings.items():
            for ring in rings:
                for path in g.curved(target, ring):
                    for t in path:
                        if t in b:
                            if holds(t, k):
                                return True
                            break
        for orient, steps in g.pawn_steps.items():
            for dx, dy in steps:
                for dl in (1, -1):
                    m = b.get((target[0] - dx, target[1] - dy, target[2] - dl))
                    if m is not None and m[0] == player and m[1] == "P" and m[2] == orient:
                        return True
        return False

    def king(self, p):
        return next((c for c, m in self.board.items() if m[0] == p and m[1] == "K"), None)

    def start_of_turn(self):
        """§5.2 step 1: the mover mates and recruits every opponent whose King it attacks."""
        p = self.to_move
        for x in [q for q in self.active if q != p]:
            k = self.king(x)
            if self.attacked_by(k, p):
                del self.board[k]
                for c, m in list(self.board.items()):
                    if m[0] == x:
                        self.board[c] = (p, m[1], m[2])
                self.active = self.active.replace(x, "")

    def legal(self):
        p = self.to_move
        if len(self.active) == 1:
            return []
        moves = []
        for c, m in list(self.board.items()):
            if m[0] != p:
                continue
            for t in self.targets(c, m):
                promos = [""]
                if m[1] == "P" and FAR_EDGE[m[2]](t[0], t[1]):
                    promos = [q.lower() for q in self.g.promotions]
                for q in promos:
                    child = self.after((c, t, q))
                    k = child.king(p)
                    if not any(child.attacked_by(k, x) for x in self.active if x != p):
                        moves.append((c, t, q))
        if not moves and len(self.active) > 2:
            moves.append(None)
        return moves

    def after(self, mv):
        """The board after a move, with the same player still to move (for the legality test)."""
        b = dict(self.board)
        if mv is not None:
            c, t, q = mv
            m = b.pop(c)
            b[t] = (m[0], q.upper(), m[2]) if q else m
        return Position(self.g, b, self.to_move, self.active)

    def play(self, mv):
        child = self.after(mv)
        i = PLAYERS.index(self.to_move)
        for step in range(1, 4):
            nxt = PLAYERS[(i + step) % 3]
            if nxt in child.active:
                break
        child.to_move = nxt
        child.start_of_turn()
        return child

    def perft(self, depth):
        moves = self.legal()
        if depth == 1:
            return len(moves)
        return sum(self.play(m).perft(depth - 1) for m in moves)


def parse(game, text):
    """Reads the engine's position string: placement (level a first, rows y = 8 down to 1, each
    from x = y down to 1), player to move, active players. The counters do not matter here."""
    fields = text.split()
    rows = fields[0].split("/")
    board = {}
    for i, row in enumerate(rows):
        l, y = divmod(i, 8)
        y = 8 - y
        x = y
        j = 0
        while j < len(row):
            ch = row[j]
            if ch.isdigit():
                x -= int(ch)
                j += 1
                continue
            owner, code = row[j], row[j + 1]
            j += 2
            orient = owner
            if j < len(row) and row[j] == "(":
                orient = row[j + 1]
                j += 3
            board[(x, y, l)] = (owner, code, orient)
            x -= 1
    return Position(game, board, fields[1], fields[2])


def main():
    gid, depth = sys.argv[1], int(sys.argv[2])
    game = Game(gid)
    pos = parse(game, sys.argv[3]) if len(sys.argv) > 3 else game.start()
    print(pos.perft(depth))


if __name__ == "__main__":
    main()
