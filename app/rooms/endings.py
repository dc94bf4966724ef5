"""How a game ends, whatever ended it: the rules, a player, a deadline."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.core.context import Context
from checkers_engine import (
    Side,
)

from . import conditionals
from .conditionals import drop_plans
from .events import append_event, reason_facts
from .logs import log_action
from .models import (
    Ending,
    EventKind,
    GameStatus,
    OfferKind,
    OfferStatus,
    RoomStatus,
    SeatRole,
)
from .reasons import DropCode, Dropped, Reason
from .state import GameState


def finish_game(
    session: Session,
    state: GameState,
    *,
    ctx: Context,
    winner: Side | None,
    ending: Ending,
    reason: Reason,
    room_status: RoomStatus = RoomStatus.FINISHED,
) -> None:
    """End the current game; its pending draw offer lapses. The game and its event keep
    the reason's facts (the event's English is rendered when it is read)."""
    room, game = state.room, state.game
    drop_plans(session, state, Dropped(DropCode.GAME_OVER), ctx)
    conditionals.forget_game(session, game_id=game.id, seats=room.seats)
    game.status = GameStatus.FINISHED
    game.winner = winner
    game.termination = ending
    game.reason = reason
    game.ended_at = ctx.now
    room.status = room_status
    room.last_active_at = ctx.now
    lapse_offers(state, ctx, kind=OfferKind.DRAW)
    append_event(
        session,
        state,
        kind=EventKind.GAME_OVER,
        now=ctx.now,
        game=game.number,
        winner=winner.value if winner else None,
        termination=ending,
        **reason_facts(reason),
    )
    log_action("game_over", game, outcome=ending, winner=winner)


def lapse_offers(
    state: GameState, ctx: Context, *, kind: OfferKind, by_seat: SeatRole | None = None
) -> None:
    for offer in state.offers:
        if (
            offer.status == OfferStatus.PENDING
            and offer.kind == kind
            and (by_seat is None or offer.by_seat == by_seat)
        ):
            offer.status = OfferStatus.LAPSED
            offer.resolved_at = ctx.now
