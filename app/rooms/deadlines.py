"""Deadlines applied to a locked room once they have come: expiry, closing to rematches,
the forfeit claim's opening and the reminder before it (the rules are `policy`'s)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.core.context import Context

from . import policy, reasons
from .endings import finish_game, lapse_offers
from .events import append_event, reason_facts
from .logs import log_action
from .models import (
    Ending,
    EventKind,
    OfferKind,
    RoomStatus,
)
from .policy import Deadline
from .state import GameState


def apply_due_deadlines(session: Session, state: GameState, *, ctx: Context) -> bool:
    """Apply the deadline of a locked room that has come by `ctx.now` (idempotent);
    whether the room was due. The caller sets its next check."""
    room, game, now = state.room, state.game, ctx.now
    if room.next_check_at is None or room.next_check_at > now:
        return False
    due = policy.due_deadline(room, game, now, ctx.settings)
    if due in (Deadline.CLOSE, Deadline.EXPIRE):
        if due is Deadline.CLOSE:
            room.status = RoomStatus.EXPIRED
            lapse_offers(state, ctx, kind=OfferKind.REMATCH)
            reason = reasons.closed(ctx.settings)
            log_action("expired", game, outcome="closed")
        else:
            reason = reasons.expired(ctx.settings, waiting=room.status == RoomStatus.WAITING)
            finish_game(
                session,
                state,
                ctx=ctx,
                winner=None,
                ending=Ending.EXPIRED,
                reason=reason,
                room_status=RoomStatus.EXPIRED,
            )
        append_event(
            session,
            state,
            kind=EventKind.EXPIRED,
            now=now,
            game=game.number,
            **reason_facts(reason),
        )
    elif due is Deadline.CLAIM_OPEN:
        game.claim_notified = True
        opens = policy.claim_opens_at(room, game, ctx.settings)
        assert opens is not None
        claimant = game.turn.opponent
        append_event(
            session,
            state,
            kind=EventKind.CLAIM_OPEN,
            now=now,
            game=game.number,
            ply=game.ply,
            seat=game.seat_of(claimant),
            side=claimant.value,
            opens_at=opens.isoformat(),
        )
        log_action("claim_open", game, outcome="claim_open")
    elif due is Deadline.REMIND:
        game.reminded = True
        opens = policy.claim_opens_at(room, game, ctx.settings)
        assert opens is not None
        append_event(
            session,
            state,
            kind=EventKind.CLAIM_SOON,
            now=now,
            game=game.number,
            ply=game.ply,
            seat=game.seat_of(game.turn),
            side=game.turn.value,
            opens_at=opens.isoformat(),
        )
    return True
