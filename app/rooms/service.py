"""The rooms service: the single home of every rule around a game.

Every action is one transaction that first locks the room row (`SELECT ... FOR UPDATE`
on PostgreSQL; `BEGIN IMMEDIATE` on SQLite), applies any deadline that has passed, checks
the action, changes the state and appends the room's events. A refused action raises a
`RoomError` and changes nothing (deadline effects found on the way are still kept).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import Select, bindparam, func, insert, select, tuple_
from sqlalchemy.orm import Session, joinedload

from app.core.logging import log_fields
from app.core.settings import Settings
from app.engine import RULE_SETS, AmbiguousMoveError, Board, EngineError, IllegalMoveError, Side

from . import errors
from .models import (
    Game,
    GameStatus,
    Move,
    Offer,
    OfferKind,
    OfferStatus,
    Room,
    RoomStatus,
    Seat,
    SeatRole,
)
from .notify import insert_event
from .play import is_irreversible, start_fen
from .state import GameState, MoveRecord, current_game, load_state

log = logging.getLogger("checkers.game")

T = TypeVar("T")

MAX_DRAW_OFFERS = 3
FORFEIT_REASON = "forfeit: no move for two days"
EXPIRED_REASON = "expired: no move for seven days"
CLOSED_REASON = "closed to rematches: no rematch for seven days"


# --- tokens ----------------------------------------------------------------------------


def new_token() -> str:
    """A 256-bit secret for a seat."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_room_id() -> str:
    """128 random bits, URL-safe: unguessable."""
    return secrets.token_urlsafe(16)


class _ComputerCredential(str):
    """The computer's credential for its own seat. Only this one object opens that seat
    (compared by identity), so no token sent in a request can."""


COMPUTER = _ComputerCredential("computer")


def identify(room: Room, token: str | None) -> Seat | None:
    """The seat `token` opens; None without a token; `WrongToken` for any other token.

    Every seat is compared (constant time each) so timing does not tell which matched.
    """
    if token is None:
        return None
    if token is COMPUTER:
        for seat in room.seats:
            if seat.computer_level is not None:
                return seat
        raise errors.WrongToken("this room has no computer seat")
    digest = hash_token(token)
    found: Seat | None = None
    for seat in room.seats:
        if seat.token_hash is not None and hmac.compare_digest(digest, seat.token_hash):
            found = seat
    if found is None:
        raise errors.WrongToken("this token does not open a seat of this room")
    return found


def require_seat(room: Room, token: str | None) -> Seat:
    seat = identify(room, token)
    if seat is None:
        raise errors.TokenRequired(
            "this action needs a seat: send its token as 'Authorization: Bearer <token>'"
        )
    return seat


# --- reading ---------------------------------------------------------------------------


def side_of(game: Game, role: str) -> str:
    return Side.DRUMS.value if game.drums_seat == role else Side.TIRES.value


def seat_of(game: Game, side: str) -> str:
    return game.drums_seat if side == Side.DRUMS.value else SeatRole(game.drums_seat).other.value


def has_computer(room: Room) -> bool:
    return any(seat.computer_level is not None for seat in room.seats)


def claim_opens_at(room: Room, game: Game, settings: Settings) -> datetime | None:
    """When the waiting player may claim a forfeit; None if no claim can open."""
    if room.status != RoomStatus.PLAYING or game.turn_started_at is None or has_computer(room):
        return None
    return game.turn_started_at + settings.claim_after


def expires_at(room: Room, settings: Settings) -> datetime | None:
    """When a waiting or playing room expires, or a finished one closes to rematches."""
    if room.status in (RoomStatus.WAITING, RoomStatus.PLAYING):
        return room.last_active_at + settings.expire_after
    if room.status == RoomStatus.FINISHED:
        return room.last_active_at + settings.rematch_window
    return None


def next_check(room: Room, game: Game, settings: Settings) -> datetime | None:
    """The next instant a deadline of this room falls due (the sweep's index)."""
    due = expires_at(room, settings)
    opens = claim_opens_at(room, game, settings)
    if opens is not None and not game.claim_notified and due is not None:
        due = min(due, opens)
    return due


def pending_offer(session: Session, game: Game, kind: OfferKind) -> Offer | None:
    return session.scalars(
        select(Offer).where(
            Offer.game_id == game.id, Offer.kind == kind, Offer.status == OfferStatus.PENDING
        )
    ).first()


def draw_offers_made(session: Session, game: Game, role: str) -> int:
    return (
        session.scalar(
            select(func.count())
            .select_from(Offer)
            .where(Offer.game_id == game.id, Offer.kind == OfferKind.DRAW, Offer.by_seat == role)
        )
        or 0
    )


# --- writing helpers -------------------------------------------------------------------


def append_event(session: Session, room: Room, kind: str, now: datetime, **data: Any) -> None:
    """Append to the room's versioned event record (same transaction as the change)."""
    room.version += 1
    insert_event(
        session,
        {
            "room_id": room.id,
            "version": room.version,
            "kind": kind,
            "data": data,
            "created_at": now,
        },
    )


def _log(action: str, room: Room, game: Game, **fields: Any) -> None:
    log_fields(log, action, room=room.id, game=game.number, ply=game.ply, **fields)


def _close_offers(
    session: Session,
    game: Game,
    now: datetime,
    *,
    kind: OfferKind | None = None,
    by_seat: str | None = None,
    pending: list[Offer] | None = None,
) -> None:
    """Lapse pending offers of `game` (optionally only one kind, or one seat's).

    `pending`: the game's pending offers when the caller already loaded them (the sweep).
    """
    if pending is None:
        query = select(Offer).where(Offer.game_id == game.id, Offer.status == OfferStatus.PENDING)
        pending = list(session.scalars(query))
    for offer in pending:
        if offer.status != OfferStatus.PENDING:
            continue
        if (kind is None or offer.kind == kind) and (by_seat is None or offer.by_seat == by_seat):
            offer.status = OfferStatus.LAPSED
            offer.resolved_at = now


def _finish_game(
    session: Session,
    room: Room,
    game: Game,
    now: datetime,
    *,
    winner: str | None,
    termination: str,
    reason: str,
    room_status: RoomStatus = RoomStatus.FINISHED,
    pending: list[Offer] | None = None,
) -> None:
    game.status = GameStatus.FINISHED
    game.winner = winner
    game.termination = termination
    game.reason = reason
    game.ended_at = now
    room.status = room_status
    room.last_active_at = now
    _close_offers(session, game, now, kind=OfferKind.DRAW, pending=pending)
    append_event(
        session,
        room,
        "game_over",
        now,
        game=game.number,
        winner=winner,
        termination=termination,
        reason=reason,
    )
    _log("game_over", room, game, outcome=termination, winner=winner)


def apply_deadlines(
    session: Session,
    room: Room,
    now: datetime,
    settings: Settings,
    game: Game | None = None,
    pending: list[Offer] | None = None,
) -> bool:
    """Apply every deadline of a locked room that has passed by `now`; idempotent.

    `game` and its `pending` offers may be passed when already loaded (the sweep).
    Returns whether anything was written.
    """
    if room.next_check_at is None or room.next_check_at > now:
        return False
    game = game or current_game(room)
    due = expires_at(room, settings)
    if due is not None and now >= due:
        if room.status == RoomStatus.FINISHED:
            room.status = RoomStatus.EXPIRED
            _close_offers(session, game, now, kind=OfferKind.REMATCH, pending=pending)
            append_event(session, room, "expired", now, game=game.number, reason=CLOSED_REASON)
            _log("expired", room, game, outcome="closed")
        else:
            _finish_game(
                session,
                room,
                game,
                now,
                winner=None,
                termination="expired",
                reason=EXPIRED_REASON,
                room_status=RoomStatus.EXPIRED,
                pending=pending,
            )
            append_event(session, room, "expired", now, game=game.number, reason=EXPIRED_REASON)
    else:
        opens = claim_opens_at(room, game, settings)
        if opens is not None and now >= opens and not game.claim_notified:
            game.claim_notified = True
            claimant_side = Side(game.turn).opponent.value
            append_event(
                session,
                room,
                "claim_open",
                now,
                game=game.number,
                ply=game.ply,
                seat=seat_of(game, claimant_side),
                side=claimant_side,
                opens_at=opens.isoformat(),
            )
            _log("claim_open", room, game, outcome="claim_open")
    room.next_check_at = next_check(room, game, settings)
    return True


# Built once: a statement's construction and cache key cost more than its execution.
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
_INSERT_MOVE = insert(Move)


def lock_room(session: Session, room_id: str, *, read: bool = False) -> Room:
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


def _write(
    session: Session,
    room_id: str,
    now: datetime,
    settings: Settings,
    action: Callable[[Room, Game], T],
) -> T:
    """Run `action` on the locked room in one transaction, deadlines applied first."""
    refused: errors.RoomError
    with session.begin():
        room = lock_room(session, room_id)
        changed = apply_deadlines(session, room, now, settings)
        game = current_game(room)
        if not changed:
            return action(room, game)
        try:
            with session.begin_nested():
                return action(room, game)
        except errors.RoomError as exc:
            refused = exc  # keep the deadline changes; the action itself changed nothing
    raise refused


def _require_open(room: Room) -> None:
    if room.status == RoomStatus.EXPIRED:
        raise errors.RoomExpired("this room has expired: no further action is accepted")


def _require_playing(room: Room, game: Game) -> None:
    _require_open(room)
    if room.status == RoomStatus.WAITING:
        raise errors.WaitingForOpponent("the game starts when a second player joins")
    if game.status != GameStatus.PLAYING:
        raise errors.GameOver("this game is over", result=game.reason)


# --- actions ---------------------------------------------------------------------------


@dataclass
class Granted:
    """A seat handed over, with its token in the clear (returned once)."""

    room_id: str
    role: SeatRole
    token: str


def create_room(
    session: Session,
    *,
    rule_set: str,
    now: datetime,
    settings: Settings,
    first_fen: str | None = None,
) -> Granted:
    """A room waiting for an opponent; the creator holds the drums of game 1.

    `first_fen` (not offered by the API) starts game 1 from a set-up position.
    """
    if rule_set not in RULE_SETS:
        raise errors.UnknownRuleSet(f"unknown rule set {rule_set!r}", rule_sets=sorted(RULE_SETS))
    if first_fen is not None:
        try:
            board = Board(rule_set, fen=first_fen)
        except EngineError as exc:
            raise errors.InvalidInput(f"invalid position: {exc}") from exc
        first_fen = board.fen()
    token = new_token()
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
        session.add(room)
        session.add(
            Seat(room=room, role=SeatRole.CREATOR, token_hash=hash_token(token), joined_at=now)
        )
        session.flush()  # the room row first: games reference it
        first = Board(rule_set, fen=first_fen)
        game = Game(
            number=1,
            drums_seat=SeatRole.CREATOR,
            status=GameStatus.WAITING,
            start_fen=first_fen,
            fen=first.fen(),
            ply=0,
            turn=first.turn.value,
            created_at=now,
            claim_notified=False,
        )
        room.games.append(game)
        session.flush()
        room.next_check_at = next_check(room, game, settings)
        append_event(session, room, "created", now, rule_set=rule_set, seat=SeatRole.CREATOR)
        _log("created", room, game, outcome="waiting", rule_set=rule_set)
    return Granted(room.id, SeatRole.CREATOR, token)


def join_room(session: Session, *, room_id: str, now: datetime, settings: Settings) -> Granted:
    """Take the open seat; the game starts at once."""
    token = new_token()

    def act(room: Room, game: Game) -> Granted:
        _require_open(room)
        if room.status != RoomStatus.WAITING:
            raise errors.RoomFull("both seats of this room are taken")
        room.seats.append(Seat(role=SeatRole.JOINER, token_hash=hash_token(token), joined_at=now))
        game.status = GameStatus.PLAYING
        game.started_at = now
        game.turn_started_at = now
        room.status = RoomStatus.PLAYING
        room.last_active_at = now
        room.next_check_at = next_check(room, game, settings)
        append_event(session, room, "joined", now, seat=SeatRole.JOINER, game=game.number)
        _log("joined", room, game, outcome="playing")
        return Granted(room.id, SeatRole.JOINER, token)

    return _write(session, room_id, now, settings, act)


def record_move(
    session: Session,
    state: GameState,
    seat: Seat,
    text: str,
    now: datetime,
    settings: Settings,
) -> None:
    """Play `text` for `seat` in the locked room of `state` and record it; `state` (its
    moves, offers and board) is kept up to date for the view that follows."""
    room, game = state.room, state.game
    board = state.board()
    try:
        move = board.parse_move(text)
    except AmbiguousMoveError as exc:
        raise errors.AmbiguousMove(
            str(exc), candidates=[m.notation() for m in exc.candidates]
        ) from exc
    except (IllegalMoveError, EngineError) as exc:
        raise errors.IllegalMove(
            f"illegal move: {exc}",
            legal_moves=[m.notation() for m in board.legal_moves],
        ) from exc
    irreversible = is_irreversible(board, move.start, move.is_capture)
    side = board.turn.value
    board.push(move)
    game.ply += 1
    record = MoveRecord(
        ply=game.ply,
        side=side,
        notation=move.notation(),
        path=list(move.path),
        captured=list(move.captured),
        crowned=move.crowns,
        irreversible=irreversible,
        fen_after=board.fen(),
        created_at=now,
    )
    state.moves.append(record)
    session.connection().execute(_INSERT_MOVE, {"game_id": game.id, **record._asdict()})
    game.fen = record.fen_after
    game.turn = board.turn.value
    game.turn_started_at = now
    game.claim_notified = False
    room.last_active_at = now
    # A draw offer stands until answered or until the player it was made to moves.
    _close_offers(
        session,
        game,
        now,
        kind=OfferKind.DRAW,
        by_seat=SeatRole(seat.role).other.value,
        pending=state.offers,
    )
    append_event(
        session,
        room,
        "move",
        now,
        game=game.number,
        ply=game.ply,
        side=side,
        notation=record.notation,
        path=record.path,
        captured=record.captured,
        fen=game.fen,
    )
    _log("move", room, game, outcome="played", side=side, move=record.notation)
    outcome = board.outcome()
    if outcome is not None:
        winner = outcome.winner.value if outcome.winner else None
        _finish_game(
            session,
            room,
            game,
            now,
            winner=winner,
            termination=outcome.termination.name.lower(),
            reason=outcome.detail,
            pending=state.offers,
        )
    elif game.ply >= settings.max_plies:
        _finish_game(
            session,
            room,
            game,
            now,
            winner=None,
            termination="move_limit",
            reason=f"the {settings.max_plies}-ply limit was reached",
            pending=state.offers,
        )
    room.next_check_at = next_check(room, game, settings)


def _is_retry(state: GameState, seat: Seat, text: str, expected_ply: int) -> bool:
    """Whether `text` at `expected_ply` is the move this seat just played (a resend)."""
    game, moves = state.game, state.moves
    if expected_ply != game.ply - 1 or expected_ply < 0 or not moves:
        return False
    last = moves[-1]
    if last.side != side_of(game, seat.role):
        return False
    before = moves[-2].fen_after if len(moves) > 1 else game.start_fen
    board = Board(state.room.rule_set, fen=before)
    try:
        move = board.parse_move(text)
    except EngineError:
        return False
    return (move.start, move.end, sorted(move.captured)) == (
        last.path[0],
        last.path[-1],
        sorted(last.captured),
    )


def play_move(
    session: Session,
    *,
    room_id: str,
    token: str | None,
    text: str,
    expected_ply: int,
    now: datetime,
    settings: Settings,
    answer: Callable[[GameState, Seat], T] | None = None,
) -> T | None:
    """Play `text` for the token's seat; a resend of the move just played is a no-op.

    `answer(state, seat)`, when given, is computed in the same transaction once the move
    is recorded (the view the mover gets back) and returned: one transaction per request
    instead of two, and the view is built from what the move already read.
    """

    def act(room: Room, game: Game) -> T | None:
        seat = require_seat(room, token)
        state = load_state(session, room)
        if room.status != RoomStatus.WAITING and _is_retry(state, seat, text, expected_ply):
            return answer(state, seat) if answer else None
        _require_playing(room, game)
        if expected_ply != game.ply:
            raise errors.StalePly(
                f"the game is at ply {game.ply}, not {expected_ply}: reload and choose again",
                current_ply=game.ply,
            )
        if side_of(game, seat.role) != game.turn:
            raise errors.NotYourTurn(f"it is not your turn: {game.turn} to move", turn=game.turn)
        record_move(session, state, seat, text, now, settings)
        return answer(state, seat) if answer else None

    return _write(session, room_id, now, settings, act)


def draw_action(
    session: Session,
    *,
    room_id: str,
    token: str | None,
    action: str,
    now: datetime,
    settings: Settings,
) -> None:
    """Offer a draw, or accept or decline the other player's offer."""

    def act(room: Room, game: Game) -> None:
        seat = require_seat(room, token)
        _require_playing(room, game)
        pending = pending_offer(session, game, OfferKind.DRAW)
        if action == "offer":
            if pending is not None:
                who = "you have" if pending.by_seat == seat.role else "your opponent has"
                raise errors.OfferPending(f"{who} a draw offer pending")
            if draw_offers_made(session, game, seat.role) >= MAX_DRAW_OFFERS:
                raise errors.OfferLimit(
                    f"you have made all {MAX_DRAW_OFFERS} draw offers allowed in a game"
                )
            session.add(
                Offer(
                    game_id=game.id,
                    kind=OfferKind.DRAW,
                    by_seat=seat.role,
                    status=OfferStatus.PENDING,
                    created_at=now,
                )
            )
            append_event(
                session,
                room,
                "draw_offered",
                now,
                game=game.number,
                seat=seat.role,
                side=side_of(game, seat.role),
            )
            _log("draw_offered", room, game, outcome="pending")
            return
        if pending is None or pending.by_seat == seat.role:
            raise errors.NoOffer("there is no draw offer from your opponent to answer")
        pending.resolved_at = now
        if action == "accept":
            pending.status = OfferStatus.ACCEPTED
            append_event(session, room, "draw_accepted", now, game=game.number, seat=seat.role)
            _finish_game(
                session,
                room,
                game,
                now,
                winner=None,
                termination="agreement",
                reason="agreed by both players",
            )
        else:
            pending.status = OfferStatus.DECLINED
            append_event(session, room, "draw_declined", now, game=game.number, seat=seat.role)
            _log("draw_declined", room, game, outcome="declined")
        room.next_check_at = next_check(room, game, settings)

    _write(session, room_id, now, settings, act)


def resign(
    session: Session, *, room_id: str, token: str | None, now: datetime, settings: Settings
) -> None:
    """The token's seat gives up the game in progress."""

    def act(room: Room, game: Game) -> None:
        seat = require_seat(room, token)
        _require_playing(room, game)
        side = side_of(game, seat.role)
        append_event(session, room, "resigned", now, game=game.number, seat=seat.role, side=side)
        _finish_game(
            session,
            room,
            game,
            now,
            winner=Side(side).opponent.value,
            termination="resignation",
            reason=f"{side} resigned",
        )
        room.next_check_at = next_check(room, game, settings)

    _write(session, room_id, now, settings, act)


def claim_forfeit(
    session: Session, *, room_id: str, token: str | None, now: datetime, settings: Settings
) -> None:
    """The waiting seat wins once the player to move has let the claim window open."""

    def act(room: Room, game: Game) -> None:
        seat = require_seat(room, token)
        _require_playing(room, game)
        if has_computer(room):
            raise errors.ClaimNotAllowed("no forfeit claims in games against the computer")
        side = side_of(game, seat.role)
        if side == game.turn:
            raise errors.ClaimNotAllowed("it is your turn: only the waiting player may claim")
        opens = claim_opens_at(room, game, settings)
        assert opens is not None
        if now < opens:
            raise errors.ClaimNotOpen(
                f"the forfeit claim opens at {opens.isoformat()}", opens_at=opens.isoformat()
            )
        append_event(
            session, room, "forfeit_claimed", now, game=game.number, seat=seat.role, side=side
        )
        _finish_game(
            session, room, game, now, winner=side, termination="forfeit", reason=FORFEIT_REASON
        )
        room.next_check_at = next_check(room, game, settings)

    _write(session, room_id, now, settings, act)


def rematch_action(
    session: Session,
    *,
    room_id: str,
    token: str | None,
    action: str,
    now: datetime,
    settings: Settings,
) -> None:
    """Offer a rematch after a game, or answer the other player's offer. Accepting starts
    the next game in the room with the colours swapped."""

    def act(room: Room, game: Game) -> None:
        seat = require_seat(room, token)
        _require_open(room)
        if room.status != RoomStatus.FINISHED:
            raise errors.GameNotOver("a rematch can be offered only when the game is over")
        pending = pending_offer(session, game, OfferKind.REMATCH)
        if action == "offer":
            if pending is not None:
                who = "you have" if pending.by_seat == seat.role else "your opponent has"
                raise errors.OfferPending(f"{who} a rematch offer pending")
            session.add(
                Offer(
                    game_id=game.id,
                    kind=OfferKind.REMATCH,
                    by_seat=seat.role,
                    status=OfferStatus.PENDING,
                    created_at=now,
                )
            )
            append_event(session, room, "rematch_offered", now, game=game.number, seat=seat.role)
            _log("rematch_offered", room, game, outcome="pending")
            return
        if pending is None or pending.by_seat == seat.role:
            raise errors.NoOffer("there is no rematch offer from your opponent to answer")
        pending.resolved_at = now
        if action == "decline":
            pending.status = OfferStatus.DECLINED
            append_event(session, room, "rematch_declined", now, game=game.number, seat=seat.role)
            _log("rematch_declined", room, game, outcome="declined")
            return
        pending.status = OfferStatus.ACCEPTED
        new_game = Game(
            number=game.number + 1,
            drums_seat=SeatRole(game.drums_seat).other.value,
            status=GameStatus.PLAYING,
            start_fen=None,
            fen=start_fen(room.rule_set),
            ply=0,
            turn=Side.DRUMS.value,
            created_at=now,
            started_at=now,
            turn_started_at=now,
            claim_notified=False,
        )
        room.games.append(new_game)
        room.current_game_number = new_game.number
        room.status = RoomStatus.PLAYING
        room.last_active_at = now
        room.next_check_at = next_check(room, new_game, settings)
        append_event(
            session,
            room,
            "rematch_accepted",
            now,
            game=new_game.number,
            drums_seat=new_game.drums_seat,
        )
        _log("rematch_accepted", room, new_game, outcome="playing")

    _write(session, room_id, now, settings, act)


# --- the sweep -------------------------------------------------------------------------


def due_query(now: datetime, limit: int) -> Select[Room]:
    """Up to `limit` rooms whose next check has come, oldest first, locked; rows another
    transaction holds are skipped (PostgreSQL `FOR UPDATE SKIP LOCKED`). Served by the
    index on `next_check_at`, so its cost follows the due rooms, not all rooms."""
    return (
        select(Room)
        .where(Room.next_check_at <= now)
        .order_by(Room.next_check_at)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )


def due_rooms(session: Session, now: datetime, limit: int) -> list[Room]:
    return list(session.scalars(due_query(now, limit)))


def sweep_batch(session: Session, now: datetime, settings: Settings, limit: int) -> int:
    """Apply the deadlines of one batch of due rooms in one transaction; returns the count."""
    with session.begin():
        rooms = due_rooms(session, now, limit)
        if not rooms:
            return 0
        games = {
            game.room_id: game
            for game in session.scalars(
                select(Game).where(
                    tuple_(Game.room_id, Game.number).in_(
                        [(room.id, room.current_game_number) for room in rooms]
                    )
                )
            )
        }
        pending: dict[int, list[Offer]] = {game.id: [] for game in games.values()}
        for offer in session.scalars(
            select(Offer).where(
                Offer.game_id.in_(list(pending)), Offer.status == OfferStatus.PENDING
            )
        ):
            pending[offer.game_id].append(offer)
        # One flush at commit instead of one per room: the sweep adds no row that a query
        # below would need to see.
        with session.no_autoflush:
            for room in rooms:
                game = games[room.id]
                apply_deadlines(session, room, now, settings, game, pending[game.id])
        return len(rooms)
