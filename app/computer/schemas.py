"""Request bodies of the computer's routes, shared by the API and the pages."""

from __future__ import annotations

from pydantic import Field

from app.rooms.models import Level as SeatLevel
from app.rooms.schemas import FromPosition
from checkers_engine.ai import Level

LEVELS = ", ".join(f"{level.title} ({level.difficulty})" for level in Level)


class ComputerGameIn(FromPosition):
    level: SeatLevel = Field(description=f"Weakest first: {LEVELS}.")
