"""The analysis board's kept lines: a player plays moves for both sides from any position
of a game (the start or after any ply) and every line is kept for that seat, so it is
there on another visit or device. Each move is checked by the rules as it is stored.

No evaluation is offered while the game is in progress: a line is moves and nothing
more. A line from the current position that starts with the opponent's move becomes
conditional moves in one step (`planning.plan_line`).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.context import Context
from app.core.db import read_transaction
from checkers_engine import AmbiguousMoveError, Board, EngineError, IllegalMoveError

from . import errors
from .conditionals import LineRefused
from .locking import locked_room
from .models import AnalysisLine, Game, GameStatus, Move, Room, Seat
from .notes import game_of, player_of
from .planning import plan_line
from .positions import start_board
from .state import GameState, lock_room

MAX_LINES = 40  # kept per seat and game
MAX_PLIES = 120  # moves in one line


class LineNotFound(errors.NotFound):
    """This seat has no analysis line of this id in this game."""

    code = "line_not_found"


class LineLimit(errors.Conflict):
    """The seat keeps all the lines a game allows (`MAX_LINES`): forget one first."""

    code = "line_limit"


class LineNotPlannable(errors.Conflict):
    """Only a line from the current position of a game in progress, starting with the
    opponent's move, becomes conditional moves."""

    code = "line_not_plannable"


def position_at(session: Session, room: Room, game: Game, ply: int) -> Board:
    """The game's position after `ply` plies (0: its start)."""
    if ply > game.ply:
        raise errors.InvalidInput(f"game {game.number} has {game.ply} plies: no ply {ply} yet")
    if ply == 0:
        return start_board(
            room.rule_set, game.start_fen, game.start_half_move_clock, game.start_move_number
        )
    fen = session.scalar(select(Move.fen_after).where(Move.game_id == game.id, Move.ply == ply))
    assert fen is not None
    return Board(room.rule_set, fen=fen)


def checked(board: Board, moves: Sequence[str], from_ply: int) -> list[str]:
    """The moves in the engine's notation, each legal where it is played (LineRefused,
    422 `conditional_refused`, names the first that is not, and the legal moves there)."""
    if len(moves) > MAX_PLIES:
        raise LineRefused(f"a line holds at most {MAX_PLIES} moves")
    out = []
    for offset, text in enumerate(moves):
        ply = from_ply + offset + 1
        try:
            move = board.parse_move(text)
        except (IllegalMoveError, AmbiguousMoveError, EngineError) as exc:
            raise LineRefused(
                f"ply {ply}: {text!r} cannot be played there ({exc})",
                ply=ply,
                move=text,
                legal_moves=[m.notation() for m in board.legal_moves],
            ) from exc
        board.push(move)
        out.append(move.notation())
    return out


def seat_lines(session: Session, game: Game, seat: Seat) -> list[AnalysisLine]:
    """A seat's lines on a game, oldest first."""
    return list(
        session.scalars(
            select(AnalysisLine)
            .where(AnalysisLine.game_id == game.id, AnalysisLine.seat_id == seat.id)
            .order_by(AnalysisLine.id)
        )
    )


def _line(session: Session, game: Game, seat: Seat, line_id: int) -> AnalysisLine:
    line = session.get(AnalysisLine, line_id)
    if line is None or line.game_id != game.id or line.seat_id != seat.id:
        raise LineNotFound("you have no line of this id in this game")
    return line


def keep_line(
    session: Session,
    *,
    room_id: str,
    token: str | None,
    number: int,
    from_ply: int,
    moves: Sequence[str],
    line_id: int | None,
    ctx: Context,
) -> AnalysisLine:
    """Keep a new line of game `number` from the position after `from_ply`, or replace
    the moves of the seat's line `line_id` (from where it starts)."""
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        seat = player_of(state.room, token)
        game = game_of(state.room, number)
        if line_id is not None:
            line = _line(session, game, seat, line_id)
            board = position_at(session, state.room, game, line.from_ply)
            line.moves = checked(board, moves, line.from_ply)
            line.updated_at = ctx.now
            return line
        board = position_at(session, state.room, game, from_ply)
        kept = checked(board, moves, from_ply)
        if len(seat_lines(session, game, seat)) >= MAX_LINES:
            raise LineLimit(f"you keep {MAX_LINES} lines of this game: forget one first")
        line = AnalysisLine(
            game_id=game.id,
            seat_id=seat.id,
            from_ply=from_ply,
            moves=kept,
            created_at=ctx.now,
            updated_at=ctx.now,
        )
        session.add(line)
        session.flush()
        return line


def forget_line(
    session: Session, *, room_id: str, token: str | None, number: int, line_id: int, ctx: Context
) -> None:
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        seat = player_of(state.room, token)
        session.delete(_line(session, game_of(state.room, number), seat, line_id))


def read_lines(
    session: Session, *, room_id: str, token: str | None, number: int
) -> tuple[Game, list[AnalysisLine]]:
    """The token's seat's lines on game `number`, oldest first."""
    with read_transaction(session):
        room = lock_room(session, room_id=room_id, read=True)
        seat = player_of(room, token)
        game = game_of(room, number)
        return game, seat_lines(session, game, seat)


def line_to_review(
    session: Session, *, room_id: str, token: str | None, number: int, line_id: int
) -> tuple[str, str, list[str]]:
    """What the computer reviews of the seat's own line, once its game is over: the rule
    set, the position it starts from (engine FEN) and its moves."""
    with read_transaction(session):
        room = lock_room(session, room_id=room_id, read=True)
        seat = player_of(room, token)
        game = game_of(room, number)
        if game.status != GameStatus.FINISHED:
            raise errors.GameNotOver("no computer review while the game is in progress")
        line = _line(session, game, seat, line_id)
        start = position_at(session, room, game, line.from_ply).fen()
        return room.rule_set, start, list(line.moves)


def plan_from_line(
    session: Session, *, room_id: str, token: str | None, number: int, line_id: int, ctx: Context
) -> GameState:
    """The seat's line becomes conditional moves, added to those it has: it must start
    from the current position of the game in progress, with the opponent to move."""
    with read_transaction(session):
        room = lock_room(session, room_id=room_id, read=True)
        seat = player_of(room, token)
        game = game_of(room, number)
        line = _line(session, game, seat, line_id)
        moves, from_ply = list(line.moves), line.from_ply
        current = room.current_game_number == number and from_ply == game.ply
    if not current:
        raise LineNotPlannable(
            "only a line from the current position of the game in progress becomes "
            "conditional moves"
        )
    return plan_line(session, room_id=room_id, token=token, moves=moves, at_ply=from_ply, ctx=ctx)
