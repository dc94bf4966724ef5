"""The bridge between stored games and the rules engine, the only authority on legality."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.engine import RULE_SETS, Board, Side

from .models import Game, Move


def start_fen(rule_set: str) -> str:
    """The standard starting position of a rule set."""
    return Board(rule_set).fen()


def replay(rule_set: str, first_fen: str | None, notations: Iterable[str]) -> Board:
    """A board after playing `notations` from `first_fen` (None: the standard start)."""
    board = Board(rule_set, fen=first_fen)
    for text in notations:
        board.push_text(text)
    return board


def load_board(session: Session, game: Game, rule_set: str) -> Board:
    """The game's board with the history the draw rules need.

    After a capture or a man's move no earlier position can occur again and the king-move
    count restarts, so the board is rebuilt from the position after the last such move and
    only the plain king moves since then are replayed (at most a few dozen).
    """
    base = session.scalars(
        select(Move)
        .where(Move.game_id == game.id, Move.irreversible.is_(True))
        .order_by(Move.ply.desc())
        .limit(1)
    ).first()
    base_ply = base.ply if base else 0
    base_fen = base.fen_after if base else game.start_fen
    tail = session.scalars(
        select(Move.notation).where(Move.game_id == game.id, Move.ply > base_ply).order_by(Move.ply)
    ).all()
    return replay(rule_set, base_fen, tail)


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
