"""Tables of player profiles: the profile, its passkeys, its signed-in devices, its
sign-in links, the WebAuthn challenges in flight and the seats it holds.

They belong to this package alone. A seat attached to a profile is a row here (the seat
keeps its token, which the profile never learns); the rooms know nothing of profiles.
Only hashes of session and sign-in-link secrets are kept.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import Base, UTCDateTime


class Profile(Base):
    """A player who chose to have one: a name, an optional confirmed address for
    notifications and the choices that go with them, and the record's visibility."""

    __tablename__ = "profiles"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # The public id of its record page (random, 22 characters), and WebAuthn's user
    # handle: random bytes that say nothing of the player.
    public_id: Mapped[str] = mapped_column(String(32), unique=True)
    user_handle: Mapped[bytes] = mapped_column(LargeBinary(64), unique=True)
    name: Mapped[str] = mapped_column(String(24))
    # A confirmed address (NULL: none); a pending one waits in `email_pending`.
    email: Mapped[str | None] = mapped_column(String(254))
    email_pending: Mapped[str | None] = mapped_column(String(254))
    # The events that notify the player, the profile's own choice (event kinds).
    notify: Mapped[list[str]] = mapped_column(JSON, default=list)
    # Whether its record page is shown to anyone with the link.
    public: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    language: Mapped[str] = mapped_column(String(8), default="en", server_default="en")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class Passkey(Base):
    """A WebAuthn credential of a profile (a discoverable one: the authenticator keeps the
    user handle, so signing in needs no name)."""

    __tablename__ = "passkeys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    profile_id: Mapped[int] = mapped_column(
        ForeignKey("profiles.id", ondelete="CASCADE"), index=True
    )
    credential_id: Mapped[bytes] = mapped_column(LargeBinary(1024), unique=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary(2048))
    # The authenticator's signature counter: a counter that goes back means a cloned key.
    sign_count: Mapped[int] = mapped_column(Integer, default=0)
    name: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class ProfileSession(Base):
    """A signed-in device: its cookie's secret is kept only as a SHA-256."""

    __tablename__ = "profile_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    profile_id: Mapped[int] = mapped_column(
        ForeignKey("profiles.id", ondelete="CASCADE"), index=True
    )
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    # What the player sees of it in the list: the browser and system it said it was.
    device: Mapped[str] = mapped_column(String(80))
    # How it signed in: "passkey" or "link".
    method: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    last_seen_at: Mapped[datetime] = mapped_column(UTCDateTime())
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)


class SignInLink(Base):
    """A one-use sign-in link mailed to a profile's confirmed address (or a link that
    confirms a new address): only the SHA-256 of its secret is kept."""

    __tablename__ = "profile_links"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    profile_id: Mapped[int] = mapped_column(
        ForeignKey("profiles.id", ondelete="CASCADE"), index=True
    )
    # "sign_in" or "confirm" (an address to confirm, in `address`).
    purpose: Mapped[str] = mapped_column(String(8))
    address: Mapped[str | None] = mapped_column(String(254))
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class Challenge(Base):
    """A WebAuthn ceremony in flight: the challenge the browser must sign, one use, short
    lived. `handle` is the hash of the secret the ceremony's browser holds in a cookie,
    so another browser cannot finish it."""

    __tablename__ = "webauthn_challenges"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    handle: Mapped[str] = mapped_column(String(64), unique=True)
    # "register" (a new profile, or a passkey added to `profile_id`) or "sign_in".
    purpose: Mapped[str] = mapped_column(String(8))
    challenge: Mapped[bytes] = mapped_column(LargeBinary(64))
    profile_id: Mapped[int | None] = mapped_column(
        ForeignKey("profiles.id", ondelete="CASCADE"), index=True
    )
    # A new profile's name and user handle, until its passkey is made.
    name: Mapped[str | None] = mapped_column(String(24))
    user_handle: Mapped[bytes | None] = mapped_column(LargeBinary(64))
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)


class ProfileSeat(Base):
    """A seat attached to a profile: every device signed in to the profile may act for it.
    A seat belongs to one profile at most."""

    __tablename__ = "profile_seats"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    profile_id: Mapped[int] = mapped_column(
        ForeignKey("profiles.id", ondelete="CASCADE"), index=True
    )
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"), unique=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    attached_at: Mapped[datetime] = mapped_column(UTCDateTime())
