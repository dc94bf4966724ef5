"""The service's rules around a game that need no database: deadlines, offers, results.

Everything here is a pure function of a room's loaded rows and the settings, so each
rule is tested directly (tests/rooms/test_policy.py) and applied by the service.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Literal, cast

from app.core.settings import Settings
from checkers_engine import pdn_result as engine_pdn_result

from . import errors, reasons
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
from .reasons import span as span
from .state import MoveRecord

PdnResult = Literal["1-0", "0-1", "1/2-1/2", "*"]

MAX_DRAW_OFFERS = 3
# More time: the waiting player gives the player to move a day at a time, at most this
# many days in a game (both players' gifts together).
EXTRA_DAY = timedelta(days=1)
MAX_EXTRA_DAYS = 7


def forfeit_reason(settings: Settings) -> str:
    """The English of a forfeit's reason (`reasons.forfeit`), as the API says it."""
    return reasons.forfeit(settings).english()


def expired_reason(settings: Settings, *, waiting: bool) -> str:
    """The English of an expiry's reason (`reasons.expired`)."""
    return reasons.expired(settings, waiting=waiting).english()


def closed_reason(settings: Settings) -> str:
    """The English of a room's closing to rematches (`reasons.closed`)."""
    return reasons.closed(settings).english()


# --- deadlines -------------------------------------------------------------------------


class Deadline(enum.Enum):
    """A deadline that has come."""

    EXPIRE = "expire"  # a waiting or playing room: nobody moved in time
    CLOSE = "close"  # a finished room: nobody asked for a rematch in time
    CLAIM_OPEN = "claim_open"  # the waiting player may now claim a forfeit
    REMIND = "remind"  # the player to move: the opponent may claim soon


def vs_computer(room: Room) -> bool:
    return any(seat.computer_level is not None for seat in room.seats)


def claim_opens_at(room: Room, game: Game, settings: Settings) -> datetime | None:
    """When the waiting player may claim a forfeit; None if no claim can open (no game in
    progress, or a game against the computer, which never makes a person wait)."""
    if room.status != RoomStatus.PLAYING or game.turn_started_at is None or vs_computer(room):
        return None
    return game.turn_started_at + settings.claim_after + turn_extension(game)


def turn_extension(game: Game) -> timedelta:
    """The time the waiting player has added to the current turn: the claim, and the
    room's expiry while the game is in progress, come that much later."""
    return EXTRA_DAY * (game.turn_extra_days or 0)


def check_give_time(room: Room, game: Game, giver: SeatRole) -> None:
    """Only the player waiting for a move gives time, to a person, within the game's
    MAX_EXTRA_DAYS."""
    if vs_computer(room):
        raise errors.NoTimeToGive("the computer never makes you wait: there is no time to give")
    if game.seat_of(game.turn) == giver:
        raise errors.NotWaiting("only the player waiting for a move can give more time")
    if (game.extra_days or 0) >= MAX_EXTRA_DAYS:
        raise errors.TimeLimit(f"this game has had its {MAX_EXTRA_DAYS} extra days")


def expires_at(room: Room, settings: Settings, game: Game | None = None) -> datetime | None:
    """When a waiting or playing room expires (later by the turn's extra time, `game`
    being the current one), or a finished one closes to rematches."""
    if room.status == RoomStatus.PLAYING and game is not None:
        return room.last_active_at + settings.expire_after + turn_extension(game)
    if room.status in (RoomStatus.WAITING, RoomStatus.PLAYING):
        return room.last_active_at + settings.expire_after
    if room.status == RoomStatus.FINISHED:
        return room.last_active_at + settings.rematch_window
    return None


def remind_at(room: Room, game: Game, settings: Settings) -> datetime | None:
    """When the player to move is reminded that the claim will open (`REMIND_BEFORE` ahead);
    None without a claim, with reminders off, or when the turn is shorter than that."""
    opens = claim_opens_at(room, game, settings)
    if opens is None or game.turn_started_at is None or not settings.remind_before_seconds:
        return None
    at = opens - settings.remind_before
    return at if at > game.turn_started_at else None


def _pending(room: Room, game: Game, settings: Settings) -> list[tuple[datetime, Deadline]]:
    """Every deadline of the room not yet applied, with its instant."""
    out: list[tuple[datetime, Deadline]] = []
    due = expires_at(room, settings, game)
    if due is not None:
        out.append((due, Deadline.CLOSE if room.status == RoomStatus.FINISHED else Deadline.EXPIRE))
    opens = claim_opens_at(room, game, settings)
    if opens is not None and not game.claim_notified:
        out.append((opens, Deadline.CLAIM_OPEN))
    remind = remind_at(room, game, settings)
    if remind is not None and not game.reminded and not game.claim_notified:
        out.append((remind, Deadline.REMIND))
    return out


def next_check(room: Room, game: Game, settings: Settings) -> datetime | None:
    """The next instant a deadline of this room falls due (the sweep's index)."""
    return min((at for at, _ in _pending(room, game, settings)), default=None)


def due_deadline(room: Room, game: Game, now: datetime, settings: Settings) -> Deadline | None:
    """The weightiest deadline that has come by `now`, if any: expiry, then the claim's
    opening, then the reminder (a reminder the claim has overtaken is not sent)."""
    come = {deadline for at, deadline in _pending(room, game, settings) if now >= at}
    for deadline in (Deadline.CLOSE, Deadline.EXPIRE, Deadline.CLAIM_OPEN, Deadline.REMIND):
        if deadline in come:
            return deadline
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


def declined_offer(
    room: Room, game: Game, offers: Sequence[Offer], moves: Sequence[MoveRecord]
) -> Offer | None:
    """The game's last offer if it was declined and is still news to the one who made
    it: a draw while the game is in progress and its offerer has not moved since; a
    rematch while the finished room stays open to another."""
    last = offers[-1] if offers else None
    if last is None or last.status != OfferStatus.DECLINED or last.resolved_at is None:
        return None
    if last.kind == OfferKind.REMATCH:
        return last if room.status == RoomStatus.FINISHED else None
    if room.status != RoomStatus.PLAYING or game.status != GameStatus.PLAYING:
        return None
    offerer = game.side_of(last.by_seat)
    for move in reversed(moves):
        if move.created_at <= last.resolved_at:
            break
        if move.side is offerer:
            return None
    return last


# --- results ---------------------------------------------------------------------------


def pdn_result(game: Game) -> PdnResult:
    """The game's PDN result token; an unfinished or expired game has none (`*`)."""
    if game.status != GameStatus.FINISHED or game.termination == Ending.EXPIRED:
        return "*"
    return cast(PdnResult, engine_pdn_result(game.winner))
