"""A notification's text, rendered from its stored facts when it is sent, in the language
(and time zone) of its device or address: a reworded message reaches every row not yet
sent, and no text is written inside a room's transaction.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from app.i18n import Translator, translator
from app.rooms import texts
from app.rooms.models import DeclineReason, Level, OfferKind
from app.rooms.names import shown_name
from app.rooms.reasons import DropCode, Dropped, Reason, ReasonCode
from checkers_engine import Side


def _name(tr: Translator, who: dict[str, Any]) -> str:
    side = Side(who["side"])
    level = Level(who["level"]) if who.get("level") else None
    return shown_name(who.get("name"), level, side, texts.default_name(tr, side))


def _length(tr: Translator, params: dict[str, Any]) -> str:
    return tr.length(timedelta(seconds=int(params["seconds"])))


def render(kind: str, params: dict[str, Any], tr: Translator, zone: str | None) -> tuple[str, str]:
    """The title and body of a notification of `kind` with its `params` (see
    `outbox.facts`), in `tr`'s language, its instants in the time zone `zone`."""
    title, body = _title_and_body(kind, params, tr, zone)
    return f"{title} · {texts.rule_set_name(tr, params['rule_set'])}", body


def _title_and_body(
    kind: str, params: dict[str, Any], tr: Translator, zone: str | None
) -> tuple[str, str]:
    who = _name(tr, params["who"]) if "who" in params else ""
    if kind == "move":
        return tr._("Your move"), tr._("{name} played {move}.", name=who, move=params["move"])
    if kind == "joined":
        return tr._("Your invitation was accepted"), tr._("{name} joined.", name=who)
    if kind == "draw_offered":
        return tr._("Draw offered"), tr._("{name} offers a draw.", name=who)
    if kind == "rematch_offered":
        return tr._("Rematch offered"), tr._("{name} offers a rematch.", name=who)
    if kind in ("draw_declined", "rematch_declined"):
        declined = DeclineReason(params["reason"]) if params.get("reason") else None
        body = texts.declined_text(tr, OfferKind(params["offer"]), who, declined)
        return tr._("Offer declined"), body
    if kind == "rematch_accepted":
        number = tr.number(int(params["number"]))
        if Side(params["side"]) is Side.DRUMS:
            body = tr._("Game {number} has begun: you play the drums. Your move.", number=number)
        else:
            body = tr._("Game {number} has begun: you play the tires.", number=number)
        return tr._("Rematch accepted"), body
    if kind == "claim_open":
        body = tr._(
            "{name} has not moved for {length}: you may claim the win.",
            name=who,
            length=_length(tr, params),
        )
        return tr._("You may claim the win"), body
    if kind == "claim_soon":
        left = _length(tr, params)
        if params.get("opens_at"):
            opens = datetime.fromisoformat(params["opens_at"])
            body = tr._(
                "Move within {length} (by {time}), or {name} may claim the win.",
                length=left,
                time=tr.datetime(opens, zone),
                name=who,
            )
        else:
            body = tr._("Move within {length}, or {name} may claim the win.", length=left, name=who)
        return tr._("Your move: time is running"), body
    if kind == "chat":
        return tr._("Message from {name}", name=who), params["text"]
    if kind == "time_given":
        opens = datetime.fromisoformat(params["opens_at"])
        body = tr._(
            "{name} gave you one more day: move by {time}.",
            name=who,
            time=tr.datetime(opens, zone),
        )
        return tr._("More time for your move"), body
    if kind == "game_over":
        winner = Side(params["winner"]) if params.get("winner") else None
        reason = Reason(ReasonCode(params["code"]), dict(params["params"]))
        text = texts.reason_result(tr, reason, winner)
        return tr._("Game over"), f"{text}."
    if kind == "expired":
        why = texts.closed_text(tr, Reason(ReasonCode(params["code"]), dict(params["params"])))
        return tr._("Room closed"), f"{why}."
    if kind == "conditional_played":
        body = texts.reply_played_text(tr, who, params["their_move"], params["move"])
        return tr._("Your planned reply was played"), body
    named = {key: value for key, value in params.items() if key not in ("why", "rule_set")}
    body = texts.dropped_why(tr, Dropped(DropCode(params["why"]), named))
    return tr._("Your planned moves were dropped"), body


def payload(
    kind: str, params: dict[str, Any], *, room_id: str, game: int, language: str, zone: str | None
) -> dict[str, Any]:
    """What a push carries (and a mail is written from): title, body, the room's URL
    (relative to the site), the tag that collapses a room's game's messages into one on
    the device, the language and `app`, the service's name in that language (the service
    worker's title for a notification that comes without one)."""
    tr = translator(language)
    title, body = render(kind, params, tr, zone)
    return {
        "title": title,
        "body": body,
        "url": f"/r/{room_id}",
        "tag": f"room-{room_id}-game-{game}",
        "lang": language,
        "app": tr._("Checkers"),
    }
