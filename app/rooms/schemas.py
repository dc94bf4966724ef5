"""Request and response bodies of the rooms API (they are the OpenAPI schema)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, EmailStr, Field, field_validator

from app.ai import Level
from app.engine import Side

from .models import (
    Ending,
    GameStatusName,
    OfferAction,
    OfferKind,
    RoomStatusName,
    SeatRole,
)
from .names import clean_name
from .policy import PdnResult


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Named(_In):
    """A body that may carry the player's display name."""

    name: str | None = Field(
        default=None,
        max_length=200,
        description="Display name: 1-24 characters after trimming and Unicode NFC, nothing "
        "invisible; blank or absent gives a default by colour ('Drums player').",
        examples=["Ana"],
    )

    @field_validator("name")
    @classmethod
    def _clean(cls, value: str | None) -> str | None:
        return None if value is None else clean_name(value)


class CreateRoomIn(Named):
    rule_set: str = Field(
        default="english",
        max_length=32,
        description="english, brazilian, russian, spanish, italian or thai",
    )


class JoinIn(Named):
    pass


class NameIn(Named):
    pass


class PushKeysIn(_In):
    p256dh: str = Field(min_length=80, max_length=100, description="base64url P-256 point")
    auth: str = Field(min_length=20, max_length=30, description="base64url 16-byte secret")


class PushIn(_In):
    """A browser's PushSubscription (its `toJSON()`, without expirationTime)."""

    endpoint: str = Field(min_length=10, max_length=1024)
    keys: PushKeysIn
    expirationTime: int | None = None


class PushOffIn(_In):
    endpoint: str = Field(min_length=10, max_length=1024)


class LineIn(_In):
    """One conditional line: "if they play `their_move`, reply `reply`", and what follows."""

    their_move: str = Field(min_length=2, max_length=200, examples=["22-18"])
    reply: str = Field(min_length=2, max_length=200, examples=["15x22"])
    next: list[LineIn] = Field(default_factory=list, max_length=50)


class ConditionalIn(_In):
    lines: list[LineIn] = Field(
        max_length=50,
        description="Replies stored in advance to the opponent's possible next moves; each "
        "is checked against the rules in the position it would be played in.",
    )


class LineOut(BaseModel):
    their_move: str
    reply: str
    next: list[LineOut]


class ConditionalOut(BaseModel):
    """Your conditional moves (only you see them)."""

    lines: list[LineOut]
    note: str | None = Field(description="Why your stored lines were dropped, if they were.")


class EmailIn(_In):
    address: EmailStr = Field(description="Where to mail this seat's notifications.")


class MoveIn(_In):
    move: str = Field(
        min_length=1,
        max_length=200,
        description="Numeric (11-15, 22x15x6) or algebraic (c3-d4, c3:e5:g7); the short "
        "start-end form when only one legal move matches.",
        examples=["11-15"],
    )
    expected_ply: int = Field(
        ge=0, le=1_000_000, description="The game's ply the move was chosen at (`game.ply`)."
    )


class ActionIn(_In):
    action: OfferAction


class RuleSetOut(BaseModel):
    key: str
    name: str
    description: str
    men_per_side: int
    men_capture_backward: bool
    flying_kings: bool
    majority_capture: bool
    pdn_gametype: int


class SeatOut(BaseModel):
    seat: SeatRole
    side: Side = Field(description="The seat's colour in the current game.")
    taken: bool
    name: str = Field(
        description="The player's name, the computer's level, or a default by colour."
    )
    computer_level: Level | None = None


class NotificationsOut(BaseModel):
    push: bool = Field(description="At least one device of this seat gets Web Push.")
    email: bool = Field(description="A confirmed address of this seat gets mails.")


class YouOut(BaseModel):
    seat: SeatRole
    side: Side
    to_move: bool = Field(description="The current game is in progress and it is your turn.")
    name: str | None = Field(description="The name you chose (null: the default).")
    notifications: NotificationsOut
    conditional: ConditionalOut | None = Field(
        default=None, description="Your conditional moves in this game, if you stored some."
    )


class TermsOut(BaseModel):
    """The service's durations, for the deadlines a page states."""

    claim_after_seconds: int
    expire_after_seconds: int
    rematch_window_seconds: int
    remind_before_seconds: int
    email: bool = Field(description="Whether this service can send mail.")


class PlayedMoveOut(BaseModel):
    ply: int
    side: Side
    notation: str = Field(description="Numeric, every landing square: 22x15x6.")
    algebraic: str
    path: list[int] = Field(description="Start square then every landing square.")
    captured: list[int]
    crowned: bool
    fen_after: str
    played_at: datetime
    conditional: bool = Field(
        default=False, description="Played for its seat from a reply stored in advance."
    )


class LegalMoveOut(BaseModel):
    notation: str
    algebraic: str
    path: list[int]
    captured: list[int] = Field(description="Squares of the pieces this move takes.")
    crowns: bool


class ResultOut(BaseModel):
    winner: Side | None
    winner_seat: SeatRole | None
    termination: Ending
    reason: str = Field(examples=["drums resigned", "threefold repetition"])
    text: str = Field(examples=["Tires win: drums resigned", "Draw: threefold repetition"])
    pdn: PdnResult


class DrawOffersLeft(BaseModel):
    drums: int
    tires: int


class GameOut(BaseModel):
    number: int
    status: GameStatusName
    drums_seat: SeatRole
    tires_seat: SeatRole
    fen: str
    turn: Side
    ply: int
    moves: list[PlayedMoveOut]
    legal_moves: list[LegalMoveOut] = Field(
        description="Every legal move of the side to move (empty unless in progress)."
    )
    result: ResultOut | None
    draw_offers_left: DrawOffersLeft
    started_at: datetime | None
    turn_started_at: datetime | None
    ended_at: datetime | None


class OfferOut(BaseModel):
    kind: OfferKind
    by_seat: SeatRole
    by_side: Side
    created_at: datetime


class GameSummaryOut(BaseModel):
    number: int
    drums_seat: SeatRole
    status: GameStatusName
    plies: int
    result: ResultOut | None
    pdn_url: str


class GameRecordOut(BaseModel):
    """A game of the room, in full: for replaying an earlier game."""

    number: int
    drums_seat: SeatRole
    status: GameStatusName
    start_fen: str = Field(description="The position the game started from.")
    moves: list[PlayedMoveOut]
    result: ResultOut | None
    started_at: datetime | None
    ended_at: datetime | None
    pdn_url: str


class ScoreOut(BaseModel):
    creator: float
    joiner: float


class RoomView(BaseModel):
    """What anyone with the room's link sees; `you` is set when a seat token was sent."""

    id: str
    share_url: str
    now: datetime = Field(description="The server's clock: deadlines count from it.")
    terms: TermsOut
    rule_set: RuleSetOut
    status: RoomStatusName
    version: int = Field(description="Version of the room's last event.")
    created_at: datetime
    seats: list[SeatOut]
    you: YouOut | None
    game: GameOut
    offers: list[OfferOut] = Field(description="Pending offers.")
    games: list[GameSummaryOut] = Field(description="Every game of the room, oldest first.")
    score: ScoreOut = Field(description="Per seat: 1 a win, 1/2 a draw.")
    claim_opens_at: datetime | None = Field(
        description="When the waiting player may claim a forfeit (game in progress)."
    )
    expires_at: datetime | None = Field(
        description="When the room expires (waiting or playing) or closes to rematches."
    )


class SeatGrant(BaseModel):
    """A seat handed over: the token is shown once and is never retrievable again."""

    room_id: str
    share_url: str
    seat: SeatRole
    side: Side
    token: str = Field(description="Send as `Authorization: Bearer <token>`. Keep it secret.")
    room: RoomView


class EventOut(BaseModel):
    version: int
    kind: str
    data: dict[str, Any]
    created_at: datetime


class EventsOut(BaseModel):
    room_id: str
    version: int
    events: list[EventOut]


class ErrorOut(BaseModel):
    detail: str = Field(description="Why the request was refused, for people.")
    code: str = Field(description="Machine-readable reason.")

    model_config = ConfigDict(extra="allow")
