"""Seat credentials: 256-bit tokens kept only as their SHA-256, and who a token opens."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from app.core.ids import new_id

from . import errors
from .models import Room, Seat


def new_token() -> str:
    """A 256-bit secret for a seat."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def retry_key_hash(room_id: str, key: str) -> str:
    """What is stored of a join's Idempotency-Key."""
    return hashlib.sha256(f"join-retry:{room_id}:{key}".encode()).hexdigest()


def _keystream(room_id: str, key: str) -> bytes:
    return hmac.new(key.encode("utf-8"), f"join-seal:{room_id}".encode(), "sha512").digest()


def seal_token(token: str, *, room_id: str, key: str) -> str:
    """The token masked with a stream only the key can rebuild (the key is not stored)."""
    raw = token.encode("ascii")
    stream = _keystream(room_id, key)
    assert len(raw) <= len(stream)
    return bytes(a ^ b for a, b in zip(raw, stream, strict=False)).hex()


def unseal_token(sealed: str, *, room_id: str, key: str) -> str | None:
    """The sealed token, or None if `sealed` is not a token sealed with this key."""
    try:
        masked = bytes.fromhex(sealed)
        raw = bytes(a ^ b for a, b in zip(masked, _keystream(room_id, key), strict=False))
        return raw.decode("ascii")
    except (ValueError, UnicodeDecodeError):
        return None


def new_room_id() -> str:
    """128 random bits, URL-safe: unguessable."""
    return new_id()


class _ComputerCredential(str):
    """The computer's credential for its own seat. Only this one object opens that seat
    (compared by identity), so no token sent in a request can."""


COMPUTER = _ComputerCredential("computer")


class HeldSeat(str):
    """The credential of a seat that something the service trusts already holds for the
    person acting (a signed-in profile the seat is attached to). It is made only in the
    process, never read from a request, so no text a client sends can be one; it opens
    the one seat it names, and never reveals or replaces that seat's token."""

    seat_id: int

    def __new__(cls, seat_id: int) -> HeldSeat:
        held = super().__new__(cls, f"held:{seat_id}")
        held.seat_id = seat_id
        return held


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
    if isinstance(token, HeldSeat):
        for seat in room.seats:
            if seat.id == token.seat_id and seat.token_hash is not None:
                return seat
        raise errors.WrongToken("this credential does not open a seat of this room")
    digest = hash_token(token)
    found: Seat | None = None
    for seat in room.seats:
        if seat.token_hash is not None and hmac.compare_digest(digest, seat.token_hash):
            found = seat
    if found is None:
        raise errors.WrongToken("this token does not open a seat of this room")
    return found
