"""The game log: one line a room action, with the room, the game and its ply."""

from __future__ import annotations

import logging
from typing import Any

from app.core.logging import log_fields

from .models import Game

log = logging.getLogger("checkers.game")


def log_action(action: str, game: Game, **fields: Any) -> None:
    log_fields(log, action, room=game.room_id, game=game.number, ply=game.ply, **fields)
