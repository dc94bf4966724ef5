"""The service's rules around a game that need no database: deadlines, offers, results.

Everything here is a pure function of a room's loaded rows and the settings, so each
rule is tested directly (tests/rooms/test_policy.py) and applied by the service.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from datetime import datetime
from typing import Literal, cast

from app.core.settings import Settings
from app.engine import pdn_result as engine_pdn_result
from app.engine import result_text as engine_result_text

from . import errors
from .models import (
    Ending,
    Game,
    GameStatus,
    Offer,
    OfferKind,
    OfferStatus,
    Room,
    RoomStatus,
    SeatRole,
)

PdnResult = Literal["1-0", "0-1", "1/2-1/2", "*"]

MAX_DRAW_OFFERS = 3
FORFEIT_REASON = "forfeit: no move for two days"
EXPIRED_REASON = "expired: no move for seven days"
CLOSED_REASON = "closed to rematches: no rematch for seven days"


# --- deadlines -------------------------------------------------------------------------


class Deadline(enum.Enum):
    """A deadline that has come."""

    EXPIRE = "expire"  # a waiting or playing room: nobody moved in time
    CLOSE = "close"  # a finished room: nobody asked for a rematch in time
    CLAIM_OPEN = "claim_open"  # the waiting player may now claim a forfeit


def vs_computer(room: Room) -> bool:
    return any(seat.computer_level is not None for seat in room.seats)


def claim_opens_at(room: Room, game: Game, settings: Settings) -> datetime | None:
    """When the waiting player may claim a forfeit; None if no claim can open (no game in
    progress, or a game against the computer, which never makes a person wait)."""
    if room.status != RoomStatus.PLAYING or game.turn_started_at is None or vs_computer(room):
        return None
    return game.turn_started_at + settings.claim_after


def expires_at(room: Room, settings: Settings) -> datetime | None:
    """When a waiting or playing room expires, or a finished one closes to rematches."""
    if room.status in (RoomStatus.WAITING, RoomStatus.PLAYING):
        return room.last_active_at + settings.expire_after
    if room.status == RoomStatus.FINISHED:
        return room.last_active_at + settings.rematch_window
    return None


def next_check(room: Room, game: Game, settings: Settings) -> datetime | None:
    """The next instant a deadline of this room falls due (the sweep's index)."""
    due = expires_at(room, settings)
    opens = claim_opens_at(room, game, settings)
    if opens is not None and not game.claim_notified and due is not None:
        due = min(due, opens)
    return due


def due_deadline(room: Room, game: Game, now: datetime, settings: Settings) -> Deadline | None:
    """The deadline that has come by `now`, if any; expiry comes before a claim."""
    due = expires_at(room, settings)
    if due is not None and now >= due:
        return Deadline.CLOSE if room.status == RoomStatus.FINISHED else Deadline.EXPIRE
    opens = claim_opens_at(room, game, settings)
    if opens is not None and now >= opens and not game.claim_notified:
        return Deadline.CLAIM_OPEN
    return None


# --- offers ----------------------------------------------------------------------------


def pending_offer(offers: Sequence[Offer], kind: OfferKind) -> Offer | None:
    return next((o for o in offers if o.kind == kind and o.status == OfferStatus.PENDING), None)


def draw_offers_made(offers: Sequence[Offer], by: SeatRole) -> int:
    return sum(1 for o in offers if o.kind == OfferKind.DRAW and o.by_seat == by)


def check_new_offer(offers: Sequence[Offer], kind: OfferKind, by: SeatRole) -> None:
    """One offer of a kind pending at a time; at most MAX_DRAW_OFFERS draw offers per
    player per game."""
    pending = pending_offer(offers, kind)
    if pending is not None:
        who = "you have" if pending.by_seat == by else "your opponent has"
        raise errors.OfferPending(f"{who} a {kind} offer pending")
    if kind == OfferKind.DRAW and draw_offers_made(offers, by) >= MAX_DRAW_OFFERS:
        raise errors.OfferLimit(
            f"you have made all {MAX_DRAW_OFFERS} draw offers allowed in a game"
        )


def offer_to_answer(offers: Sequence[Offer], kind: OfferKind, by: SeatRole) -> Offer:
    """The opponent's pending offer that `by` may accept or decline."""
    pending = pending_offer(offers, kind)
    if pending is None or pending.by_seat == by:
        raise errors.NoOffer(f"there is no {kind} offer from your opponent to answer")
    return pending


# --- results ---------------------------------------------------------------------------


def result_text(game: Game) -> str | None:
    """`Tires win: drums resigned`, `Draw: threefold repetition`, `No winner: expired...`;
    None while the game is not over."""
    if game.status != GameStatus.FINISHED or game.reason is None:
        return None
    if game.termination == Ending.EXPIRED:
        return f"No winner: {game.reason}"
    return engine_result_text(game.winner, game.reason)


def pdn_result(game: Game) -> PdnResult:
    """The game's PDN result token; an unfinished or expired game has none (`*`)."""
    if game.status != GameStatus.FINISHED or game.termination == Ending.EXPIRED:
        return "*"
    return cast(PdnResult, engine_pdn_result(game.winner))
