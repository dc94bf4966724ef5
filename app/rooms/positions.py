"""Games from a position: the start FEN a player gives, read in the rule set's own
tradition and judged once, and the board a stored game starts from.

A game stores its start as the engine's own FEN plus the FEN's counters: the half-move
clock (plies since the last capture or man's move, lidraughts' ``:H``), which seeds the
20-king-ply count, and the full-move number (``:F``), from which its moves are numbered.
"""

from __future__ import annotations

from dataclasses import dataclass

from checkers_engine import Board, InvalidFenError, Side, fen, tradition
from checkers_engine.fen import Position

from . import errors


@dataclass(frozen=True, slots=True)
class StartPosition:
    """A start position as a game stores it."""

    fen: str  # the engine's own FEN (B = drums)
    half_move_clock: int | None
    move_number: int | None


def read_start(rule_set: str, text: str) -> StartPosition:
    """A start FEN in the rule set's tradition, refused with the precise reason when it
    cannot be read or is inconsistent (`InvalidFen`), or when nothing is left to play in
    it (`PositionDecided`): the side to move has no legal move, a side has no pieces, or
    the half-move clock has already reached the 20-king-ply draw."""
    try:
        position = fen.read(rule_set, text)
    except InvalidFenError as exc:
        # `reason` is the engine's code and params: what a page says in its language.
        reason = {"code": exc.message.code, "params": exc.message.params} if exc.message else None
        raise errors.InvalidFen(f"invalid start position: {exc}", reason=reason) from None
    board = Board.from_position(position)
    trad = tradition(rule_set)
    for side in Side:
        if side is Side.DRUMS:
            pieces = position.drums | position.drum_kings
        else:
            pieces = position.tires | position.tire_kings
        if not pieces:
            raise errors.PositionDecided(
                f"this position is already decided: {trad.colour(side).value} has no pieces"
            )
    outcome = board.outcome()
    if outcome is not None:
        mover = trad.colour(board.turn).value
        if outcome.winner is not None:
            why = f"{mover}, to move, has no legal move"
        else:
            why = f"drawn already ({outcome.detail}: the half-move clock is {board.king_plies})"
        raise errors.PositionDecided(f"this position is already decided: {why}")
    return StartPosition(position.internal_fen(), position.half_move_clock, position.move_number)


def start_board(
    rule_set: str, start_fen: str | None, half_move_clock: int | None, move_number: int | None
) -> Board:
    """The board a stored game starts from: the standard start, or its start position
    with the counters it was given."""
    if start_fen is None:
        return Board(rule_set)
    position = Position.from_internal_fen(rule_set, start_fen)
    return Board.from_position(position.with_counters(half_move_clock, move_number))


def start_text(
    rule_set: str, start_fen: str | None, half_move_clock: int | None, move_number: int | None
) -> str | None:
    """A stored start position as its tradition writes it (with ``:H``/``:F`` where the
    tradition uses them); None for the standard start."""
    if start_fen is None:
        return None
    board = start_board(rule_set, start_fen, half_move_clock, move_number)
    return fen.write(board.position(), counters=tradition(rule_set).fen_counters)
