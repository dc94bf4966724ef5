"""The computer's players against the rooms' names of them: a room's seat stores a level
of `app.rooms.models.Level` (the rooms import nothing of the AI), the worker plays the
`checkers_engine.ai.Level` of the same value. `check_levels` runs where the computer registers its
hooks (the app factory), so a level added to one side only stops the service at start."""

from __future__ import annotations

from app.rooms.models import Level as SeatLevel
from checkers_engine.ai import Level


def check_levels() -> None:
    """Refuse to start unless the two lists of levels are the same values."""
    players = [level.value for level in Level]
    seats = [level.value for level in SeatLevel]
    if players != seats:
        raise RuntimeError(f"the computer's levels {players} are not the rooms' {seats}")


def player(level: SeatLevel) -> Level:
    """The computer player of a seat's level."""
    return Level(level.value)


def seat_level(level: Level) -> SeatLevel:
    """A seat's level for the computer player `level`."""
    return SeatLevel(level.value)
