"""Notifications, recorded from a room's new events in the transaction that appended them.

Each seat that asked to be told (a push subscription, a confirmed address) gets at most
one message per change of the room, the weightiest one for it, and never for its own
act. A message is a row per push subscription and per address (the outbox), which the
delivery job sends later: an action never waits for a push service or a mail server.

A row holds facts, never text: its kind and the parameters its message names (who, which
move, which reason). `messages.render` writes the text when the row is sent, in the
language of its device or address; nothing is rendered inside the room's transaction.
`record` is the one hook the rooms call (`app.rooms.hooks`), registered at start-up.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from app.core.context import Context
from app.rooms import hooks, policy
from app.rooms.models import Ending, EventKind, GameStatus, OfferKind, Seat, SeatRole
from app.rooms.reasons import closed
from app.rooms.state import GameState
from checkers_engine import Side
from checkers_engine.notation import format_path

from .models import Channel, Delivery, Notification, PushSubscription, SeatEmail
from .subscriptions import forget_devices

# Weightiest first: a change that ends the game says so rather than "your move".
WEIGHT: list[str] = [
    EventKind.GAME_OVER,
    EventKind.EXPIRED,
    EventKind.REMATCH_ACCEPTED,
    EventKind.CLAIM_OPEN,
    EventKind.DRAW_OFFERED,
    EventKind.REMATCH_OFFERED,
    EventKind.DRAW_DECLINED,
    EventKind.REMATCH_DECLINED,
    EventKind.TIME_GIVEN,
    EventKind.JOINED,
    EventKind.CHAT,
    EventKind.MOVE,
    "conditional_played",
    "conditional_dropped",
    EventKind.CLAIM_SOON,
]

# The start of a chat message that its notification quotes, in characters.
CHAT_EXCERPT = 140

# A notification's kind and the facts its message names.
Facts = tuple[str, dict[str, Any]]

# The kinds of notification a player may choose among, by group (a player profile keeps
# its choice: `register_choices`).
GROUPS: dict[str, frozenset[str]] = {
    "moves": frozenset({EventKind.MOVE, "conditional_played", "conditional_dropped"}),
    "offers": frozenset(
        {
            EventKind.JOINED,
            EventKind.DRAW_OFFERED,
            EventKind.REMATCH_OFFERED,
            EventKind.DRAW_DECLINED,
            EventKind.REMATCH_DECLINED,
            EventKind.REMATCH_ACCEPTED,
        }
    ),
    "deadlines": frozenset({EventKind.CLAIM_OPEN, EventKind.CLAIM_SOON}),
    "results": frozenset({EventKind.GAME_OVER, EventKind.EXPIRED}),
}
# The seats whose players chose some groups only: seat id -> the groups they are told of.
Choices = Callable[[Session, list[int]], dict[int, frozenset[str]]]
_CHOICES: list[Choices] = []


def register_choices(choices: Choices) -> None:
    """Let something that knows a seat's player (a profile) say which groups notify it;
    a seat no one answers for is told of every group."""
    if choices not in _CHOICES:
        _CHOICES.append(choices)


def _wanted(session: Session, seat_ids: list[int]) -> dict[int, frozenset[str]]:
    chosen: dict[int, frozenset[str]] = {}
    for choices in _CHOICES:
        chosen.update(choices(session, seat_ids))
    return chosen


def group_of(kind: str) -> str | None:
    return next((name for name, kinds in GROUPS.items() if kind in kinds), None)


def facts(state: GameState, ctx: Context) -> dict[SeatRole, Facts]:
    """The notification each seat should get for the action's events, if any: the
    weightiest kind for it, with what its text will name."""
    room, game = state.room, state.game
    actor = state.seat.role if state.seat else None
    seats = {seat.role: seat for seat in room.seats}

    def who(role: SeatRole) -> dict[str, Any]:
        """A seat as its name is shown: its chosen name or level, else its colour's
        default, in the reader's language."""
        seat = seats.get(role)
        level = seat.computer_level.value if seat and seat.computer_level else None
        return {"name": seat.name if seat else None, "level": level, "side": game.side_of(role)}

    found: dict[SeatRole, Facts] = {}

    def to(role: SeatRole, kind: str, **params: Any) -> None:
        if role == actor:
            return
        held = found.get(role)
        if held is None or WEIGHT.index(kind) < WEIGHT.index(held[0]):
            found[role] = (kind, {"rule_set": room.rule_set, **params})

    for kind, data in state.events:
        seat = SeatRole(data["seat"]) if "seat" in data else None
        mover = game.seat_of(Side(data["side"])) if "side" in data else None
        if kind == EventKind.MOVE and game.status == GameStatus.PLAYING and mover is not None:
            # Only the player to move now: a conditional reply may have followed at once.
            if mover.other == game.seat_of(game.turn):
                played = format_path(room.rule_set, data["path"], bool(data["captured"]))
                to(mover.other, kind, who=who(mover), move=played)
        elif kind in (EventKind.JOINED, EventKind.DRAW_OFFERED, EventKind.REMATCH_OFFERED) and seat:
            to(seat.other, kind, who=who(seat))
        elif kind in (EventKind.DRAW_DECLINED, EventKind.REMATCH_DECLINED) and seat:
            offer = OfferKind.DRAW if kind == EventKind.DRAW_DECLINED else OfferKind.REMATCH
            to(seat.other, kind, who=who(seat), offer=offer, reason=data.get("reason"))
        elif kind == EventKind.REMATCH_ACCEPTED:
            for role in SeatRole:
                to(role, kind, number=game.number, side=game.side_of(role))
        elif kind == EventKind.CLAIM_OPEN and seat is not None:
            waited = ctx.settings.claim_after + policy.turn_extension(game)
            seconds = int(waited.total_seconds())
            to(seat, kind, who=who(seat.other), seconds=seconds)
        elif kind == EventKind.CLAIM_SOON and seat is not None:
            opens = policy.claim_opens_at(room, game, ctx.settings)
            seconds = int(ctx.settings.remind_before.total_seconds())
            at = opens.isoformat() if opens is not None else None
            to(seat, kind, who=who(seat.other), seconds=seconds, opens_at=at)
        elif kind == EventKind.CHAT and seat is not None and _chat_on(seats.get(seat.other)):
            # The message itself is the fact its notification names (cut short).
            to(seat.other, kind, who=who(seat), text=data["text"][:CHAT_EXCERPT])
        elif kind == EventKind.TIME_GIVEN and seat is not None:
            to(seat.other, kind, who=who(seat), opens_at=data["claim_opens_at"])
        elif kind == EventKind.GAME_OVER and game.reason is not None:
            reason = game.reason
            for role in SeatRole:
                to(role, kind, winner=game.winner, code=reason.code, params=reason.params)
        elif kind == EventKind.EXPIRED:
            # The game's own reason when it expired; else the room closed to rematches.
            why = game.reason if game.termination == Ending.EXPIRED else None
            why = why or closed(ctx.settings)
            for role in SeatRole:
                to(role, kind, code=why.code, params=why.params)
    for role, note, params in state.notes:
        other = {"who": who(role.other)} if note == "conditional_played" else {}
        to(role, note, **other, **params)
    return found


def _chat_on(seat: Seat | None) -> bool:
    """Whether a seat hears of the chat (one who switched it off is told nothing)."""
    return seat is not None and not seat.chat_off


def install() -> None:
    """Register `record` as the rooms' in-transaction hook (at start-up)."""
    hooks.register(record)


def record(session: Session, state: GameState, ctx: Context) -> None:
    """Store the notifications the action's events call for (only seats that asked): one
    row per device and address, with the facts of its message. The rooms' one hook into
    this package, called in the room's transaction. A seat moved to another device loses
    the old device's push subscriptions."""
    for kind, data in state.events:
        if kind == EventKind.SEAT_MOVED:
            moved = next(s for s in state.room.seats if s.role == data["seat"])
            forget_devices(session, moved)
    listening = [s for s in state.room.seats if (s.push_on or s.email_on) and s.id is not None]
    if not listening or not (state.events or state.notes):
        return
    found = facts(state, ctx)
    if not found:
        return
    room, game, now = state.room, state.game, ctx.now
    rows: list[dict[str, Any]] = []
    roles = {seat.id: seat.role for seat in listening}
    wanted = _wanted(session, list(roles))

    def row(seat_id: int, channel: Channel, subscription: int | None) -> None:
        if roles[seat_id] not in found:
            return
        kind, params = found[roles[seat_id]]
        if seat_id in wanted and group_of(kind) not in wanted[seat_id]:
            return
        rows.append(
            {
                "room_id": room.id,
                "seat_id": seat_id,
                "channel": channel,
                "subscription_id": subscription,
                "game_number": game.number,
                "kind": kind,
                "params": _json(params),
                "created_at": now,
                "due_at": now,
                "attempts": 0,
                "state": Delivery.PENDING,
            }
        )

    pushing = [seat.id for seat in listening if seat.push_on]
    if pushing:
        subscriptions = session.execute(
            select(PushSubscription.id, PushSubscription.seat_id).where(
                PushSubscription.seat_id.in_(pushing)
            )
        )
        for sub_id, seat_id in subscriptions:
            row(seat_id, Channel.PUSH, sub_id)
    mailing = [seat.id for seat in listening if seat.email_on]
    if mailing and ctx.settings.email_enabled:
        addresses = session.scalars(select(SeatEmail.seat_id).where(SeatEmail.seat_id.in_(mailing)))
        for seat_id in addresses:
            held = found.get(roles[seat_id])
            if held and not _mailed_lately(session, seat_id, held[0], game.number, ctx):
                row(seat_id, Channel.EMAIL, None)
    if rows:
        session.execute(insert(Notification), rows)


def _json(value: Any) -> Any:
    """Facts as JSON stores them: enums by their values."""
    if isinstance(value, dict):
        return {key: _json(item) for key, item in value.items()}
    return value.value if isinstance(value, enum.Enum) else value


def _mailed_lately(session: Session, seat_id: int, kind: str, game: int, ctx: Context) -> bool:
    """At most one mail per kind of event and game per EMAIL_MIN_INTERVAL_SECONDS."""
    since = ctx.now - timedelta(seconds=ctx.settings.email_min_interval_seconds)
    count = session.scalar(
        select(func.count())
        .select_from(Notification)
        .where(
            Notification.seat_id == seat_id,
            Notification.channel == Channel.EMAIL,
            Notification.kind == kind,
            Notification.game_number == game,
            Notification.created_at > since,
        )
    )
    return bool(count)
