"""A player's private notes on a game: one on the game as a whole (ply 0, the start) and
one on the position after any move. Only its seat ever reads them: no event, no view,
no public PDN carries them (the seat's own PDN download may, `pdn.export_game`)."""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from app.core.context import Context
from app.core.db import read_transaction

from . import errors
from .locking import locked_room
from .models import Game, Room, Seat, SeatNote
from .plaintext import clean_text
from .seats import identify
from .state import lock_room

MAX_LENGTH = 2000


def player_of(room: Room, token: str | None) -> Seat:
    """The seat whose own things (notes, analysis) a request reads or writes; spectators
    are refused (403 `players_only`)."""
    seat = identify(room, token)
    if seat is None:
        raise errors.PlayersOnly("only the players keep notes and lines: send a seat's token")
    return seat


def game_of(room: Room, number: int) -> Game:
    game = next((g for g in room.games if g.number == number), None)
    if game is None:
        raise errors.GameNotFound(f"this room has no game {number}")
    return game


def save_note(
    session: Session,
    *,
    room_id: str,
    token: str | None,
    number: int,
    ply: int,
    text: str,
    ctx: Context,
) -> None:
    """Keep the seat's note on game `number` after `ply` plies (0: the whole game);
    blank text forgets it."""
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        seat = player_of(state.room, token)
        game = game_of(state.room, number)
        if ply > game.ply:
            raise errors.InvalidInput(f"game {number} has {game.ply} plies: no move {ply} yet")
        kept = None if not text.strip() else clean_text(text, max_length=MAX_LENGTH)
        where = (SeatNote.game_id == game.id, SeatNote.seat_id == seat.id, SeatNote.ply == ply)
        note = session.scalars(select(SeatNote).where(*where)).one_or_none()
        if kept is None:
            session.execute(delete(SeatNote).where(*where))
        elif note is None:
            session.add(
                SeatNote(game_id=game.id, seat_id=seat.id, ply=ply, text=kept, updated_at=ctx.now)
            )
        else:
            note.text, note.updated_at = kept, ctx.now


def seat_notes(session: Session, game: Game, seat: Seat) -> list[SeatNote]:
    """A seat's notes on a game, by ply."""
    return list(
        session.scalars(
            select(SeatNote)
            .where(SeatNote.game_id == game.id, SeatNote.seat_id == seat.id)
            .order_by(SeatNote.ply)
        )
    )


def read_notes(session: Session, *, room_id: str, token: str | None, number: int) -> list[SeatNote]:
    """The token's seat's notes on game `number`, by ply."""
    with read_transaction(session):
        room = lock_room(session, room_id=room_id, read=True)
        seat = player_of(room, token)
        return seat_notes(session, game_of(room, number), seat)
