"""A player's own copy of a finished game as PDN: the game with that seat's notes as
comments (a note on the game before the first move, one after a move after it) and its
analysis lines as variations. Only the seat gets it; the public PDN never carries them.

A line from the game's last position has no move of the game to stand beside: it is
told in the comment before the result.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.db import read_transaction
from checkers_engine import Board
from checkers_engine.notation import format_path

from . import errors
from .analysis import seat_lines
from .models import GameStatus, Move
from .notes import game_of, player_of, seat_notes
from .pdn import export_game
from .state import lock_room


def _written(rule_set: str, start_fen: str, moves: list[str]) -> str:
    """Moves in the rule set's own notation, from `start_fen`."""
    board = Board(rule_set, fen=start_fen)
    out = []
    for text in moves:
        move = board.parse_move(text)
        out.append(format_path(rule_set, list(move.path), move.is_capture))
        board.push(move)
    return " ".join(out)


def own_pdn(session: Session, *, room_id: str, token: str | None, number: int, site: str) -> str:
    """Game `number` as PDN with the token's seat's notes and lines; refused before the
    game is over (409 `game_not_over`) and to anyone but a player (403)."""
    with read_transaction(session):
        room = lock_room(session, room_id=room_id, read=True)
        seat = player_of(room, token)
        game = game_of(room, number)
        if game.status != GameStatus.FINISHED:
            raise errors.GameNotOver("your notes and lines come with the game once it is over")
        moves = list(
            session.scalars(select(Move).where(Move.game_id == game.id).order_by(Move.ply))
        )
        notes = {note.ply: note.text for note in seat_notes(session, game, seat)}
        variations: dict[int, list[list[str]]] = {}
        final: list[str] = []
        for line in seat_lines(session, game, seat):
            if not line.moves:
                continue
            if line.from_ply < len(moves):
                variations.setdefault(line.from_ply, []).append(list(line.moves))
            else:
                final.append(_written(room.rule_set, game.fen, list(line.moves)))
        last = "; ".join(f"Analysis from the final position: {text}" for text in final)
        return export_game(
            room,
            game,
            moves,
            site=site,
            move_comments=[notes.get(move.ply) for move in moves],
            first_comment=notes.get(0),
            variations=variations,
            last_comment=last or None,
        )
