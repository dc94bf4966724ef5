"""Tables of the notifications: a seat's push subscriptions and address, the confirmation
mails asked for, and the outbox.

They belong to this package alone; the rooms know only a seat's `push_on`/`email_on`
flags, which spare an action the lookup when nobody listens.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import Base, EnumValue, UTCDateTime


class Channel(enum.StrEnum):
    PUSH = "push"
    EMAIL = "email"


class Delivery(enum.StrEnum):
    """Where a notification stands."""

    PENDING = "pending"  # due at `due_at` (also while a sender holds it)
    SENT = "sent"
    DROPPED = "dropped"  # its push subscription is gone, or its address unsubscribed
    FAILED = "failed"  # given up after the last attempt


class PushSubscription(Base):
    """A browser's Web Push subscription for one seat (RFC 8030 endpoint, RFC 8291 keys)."""

    __tablename__ = "push_subscriptions"
    __table_args__ = (UniqueConstraint("seat_id", "endpoint"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"), index=True)
    endpoint: Mapped[str] = mapped_column(String(1024))
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    # The page's language and the browser's time zone when it was turned on: the
    # language and zone of every message sent to it.
    language: Mapped[str] = mapped_column(String(8), default="en", server_default="en")
    time_zone: Mapped[str | None] = mapped_column(String(64))


class SeatEmail(Base):
    """A seat's email address: nothing is sent to it until it is confirmed.

    Only the SHA-256 of the confirmation link's secret is kept: the secret is signed
    (HMAC) from a nonce its outbox row carries, so the sender can write the link and
    nothing stored is the link itself; the unsubscribe links are signed too, so that they
    need no stored secret and no seat token.
    """

    __tablename__ = "seat_emails"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"), unique=True)
    address: Mapped[str] = mapped_column(String(254))
    # The base of the links in its mails: PUBLIC_URL, or the address the seat used.
    base_url: Mapped[str] = mapped_column(String(200))
    confirm_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    confirm_expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    confirmed_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    # The language and time zone of the mails, as when the address was given.
    language: Mapped[str] = mapped_column(String(8), default="en", server_default="en")
    time_zone: Mapped[str | None] = mapped_column(String(64))


class ConfirmationMail(Base):
    """A confirmation mail asked for: what the limits on them count (per seat and address,
    per seat, per address across the service). The address is kept only as a keyed hash
    (`address_key`); a row is deleted a day after it was made."""

    __tablename__ = "confirmation_mails"
    __table_args__ = (
        Index("ix_confirmation_mails_address_key_created_at", "address_key", "created_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # SET NULL: the count of an address outlives the room it was asked from.
    seat_id: Mapped[int | None] = mapped_column(
        ForeignKey("seats.id", ondelete="SET NULL"), index=True
    )
    address_key: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)


class Notification(Base):
    """One message to one recipient (a push subscription or a seat's address), recorded
    from the room's events in the transaction that appended them: the outbox."""

    __tablename__ = "notifications"
    __table_args__ = (Index("ix_notifications_state_due_at", "state", "due_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"))
    channel: Mapped[Channel] = mapped_column(EnumValue(Channel, 8))
    # SET NULL: a dropped subscription leaves its notifications' history.
    subscription_id: Mapped[int | None] = mapped_column(
        ForeignKey("push_subscriptions.id", ondelete="SET NULL")
    )
    game_number: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(24))
    # The facts its message names (`outbox.facts`): the text is rendered when it is sent,
    # in its device's or address's language. {"rendered": {...}}: a message rendered
    # before revision 0015, sent as it is.
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    # When a sender may take it next: now, after a backoff, or when a sender's lease ends.
    due_at: Mapped[datetime] = mapped_column(UTCDateTime())
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    state: Mapped[Delivery] = mapped_column(EnumValue(Delivery, 8))
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    last_error: Mapped[str | None] = mapped_column(String(200))
