"""Offers: a draw during a game, a rematch after it, and their answers."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.core.context import Context

from . import errors, policy, reasons
from .conditionals import drop_plans
from .endings import finish_game
from .events import append_event
from .locking import admit, locked_room
from .logs import log_action
from .models import (
    DeclineReason,
    Ending,
    EventKind,
    Game,
    GameStatus,
    Offer,
    OfferAction,
    OfferKind,
    OfferStatus,
    RoomStatus,
    Seat,
)
from .positions import start_board
from .reasons import DropCode, Dropped
from .state import GameState

_OFFERED = {OfferKind.DRAW: EventKind.DRAW_OFFERED, OfferKind.REMATCH: EventKind.REMATCH_OFFERED}
_DECLINED = {
    OfferKind.DRAW: EventKind.DRAW_DECLINED,
    OfferKind.REMATCH: EventKind.REMATCH_DECLINED,
}


_DECLINED = {
    OfferKind.DRAW: EventKind.DRAW_DECLINED,
    OfferKind.REMATCH: EventKind.REMATCH_DECLINED,
}


def draw_action(
    session: Session,
    *,
    room_id: str,
    token: str | None,
    action: OfferAction,
    ctx: Context,
    reason: DeclineReason | None = None,
) -> GameState:
    """Offer a draw, or accept or decline the other player's offer (a decline may give
    its `reason`, told to the one who offered)."""
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        seat = state.require_seat()
        state.require_playing()
        admit(state, ctx)
        if _offer_or_answer(session, state, seat, OfferKind.DRAW, action, ctx, reason):
            append_event(
                session,
                state,
                kind=EventKind.DRAW_ACCEPTED,
                now=ctx.now,
                game=state.game.number,
                seat=seat.role,
            )
            finish_game(
                session,
                state,
                ctx=ctx,
                winner=None,
                ending=Ending.AGREEMENT,
                reason=reasons.AGREED,
            )
        return state


def rematch_action(
    session: Session,
    *,
    room_id: str,
    token: str | None,
    action: OfferAction,
    ctx: Context,
) -> GameState:
    """Offer a rematch after a game, or answer the other player's offer. Accepting starts
    the next game in the room with the colours swapped."""
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        seat = state.require_seat()
        state.require_open()
        if state.room.status != RoomStatus.FINISHED:
            raise errors.GameNotOver("a rematch can be offered only when the game is over")
        if state.game.number >= ctx.settings.max_games_per_room:
            raise errors.GameLimit(
                f"this room has played its {ctx.settings.max_games_per_room} games: "
                "open a new room to play again",
                max_games=ctx.settings.max_games_per_room,
            )
        admit(state, ctx)
        if _offer_or_answer(session, state, seat, OfferKind.REMATCH, action, ctx):
            _start_next_game(session, state, ctx)
        return state


def _offer_or_answer(
    session: Session,
    state: GameState,
    seat: Seat,
    kind: OfferKind,
    action: OfferAction,
    ctx: Context,
    reason: DeclineReason | None = None,
) -> bool:
    """Make an offer, or answer the opponent's pending one; whether it was accepted (the
    caller then does what was agreed). A decline's `reason` is kept with the offer and
    its event."""
    game, now = state.game, ctx.now
    if action == OfferAction.OFFER:
        policy.check_new_offer(state.offers, kind, seat.role)
        if kind == OfferKind.DRAW:
            drop_plans(session, state, Dropped(DropCode.DRAW_OFFERED), ctx)
        offer = Offer(
            game_id=game.id,
            kind=kind,
            by_seat=seat.role,
            status=OfferStatus.PENDING,
            created_at=now,
        )
        session.add(offer)
        state.offers.append(offer)
        side = {"side": game.side_of(seat.role).value} if kind == OfferKind.DRAW else {}
        append_event(
            session, state, kind=_OFFERED[kind], now=now, game=game.number, seat=seat.role, **side
        )
        log_action(f"{kind}_offered", game, outcome="pending")
        return False
    pending = policy.offer_to_answer(state.offers, kind, seat.role)
    pending.resolved_at = now
    if action == OfferAction.ACCEPT:
        pending.status = OfferStatus.ACCEPTED
        return True
    pending.status = OfferStatus.DECLINED
    pending.reason = reason
    why = {"reason": reason} if reason is not None else {}
    append_event(
        session, state, kind=_DECLINED[kind], now=now, game=game.number, seat=seat.role, **why
    )
    log_action(f"{kind}_declined", game, outcome="declined")
    return False


def _start_next_game(session: Session, state: GameState, ctx: Context) -> None:
    """The rematch: the next game of the room, colours swapped, in progress at once, from
    the position the previous game started from (a set-up position is played both ways
    round, as tournaments play each ballot twice with the colours reversed)."""
    room, previous, now = state.room, state.game, ctx.now
    clock, number = previous.start_half_move_clock, previous.start_move_number
    start = start_board(room.rule_set, previous.start_fen, clock, number)
    game = Game(
        room_id=room.id,  # its room from the start: it is logged before the session flushes
        number=previous.number + 1,
        drums_seat=previous.drums_seat.other,
        status=GameStatus.PLAYING,
        start_fen=previous.start_fen,
        start_half_move_clock=clock,
        start_move_number=number,
        fen=start.fen(),
        ply=0,
        turn=start.turn,
        created_at=now,
        started_at=now,
        turn_started_at=now,
        claim_notified=False,
        reminded=False,
    )
    room.games.append(game)
    room.current_game_number = game.number
    room.status = RoomStatus.PLAYING
    room.last_active_at = now
    state.begin_game(game)
    append_event(
        session,
        state,
        kind=EventKind.REMATCH_ACCEPTED,
        now=now,
        game=game.number,
        drums_seat=game.drums_seat,
    )
    log_action("rematch_accepted", game, outcome="playing")
