"""Notifications, made from a room's new events in the transaction that appended them.

Each seat that asked to be told (a push subscription, a confirmed address) gets at most
one message per change of the room, the weightiest one for it, and never for its own
act. A message is a row per push subscription and per address (the outbox), which the
delivery job sends later: an action never waits for a push service or a mail server.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from app.core.context import Context
from app.engine import RULE_SETS, Side
from app.engine.notation import format_path

from . import policy
from .models import (
    Channel,
    Delivery,
    EventKind,
    GameStatus,
    Notification,
    PushSubscription,
    SeatRole,
)
from .names import shown_name
from .state import GameState

# Weightiest first: a change that ends the game says so rather than "your move".
_WEIGHT: list[str] = [
    EventKind.GAME_OVER,
    EventKind.EXPIRED,
    EventKind.REMATCH_ACCEPTED,
    EventKind.CLAIM_OPEN,
    EventKind.DRAW_OFFERED,
    EventKind.REMATCH_OFFERED,
    EventKind.DRAW_DECLINED,
    EventKind.REMATCH_DECLINED,
    EventKind.JOINED,
    EventKind.MOVE,
    "conditional_played",
    "conditional_dropped",
    EventKind.CLAIM_SOON,
]


@dataclass(frozen=True)
class Message:
    kind: str
    title: str
    body: str

    def payload(self, room_id: str, game: int) -> dict[str, Any]:
        # The tag collapses a room's game's messages into one on the device.
        return {
            "title": self.title,
            "body": self.body,
            "url": f"/r/{room_id}",
            "tag": f"room-{room_id}-game-{game}",
        }


def _messages(state: GameState, ctx: Context) -> dict[SeatRole, Message]:
    """The message each seat should get for the action's events, if any."""
    room, game = state.room, state.game
    actor = state.seat.role if state.seat else None
    rule_set = RULE_SETS[room.rule_set].name
    seats = {seat.role: seat for seat in room.seats}

    def name(role: SeatRole) -> str:
        seat = seats.get(role)
        side = game.side_of(role)
        return shown_name(seat.name, seat.computer_level, side) if seat else side.title

    found: dict[SeatRole, Message] = {}

    def to(role: SeatRole, kind: str, title: str, body: str) -> None:
        if role == actor:
            return
        held = found.get(role)
        if held is None or _WEIGHT.index(kind) < _WEIGHT.index(held.kind):
            found[role] = Message(kind, f"{title} · {rule_set}", body)

    for kind, data in state.events:
        seat = SeatRole(data["seat"]) if "seat" in data else None
        mover = game.seat_of(Side(data["side"])) if "side" in data else None
        if kind == EventKind.MOVE and game.status == GameStatus.PLAYING and mover is not None:
            # Only the player to move now: a conditional reply may have followed at once.
            if mover.other == game.seat_of(game.turn):
                played = format_path(room.rule_set, data["path"], bool(data["captured"]))
                to(mover.other, kind, "Your move", f"{name(mover)} played {played}.")
        elif kind == EventKind.JOINED and seat is not None:
            to(seat.other, kind, "Your invitation was accepted", f"{name(seat)} joined.")
        elif kind == EventKind.DRAW_OFFERED and seat is not None:
            to(seat.other, kind, "Draw offered", f"{name(seat)} offers a draw.")
        elif kind == EventKind.REMATCH_OFFERED and seat is not None:
            to(seat.other, kind, "Rematch offered", f"{name(seat)} offers a rematch.")
        elif kind in (EventKind.DRAW_DECLINED, EventKind.REMATCH_DECLINED) and seat:
            what = "draw" if kind == EventKind.DRAW_DECLINED else "rematch"
            to(seat.other, kind, "Offer declined", f"{name(seat)} declined your {what} offer.")
        elif kind == EventKind.REMATCH_ACCEPTED:
            for role in SeatRole:
                side = game.side_of(role)
                body = f"Game {game.number} has begun: you play the {side.value}."
                if side is Side.DRUMS:
                    body += " Your move."
                to(role, kind, "Rematch accepted", body)
        elif kind == EventKind.CLAIM_OPEN and seat is not None:
            waited = policy.span(ctx.settings.claim_after)
            body = f"{name(seat.other)} has not moved for {waited}: you may claim the win."
            to(seat, kind, "You may claim the win", body)
        elif kind == EventKind.CLAIM_SOON and seat is not None:
            left = policy.span(ctx.settings.remind_before)
            body = f"Move within {left}, or {name(seat.other)} may claim the win."
            to(seat, kind, "Your move: time is running", body)
        elif kind == EventKind.GAME_OVER:
            text = policy.result_text(game) or "The game is over."
            for role in SeatRole:
                to(role, kind, "Game over", f"{text}.")
        elif kind == EventKind.EXPIRED:
            for role in SeatRole:
                to(role, kind, "Room closed", f"{str(data['reason']).capitalize()}.")
    for role, note, title, body in state.notes:
        to(role, note, title, body)
    return found


def enqueue(session: Session, state: GameState, *, ctx: Context) -> None:
    """Store the notifications the action's events call for (only seats that asked)."""
    listening = [s for s in state.room.seats if (s.push_on or s.email_on) and s.id is not None]
    if not state.events and not state.notes:
        return
    if not listening:
        return
    messages = _messages(state, ctx)
    by_id = {seat.id: messages[seat.role] for seat in listening if seat.role in messages}
    if not by_id:
        return
    room, game, now = state.room, state.game, ctx.now
    rows: list[dict[str, Any]] = []

    def row(seat_id: int, channel: Channel, subscription: int | None) -> dict[str, Any]:
        message = by_id[seat_id]
        return {
            "room_id": room.id,
            "seat_id": seat_id,
            "channel": channel,
            "subscription_id": subscription,
            "game_number": game.number,
            "kind": message.kind,
            "payload": message.payload(room.id, game.number),
            "created_at": now,
            "due_at": now,
            "attempts": 0,
            "state": Delivery.PENDING,
        }

    pushing = [seat.id for seat in listening if seat.push_on and seat.id in by_id]
    if pushing:
        subscriptions = session.execute(
            select(PushSubscription.id, PushSubscription.seat_id).where(
                PushSubscription.seat_id.in_(pushing)
            )
        )
        rows += [row(seat_id, Channel.PUSH, sub_id) for sub_id, seat_id in subscriptions]
    mailing = [seat.id for seat in listening if seat.email_on and seat.id in by_id]
    if mailing and ctx.settings.email_enabled:
        rows += [
            row(seat_id, Channel.EMAIL, None)
            for seat_id in mailing
            if not _mailed_lately(session, seat_id, by_id[seat_id].kind, game.number, ctx)
        ]
    if rows:
        session.execute(insert(Notification), rows)


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
