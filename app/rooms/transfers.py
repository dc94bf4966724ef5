"""Moving a seat to another browser: "continue on another device".

A seat holder asks for a link carrying a fresh 256-bit secret. Only the secret's hash is
stored, with an expiry; the link works once. Redeeming it gives the seat a new token (so
the old browser, and any other copy of the old token, no longer holds the seat) and
hands that token to the new browser. Making a new link cancels the seat's older ones.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.core.context import Context
from app.core.logging import log_fields

from . import errors
from .events import append_event
from .locking import Granted, locked_room
from .models import EventKind, Seat, SeatTransfer
from .seats import hash_token, new_token

log = logging.getLogger("checkers.game")

TRANSFER_LIFETIME = timedelta(hours=1)


class TransferInvalid(errors.Forbidden):
    """The device link is wrong, used or too old."""

    code = "transfer_invalid"


def _cancel_open(session: Session, seat: Seat, now: datetime) -> None:
    session.execute(
        update(SeatTransfer)
        .where(SeatTransfer.seat_id == seat.id, SeatTransfer.used_at.is_(None))
        .values(used_at=now)
    )


def create_transfer(
    session: Session, *, room_id: str, token: str | None, ctx: Context
) -> tuple[str, datetime]:
    """A new one-time secret for the token's seat and the instant it expires."""
    secret, now = new_token(), ctx.now
    expires = now + TRANSFER_LIFETIME
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        seat = state.require_seat()
        _cancel_open(session, seat, now)
        session.add(
            SeatTransfer(
                seat_id=seat.id,
                secret_hash=hash_token(secret),
                created_at=now,
                expires_at=expires,
                used_at=None,
            )
        )
        log_fields(log, "transfer_created", room=room_id, seat=seat.role)
    return secret, expires


def redeem_transfer(session: Session, *, room_id: str, secret: str, ctx: Context) -> Granted:
    """Move the seat of `secret` to its bearer: a new token for the seat, the link spent.

    The lookup is by the secret's hash (an index probe on a 256-bit value), so no secret
    is ever compared piecewise.
    """
    token, now = new_token(), ctx.now
    with locked_room(session, room_id=room_id, ctx=ctx) as state:
        found = session.execute(
            select(SeatTransfer, Seat)
            .join(Seat, Seat.id == SeatTransfer.seat_id)
            .where(SeatTransfer.secret_hash == hash_token(secret), Seat.room_id == room_id)
        ).one_or_none()
        if found is None:
            raise TransferInvalid("this link does not move a seat of this room")
        transfer, seat = found
        if transfer.used_at is not None:
            raise TransferInvalid("this link has been used or replaced by a newer one")
        if now >= transfer.expires_at:
            raise TransferInvalid("this link has expired: make a new one on your other device")
        seat.token_hash = hash_token(token)
        _cancel_open(session, seat, now)
        # The old device's open pages hear of it and become a spectator's; its push
        # subscriptions go with it (the notifications' hook reads this event).
        append_event(session, state, kind=EventKind.SEAT_MOVED, now=now, seat=seat.role)
        state.seat = seat
        log_fields(log, "transfer_redeemed", room=room_id, seat=seat.role)
        return Granted(state, token)
