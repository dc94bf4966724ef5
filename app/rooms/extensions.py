"""More time: the player waiting for a move gives the player to move one more day.

The day is added to the current turn: the forfeit claim, its reminder and the room's
expiry all come a day later, and a claim already open closes until then. The record
keeps who gave it, when, and the new instants (a public event: both players and anyone
watching see the deadline move).
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.core.context import Context

from . import policy
from .events import append_event
from .locking import locked_room
from .logs import log_action
from .models import EventKind
from .state import GameState


def give_time(session: Session, *, room_id: str, token: str | None, ctx: Context) -> GameState:
    """The token's seat, waiting for the opponent's move, gives them one more day."""
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        seat = state.require_seat()
        state.require_playing()
        room, game = state.room, state.game
        policy.check_give_time(room, game, seat.role)
        game.turn_extra_days = (game.turn_extra_days or 0) + 1
        game.extra_days = (game.extra_days or 0) + 1
        # The claim and its reminder are due again, at their new instants.
        game.claim_notified = game.reminded = False
        opens = policy.claim_opens_at(room, game, ctx.settings)
        expires = policy.expires_at(room, ctx.settings, game)
        assert opens is not None and expires is not None
        append_event(
            session,
            state,
            kind=EventKind.TIME_GIVEN,
            now=ctx.now,
            game=game.number,
            ply=game.ply,
            seat=seat.role,
            side=game.turn.value,
            days=1,
            turn_days=game.turn_extra_days,
            total_days=game.extra_days,
            claim_opens_at=opens.isoformat(),
            expires_at=expires.isoformat(),
        )
        log_action("time_given", game, outcome="playing")
        return state
