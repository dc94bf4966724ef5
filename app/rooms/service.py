"""The rooms service: the single home of every rule around a game, one family of
actions a module (`seating`, `moves`, `offers`, `resigning`, `deadlines`, `endings`, the
way through an action in `locking`). This module holds the reads, and names every action
for the callers outside the package (the routes, the computer, the notifications).
"""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.core.context import Context
from app.core.db import read_transaction

from . import errors
from .deadlines import apply_due_deadlines
from .events import said, sees
from .extensions import give_time
from .locking import Granted, admit, leave, locked_room, read_plan
from .models import (
    Event,
    EventKind,
    Game,
    Move,
    Room,
    SeatRole,
)
from .moves import play_move, record_move
from .offers import draw_action, rematch_action
from .record_schemas import EventOut, EventsOut
from .resigning import claim_forfeit, resign
from .seating import create_room, erase_player, join_room, rename_seat
from .seats import (
    identify,
)
from .state import GameState, load_state, lock_room

# The actions, by the names their callers outside the package use.
__all__ = [
    "Granted",
    "admit",
    "apply_due_deadlines",
    "check_viewer",
    "claim_forfeit",
    "create_room",
    "draw_action",
    "erase_player",
    "give_time",
    "join_room",
    "leave",
    "locked_room",
    "mark_reviewed",
    "play_move",
    "read_events",
    "read_game",
    "read_record",
    "read_room",
    "record_move",
    "rematch_action",
    "rename_seat",
    "resign",
]


def read_room(session: Session, *, room_id: str, token: str | None, ctx: Context) -> GameState:
    """The room as the token's holder (or a spectator) sees it. A deadline that has come
    is applied first, by a writer's transaction that then reads, even if no sweep ran."""
    with read_transaction(session):
        room = lock_room(session, room_id=room_id, read=True)
        if room.next_check_at is None or room.next_check_at > ctx.now:
            state = load_state(session, room)
            state.seat = identify(room, token)
            read_plan(session, state)
            return state
    # Overdue. A share lock is not upgraded (two readers of one overdue room would
    # deadlock): the writer's lock is taken afresh.
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        return state


def check_viewer(session: Session, *, room_id: str, token: str | None) -> SeatRole | None:
    """The seat `token` opens (None without a token); RoomNotFound for an unknown room,
    WrongToken for a token that opens no seat of it."""
    with read_transaction(session):
        room = session.get(Room, room_id)
        if room is None:
            raise errors.RoomNotFound("no room with this id")
        seat = identify(room, token)
        return seat.role if seat is not None else None


def read_record(
    session: Session, *, room_id: str, after: int, limit: int, seat: str | None = None
) -> tuple[list[EventOut], int, bool]:
    """Up to `limit` events after version `after`, of those `seat` (None: a spectator)
    sees; the last version read, and whether the page was full (more may follow)."""
    with read_transaction(session):
        return _record(session, room_id, after, limit, seat)[1:]


def read_events(
    session: Session, *, room_id: str, after: int, limit: int, seat: str | None = None
) -> EventsOut:
    """Events with a version above `after`, oldest first: those `seat` sees (a page may
    come back short where another seat's private events were left out)."""
    with read_transaction(session):
        room, events, _, _ = _record(session, room_id, after, limit, seat)
        return EventsOut(room_id=room_id, version=room.version, events=events)


def _record(
    session: Session, room_id: str, after: int, limit: int, seat: str | None
) -> tuple[Room, list[EventOut], int, bool]:
    room = session.get(Room, room_id)
    if room is None:
        raise errors.RoomNotFound("no room with this id")
    rows = session.execute(
        select(Event.version, Event.kind, Event.data, Event.created_at, Event.audience)
        .where(Event.room_id == room_id, Event.version > after)
        .order_by(Event.version)
        .limit(limit)
    ).all()
    events = [
        EventOut(version=version, kind=EventKind(kind), data=said(data), created_at=created_at)
        for version, kind, data, created_at, audience in rows
        if sees(audience, seat)
    ]
    return room, events, rows[-1].version if rows else after, len(rows) == limit


def mark_reviewed(session: Session, *, room_id: str, number: int) -> None:
    """Note on a finished game that its review has been asked for, in the transaction
    that stores the review."""
    session.execute(
        update(Game).where(Game.room_id == room_id, Game.number == number).values(reviewed=True)
    )


def read_game(session: Session, *, room_id: str, number: int) -> tuple[Room, Game, list[Move]]:
    """A game of the room with its moves, oldest first."""
    with read_transaction(session):
        room = session.get(Room, room_id)
        if room is None:
            raise errors.RoomNotFound("no room with this id")
        game = session.scalars(
            select(Game).where(Game.room_id == room_id, Game.number == number)
        ).one_or_none()
        if game is None:
            raise errors.GameNotFound(f"this room has no game {number}")
        moves = list(
            session.scalars(select(Move).where(Move.game_id == game.id).order_by(Move.ply))
        )
        return room, game, moves
