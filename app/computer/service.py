"""Games against the computer: the rules around them, on top of the rooms service.

A computer game is an ordinary room whose joiner seat the computer holds (no token, a
level instead). What the computer still has to do is read from the stored state, never
kept only in memory: its turn in a game in progress, or a draw or rematch offer from the
person waiting for its answer. So a restarted server, or the periodic scan, finds every
pending reply again. Results are applied under the room's lock and only if the game is
still where it was when the computer started thinking; otherwise they are dropped.
"""

from __future__ import annotations

import logging

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from app.core.context import Context
from app.core.db import read_transaction
from app.core.logging import log_fields
from app.rooms import errors
from app.rooms import service as rooms
from app.rooms.models import (
    DeclineReason,
    Game,
    GameStatus,
    Offer,
    OfferAction,
    OfferKind,
    OfferStatus,
    Room,
    RoomStatus,
    Seat,
)
from app.rooms.models import Level as SeatLevel
from app.rooms.policy import pending_offer
from app.rooms.seats import COMPUTER
from app.rooms.state import GameState
from checkers_engine import Side

from .levels import player
from .worker import Task, TaskKind, task_for

log = logging.getLogger("checkers.computer")


def create_computer_game(
    session: Session,
    *,
    rule_set: str,
    level: SeatLevel,
    ctx: Context,
    name: str | None = None,
    fen: str | None = None,
) -> rooms.Granted:
    """A room in progress: the person holds the drums and moves first, the computer at
    `level` holds the tires; from `fen` (the rule set's tradition) if given, where the
    side to move moves first."""
    granted = rooms.create_room(
        session, rule_set=rule_set, name=name, ctx=ctx, computer=level, first_fen=fen
    )
    log_fields(log, "computer game", room=granted.room_id, level=level, rule_set=rule_set)
    return granted


def _owed(state: GameState) -> TaskKind | None:
    """What the computer, the state's seat, owes in its room now, if anything."""
    seat, room, game = state.seat, state.room, state.game
    if seat is None:
        return None
    if room.status == RoomStatus.FINISHED:
        offer = pending_offer(state.offers, OfferKind.REMATCH)
        return TaskKind.REMATCH if offer is not None and offer.by_seat != seat.role else None
    if room.status != RoomStatus.PLAYING or game.status != GameStatus.PLAYING:
        return None
    offer = pending_offer(state.offers, OfferKind.DRAW)
    if offer is not None and offer.by_seat != seat.role:
        return TaskKind.DRAW
    return TaskKind.MOVE if game.turn == game.side_of(seat.role) else None


def next_task(session: Session, *, room_id: str, ctx: Context) -> Task | None:
    """What the computer must do in this room now, if anything."""
    try:
        state = rooms.read_room(session, room_id=room_id, token=COMPUTER, ctx=ctx)
    except (errors.RoomNotFound, errors.WrongToken):  # gone, or no computer seat
        return None
    kind = _owed(state)
    if kind is None or state.seat is None or state.seat.computer_level is None:
        return None
    return task_for(
        state.board(),
        room_id=state.room.id,
        game_number=state.game.number,
        ply=state.game.ply,
        kind=kind,
        level=player(state.seat.computer_level),
        side=state.game.side_of(state.seat.role).value,
    )


def rooms_waiting_for_the_computer(session: Session, *, limit: int = 1000) -> list[str]:
    """Rooms where the computer owes something: its move in a game in progress, or an
    answer to the person's pending draw or rematch offer (next_task has the details)."""
    computers_turn = or_(
        and_(Game.drums_seat == Seat.role, Game.turn == Side.DRUMS),
        and_(Game.drums_seat != Seat.role, Game.turn == Side.TIRES),
    )
    offer_waiting = (
        select(Offer.id)
        .where(
            Offer.game_id == Game.id,
            Offer.status == OfferStatus.PENDING,
            Offer.by_seat != Seat.role,
        )
        .exists()
    )
    with read_transaction(session):
        return list(
            session.scalars(
                select(Room.id)
                .join(Seat, Seat.room_id == Room.id)
                .join(Game, (Game.room_id == Room.id) & (Game.number == Room.current_game_number))
                .where(
                    Seat.computer_level.is_not(None),
                    or_(
                        and_(
                            Room.status == RoomStatus.PLAYING,
                            Game.status == GameStatus.PLAYING,
                            or_(computers_turn, offer_waiting),
                        ),
                        and_(Room.status == RoomStatus.FINISHED, offer_waiting),
                    ),
                )
                .order_by(Room.last_active_at)
                .limit(limit)
            )
        )


def apply_move(session: Session, *, task: Task, move: str, ctx: Context) -> bool:
    """Play the computer's move; False (nothing changed) if the game has moved on."""
    try:
        with rooms.locked_room(session, room_id=task.room_id, token=COMPUTER, ctx=ctx) as state:
            seat, room, game = state.require_seat(), state.room, state.game
            if (
                room.status != RoomStatus.PLAYING
                or game.status != GameStatus.PLAYING
                or (game.number, game.ply) != (task.game_number, task.ply)
                or game.turn != game.side_of(seat.role)
            ):
                return False
            rooms.record_move(session, state, seat=seat, move=move, ctx=ctx)
            return True
    except errors.RoomError as exc:
        log_fields(log, "computer move refused", room=task.room_id, reason=exc.code)
        return False


def answer_offer(session: Session, *, task: Task, accept: bool, ctx: Context) -> bool:
    """Accept or decline the person's pending draw or rematch offer, as the computer;
    False if the offer is no longer there (the answer is dropped). A declined draw says
    why: the computer declines one only when it finds itself clearly ahead (`run_task`);
    it never declines a rematch."""
    action = OfferAction.ACCEPT if accept else OfferAction.DECLINE
    try:
        if task.kind == TaskKind.DRAW:
            reason = None if accept else DeclineReason.COMPUTER_AHEAD
            rooms.draw_action(
                session, room_id=task.room_id, token=COMPUTER, action=action, ctx=ctx, reason=reason
            )
        else:
            rooms.rematch_action(
                session, room_id=task.room_id, token=COMPUTER, action=action, ctx=ctx
            )
    except errors.RoomError as exc:
        log_fields(log, "computer answer dropped", room=task.room_id, reason=exc.code)
        return False
    return True
