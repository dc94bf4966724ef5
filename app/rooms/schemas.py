"""Request and response bodies of the rooms API (they are the OpenAPI schema)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    computed_field,
    field_validator,
)
from pydantic_core import PydanticCustomError

from app.core.errors import Error
from checkers_engine import RULE_SETS, Side

from .models import (
    DeclineReason,
    Ending,
    GameStatusName,
    Level,
    OfferAction,
    OfferKind,
    RoomStatusName,
    SeatRole,
)
from .names import InvalidName, clean_name
from .policy import PdnResult
from .private_schemas import ChatStateOut, ExtraTimeOut

# A rule set's key, listed as an enum in the OpenAPI document (an unknown key is still
# refused by the service, with `unknown_rule_set` and the keys there are).
RULE_SET_KEYS: dict[str, Any] = {"enum": list(RULE_SETS)}
# Examples in the OpenAPI document.
ROOM_ID = "bV3xQ9tKp2mA"
SHARE_URL = f"https://checkers.example.com/r/{ROOM_ID}"


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
        try:
            return None if value is None else clean_name(value)
        except InvalidName as exc:  # its code is the problem's type, for a page to say it
            raise PydanticCustomError(exc.code, str(exc)) from None


FEN_DESCRIPTION = (
    "Optional start position, as a FEN in the rule set's own tradition (its colours and "
    "square numbers or names, e.g. lidraughts' `W:W21,...,32:B1,...,12:H0:F1` in Russian); "
    "its `:H` half-move clock seeds the 20-king-ply count. Refused (422 `invalid_fen`) when "
    "it cannot be read or is inconsistent, (422 `position_decided`) when nothing is left to "
    "play. Absent: the standard start. Rematches start from the same position."
)


class FromPosition(Named):
    """A body that creates a game: a rule set and, optionally, a start position."""

    rule_set: str = Field(
        default="english",
        max_length=32,
        description="english, brazilian, russian, spanish, italian or thai",
        json_schema_extra=RULE_SET_KEYS,
    )
    fen: str | None = Field(
        default=None,
        max_length=400,
        description=FEN_DESCRIPTION,
        examples=["W:W18,K30:B14,15"],
    )

    @field_validator("fen")
    @classmethod
    def _blank_is_none(cls, value: str | None) -> str | None:
        return value if value is None or value.strip() else None


class CreateRoomIn(FromPosition):
    pass


class JoinIn(Named):
    pass


class NameIn(Named):
    pass


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


class MoveIn(_In):
    move: str = Field(
        min_length=1,
        max_length=200,
        description="In the engine's notation (English numbers, a1 in the drums' left "
        "corner), numeric (11-15, 22x15x6) or algebraic (c3-d4, c3:e5:g7), or with "
        "`notation: tradition` in the rule set's own (`rule_set.notation`); the short "
        "start-end form when only one legal move matches.",
        examples=["11-15"],
    )
    notation: Literal["engine", "tradition"] = Field(
        default="engine",
        description="How `move` is written: `engine` (as `engine_notation` of the listed "
        "moves) or `tradition` (the rule set's numbers or its board's names, as `numeric` "
        "and `algebraic`).",
    )
    expected_ply: int = Field(
        ge=0,
        le=1_000_000,
        description="The game's ply the move was chosen at (`game.ply`).",
        examples=[0],
    )


class ActionIn(_In):
    action: OfferAction


class SquareOut(BaseModel):
    square: int = Field(description="The engine's square 1-32 (as in `path`).")
    number: int = Field(description="Its number in the rule set's tradition.")
    name: str = Field(description="Its name on the tradition's board (a1-h8).")


class ColoursOut(BaseModel):
    drums: Literal["White", "Black"]
    tires: Literal["White", "Black"]


class NotationOut(BaseModel):
    """How the rule set's own players write a game (the README's notation table)."""

    style: Literal["numeric", "algebraic"] = Field(
        description="The customary notation: which of a move's `numeric` and `algebraic` "
        "forms is its `text`."
    )
    colours: ColoursOut = Field(description="The tradition's colour of each side.")
    first_mover: Literal["White", "Black"] = Field(description="The colour of the drums.")
    mirrored: bool = Field(
        description="The tradition's board is the engine's mirrored left to right (Italian, "
        "Spanish): drawn with the engine's a1 in the lower right corner."
    )
    numbering: str = Field(description="The square numbering, in words.")
    squares: list[SquareOut] = Field(description="Each engine square's number and name.")


class RuleSetOut(BaseModel):
    key: str = Field(json_schema_extra=RULE_SET_KEYS, examples=["english"])
    name: str = Field(examples=["English checkers"])
    description: str = Field(examples=["Men move and capture forward only; kings move one square."])
    men_per_side: int
    men_capture_backward: bool
    flying_kings: bool
    majority_capture: bool
    pdn_gametype: int
    notation: NotationOut
    start_fen: str = Field(
        description="The standard start position (engine FEN): where a game without a "
        "set-up position begins."
    )


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
    chat: ChatStateOut | None = Field(
        default=None, description="The chat with your opponent (null: against the computer)."
    )
    can_give_time: bool = Field(
        default=False,
        description="You wait for your opponent's move and may give them one more day "
        "(`POST .../more-time`).",
    )


class TermsOut(BaseModel):
    """The service's durations, for the deadlines a page states."""

    claim_after_seconds: int
    expire_after_seconds: int
    rematch_window_seconds: int
    remind_before_seconds: int
    email: bool = Field(description="Whether this service can send mail.")


class MoveForms(BaseModel):
    """A move written every way: as the engine stores it and in the rule set's
    tradition (both styles, and the customary one)."""

    engine_notation: str = Field(
        description="The engine's own notation, every landing square: 22x15x6 (as stored, "
        "and as `move` is sent by default). Its squares are the engine's, English numbers "
        "in every rule set: the rule set's own are `numeric` and `algebraic`."
    )
    numeric: str = Field(description="The tradition's numbers: 22x15x6 in English.")
    algebraic: str = Field(description="The tradition's board's names: c3-d4, d4:f6.")
    text: str = Field(
        description="The customary form (`rule_set.notation.style`): e.g. 11-15 in "
        "English, c3-d4 in Russian."
    )

    @computed_field(  # type: ignore[prop-decorator]
        description="Deprecated: `engine_notation` under its former name, still given "
        "until the next release.",
        json_schema_extra={"deprecated": True},
    )
    @property
    def notation(self) -> str:
        return self.engine_notation


class MoveOut(MoveForms):
    """A move of a game's record."""

    ply: int = Field(description="1 for the game's first move.")
    number: int = Field(description="The full-move number the tradition prints before it.")
    side: Side
    path: list[int] = Field(description="Start square then every landing square.")
    captured: list[int]
    crowned: bool
    fen_after: str


class PlayedMoveOut(MoveOut):
    played_at: datetime
    conditional: bool = Field(
        default=False, description="Played for its seat from a reply stored in advance."
    )


class LegalMoveOut(MoveForms):
    path: list[int]
    captured: list[int] = Field(description="Squares of the pieces this move takes.")
    crowns: bool


class NextMoveOut(LegalMoveOut):
    fen_after: str = Field(description="The position after the move (the engine's FEN).")


class PositionMovesOut(BaseModel):
    """The legal moves of a position: what a board for trying lines out needs."""

    fen: str = Field(
        examples=["B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"]
    )
    turn: Side
    moves: list[NextMoveOut] = Field(description="Empty when the side to move has none.")


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
    start_fen: str | None = Field(
        description="The engine's FEN of the set-up position the game started from (null: "
        "the standard start)."
    )
    start_position: str | None = Field(
        description="That position as the rule set's tradition writes its FEN."
    )
    fen: str = Field(examples=["W:W21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,22"])
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
    extra_time: ExtraTimeOut


class OfferOut(BaseModel):
    kind: OfferKind
    by_seat: SeatRole
    by_side: Side
    created_at: datetime


class DeclinedOut(BaseModel):
    """An offer of the current game that was declined, while it is still news: a draw
    until its offerer moves again, a rematch while the room stays open to another."""

    kind: OfferKind
    by_seat: SeatRole = Field(description="The seat that made the offer.")
    by_side: Side
    declined_at: datetime
    reason: DeclineReason | None = Field(
        default=None,
        description="Why it was declined, when a reason was given: `computer_ahead`, the "
        "computer declines a draw only when a short search finds it clearly ahead.",
    )


class GameSummaryOut(BaseModel):
    number: int
    drums_seat: SeatRole
    status: GameStatusName
    plies: int
    result: ResultOut | None
    url: str = Field(description="The game in full, as JSON (`GET /api/rooms/{id}/games/{n}`).")
    pdn_url: str = Field(examples=[f"https://checkers.example.com/api/rooms/{ROOM_ID}/games/1.pdn"])
    review_url: str | None = Field(
        description="The computer's review of the game (`GET`), once someone has asked for "
        "it; null before (`POST /api/rooms/{id}/games/{n}/review` asks).",
        examples=[f"/api/rooms/{ROOM_ID}/games/1/review"],
    )


class GameRecordOut(BaseModel):
    """One game of a room in full, fetched on demand (the room view carries the current
    game and only summaries of the others): to replay an earlier game."""

    room_id: str
    number: int
    drums_seat: SeatRole
    tires_seat: SeatRole
    status: GameStatusName
    start_fen: str = Field(description="The position the game started from (engine FEN).")
    start_position: str | None = Field(
        description="A set-up start as the tradition writes its FEN (null: the standard start)."
    )
    fen: str = Field(description="The position at the end of the moves.")
    ply: int
    moves: list[PlayedMoveOut]
    result: ResultOut | None
    started_at: datetime | None
    ended_at: datetime | None
    pdn_url: str = Field(examples=[f"https://checkers.example.com/api/rooms/{ROOM_ID}/games/1.pdn"])


class ScoreOut(BaseModel):
    creator: float
    joiner: float


class RoomView(BaseModel):
    """What anyone with the room's link sees; `you` is set when a seat token was sent."""

    id: str = Field(examples=[ROOM_ID])
    share_url: str = Field(examples=[SHARE_URL])
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
    declined: DeclinedOut | None = Field(
        description="The current game's last offer, if it was declined and is still news."
    )
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

    room_id: str = Field(examples=[ROOM_ID])
    share_url: str = Field(examples=[SHARE_URL])
    seat: SeatRole
    side: Side
    token: str = Field(
        description="Send as `Authorization: Bearer <token>`. Keep it secret.",
        examples=["3q2-hX0b9r1VbL1mYV2vH7wq0Zc5s8uE"],
    )
    room: RoomView


# The one error schema of the API (`app.core.errors.Error`), under its old name here.
ErrorOut = Error
