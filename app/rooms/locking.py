"""The way through every action of a room.

Every action reads top to bottom. `locked_room` locks the room row, loads its current
game, applies the deadlines that have passed and identifies the seat; the action checks,
changes the state and appends the room's events; on the way out (`leave`) the room's next
check is set, the in-transaction hook hears of the new events, and the transaction
commits; then the app's hooks are told (`ctx.hooks`). The action returns the new state,
from which the caller builds its answer. A refused action raises a `RoomError` and
changes nothing (deadline effects found on the way are still kept).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy.orm import Session

from app.core.context import Context

from . import conditionals, errors, hooks, policy
from .deadlines import apply_due_deadlines
from .models import (
    SeatRole,
)
from .seats import (
    identify,
)
from .state import GameState, load_state, lock_room


@dataclass
class Granted:
    """A seat handed over, with its token in the clear (returned once), and the room as
    the transaction that granted it left it."""

    state: GameState
    token: str

    @property
    def room_id(self) -> str:
        return self.state.room.id

    @property
    def role(self) -> SeatRole:
        assert self.state.seat is not None
        return self.state.seat.role


@contextmanager
def locked_room(
    session: Session, *, room_id: str, token: str | None = None, ctx: Context
) -> Iterator[GameState]:
    """The room locked for one action: its current game loaded, the deadlines due by
    `ctx.now` applied, and `state.seat` the seat `token` opens (None without a token;
    `WrongToken` for a token of no seat). Leaving it sets the room's next check and
    commits; a `RoomError` raised inside undoes the action but keeps the deadlines. Once
    the action has committed, the app's hooks hear of it (`ctx.hooks.acted`: the computer
    may owe a reply)."""
    refused: errors.RoomError | None = None
    with session.begin():
        state = load_state(session, lock_room(session, room_id=room_id))
        if not apply_due_deadlines(session, state, ctx=ctx):
            state.seat = identify(state.room, token)
            yield state
        else:
            applied = len(state.events)
            try:
                with session.begin_nested():
                    state.seat = identify(state.room, token)
                    yield state
            except errors.RoomError as exc:
                refused = exc
                del state.events[applied:]  # undone with the savepoint
                state.seat = None  # the deadlines were nobody's act
        leave(session, state, ctx=ctx)
    if refused is not None:
        raise refused
    ctx.hooks.acted(state, ctx.client)


def admit(state: GameState, ctx: Context) -> None:
    """Ask the app's hooks whether the acting client may take an action that may owe the
    computer a reply (its queue's share); they raise to refuse it. Outside a request
    (no client) nothing is asked."""
    if ctx.client is not None:
        ctx.hooks.admit(state, ctx.client)


def leave(session: Session, state: GameState, *, ctx: Context) -> None:
    """The way out of every change of a room: when the sweep must next look at it, and
    the in-transaction hook told of its new events (the notifications' outbox)."""
    state.room.next_check_at = policy.next_check(state.room, state.game, ctx.settings)
    if state.events or state.notes:
        hooks.changed(session, state, ctx)
    read_plan(session, state)


def read_plan(session: Session, state: GameState) -> None:
    """The acting seat's own conditional moves, for its view (only a seat that has some)."""
    seat = state.seat
    state.plan = (
        conditionals.load(session, game_id=state.game.id, seat=seat)
        if seat is not None and seat.planned
        else None
    )
