"""A player ends the game: resigning, or claiming a forfeit once the claim is open."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.core.context import Context
from checkers_engine import (
    Side,
)

from . import errors, policy, reasons
from .endings import finish_game
from .events import append_event
from .locking import locked_room
from .models import (
    Ending,
    EventKind,
    Seat,
)
from .reasons import Reason
from .state import GameState


def resign(session: Session, *, room_id: str, token: str | None, ctx: Context) -> GameState:
    """The token's seat gives up the game in progress."""
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        seat = state.require_seat()
        state.require_playing()
        side = state.game.side_of(seat.role)
        _ended_by(
            session,
            state,
            seat,
            EventKind.RESIGNED,
            ctx=ctx,
            winner=side.opponent,
            ending=Ending.RESIGNATION,
            reason=reasons.resigned(side),
        )
        return state


def claim_forfeit(session: Session, *, room_id: str, token: str | None, ctx: Context) -> GameState:
    """The waiting seat wins once the player to move has let the claim window open."""
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        seat = state.require_seat()
        state.require_playing()
        room, game = state.room, state.game
        if policy.vs_computer(room):
            raise errors.ClaimNotAllowed("no forfeit claims in games against the computer")
        side = game.side_of(seat.role)
        if side == game.turn:
            raise errors.ClaimNotAllowed("it is your turn: only the waiting player may claim")
        opens = policy.claim_opens_at(room, game, ctx.settings)
        assert opens is not None
        if ctx.now < opens:
            raise errors.ClaimNotOpen(
                f"the forfeit claim opens at {opens.isoformat()}", opens_at=opens.isoformat()
            )
        _ended_by(
            session,
            state,
            seat,
            EventKind.FORFEIT_CLAIMED,
            ctx=ctx,
            winner=side,
            ending=Ending.FORFEIT,
            reason=reasons.forfeit(ctx.settings),
        )
        return state


def _ended_by(
    session: Session,
    state: GameState,
    seat: Seat,
    kind: EventKind,
    *,
    ctx: Context,
    winner: Side,
    ending: Ending,
    reason: Reason,
) -> None:
    """A player's act that ends the game (resigning, claiming): its event, then the end."""
    side = state.game.side_of(seat.role)
    append_event(
        session,
        state,
        kind=kind,
        now=ctx.now,
        game=state.game.number,
        seat=seat.role,
        side=side.value,
    )
    finish_game(session, state, ctx=ctx, winner=winner, ending=ending, reason=reason)
