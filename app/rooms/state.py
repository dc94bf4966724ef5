"""A room's current game as one action or one view reads it.

The locked room row brings its seats and games (one query); the current game's moves and
offers follow (two more). An action changes these objects in memory and the view is
built from them, so a move is three reads and its writes: the append-only move and event
rows at once, the game and room rows at commit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from app.engine import Board

from .models import Game, Move, Offer, Room
from .play import board_of


class MoveRecord(NamedTuple):
    """One stored ply as the rooms read it (the columns of `moves` but its keys)."""

    ply: int
    side: str
    notation: str
    path: list[int]
    captured: list[int]
    crowned: bool
    irreversible: bool
    fen_after: str
    created_at: datetime


MOVE_COLUMNS = tuple(Move.__table__.c[name] for name in MoveRecord._fields)
# Built once: a statement's construction and cache key cost more than its execution.
_MOVES = (
    select(*MOVE_COLUMNS)
    .where(Move.__table__.c.game_id == bindparam("game_id"))
    .order_by(Move.__table__.c.ply)
)
_OFFERS = select(Offer).where(Offer.game_id == bindparam("game_id")).order_by(Offer.id)


def current_game(room: Room) -> Game:
    """The room's game in progress or last played (`room.games` is loaded with the room)."""
    for game in room.games:
        if game.number == room.current_game_number:
            return game
    raise LookupError(f"room {room.id} has no game {room.current_game_number}")


@dataclass
class GameState:
    """The room, its current game, that game's moves (oldest first) and its offers."""

    room: Room
    game: Game
    moves: list[MoveRecord]
    offers: list[Offer]
    _board: Board | None = field(default=None, repr=False)

    def board(self) -> Board:
        """The current position with the history the draw rules need (built once)."""
        if self._board is None:
            self._board = board_of(self.room.rule_set, self.game.start_fen, self.moves)
        return self._board


def load_state(session: Session, room: Room) -> GameState:
    game = current_game(room)
    key = {"game_id": game.id}
    # Plain rows, not ORM objects: a long game has hundreds of moves to read.
    moves = [MoveRecord(*row) for row in session.connection().execute(_MOVES, key)]
    offers = list(session.scalars(_OFFERS, key))
    return GameState(room, game, moves, offers)
