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
from .locking import Granted, admit, leave, locked_room, read_plan
from .models import (
    Event,
    EventKind,
    Game,
    Move,
    Room,
)
from .moves import play_move, record_move
from .offers import draw_action, rematch_action
from .resigning import claim_forfeit, resign
from .schemas import EventOut, EventsOut
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
    "join_room",
    "leave",
    "locked_room",
    "mark_reviewed",
    "play_move",
    "read_events",
    "read_game",
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


def check_viewer(session: Session, *, room_id: str, token: str | None) -> None:
    """RoomNotFound for an unknown room; WrongToken for a token that opens no seat of it."""
    with read_transaction(session):
        room = session.get(Room, room_id)
        if room is None:
            raise errors.RoomNotFound("no room with this id")
        identify(room, token)


def read_events(session: Session, *, room_id: str, after: int, limit: int) -> EventsOut:
    """Events with a version above `after`, oldest first."""
    with read_transaction(session):
        room = session.get(Room, room_id)
        if room is None:
            raise errors.RoomNotFound("no room with this id")
        events = session.scalars(
            select(Event)
            .where(Event.room_id == room_id, Event.version > after)
            .order_by(Event.version)
            .limit(limit)
        ).all()
        return EventsOut(
            room_id=room_id,
            version=room.version,
            events=[
                EventOut(
                    version=e.version, kind=EventKind(e.kind), data=e.data, created_at=e.created_at
                )
                for e in events
            ],
        )


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
