"""python-chess drives tessera as a UCI engine: a whole game of standard chess against itself
at a short time control, then an analysis. Every move must be legal; any protocol error raises.

Usage: python3 uci_game.py <path-to-tessera>
"""

import sys

import chess
import chess.engine


def main(path: str) -> None:
    board = chess.Board()
    with chess.engine.SimpleEngine.popen_uci([path]) as engine:
        assert engine.id.get("name", "").startswith("tessera"), engine.id
        engine.configure({"Hash": 8})
        clock = {chess.WHITE: 1.0, chess.BLACK: 1.0}
        while not board.is_game_over(claim_draw=True) and board.ply() < 200:
            limit = chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                                       white_inc=0.02, black_inc=0.02)
            result = engine.play(board, limit)
            move = result.move
            if move is None or move not in board.legal_moves:
                raise SystemExit(f"illegal or missing move {move} in {board.fen()}")
            board.push(move)
        outcome = board.outcome(claim_draw=True)
        print(f"game over after {board.ply()} plies: {outcome}")

        # Analysis of a middlegame position through the `analysis` interface.
        board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
        depths = []
        with engine.analysis(board, chess.engine.Limit(depth=6)) as analysis:
            for info in analysis:
                if "depth" in info and "pv" in info:
                    depths.append(info["depth"])
                    assert info["pv"][0] in board.legal_moves, info
            best = analysis.wait().move
        assert depths and max(depths) >= 6, depths
        # Scholar's mate: Qxf7 is the only mate in one.
        assert best == chess.Move.from_uci("h5f7"), best
        print(f"analysis ok: depths {depths}, best {best}")


if __name__ == "__main__":
    main(sys.argv[1])
