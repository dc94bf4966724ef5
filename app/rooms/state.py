"""A room's current game as one action or one view reads it, and the room lock.

The locked room row brings its seats and games (one query); the current game's moves and
offers follow (two more). An action changes these objects in memory and the view is
built from them, so a move is three reads and its writes: the append-only move and event
rows at once, the game and room rows at commit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session, joinedload

from checkers_engine import Board, Side

from . import errors
from .models import (
    ConditionalLines,
    EventKind,
    Game,
    GameStatus,
    Move,
    Offer,
    Room,
    RoomStatus,
    Seat,
    SeatRole,
)
from .positions import start_board


class MoveRecord(NamedTuple):
    """One stored ply as the rooms read it (the columns of `moves` but its keys)."""

    ply: int
    side: Side
    notation: str
    path: list[int]
    captured: list[int]
    crowned: bool
    irreversible: bool
    fen_after: str
    created_at: datetime
    conditional: bool = False


MOVE_COLUMNS = tuple(Move.__table__.c[name] for name in MoveRecord._fields)
# Built once: a statement's construction and cache key cost more than its execution.
_MOVES = (
    select(*MOVE_COLUMNS)
    .where(Move.__table__.c.game_id == bindparam("game_id"))
    .order_by(Move.__table__.c.ply)
)
_OFFERS = select(Offer).where(Offer.game_id == bindparam("game_id")).order_by(Offer.id)
_ROOMS = Room.__table__.c
_LOCK = select(_ROOMS.id).where(_ROOMS.id == bindparam("room_id"))
_LOCK_WRITE = _LOCK.with_for_update()
_LOCK_READ = _LOCK.with_for_update(read=True)
_ROOM = (
    select(Room)
    .where(Room.id == bindparam("room_id"))
    .options(joinedload(Room.seats), joinedload(Room.games))
    .execution_options(populate_existing=True)
)


def current_game(room: Room) -> Game:
    """The room's game in progress or last played (`room.games` is loaded with the room)."""
    for game in room.games:
        if game.number == room.current_game_number:
            return game
    raise LookupError(f"room {room.id} has no game {room.current_game_number}")


@dataclass
class GameState:
    """The room, its current game, that game's moves (oldest first) and its offers, and
    the seat the request acts as (None: a spectator)."""

    room: Room
    game: Game
    moves: list[MoveRecord]
    offers: list[Offer]
    seat: Seat | None = None
    # The events this action has appended so far, oldest first (kind and data).
    events: list[tuple[EventKind, dict[str, Any]]] = field(default_factory=list)
    # What one seat alone is to be told (its role, a kind, a title, a text): news of its
    # private conditional moves, which no event may show.
    # (seat, kind, facts) of a notification that no event records (conditional moves)
    notes: list[tuple[SeatRole, str, dict[str, str]]] = field(default_factory=list)
    # The seat's own conditional moves, when it has some (read for its view only).
    plan: ConditionalLines | None = None
    _board: Board | None = field(default=None, repr=False)

    def board(self) -> Board:
        """The current position with the history the draw rules need (built once).

        After a capture or a man's move no earlier position can occur again and the
        king-move count restarts, so the board is rebuilt from the position after the
        last such move, replaying only the plain king moves since (a few dozen at most).
        """
        if self._board is None:
            moves, game = self.moves, self.game
            base = next((i for i in range(len(moves) - 1, -1, -1) if moves[i].irreversible), -1)
            if base >= 0:
                board = Board(self.room.rule_set, fen=moves[base].fen_after)
            else:  # the start position: its half-move clock still counts
                board = start_board(
                    self.room.rule_set,
                    game.start_fen,
                    game.start_half_move_clock,
                    game.start_move_number,
                )
            for record in moves[base + 1 :]:
                board.push_text(record.notation)
            self._board = board
        return self._board

    def begin_game(self, game: Game) -> None:
        """Make the room's newly added game the current one (it has no moves or offers)."""
        self.game, self.moves, self.offers, self._board = game, [], [], None

    def require_seat(self) -> Seat:
        if self.seat is None:
            raise errors.TokenRequired(
                "this action needs a seat: send its token as 'Authorization: Bearer <token>'"
            )
        return self.seat

    def require_open(self) -> None:
        if self.room.status == RoomStatus.EXPIRED:
            raise errors.RoomExpired("this room has expired: no further action is accepted")

    def require_playing(self) -> None:
        self.require_open()
        if self.room.status == RoomStatus.WAITING:
            raise errors.WaitingForOpponent("the game starts when a second player joins")
        if self.game.status != GameStatus.PLAYING:
            reason = self.game.reason
            result = reason.english() if reason is not None else None
            raise errors.GameOver("this game is over", result=result)


def lock_room(session: Session, *, room_id: str, read: bool = False) -> Room:
    """Lock the room row, then read the room with its seats and games.

    Writers lock exclusively; a reader (`read`) takes a share lock, which waits for a
    writer and keeps the next one out until the reader ends, so it reads the room and its
    game as one state. The lock is its own statement: on PostgreSQL a statement that had
    to wait for a row lock still sees the other tables as they were when it began, so
    the rows read with the lock could miss what the previous holder wrote.
    """
    key = {"room_id": room_id}
    if session.connection().scalar(_LOCK_READ if read else _LOCK_WRITE, key) is None:
        raise errors.RoomNotFound("no room with this id")
    return session.scalars(_ROOM, key).unique().one()


def load_state(session: Session, room: Room) -> GameState:
    """The locked room's current game with its moves and offers."""
    game = current_game(room)
    key = {"game_id": game.id}
    # Plain rows, not ORM objects: a long game has hundreds of moves to read.
    moves = [MoveRecord(*row) for row in session.connection().execute(_MOVES, key)]
    offers = list(session.scalars(_OFFERS, key))
    return GameState(room, game, moves, offers)
