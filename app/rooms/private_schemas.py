"""Request and response bodies of the players' own things in a room: their chat, notes,
analysis lines and the time they give (`private_routes`, and the view's parts of them)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from .models import SeatRole


class _In(BaseModel):
    """A request body: unknown fields are refused."""

    model_config = ConfigDict(extra="forbid")


class ChatIn(_In):
    text: str = Field(
        min_length=1,
        max_length=500,
        description="Plain text, up to 500 characters (line ends kept); shown as written, "
        "never as markup.",
        examples=["Good luck! I am away this weekend."],
    )


class ChatSwitchIn(_In):
    on: bool = Field(description="false: show and tell you nothing more of the chat.")


class ChatMessageOut(BaseModel):
    id: int
    seat: SeatRole = Field(description="Who wrote it.")
    text: str = Field(description="Plain text: escape it wherever it is shown.")
    created_at: datetime


class ChatOut(BaseModel):
    """The chat as one player reads it: the latest messages, oldest first."""

    seat: SeatRole = Field(description="Your seat.")
    off: bool = Field(description="You switched the chat off: no message is shown you.")
    opponent_off: bool = Field(description="Your opponent switched it off.")
    messages: list[ChatMessageOut]


class SeatNoteIn(_In):
    ply: int = Field(
        ge=0, le=100_000, description="The note is on the position after this ply (0: the game)."
    )
    text: str = Field(
        max_length=2000, description="Plain text, up to 2000 characters; blank forgets the note."
    )


class SeatNoteOut(BaseModel):
    ply: int
    text: str
    updated_at: datetime


class SeatNotesOut(BaseModel):
    """A player's private notes on a game, by ply: only that seat ever reads them."""

    game: int
    notes: list[SeatNoteOut]


class AnalysisIn(_In):
    from_ply: int = Field(
        default=0,
        ge=0,
        le=100_000,
        description="The line starts from the position after this ply of the game (0: its "
        "start); ignored when a kept line is replaced.",
    )
    moves: list[str] = Field(
        max_length=120,
        description="Moves for both sides in turn, each checked by the rules where it is "
        "played (engine or customary notation; kept in the engine's).",
        examples=[["22-18", "15x22", "25x18"]],
    )

    @field_validator("moves")
    @classmethod
    def _short(cls, value: list[str]) -> list[str]:
        if any(not 2 <= len(text) <= 200 for text in value):
            raise PydanticCustomError("invalid_move", "each move is 2 to 200 characters")
        return value


class AnalysisLineOut(BaseModel):
    id: int
    from_ply: int = Field(description="It starts from the position after this ply (0: start).")
    moves: list[str] = Field(description="Its moves, both sides in turn (engine notation).")
    created_at: datetime
    updated_at: datetime


class AnalysisOut(BaseModel):
    """A player's kept analysis lines on a game: only that seat ever reads them."""

    game: int
    lines: list[AnalysisLineOut]


class ExtraTimeOut(BaseModel):
    """More time given by the waiting player to the player to move, a day at a time."""

    turn_days: int = Field(description="Days added to the current turn's deadlines.")
    given_days: int = Field(description="Days given in this game, by either player.")
    max_days: int = Field(description="The most days a game may be given.")


class ChatStateOut(BaseModel):
    """The room's chat as one player has it (a room against the computer has none)."""

    off: bool = Field(description="You switched the chat off: nothing is shown or told you.")
    opponent_off: bool = Field(
        description="Your opponent switched it off: a message would reach nobody."
    )
