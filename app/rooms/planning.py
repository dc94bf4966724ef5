"""Storing and clearing a seat's conditional moves (see `conditionals` for their rules)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from app.core.context import Context

from . import conditionals, errors
from .locking import locked_room
from .schemas import LineIn
from .state import GameState


class NotWhileToMove(errors.Conflict):
    """Conditional moves are stored only while the opponent is to move."""

    code = "conditional_not_now"


def _lines(lines: Sequence[LineIn]) -> list[conditionals.LineIn]:
    return [conditionals.LineIn(b.their_move, b.reply, _lines(b.next)) for b in lines]


def store_plan(
    session: Session, *, room_id: str, token: str | None, lines: Sequence[LineIn], ctx: Context
) -> GameState:
    """Replace the token's seat's conditional moves by `lines`, each move checked in the
    position it would be played in (LineRefused, 422, names the first bad ply)."""
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        seat = state.require_seat()
        state.require_playing()
        game = state.game
        if game.side_of(seat.role) == game.turn:
            raise NotWhileToMove("conditional moves are stored while your opponent is to move")
        tree = conditionals.check_lines(
            state.board().copy(), _lines(lines), ctx.settings, ply=game.ply
        )
        conditionals.save(session, game_id=game.id, seat=seat, tree=tree, now=ctx.now)
        return state


def plan_line(
    session: Session,
    *,
    room_id: str,
    token: str | None,
    moves: Sequence[str],
    at_ply: int,
    ctx: Context,
) -> GameState:
    """Add a line of moves from the position after `at_ply` (the current one: the
    opponent's move first, then the reply, in turn) to the token's seat's conditional
    moves; a last move of theirs with no reply is left out. Checked as `store_plan`
    checks every line."""
    pairs = [(moves[i], moves[i + 1]) for i in range(0, len(moves) - 1, 2)]
    if not pairs:
        raise conditionals.LineRefused("a line needs your opponent's move and your reply")
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        seat = state.require_seat()
        state.require_playing()
        game = state.game
        if game.ply != at_ply:
            raise errors.StalePly(
                f"the game is at ply {game.ply}, not {at_ply}: the line starts elsewhere",
                current_ply=game.ply,
            )
        if game.side_of(seat.role) == game.turn:
            raise NotWhileToMove("conditional moves are stored while your opponent is to move")
        row = conditionals.load(session, game_id=game.id, seat=seat) if seat.planned else None
        stored = conditionals.as_lines(row.tree) if row is not None else []
        tree = conditionals.check_lines(
            state.board().copy(),
            conditionals.with_line(stored, pairs),
            ctx.settings,
            ply=game.ply,
        )
        conditionals.save(session, game_id=game.id, seat=seat, tree=tree, now=ctx.now)
        return state


def clear_plan(session: Session, *, room_id: str, token: str | None, ctx: Context) -> GameState:
    """Forget the seat's conditional moves (and any note about dropped ones)."""
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        seat = state.require_seat()
        conditionals.save(session, game_id=state.game.id, seat=seat, tree=[], now=ctx.now)
        return state
