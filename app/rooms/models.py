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

from .reasons import DropCode, Dropped, Reason, ReasonCode

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


class Level(enum.Enum):
    """The level of the computer holding a seat, weakest first: the rooms' own names of
    the computer's levels (the stored values). `app.computer` checks at start-up that
    its players are these, so the rooms need nothing of the AI."""

    TAMER = "tamer"
    DRIVER = "driver"
    WARDEN = "warden"
    EXECUTIVE = "executive"

    @property
    def title(self) -> str:
        return self.value.capitalize()


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
    TIME_GIVEN = "time_given"  # the waiting player gave the player to move more time
    CHAT = "chat"  # a message between the two players (their streams only)
    CHAT_SWITCHED = "chat_switched"  # a player switched the chat on or off (theirs only)


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
    # The player switched the room's chat off: no message is shown, sent or told to them.
    chat_off: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The player erased what the service knew of them (their profile): the seat is
    # shown, nameless, as a former player's.
    former: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
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
    # Why it ended, as facts (`reasons.ReasonCode` and its parameters): `reason` below.
    reason_code: Mapped[ReasonCode | None] = mapped_column(EnumValue(ReasonCode, 24))
    reason_params: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # When the side to move got the turn; the forfeit claim opens a fixed time later.
    turn_started_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # The claim_open event of the current turn has been appended.
    claim_notified: Mapped[bool] = mapped_column(Boolean, default=False)
    # The player to move has been reminded that the claim will open soon (this turn).
    reminded: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # Days the waiting player has added to the current turn (the claim and the expiry
    # come that much later); back to 0 at every move.
    turn_extra_days: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Days given in the whole game, by either player (at most `policy.MAX_EXTRA_DAYS`).
    extra_days: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Whether the computer's review of this game has been asked for (set when it is), so
    # the room view can link the review without reading the computer's tables.
    reviewed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    @property
    def reason(self) -> Reason | None:
        """Why the game ended (None while it is not over)."""
        if self.reason_code is None:
            return None
        return Reason(self.reason_code, dict(self.reason_params or {}))

    @reason.setter
    def reason(self, reason: Reason | None) -> None:
        self.reason_code = reason.code if reason is not None else None
        self.reason_params = dict(reason.params) if reason is not None else None

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
    # NULL: anyone watching the room sees it. Else the seats it is for, space-separated
    # ("creator joiner"): a chat message is read by its players' streams alone.
    audience: Mapped[str | None] = mapped_column(String(16))


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


class ConditionalLines(Base):
    """A seat's conditional moves in one game: replies stored in advance to the
    opponent's possible moves, as a tree ("if they play X, reply Y; then if Z, W").

    Private to the seat. `note` (with `note_params`) says why stored lines were dropped,
    until the seat stores new ones.
    """

    __tablename__ = "conditional_lines"
    __table_args__ = (UniqueConstraint("game_id", "seat_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"))
    # [{"if": "22-18", "key": [22, 18, []], "then": "15x22", "next": [...]}, ...]
    tree: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    # Why stored lines were dropped, as facts: a `reasons.DropCode` and its parameters.
    note: Mapped[DropCode | None] = mapped_column(EnumValue(DropCode, 200))
    note_params: Mapped[dict[str, str] | None] = mapped_column(JSON)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())

    @property
    def dropped(self) -> Dropped | None:
        """Why the seat's stored lines were dropped, if they were."""
        return Dropped(self.note, dict(self.note_params or {})) if self.note else None


class ChatMessage(Base):
    """A message between the two players of a room: read by its two seats alone."""

    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_messages_room_id_id", "room_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    seat: Mapped[SeatRole] = mapped_column(EnumValue(SeatRole, 8))
    # Plain text as written (NFC), at most `chat.MAX_LENGTH` characters.
    text: Mapped[str] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class SeatNote(Base):
    """A player's private note on a game: on the game as a whole (`ply` 0) or on the
    position after a move (`ply`). Only its seat ever reads it."""

    __tablename__ = "seat_notes"
    __table_args__ = (UniqueConstraint("game_id", "seat_id", "ply"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"))
    ply: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(String(2000))
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())


class AnalysisLine(Base):
    """A line a player tried on the analysis board: moves for both sides from the
    position after `from_ply` plies of the game. Kept for its seat alone."""

    __tablename__ = "analysis_lines"
    __table_args__ = (Index("ix_analysis_lines_game_seat", "game_id", "seat_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"))
    from_ply: Mapped[int] = mapped_column(Integer)
    # The moves in the engine's notation, each checked by the rules when stored.
    moves: Mapped[list[str]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())
