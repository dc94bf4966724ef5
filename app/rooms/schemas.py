"""Request and response bodies of the rooms API (they are the OpenAPI schema)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

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
from .policy import PdnResult


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateRoomIn(_In):
    rule_set: str = Field(
        default="english",
        max_length=32,
        description="english, brazilian, russian, spanish, italian or thai",
    )


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
    computer_level: Level | None = None


class YouOut(BaseModel):
    seat: SeatRole
    side: Side
    to_move: bool = Field(description="The current game is in progress and it is your turn.")


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
    url: str = Field(description="The game in full, as JSON (`GET /api/rooms/{id}/games/{n}`).")
    pdn_url: str


class PastGameOut(BaseModel):
    """One game of a room in full, fetched on demand (the room view carries the current
    game and only summaries of the others)."""

    room_id: str
    number: int
    status: GameStatusName
    drums_seat: SeatRole
    tires_seat: SeatRole
    start_fen: str | None = Field(description="Set when the game began from a set-up position.")
    fen: str
    ply: int
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
    rule_set: RuleSetOut
    status: RoomStatusName
    version: int = Field(description="Version of the room's last event.")
    created_at: datetime
    seats: list[SeatOut]
    you: YouOut | None
    game: GameOut
    offers: list[OfferOut] = Field(description="Pending offers.")
    games: list[GameSummaryOut] = Field(
        description="A summary of every game of the room, oldest first (at most "
        "MAX_GAMES_PER_ROOM); each game in full at its `url`."
    )
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
