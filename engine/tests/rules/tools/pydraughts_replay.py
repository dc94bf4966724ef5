"""Replays PDN games in pydraughts; run by the tests with the Python of pydraughts' venv.

Reads ``{"games": [{"variant": ..., "pdn": ...}, ...]}`` as JSON on stdin and prints, for
each game, what pydraughts made of it: the moves its PDN reader found, how many replayed,
the first error, its winner at the end (1 Black, 2 White, 0 draw, None: not over) and the
result token as its reader took it.
"""

import json
import sys

from draughts import Board, Move
from draughts.PDN import PDNReader


def replay(variant: str, text: str) -> dict[str, object]:
    game = PDNReader(pdn_text=text).games[0]
    fen = game.tags.get("FEN")
    board = Board(variant, fen) if fen else Board(variant)
    played = 0
    error = None
    for move in game.moves:
        try:
            board.push(Move(board, pdn_move=move))
        except Exception as exc:  # pydraughts signals an illegal move by any exception
            error = f"{move}: {type(exc).__name__}: {exc}"
            break
        played += 1
    return {
        "read": len(game.moves),
        "played": played,
        "error": error,
        "winner": board.winner(),
        "result": game.game_ending,
        "fen": board.fen,
    }


def count_moves(text: str) -> list[int]:
    return [len(g.moves) for g in PDNReader(pdn_text=text).games]


def main() -> None:
    request = json.load(sys.stdin)
    if "count" in request:
        out: object = count_moves(request["count"])
    else:
        out = [replay(g["variant"], g["pdn"]) for g in request["games"]]
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
