"""The room's event record as the API gives it: each kind of event and what it carries
(the OpenAPI schema of the JSON page and of the live stream's events)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from .models import EventKind

EVENT_KINDS: dict[EventKind, str] = {
    EventKind.CREATED: "the room was made (`rule_set`, the creator's `seat`)",
    EventKind.JOINED: "the second player took the open seat (`seat`, `game`)",
    EventKind.MOVE: "a move was played (`game`, `ply`, `side`, `notation`, `path`, "
    "`captured`, `fen`, ...)",
    EventKind.DRAW_OFFERED: "a draw was offered",
    EventKind.DRAW_ACCEPTED: "a draw offer was accepted: the game ends drawn",
    EventKind.DRAW_DECLINED: "a draw offer was declined (`seat`: who declined; `reason` "
    "when one was given: `computer_ahead`)",
    EventKind.REMATCH_OFFERED: "a rematch was offered after the game",
    EventKind.REMATCH_ACCEPTED: "a rematch was accepted: a new game begins, sides swapped",
    EventKind.REMATCH_DECLINED: "a rematch offer was declined",
    EventKind.RESIGNED: "a player resigned",
    EventKind.FORFEIT_CLAIMED: "the waiting player claimed the win on time",
    EventKind.CLAIM_OPEN: "the waiting player may now claim a forfeit",
    EventKind.CLAIM_SOON: "the player to move is reminded that a claim opens soon",
    EventKind.GAME_OVER: "the game ended (`game`, `winner`, `termination`, `reason`)",
    EventKind.EXPIRED: "the room expired, or closed to rematches (`game`, `reason`)",
    EventKind.RENAMED: "a seat took another display name (`seat`, `name`)",
    EventKind.SEAT_MOVED: "a seat moved to another device; its old tabs let go",
    EventKind.TIME_GIVEN: "the waiting player (`seat`) gave the player to move (`side`) "
    "`days` more: `turn_days` this turn, `total_days` this game; the new `claim_opens_at` "
    "and `expires_at`",
    EventKind.CHAT: "a message between the players (`seat`, `id`, `text`): sent on the "
    "streams of the two seats alone, never to spectators",
    EventKind.CHAT_SWITCHED: "a player (`seat`) switched the chat on or off (`on`): sent "
    "on the two seats' streams alone",
}


class EventOut(BaseModel):
    """One entry of a room's event record, as the JSON page and the live stream send it."""

    version: int = Field(description="Its place in the room's record, from 1; the SSE `id`.")
    kind: EventKind = Field(
        description="What happened:\n\n"
        + "\n".join(f"- `{kind.value}`: {text}" for kind, text in EVENT_KINDS.items()),
        json_schema_extra={"x-enum-descriptions": list(EVENT_KINDS.values())},
    )
    data: dict[str, Any] = Field(
        description="The event's details, by kind (a `reason`: English, with its facts"
        " `reason_code` and `reason_params`)."
    )
    created_at: datetime


class EventsOut(BaseModel):
    room_id: str
    version: int
    events: list[EventOut]
