"""Taking seats: creating a room (against a person or the computer), joining it, and a
seat's display name."""

from __future__ import annotations

import hmac
from datetime import timedelta

from sqlalchemy.orm import Session

from app.core.context import Context
from app.core.logging import log_fields
from checkers_engine import (
    RULE_SETS,
    Board,
)

from . import errors
from .events import append_event
from .locking import Granted, leave, locked_room
from .logs import log, log_action
from .models import (
    EventKind,
    Game,
    GameStatus,
    Level,
    Room,
    RoomStatus,
    Seat,
    SeatRole,
)
from .positions import read_start, start_board
from .seats import (
    hash_token,
    new_room_id,
    new_token,
    retry_key_hash,
    seal_token,
    unseal_token,
)
from .state import GameState


def create_room(
    session: Session,
    *,
    rule_set: str,
    ctx: Context,
    name: str | None = None,
    first_fen: str | None = None,
    computer: Level | None = None,
) -> Granted:
    """A room whose creator holds the drums of game 1: waiting for an opponent, or in
    progress at once against the computer at level `computer`.

    `first_fen`, a FEN in the rule set's tradition, starts game 1 from that position
    (`InvalidFen`, `PositionDecided`: see `positions.read_start`); rematches start from
    it too.
    """
    if rule_set not in RULE_SETS:
        raise errors.UnknownRuleSet(f"unknown rule set {rule_set!r}", rule_sets=sorted(RULE_SETS))
    start = read_start(rule_set, first_fen) if first_fen is not None else None
    if start is None:
        first = Board(rule_set)
    else:
        first = start_board(rule_set, start.fen, start.half_move_clock, start.move_number)
    token, now = new_token(), ctx.now
    with session.begin():
        room = Room(
            id=new_room_id(),
            rule_set=rule_set,
            status=RoomStatus.WAITING,
            current_game_number=1,
            version=0,
            created_at=now,
            last_active_at=now,
        )
        creator = Seat(
            role=SeatRole.CREATOR, token_hash=hash_token(token), name=name, joined_at=now
        )
        room.seats.append(creator)
        session.add(room)
        session.flush()  # the room row first: games reference it
        game = Game(
            number=1,
            drums_seat=SeatRole.CREATOR,
            status=GameStatus.WAITING,
            start_fen=start.fen if start else None,
            start_half_move_clock=start.half_move_clock if start else None,
            start_move_number=start.move_number if start else None,
            fen=first.fen(),
            ply=0,
            turn=first.turn,
            created_at=now,
            claim_notified=False,
            reminded=False,
        )
        room.games.append(game)
        session.flush()
        state = GameState(room, game, [], [], seat=creator)
        append_event(
            session, state, kind=EventKind.CREATED, now=now, rule_set=rule_set, seat=creator.role
        )
        log_action("created", game, outcome="waiting", rule_set=rule_set)
        if computer is not None:
            _seat_opponent(session, state, ctx, token_hash=None, computer=computer)
        leave(session, state, ctx=ctx)
    # From a position with the tires to move, the computer moves first: nobody's share.
    ctx.hooks.acted(state, None)
    return Granted(state, token)


def join_room(
    session: Session,
    *,
    room_id: str,
    ctx: Context,
    name: str | None = None,
    retry_key: str | None = None,
) -> Granted:
    """Take the open seat; the game starts at once.

    With `retry_key` (a client's Idempotency-Key) a join whose answer was lost can be sent
    again: within `join_retry_seconds` the same key gets the same seat's token back, once.
    Any other second join is refused, as without a key.
    """
    token = new_token()
    with locked_room(session, room_id=room_id, ctx=ctx) as state:
        if retry_key is not None and (again := _join_again(state, retry_key, ctx)) is not None:
            return again
        state.require_open()
        if state.room.status != RoomStatus.WAITING:
            raise errors.RoomFull("both seats of this room are taken")
        seat = _seat_opponent(session, state, ctx, token_hash=hash_token(token), name=name)
        if retry_key is not None and ctx.settings.join_retry_seconds > 0:
            seat.join_key_hash = retry_key_hash(room_id, retry_key)
            seat.join_sealed = seal_token(token, room_id=room_id, key=retry_key)
        state.seat = seat
        return Granted(state, token)


def _join_again(state: GameState, key: str, ctx: Context) -> Granted | None:
    """The answer to a join retried with its key, if this room's joiner took the seat with
    it within the window and still holds the token; the retry spends the key."""
    room = state.room
    window = timedelta(seconds=ctx.settings.join_retry_seconds)
    digest = retry_key_hash(room.id, key)
    for seat in room.seats:
        if seat.join_key_hash is None or seat.join_sealed is None:
            continue
        if (
            not hmac.compare_digest(seat.join_key_hash, digest)
            or ctx.now >= seat.joined_at + window
        ):
            continue
        token = unseal_token(seat.join_sealed, room_id=room.id, key=key)
        seat.join_key_hash = seat.join_sealed = None
        if token is None or seat.token_hash != hash_token(token):
            return None  # the seat has moved to another device since
        state.seat = seat
        log_fields(log, "join_retried", room=room.id, seat=seat.role)
        return Granted(state, token)
    return None


def rename_seat(
    session: Session, *, room_id: str, token: str | None, name: str | None, ctx: Context
) -> GameState:
    """The token's seat takes another display name (None: the default again)."""
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        seat = state.require_seat()
        state.require_open()
        if seat.name != name:
            seat.name = name
            append_event(
                session, state, kind=EventKind.RENAMED, now=ctx.now, seat=seat.role, name=name
            )
        return state


def erase_player(session: Session, *, room_id: str, token: str | None, ctx: Context) -> None:
    """The token's player leaves the service: their seat loses its name and is shown as a
    former player's, in a finished room as in any other (the games stay)."""
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        seat = state.require_seat()
        if seat.former and seat.name is None:
            return
        seat.name, seat.former = None, True
        append_event(session, state, kind=EventKind.RENAMED, now=ctx.now, seat=seat.role, name=None)


def _seat_opponent(
    session: Session,
    state: GameState,
    ctx: Context,
    *,
    token_hash: str | None,
    name: str | None = None,
    computer: Level | None = None,
) -> Seat:
    room, game, now = state.room, state.game, ctx.now
    seat = Seat(
        role=SeatRole.JOINER,
        token_hash=token_hash,
        name=name,
        computer_level=computer,
        joined_at=now,
    )
    room.seats.append(seat)
    game.status = GameStatus.PLAYING
    game.started_at = now
    game.turn_started_at = now
    room.status = RoomStatus.PLAYING
    room.last_active_at = now
    extra = {"computer_level": computer.value} if computer is not None else {}
    append_event(
        session, state, kind=EventKind.JOINED, now=now, seat=seat.role, game=game.number, **extra
    )
    log_action("joined", game, outcome="playing")
    return seat
