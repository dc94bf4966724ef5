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
from app.i18n import DEFAULT, Translator, translator
from checkers_engine import Side
from checkers_engine.notation import format_path

from . import policy, texts
from .models import (
    Channel,
    Delivery,
    Ending,
    EventKind,
    GameStatus,
    Notification,
    OfferKind,
    PushSubscription,
    SeatEmail,
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


Messages = dict[SeatRole, Message]


def _messages(state: GameState, ctx: Context, tr: Translator, zone: str | None) -> Messages:
    """The message each seat should get for the action's events, if any, in `tr`'s
    language, its instants in the time zone `zone`."""
    room, game = state.room, state.game
    actor = state.seat.role if state.seat else None
    rule_set = texts.rule_set_name(tr, room.rule_set)
    seats = {seat.role: seat for seat in room.seats}

    def name(role: SeatRole) -> str:
        seat = seats.get(role)
        side = game.side_of(role)
        default = texts.default_name(tr, side)
        return shown_name(seat.name, seat.computer_level, side, default) if seat else default

    found: Messages = {}

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
                body = tr._("{name} played {move}.", name=name(mover), move=played)
                to(mover.other, kind, tr._("Your move"), body)
        elif kind == EventKind.JOINED and seat is not None:
            title = tr._("Your invitation was accepted")
            to(seat.other, kind, title, tr._("{name} joined.", name=name(seat)))
        elif kind == EventKind.DRAW_OFFERED and seat is not None:
            body = tr._("{name} offers a draw.", name=name(seat))
            to(seat.other, kind, tr._("Draw offered"), body)
        elif kind == EventKind.REMATCH_OFFERED and seat is not None:
            body = tr._("{name} offers a rematch.", name=name(seat))
            to(seat.other, kind, tr._("Rematch offered"), body)
        elif kind in (EventKind.DRAW_DECLINED, EventKind.REMATCH_DECLINED) and seat:
            offer = OfferKind.DRAW if kind == EventKind.DRAW_DECLINED else OfferKind.REMATCH
            body = texts.declined_text(tr, offer, name(seat), data.get("reason"))
            to(seat.other, kind, tr._("Offer declined"), body)
        elif kind == EventKind.REMATCH_ACCEPTED:
            for role in SeatRole:
                number = tr.number(game.number)
                if game.side_of(role) is Side.DRUMS:
                    body = tr._(
                        "Game {number} has begun: you play the drums. Your move.", number=number
                    )
                else:
                    body = tr._("Game {number} has begun: you play the tires.", number=number)
                to(role, kind, tr._("Rematch accepted"), body)
        elif kind == EventKind.CLAIM_OPEN and seat is not None:
            body = tr._(
                "{name} has not moved for {length}: you may claim the win.",
                name=name(seat.other),
                length=tr.length(ctx.settings.claim_after),
            )
            to(seat, kind, tr._("You may claim the win"), body)
        elif kind == EventKind.CLAIM_SOON and seat is not None:
            opens = policy.claim_opens_at(room, game, ctx.settings)
            left = tr.length(ctx.settings.remind_before)
            if opens is not None:
                body = tr._(
                    "Move within {length} (by {time}), or {name} may claim the win.",
                    length=left,
                    time=tr.datetime(opens, zone),
                    name=name(seat.other),
                )
            else:
                body = tr._(
                    "Move within {length}, or {name} may claim the win.",
                    length=left,
                    name=name(seat.other),
                )
            to(seat, kind, tr._("Your move: time is running"), body)
        elif kind == EventKind.GAME_OVER:
            text = texts.result_text(tr, game) or tr._("The game is over")
            for role in SeatRole:
                to(role, kind, tr._("Game over"), f"{text}.")
        elif kind == EventKind.EXPIRED:
            reason = str(data.get("reason", ""))
            if game.termination != Ending.EXPIRED:
                why = tr._(
                    "Closed to rematches: no rematch within {length}",
                    length=texts.stored_length(tr, reason),
                )
            elif game.started_at is None:
                why = tr._("Nobody joined within {length}", length=texts.stored_length(tr, reason))
            else:
                why = tr._("Expired: no move for {length}", length=texts.stored_length(tr, reason))
            for role in SeatRole:
                to(role, kind, tr._("Room closed"), f"{why}.")
    for role, note, params in state.notes:
        if note == "conditional_played":
            title = tr._("Your planned reply was played")
            their = params["their_move"]
            body = texts.reply_played_text(tr, name(role.other), their, params["move"])
        else:
            title = tr._("Your planned moves were dropped")
            body = texts.dropped_why(tr, params["why"])
        to(role, note, title, body)
    return found


def enqueue(session: Session, state: GameState, *, ctx: Context) -> None:
    """Store the notifications the action's events call for (only seats that asked),
    each in the language (and time zone) its device or address was given in."""
    listening = [s for s in state.room.seats if (s.push_on or s.email_on) and s.id is not None]
    if not state.events and not state.notes:
        return
    if not listening:
        return
    made: dict[tuple[str, str | None], Messages] = {}

    def message(seat_id: int, language: str, zone: str | None) -> Message | None:
        key = (language, zone)
        if key not in made:
            made[key] = _messages(state, ctx, translator(language), zone)
        return made[key].get(roles[seat_id])

    roles = {seat.id: seat.role for seat in listening}
    if not _messages(state, ctx, translator(DEFAULT), None):
        return
    room, game, now = state.room, state.game, ctx.now
    rows: list[dict[str, Any]] = []

    def row(
        seat_id: int, channel: Channel, subscription: int | None, language: str, zone: str | None
    ) -> None:
        found = message(seat_id, language, zone)
        if found is None:
            return
        rows.append(
            {
                "room_id": room.id,
                "seat_id": seat_id,
                "channel": channel,
                "subscription_id": subscription,
                "game_number": game.number,
                "kind": found.kind,
                # `app`: the service's name in the device's language, the service
                # worker's title for a notification that comes without one.
                "payload": {
                    **found.payload(room.id, game.number),
                    "lang": language,
                    "app": translator(language)._("Checkers"),
                },
                "created_at": now,
                "due_at": now,
                "attempts": 0,
                "state": Delivery.PENDING,
            }
        )

    pushing = [seat.id for seat in listening if seat.push_on]
    if pushing:
        subscriptions = session.execute(
            select(
                PushSubscription.id,
                PushSubscription.seat_id,
                PushSubscription.language,
                PushSubscription.time_zone,
            ).where(PushSubscription.seat_id.in_(pushing))
        )
        for sub_id, seat_id, language, zone in subscriptions:
            row(seat_id, Channel.PUSH, sub_id, language, zone)
    mailing = [seat.id for seat in listening if seat.email_on]
    if mailing and ctx.settings.email_enabled:
        addresses = session.execute(
            select(SeatEmail.seat_id, SeatEmail.language, SeatEmail.time_zone).where(
                SeatEmail.seat_id.in_(mailing)
            )
        )
        for seat_id, language, zone in addresses:
            found = message(seat_id, language, zone)
            if found and not _mailed_lately(session, seat_id, found.kind, game.number, ctx):
                row(seat_id, Channel.EMAIL, None, language, zone)
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
