"""Request and response bodies of PDN imports (they are the OpenAPI schema)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.rooms.schemas import RULE_SET_KEYS, MoveOut, RuleSetOut
from checkers_engine import Side

PdnResult = Literal["1-0", "0-1", "1/2-1/2", "*"]


class ImportIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    pdn: str = Field(
        min_length=1,
        description="The PDN text: one game or many (tags, moves, comments, results).",
    )
    rule_set: str = Field(
        default="english",
        max_length=32,
        description="The rule set of games without a GameType tag.",
        json_schema_extra=RULE_SET_KEYS,
    )


class NoteOut(BaseModel):
    line: int
    column: int
    text: str = Field(description="What the reader normalised, or a fact worth telling.")
    code: str | None = Field(
        default=None,
        description="The note's stable key (text is its English); null for a note stored "
        "before notes had codes.",
        examples=["result_not_pdn"],
    )
    params: dict[str, str | int] = Field(
        default_factory=dict, description="The values the note names, by placeholder."
    )


class ServiceEndOut(BaseModel):
    """Where this service's own draw rules would have ended the game: every recorded
    move is replayed all the same."""

    ply: int = Field(description="Moves played when the rule applied.")
    termination: str = Field(examples=["20 king moves", "threefold repetition"])


class FailureOut(BaseModel):
    """Why a recorded game cannot be replayed: it is not imported."""

    game: int = Field(description="The game's number in the text (1 for the first).")
    line: int
    column: int
    ply: int = Field(description="Moves replayed before the failing one.")
    move: str = Field(description="The failing move (or text) as written.")
    reason: str
    code: str = Field(description="The reason's stable key (reason is its English).")
    params: dict[str, str | int] = Field(description="The values the reason names.")
    legal_moves: list[str] = Field(description="The position's legal moves, in its notation.")


class ImportedReportOut(BaseModel):
    """One game of the text: imported, or the reason it was not."""

    number: int = Field(description="The game's number in the text (1 for the first).")
    line: int = Field(description="Where the game begins.")
    column: int
    imported: bool
    id: str | None = Field(description="The stored game's id (null when not imported).")
    url: str | None = Field(description="Its read-only replay page.")
    pdn_url: str | None = Field(description="Its PDN, as this service writes it.")
    rule_set: str = Field(json_schema_extra=RULE_SET_KEYS)
    white: str | None
    black: str | None
    event: str | None
    date: str | None
    result: PdnResult = Field(description="CheckerBoard's convention: 1-0, the first mover won.")
    plies: int = Field(description="Moves replayed (all of them when imported).")
    from_position: bool = Field(description="The game starts from its FEN tag's position.")
    notes: list[NoteOut]
    service_end: ServiceEndOut | None
    failure: FailureOut | None


class ImportOut(BaseModel):
    games: list[ImportedReportOut]
    imported: int = Field(description="Games stored.")
    failed: int = Field(description="Games that could not be replayed.")
    encoding: str = Field(description="How the text was decoded (utf-8 or windows-1252).")


class CommentOut(BaseModel):
    ply: int = Field(description="The moves before it (0: before the first).")
    text: str


class VariationOut(BaseModel):
    """A variation of the record: moves played instead of the game's move `ply + 1`."""

    ply: int = Field(description="The game's moves before it: it starts from that position.")
    moves: list[str] = Field(description="Its moves, engine notation (as far as they are legal).")
    comments: list[CommentOut] = Field(description="Its comments (`ply`: its moves before).")


class ImportedGameOut(BaseModel):
    """A stored imported game, for its read-only replay."""

    id: str
    number: int = Field(description="Its number in the text it was imported from.")
    rule_set: RuleSetOut
    tags: dict[str, str] = Field(description="The record's tags, as written.")
    start_fen: str = Field(description="The engine's FEN of the position it starts from.")
    start_position: str | None = Field(
        description="A set-up start (its FEN tag) as the tradition writes it; null: standard."
    )
    moves: list[MoveOut]
    result: PdnResult
    winner: Side | None = Field(description="The side the record names as winner.")
    result_text: str = Field(examples=["Black won (1-0)", "Drawn (1/2-1/2)"])
    notes: list[NoteOut]
    comments: list[CommentOut] = Field(description="The record's comments, in order.")
    variations: list[VariationOut] = Field(description="The record's variations, in order.")
    service_end: ServiceEndOut | None
    pdn_url: str
    url: str
    imported_at: datetime
