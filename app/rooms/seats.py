"""Seat credentials: 256-bit tokens kept only as their SHA-256, and who a token opens."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from . import errors
from .models import Room, Seat


def new_token() -> str:
    """A 256-bit secret for a seat."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_room_id() -> str:
    """128 random bits, URL-safe: unguessable."""
    return secrets.token_urlsafe(16)


class _ComputerCredential(str):
    """The computer's credential for its own seat. Only this one object opens that seat
    (compared by identity), so no token sent in a request can."""


COMPUTER = _ComputerCredential("computer")


def identify(room: Room, token: str | None) -> Seat | None:
    """The seat `token` opens; None without a token; `WrongToken` for any other token.

    Every seat is compared (constant time each) so timing does not tell which matched.
    """
    if token is None:
        return None
    if token is COMPUTER:
        for seat in room.seats:
            if seat.computer_level is not None:
                return seat
        raise errors.WrongToken("this room has no computer seat")
    digest = hash_token(token)
    found: Seat | None = None
    for seat in room.seats:
        if seat.token_hash is not None and hmac.compare_digest(digest, seat.token_hash):
            found = seat
    if found is None:
        raise errors.WrongToken("this token does not open a seat of this room")
    return found
