"""Asking for mails: a seat gives an address, and the link that confirms it is mailed
through the outbox by the delivery job, never inside the request.

A confirmation is mailed only when a person can have asked for it. `ConfirmationMail`
rows count them: a seat has one mailed to the same address at most every
EMAIL_CONFIRM_RESEND_SECONDS (the earlier link still works meanwhile), and at most
EMAIL_CONFIRMS_PER_SEAT a day; an address is sent at most EMAIL_CONFIRMS_PER_ADDRESS a
day across the service, whichever rooms ask (the count is taken under a lock on the
address, so requests racing from many rooms cannot pass it together); and each client is
rate-limited besides (`RATE_LIMIT_MAIL`).

The link's secret is signed (HMAC, the service's own key) from a random nonce that the
outbox row carries: the sender rebuilds the link, the database keeps only the secret's
SHA-256, and a newer request (another nonce) leaves an older mail still waiting stale, so
it is dropped unsent.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import math
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, or_, select
from sqlalchemy.orm import Session

from app.core.context import Context
from app.core.errors import TooManyRequests
from app.core.keys import service_key
from app.i18n import valid_zone
from app.rooms.locking import locked_room
from app.rooms.seats import hash_token
from app.rooms.state import GameState

from .models import Channel, ConfirmationMail, Delivery, Notification, SeatEmail
from .subscriptions import EmailUnavailable

CONFIRMATION = "confirm_address"  # the outbox kind of a confirmation mail
COUNTED_FOR = timedelta(days=1)  # how long a confirmation counts against its limits
_KEY = "mail-confirmations"


class ConfirmationPending(TooManyRequests):
    """A confirmation link went to this address for this seat a moment ago (it still works);
    another may be asked for after `retry_after`."""

    code = "confirmation_pending"


class MailLimit(TooManyRequests):
    """This address, or this seat, has been sent its confirmation mails for the day; retry
    after `retry_after`."""

    code = "mail_limit"


@dataclass(frozen=True)
class Confirmation:
    """A confirmation mail to send now: the link's secret exists only here and in the mail."""

    address: str
    link: str
    expires_at: datetime
    language: str
    time_zone: str | None


def _key(session: Session, ctx: Context) -> str:
    """The key the links and address hashes are signed with (its own transaction)."""
    return service_key(session, _KEY, lambda: secrets.token_urlsafe(32), ctx.now)


def _signed(key: str, text: str) -> bytes:
    return hmac.new(key.encode(), text.encode(), hashlib.sha256).digest()


def _secret(key: str, nonce: str) -> str:
    return base64.urlsafe_b64encode(_signed(key, f"confirm:{nonce}")).decode().rstrip("=")


def address_key(key: str, address: str) -> str:
    """What is kept of an address to count its mails: a keyed hash of it in lower case
    (the case of an address does not make another mailbox for the limits)."""
    return _signed(key, f"address:{address.strip().lower()}").hex()


def request_email(
    session: Session,
    *,
    room_id: str,
    token: str | None,
    address: str,
    base_url: str,
    ctx: Context,
    time_zone: str | None = None,
) -> GameState:
    """Keep `address` for the token's seat, unconfirmed, and queue the mail of its
    confirmation link (a new request replaces the address and any earlier link), within
    the limits; nothing is sent to the address but that link until it is followed."""
    settings = ctx.settings
    if not settings.email_enabled:
        raise EmailUnavailable("this service sends no email (no SMTP server is configured)")
    key = _key(session, ctx)
    counted = address_key(key, address)
    nonce = secrets.token_urlsafe(16)
    base = (settings.public_url or base_url).rstrip("/")
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        seat = state.require_seat()
        state.require_open()
        _within_limits(session, seat_id=seat.id, counted=counted, ctx=ctx)
        found = session.scalar(select(SeatEmail).where(SeatEmail.seat_id == seat.id))
        if found is None:
            found = SeatEmail(seat_id=seat.id, created_at=ctx.now)
            session.add(found)
        found.address = address
        found.base_url = base
        found.language, found.time_zone = ctx.language, valid_zone(time_zone)
        found.confirm_hash = hash_token(_secret(key, nonce))
        found.confirm_expires_at = ctx.now + timedelta(seconds=settings.email_confirm_seconds)
        found.confirmed_at = None
        seat.email_on = False
        session.add(ConfirmationMail(seat_id=seat.id, address_key=counted, created_at=ctx.now))
        session.add(
            Notification(
                room_id=state.room.id,
                seat_id=seat.id,
                channel=Channel.EMAIL,
                game_number=state.game.number,
                kind=CONFIRMATION,
                params={"nonce": nonce},
                created_at=ctx.now,
                due_at=ctx.now,
                attempts=0,
                state=Delivery.PENDING,
            )
        )
        return state


def _within_limits(session: Session, *, seat_id: int, counted: str, ctx: Context) -> None:
    """Refuse a confirmation past the seat's or the address's share (see the module)."""
    settings = ctx.settings
    _lock_address(session, counted)
    rows = session.execute(
        select(ConfirmationMail.seat_id, ConfirmationMail.address_key, ConfirmationMail.created_at)
        .where(
            or_(ConfirmationMail.seat_id == seat_id, ConfirmationMail.address_key == counted),
            ConfirmationMail.created_at > ctx.now - COUNTED_FOR,
        )
        .order_by(ConfirmationMail.created_at)
    ).all()
    resend = timedelta(seconds=settings.email_confirm_resend_seconds)
    again = [at for seat, key, at in rows if seat == seat_id and key == counted]
    if again and ctx.now < again[-1] + resend:
        raise ConfirmationPending(
            "a confirmation link went to this address a moment ago: follow it, or ask again later",
            retry_after=_seconds(again[-1] + resend - ctx.now),
        )
    shares = (
        ([at for _, key, at in rows if key == counted], settings.email_confirms_per_address),
        ([at for seat, _, at in rows if seat == seat_id], settings.email_confirms_per_seat),
    )
    for (times, most), whose in zip(shares, ("one address", "one seat"), strict=True):
        if len(times) >= most:
            raise MailLimit(
                f"at most {most} confirmation mails a day for {whose}",
                retry_after=_seconds(times[-most] + COUNTED_FOR - ctx.now),
            )


def _lock_address(session: Session, counted: str) -> None:
    """Held to the end of the transaction: one request at a time counts an address."""
    if session.connection().dialect.name == "postgresql":
        lock = int.from_bytes(bytes.fromhex(counted[:16]), "big", signed=True)
        session.execute(select(func.pg_advisory_xact_lock(lock)))


def count_for_address(session: Session, *, address: str, ctx: Context) -> None:
    """A confirmation mail to `address` asked for by no seat (a player profile's): it
    counts against the address's share of the day across the service, like a seat's,
    and is refused past it (429 `mail_limit`). Its own transaction."""
    counted = address_key(_key(session, ctx), address)
    with session.begin():
        _lock_address(session, counted)
        times = session.scalars(
            select(ConfirmationMail.created_at)
            .where(
                ConfirmationMail.address_key == counted,
                ConfirmationMail.created_at > ctx.now - COUNTED_FOR,
            )
            .order_by(ConfirmationMail.created_at)
        ).all()
        most = ctx.settings.email_confirms_per_address
        if len(times) >= most:
            raise MailLimit(
                f"at most {most} confirmation mails a day for one address",
                retry_after=_seconds(times[-most] + COUNTED_FOR - ctx.now),
            )
        session.add(ConfirmationMail(seat_id=None, address_key=counted, created_at=ctx.now))


def _seconds(wait: timedelta) -> int:
    return max(1, math.ceil(wait.total_seconds()))


def confirmation_to_send(session: Session, *, nonce: str, ctx: Context) -> Confirmation | None:
    """The confirmation mail of the request that drew `nonce`; None when it is no longer
    wanted (a newer request replaced it, or the address was confirmed, forgotten or let
    expire)."""
    secret = _secret(_key(session, ctx), nonce)
    digest = hash_token(secret)
    with session.begin():
        found = session.scalar(select(SeatEmail).where(SeatEmail.confirm_hash == digest))
        if found is None or found.confirm_expires_at is None:
            return None
        if ctx.now >= found.confirm_expires_at:
            return None
        return Confirmation(
            address=found.address,
            link=f"{found.base_url}/mail/confirm?t={secret}",
            expires_at=found.confirm_expires_at,
            language=found.language,
            time_zone=found.time_zone,
        )


def forget_counts(session: Session, ctx: Context) -> int:
    """Delete the confirmations that no longer count (a day old); returns how many."""
    with session.begin():
        done = session.execute(
            delete(ConfirmationMail).where(ConfirmationMail.created_at <= ctx.now - COUNTED_FOR)
        )
        return int(getattr(done, "rowcount", 0) or 0)
