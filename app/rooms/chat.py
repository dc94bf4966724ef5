"""The chat between a room's two players.

Only the two seats read and write it; a spectator is refused (403 `players_only`), and a
room against the computer has none. A message is plain text (`plaintext`), kept in the
room's `chat_messages` and sent live as a `chat` event whose audience is the players
(`events.sees`): no spectator's stream or page of the record carries it. A player who
switches the chat off is shown nothing more and told nothing more; while one of them has
it off, no message can be sent (it would reach nobody).
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.context import Context
from app.core.db import read_transaction

from . import errors, policy
from .events import append_event
from .locking import locked_room
from .logs import log_action
from .models import ChatMessage, EventKind, Room, RoomStatus, Seat, SeatRole
from .plaintext import clean_text
from .seats import identify
from .state import GameState, lock_room

MAX_LENGTH = 500
HISTORY = 200  # the latest messages a read returns


# The audience of the chat's events: the two players (a message is only ever sent while
# both have the chat on).
PLAYERS = " ".join(role.value for role in SeatRole)


def _require_player(room: Room, seat: Seat | None) -> Seat:
    if seat is None:
        raise errors.PlayersOnly("the chat is the two players' own: send a seat's token")
    if policy.vs_computer(room):
        raise errors.NoChat("a game against the computer has no chat")
    return seat


def send_message(
    session: Session, *, room_id: str, token: str | None, text: str, ctx: Context
) -> ChatMessage:
    """The token's seat says `text` to the other player."""
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        seat = _require_player(state.room, state.seat)
        state.require_open()
        if state.room.status == RoomStatus.WAITING:
            raise errors.WaitingForOpponent("the chat opens when a second player joins")
        if seat.chat_off:
            raise errors.ChatOff("you have switched the chat off: switch it on to write")
        if any(s.chat_off for s in state.room.seats):
            raise errors.ChatOffOpponent("your opponent has switched the chat off")
        message = ChatMessage(
            room_id=state.room.id,
            seat=seat.role,
            text=clean_text(text, max_length=MAX_LENGTH),
            created_at=ctx.now,
        )
        session.add(message)
        session.flush()
        append_event(
            session,
            state,
            kind=EventKind.CHAT,
            now=ctx.now,
            audience=PLAYERS,
            seat=seat.role,
            id=message.id,
            text=message.text,
        )
        log_action("chat", state.game, outcome="sent")
        return message


def switch_chat(
    session: Session, *, room_id: str, token: str | None, on: bool, ctx: Context
) -> GameState:
    """The token's seat switches the room's chat on or off for itself; both players'
    streams hear of it (so the other knows a message would reach nobody)."""
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        seat = _require_player(state.room, state.seat)
        state.require_open()
        if seat.chat_off == (not on):
            return state  # already so: nothing to record
        seat.chat_off = not on
        append_event(
            session,
            state,
            kind=EventKind.CHAT_SWITCHED,
            now=ctx.now,
            audience=PLAYERS,
            seat=seat.role,
            on=on,
        )
        return state


def read_chat(
    session: Session, *, room_id: str, token: str | None
) -> tuple[Seat, bool, list[ChatMessage]]:
    """The token's seat, whether the other player has the chat off, and the latest
    messages, oldest first (none for a seat that has switched the chat off)."""
    with read_transaction(session):
        room = lock_room(session, room_id=room_id, read=True)
        seat = _require_player(room, identify(room, token))
        opponent_off = any(s.chat_off for s in room.seats if s.role != seat.role)
        if seat.chat_off:
            return seat, opponent_off, []
        latest = session.scalars(
            select(ChatMessage)
            .where(ChatMessage.room_id == room_id)
            .order_by(ChatMessage.id.desc())
            .limit(HISTORY)
        ).all()
        return seat, opponent_off, list(reversed(latest))
