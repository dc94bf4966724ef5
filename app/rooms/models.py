"""Tables of the rooms domain.

A room has two stable seats (the creator's and the joiner's) and one or more games; each
game says which seat plays the drums, so colours swap on a rematch while seats stay.
Every state change of a room appends a row to its versioned event record. Columns that
hold a side, a role, a status, an ending or an offer's kind are typed with their enums
and store the enums' values.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import (
    JSON,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.core.db import Base, EnumValue, UTCDateTime
from checkers_engine import Side, Termination
from checkers_engine.ai import Level

RoomStatusName = Literal["waiting", "playing", "finished", "expired"]
GameStatusName = Literal["waiting", "playing", "finished"]


class RoomStatus(enum.IntEnum):
    """Ordered: everything from FINISHED up means no game is in progress."""

    WAITING = 10  # the creator waits for an opponent
    PLAYING = 20  # the current game is in progress
    FINISHED = 30  # the current game is over; a rematch may start another
    EXPIRED = 40  # closed for good: no move, offer, claim or rematch any more

    @property
    def label(self) -> RoomStatusName:
        return _ROOM_LABELS[self]


_ROOM_LABELS: dict[RoomStatus, RoomStatusName] = {
    RoomStatus.WAITING: "waiting",
    RoomStatus.PLAYING: "playing",
    RoomStatus.FINISHED: "finished",
    RoomStatus.EXPIRED: "expired",
}


class GameStatus(enum.IntEnum):
    WAITING = 10
    PLAYING = 20
    FINISHED = 30

    @property
    def label(self) -> GameStatusName:
        return _GAME_LABELS[self]


_GAME_LABELS: dict[GameStatus, GameStatusName] = {
    GameStatus.WAITING: "waiting",
    GameStatus.PLAYING: "playing",
    GameStatus.FINISHED: "finished",
}


class SeatRole(enum.StrEnum):
    """Stable seat identities; the colour of each seat is per game."""

    CREATOR = "creator"
    JOINER = "joiner"

    @property
    def other(self) -> SeatRole:
        return SeatRole.JOINER if self is SeatRole.CREATOR else SeatRole.CREATOR


class Ending(enum.StrEnum):
    """How a game ended: by the rules (the engine's terminations) or by the service."""

    NO_PIECES = "no_pieces"
    NO_MOVES = "no_moves"
    KING_MOVES = "king_moves"
    REPETITION = "repetition"
    MOVE_LIMIT = "move_limit"  # the MAX_PLIES cap
    RESIGNATION = "resignation"
    FORFEIT = "forfeit"
    AGREEMENT = "agreement"
    EXPIRED = "expired"

    @classmethod
    def of(cls, termination: Termination) -> Ending:
        return cls[termination.name]


class OfferKind(enum.StrEnum):
    DRAW = "draw"
    REMATCH = "rematch"


class OfferStatus(enum.StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    LAPSED = "lapsed"  # the other player moved, the game ended, or the room closed


class DeclineReason(enum.StrEnum):
    """Why an offer was declined, when the one who declined it gives a reason."""

    # The computer accepts a draw unless a short search finds it clearly ahead.
    COMPUTER_AHEAD = "computer_ahead"


class OfferAction(enum.StrEnum):
    """What a player does about an offer."""

    OFFER = "offer"
    ACCEPT = "accept"
    DECLINE = "decline"


class EventKind(enum.StrEnum):
    """The kinds of entries in a room's event record."""

    CREATED = "created"
    JOINED = "joined"
    MOVE = "move"
    DRAW_OFFERED = "draw_offered"
    DRAW_ACCEPTED = "draw_accepted"
    DRAW_DECLINED = "draw_declined"
    REMATCH_OFFERED = "rematch_offered"
    REMATCH_ACCEPTED = "rematch_accepted"
    REMATCH_DECLINED = "rematch_declined"
    RESIGNED = "resigned"
    FORFEIT_CLAIMED = "forfeit_claimed"
    CLAIM_OPEN = "claim_open"
    CLAIM_SOON = "claim_soon"  # the player to move is reminded that a claim opens soon
    GAME_OVER = "game_over"
    EXPIRED = "expired"
    RENAMED = "renamed"
    SEAT_MOVED = "seat_moved"  # a seat went to another device: its old tabs let go


class Channel(enum.StrEnum):
    PUSH = "push"
    EMAIL = "email"


class Delivery(enum.StrEnum):
    """Where a notification stands."""

    PENDING = "pending"  # due at `due_at` (also while a sender holds it)
    SENT = "sent"
    DROPPED = "dropped"  # its push subscription is gone, or its address unsubscribed
    FAILED = "failed"  # given up after the last attempt


class Room(Base):
    __tablename__ = "rooms"
    # The retention sweep finds finished and expired rooms by their last activity.
    __table_args__ = (Index("ix_rooms_status_last_active_at", "status", "last_active_at"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    rule_set: Mapped[str] = mapped_column(String(16))
    status: Mapped[RoomStatus] = mapped_column(EnumValue(RoomStatus))
    current_game_number: Mapped[int] = mapped_column(Integer, default=1)
    # Version of the last event appended to the room's event record.
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    # Start of the current deadline: creation (waiting), game start or last move
    # (playing), end of the game (finished).
    last_active_at: Mapped[datetime] = mapped_column(UTCDateTime())
    # When the sweep must next look at this room (claim opening or expiry); NULL = never.
    next_check_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), index=True)

    seats: Mapped[list[Seat]] = relationship(
        back_populates="room", order_by="Seat.id", lazy="selectin"
    )
    # Every game played in the room, first to last (the view lists them and keeps score).
    games: Mapped[list[Game]] = relationship(order_by="Game.number")


class Seat(Base):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("room_id", "role"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    role: Mapped[SeatRole] = mapped_column(EnumValue(SeatRole, 8))
    # SHA-256 hex of the seat's secret token; NULL for a computer seat.
    token_hash: Mapped[str | None] = mapped_column(String(64))
    # Set when the computer holds this seat; NULL for a person.
    computer_level: Mapped[Level | None] = mapped_column(EnumValue(Level, 16))
    # The player's display name (NFC, at most 24 characters); NULL: a default by colour.
    name: Mapped[str | None] = mapped_column(String(24))
    # Whether the seat has push subscriptions / a confirmed email address: lets an action
    # skip looking for recipients in the (usual) room where nobody asked to be told.
    push_on: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    email_on: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The seat has conditional moves (or a note about dropped ones) in its current game.
    planned: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime())
    # A join sent with an Idempotency-Key: the key's hash and the seat's token sealed with
    # the key, so that a retry with the same key (only) gets the same token back, once,
    # within JOIN_RETRY_SECONDS. Both are cleared by that retry.
    join_key_hash: Mapped[str | None] = mapped_column(String(64))
    join_sealed: Mapped[str | None] = mapped_column(String(128))

    room: Mapped[Room] = relationship(back_populates="seats")


class Game(Base):
    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("room_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    drums_seat: Mapped[SeatRole] = mapped_column(EnumValue(SeatRole, 8))
    status: Mapped[GameStatus] = mapped_column(EnumValue(GameStatus))
    # NULL: the rule set's standard start. Else the engine's own FEN of the start
    # position, with the counters its FEN gave (NULL: none given).
    start_fen: Mapped[str | None] = mapped_column(String(200))
    # Plies since the last capture or man's move at the start: seeds the 20-king-ply count.
    start_half_move_clock: Mapped[int | None] = mapped_column(Integer)
    # The full-move number of the start position; the moves are numbered from it.
    start_move_number: Mapped[int | None] = mapped_column(Integer)
    # Current position, always equal to the replay of the moves.
    fen: Mapped[str] = mapped_column(String(200))
    ply: Mapped[int] = mapped_column(Integer, default=0)
    turn: Mapped[Side] = mapped_column(EnumValue(Side, 5))
    winner: Mapped[Side | None] = mapped_column(EnumValue(Side, 5))
    termination: Mapped[Ending | None] = mapped_column(EnumValue(Ending, 16))
    reason: Mapped[str | None] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # When the side to move got the turn; the forfeit claim opens a fixed time later.
    turn_started_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # The claim_open event of the current turn has been appended.
    claim_notified: Mapped[bool] = mapped_column(Boolean, default=False)
    # The player to move has been reminded that the claim will open soon (this turn).
    reminded: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # Whether the computer's review of this game has been asked for (set when it is), so
    # the room view can link the review without reading the computer's tables.
    reviewed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    def side_of(self, role: SeatRole) -> Side:
        """The colour a seat plays in this game."""
        return Side.DRUMS if self.drums_seat == role else Side.TIRES

    def seat_of(self, side: Side) -> SeatRole:
        """The seat that plays a colour in this game."""
        return self.drums_seat if side is Side.DRUMS else self.drums_seat.other


class Move(Base):
    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("game_id", "ply"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    ply: Mapped[int] = mapped_column(Integer)  # 1 for the first move of the game
    side: Mapped[Side] = mapped_column(EnumValue(Side, 5))
    notation: Mapped[str] = mapped_column(String(200))  # full path, e.g. 22x15x6
    path: Mapped[list[int]] = mapped_column(JSON)
    captured: Mapped[list[int]] = mapped_column(JSON)
    crowned: Mapped[bool] = mapped_column(Boolean)
    # A capture or a man's move: no earlier position can recur after it, so a board
    # is rebuilt from the FEN after the last such move plus the plies that follow.
    irreversible: Mapped[bool] = mapped_column(Boolean)
    fen_after: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    # Played for its seat from the moves it had stored in advance (a conditional move).
    conditional: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class Offer(Base):
    __tablename__ = "offers"
    __table_args__ = (Index("ix_offers_game_kind_status", "game_id", "kind", "status"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    kind: Mapped[OfferKind] = mapped_column(EnumValue(OfferKind, 8))
    by_seat: Mapped[SeatRole] = mapped_column(EnumValue(SeatRole, 8))
    status: Mapped[OfferStatus] = mapped_column(EnumValue(OfferStatus, 10))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    resolved_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # Why it was declined, when a reason was given (the computer gives one).
    reason: Mapped[DeclineReason | None] = mapped_column(EnumValue(DeclineReason, 16))


class Event(Base):
    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("room_id", "version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(24))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class SeatTransfer(Base):
    """A private "continue on another device" link of a seat: one use, short-lived.

    Only the SHA-256 of the link's secret is kept; redeeming it gives the seat a new
    token, so the browser that made the link no longer holds the seat.
    """

    __tablename__ = "seat_transfers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"), index=True)
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


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
    """One message to one recipient (a push subscription or a seat's address), derived
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
    # title, body, url (relative to the site), tag
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    # When a sender may take it next: now, after a backoff, or when a sender's lease ends.
    due_at: Mapped[datetime] = mapped_column(UTCDateTime())
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    state: Mapped[Delivery] = mapped_column(EnumValue(Delivery, 8))
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    last_error: Mapped[str | None] = mapped_column(String(200))


class ConditionalLines(Base):
    """A seat's conditional moves in one game: replies stored in advance to the
    opponent's possible moves, as a tree ("if they play X, reply Y; then if Z, W").

    Private to the seat. `note` says why stored lines were dropped, until the seat
    stores new ones.
    """

    __tablename__ = "conditional_lines"
    __table_args__ = (UniqueConstraint("game_id", "seat_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"))
    # [{"if": "22-18", "key": [22, 18, []], "then": "15x22", "next": [...]}, ...]
    tree: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    note: Mapped[str | None] = mapped_column(String(200))
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())
