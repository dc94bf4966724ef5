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
from datetime import datetime

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from app.ai import Level
from app.computer.worker import Task
from app.core.logging import log_fields
from app.core.settings import Settings
from app.engine import RULE_SETS, Side
from app.rooms import errors, service
from app.rooms.models import (
    Game,
    GameStatus,
    Offer,
    OfferKind,
    OfferStatus,
    Room,
    RoomStatus,
    Seat,
    SeatRole,
)
from app.rooms.state import current_game, load_state

log = logging.getLogger("checkers.computer")

COMPUTER_ROLE = SeatRole.JOINER
"""The computer takes the joiner's seat: the tires of the first game."""


class UnknownLevel(errors.InvalidInput):
    code = "unknown_level"


def create_computer_game(
    session: Session, *, rule_set: str, level: str, now: datetime, settings: Settings
) -> service.Granted:
    """A room in progress: the person holds the drums and moves first, the computer at
    ``level`` holds the tires."""
    if rule_set not in RULE_SETS:
        raise errors.UnknownRuleSet(f"unknown rule set {rule_set!r}", rule_sets=sorted(RULE_SETS))
    try:
        chosen = Level(level)
    except ValueError:
        raise UnknownLevel(
            f"unknown level {level!r}", levels=[lvl.value for lvl in Level]
        ) from None
    granted = service.create_room(session, rule_set=rule_set, now=now, settings=settings)

    def seat_computer(room: Room, game: Game) -> None:
        room.seats.append(
            Seat(role=COMPUTER_ROLE, token_hash=None, computer_level=chosen.value, joined_at=now)
        )
        game.status = GameStatus.PLAYING
        game.started_at = now
        game.turn_started_at = now
        room.status = RoomStatus.PLAYING
        room.last_active_at = now
        room.next_check_at = service.next_check(room, game, settings)
        service.append_event(
            session,
            room,
            "joined",
            now,
            seat=COMPUTER_ROLE.value,
            game=game.number,
            computer_level=chosen.value,
        )

    service._write(session, granted.room_id, now, settings, seat_computer)
    log_fields(log, "computer game", room=granted.room_id, level=chosen.value, rule_set=rule_set)
    return granted


def computer_seat(room: Room) -> Seat | None:
    return next((s for s in room.seats if s.computer_level is not None), None)


def next_task(session: Session, room_id: str) -> Task | None:
    """What the computer must do in this room now, if anything."""
    with session.begin():
        room = session.get(Room, room_id, populate_existing=True)
        if room is None:
            return None
        seat = computer_seat(room)
        if seat is None or room.status not in (RoomStatus.PLAYING, RoomStatus.FINISHED):
            return None
        game = current_game(room)
        side = service.side_of(game, seat.role)
        kind = None
        if room.status == RoomStatus.FINISHED:
            offer = service.pending_offer(session, game, OfferKind.REMATCH)
            if offer is not None and offer.by_seat != seat.role:
                kind = "rematch"
        elif game.status == GameStatus.PLAYING:
            offer = service.pending_offer(session, game, OfferKind.DRAW)
            if offer is not None and offer.by_seat != seat.role:
                kind = "draw"
            elif game.turn == side:
                kind = "move"
        if kind is None:
            return None
        board = load_state(session, room).board()
        tail = tuple(m.notation() for m in board.move_stack)
        root = board.copy()
        for _ in tail:
            root.pop()
        return Task(
            room_id=room.id,
            game_number=game.number,
            ply=game.ply,
            kind=kind,
            rule_set=room.rule_set,
            level=seat.computer_level or Level.EXECUTIVE.value,
            side=side,
            base_fen=root.fen(),
            tail=tail,
        )


def rooms_waiting_for_the_computer(session: Session, limit: int = 1000) -> list[str]:
    """Rooms where the computer owes something: its move in a game in progress, or an
    answer to the person's pending draw or rematch offer (next_task has the details)."""
    computers_turn = or_(
        and_(Game.drums_seat == Seat.role, Game.turn == Side.DRUMS.value),
        and_(Game.drums_seat != Seat.role, Game.turn == Side.TIRES.value),
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
    with session.begin():
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


def apply_move(
    session: Session, task: Task, notation: str, *, now: datetime, settings: Settings
) -> bool:
    """Play the computer's move; False (nothing changed) if the game has moved on."""

    def act(room: Room, game: Game) -> bool:
        seat = computer_seat(room)
        if (
            seat is None
            or room.status != RoomStatus.PLAYING
            or game.status != GameStatus.PLAYING
            or game.number != task.game_number
            or game.ply != task.ply
            or game.turn != service.side_of(game, seat.role)
        ):
            return False
        service.record_move(session, load_state(session, room), seat, notation, now, settings)
        return True

    try:
        return service._write(session, task.room_id, now, settings, act)
    except errors.RoomError as exc:
        log_fields(log, "computer move refused", room=task.room_id, reason=exc.code)
        return False


def answer_offer(
    session: Session, task: Task, accept: bool, *, now: datetime, settings: Settings
) -> bool:
    """Accept or decline the person's pending draw or rematch offer, as the computer;
    False if the offer is no longer there (the answer is dropped)."""
    action = "accept" if accept else "decline"
    try:
        answer = service.draw_action if task.kind == "draw" else service.rematch_action
        answer(
            session,
            room_id=task.room_id,
            token=service.COMPUTER,
            action=action,
            now=now,
            settings=settings,
        )
    except errors.RoomError as exc:
        log_fields(log, "computer answer dropped", room=task.room_id, reason=exc.code)
        return False
    return True
