"""The bridge between stored games and the rules engine, the only authority on legality."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from app.engine import RULE_SETS, Board, Side


def start_fen(rule_set: str) -> str:
    """The standard starting position of a rule set."""
    return Board(rule_set).fen()


def replay(rule_set: str, first_fen: str | None, notations: Iterable[str]) -> Board:
    """A board after playing `notations` from `first_fen` (None: the standard start)."""
    board = Board(rule_set, fen=first_fen)
    for text in notations:
        board.push_text(text)
    return board


class PlayedPly(Protocol):
    """What rebuilding a board needs of a stored ply."""

    @property
    def notation(self) -> str: ...
    @property
    def irreversible(self) -> bool: ...
    @property
    def fen_after(self) -> str: ...


def board_of(rule_set: str, start_fen: str | None, moves: Sequence[PlayedPly]) -> Board:
    """The game's board with the history the draw rules need.

    After a capture or a man's move no earlier position can occur again and the king-move
    count restarts, so the board is rebuilt from the position after the last such move and
    only the plain king moves since then are replayed (at most a few dozen).
    """
    base = next((i for i in range(len(moves) - 1, -1, -1) if moves[i].irreversible), None)
    if base is None:
        return replay(rule_set, start_fen, (m.notation for m in moves))
    return replay(rule_set, moves[base].fen_after, (m.notation for m in moves[base + 1 :]))


def is_irreversible(board: Board, start: int, is_capture: bool) -> bool:
    """A capture, or a move by a man (checked before the move is pushed)."""
    piece = board.piece_at(start)
    return is_capture or piece is None or not piece.king


def result_text(winner: str | None, reason: str, *, draw: bool) -> str:
    """`Tires win: drums resigned`, `Draw: threefold repetition`, `No winner: ...`."""
    if winner is not None:
        return f"{Side(winner).value.capitalize()} win: {reason}"
    return f"{'Draw' if draw else 'No winner'}: {reason}"


def rule_set_keys() -> list[str]:
    return list(RULE_SETS)
