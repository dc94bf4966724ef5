"""The rooms service: the single home of every rule around a game.

Every action reads top to bottom. `locked_room` locks the room row, loads its current
game, applies the deadlines that have passed and identifies the seat; the action checks,
changes the state and appends the room's events; on the way out the room's next check is
set and the transaction commits. The action returns the new state, from which the caller
builds its answer. A refused action raises a `RoomError` and changes nothing (deadline
effects found on the way are still kept).
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.orm import Session

from app.core.context import Context
from app.core.db import read_transaction
from app.core.logging import log_fields
from checkers_engine import (
    RULE_SETS,
    AmbiguousMoveError,
    Board,
    EngineError,
    IllegalMoveError,
    Side,
    notation,
)
from checkers_engine import Move as BoardMove
from checkers_engine.ai import Level
from checkers_engine.notation import format_move, format_path

from . import conditionals, errors, outbox, policy
from .events import append_event
from .models import (
    DeclineReason,
    Ending,
    Event,
    EventKind,
    Game,
    GameStatus,
    Move,
    Offer,
    OfferAction,
    OfferKind,
    OfferStatus,
    Room,
    RoomStatus,
    Seat,
    SeatRole,
)
from .policy import Deadline
from .positions import read_start, start_board
from .schemas import EventOut, EventsOut
from .seats import (
    hash_token,
    identify,
    new_room_id,
    new_token,
    retry_key_hash,
    seal_token,
    unseal_token,
)
from .state import GameState, MoveRecord, load_state, lock_room

log = logging.getLogger("checkers.game")

_INSERT_MOVE = insert(Move)


# Asked before an action that may owe the computer a reply; raises a RoomError to refuse.
Admission = Callable[[GameState], None]


@dataclass
class Granted:
    """A seat handed over, with its token in the clear (returned once), and the room as
    the transaction that granted it left it."""

    state: GameState
    token: str

    @property
    def room_id(self) -> str:
        return self.state.room.id

    @property
    def role(self) -> SeatRole:
        assert self.state.seat is not None
        return self.state.seat.role


# --- the way through an action ----------------------------------------------------------


@contextmanager
def locked_room(
    session: Session, *, room_id: str, token: str | None = None, ctx: Context
) -> Iterator[GameState]:
    """The room locked for one action: its current game loaded, the deadlines due by
    `ctx.now` applied, and `state.seat` the seat `token` opens (None without a token;
    `WrongToken` for a token of no seat). Leaving it sets the room's next check and
    commits; a `RoomError` raised inside undoes the action but keeps the deadlines."""
    refused: errors.RoomError
    with session.begin():
        state = load_state(session, lock_room(session, room_id=room_id))
        if not apply_due_deadlines(session, state, ctx=ctx):
            state.seat = identify(state.room, token)
            yield state
            leave(session, state, ctx=ctx)
            return
        applied = len(state.events)
        try:
            with session.begin_nested():
                state.seat = identify(state.room, token)
                yield state
        except errors.RoomError as exc:
            refused = exc
            del state.events[applied:]  # undone with the savepoint
            state.seat = None  # the deadlines were nobody's act
        else:
            leave(session, state, ctx=ctx)
            return
        leave(session, state, ctx=ctx)
    raise refused


def leave(session: Session, state: GameState, *, ctx: Context) -> None:
    """The way out of every change of a room: when the sweep must next look at it, and
    the notifications its new events call for (in the same transaction)."""
    state.room.next_check_at = policy.next_check(state.room, state.game, ctx.settings)
    if state.events or state.notes:
        outbox.enqueue(session, state, ctx=ctx)
    _read_plan(session, state)


def _read_plan(session: Session, state: GameState) -> None:
    """The acting seat's own conditional moves, for its view (only a seat that has some)."""
    seat = state.seat
    state.plan = (
        conditionals.load(session, game_id=state.game.id, seat=seat)
        if seat is not None and seat.planned
        else None
    )


def apply_due_deadlines(session: Session, state: GameState, *, ctx: Context) -> bool:
    """Apply the deadline of a locked room that has come by `ctx.now` (idempotent);
    whether the room was due. The caller sets its next check."""
    room, game, now = state.room, state.game, ctx.now
    if room.next_check_at is None or room.next_check_at > now:
        return False
    due = policy.due_deadline(room, game, now, ctx.settings)
    if due is Deadline.CLOSE:
        room.status = RoomStatus.EXPIRED
        _lapse_offers(state, ctx, kind=OfferKind.REMATCH)
        reason = policy.closed_reason(ctx.settings)
        append_event(
            session, state, kind=EventKind.EXPIRED, now=now, game=game.number, reason=reason
        )
        _log("expired", game, outcome="closed")
    elif due is Deadline.EXPIRE:
        reason = policy.expired_reason(ctx.settings, waiting=room.status == RoomStatus.WAITING)
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
            session, state, kind=EventKind.EXPIRED, now=now, game=game.number, reason=reason
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
        _log("claim_open", game, outcome="claim_open")
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


def finish_game(
    session: Session,
    state: GameState,
    *,
    ctx: Context,
    winner: Side | None,
    ending: Ending,
    reason: str,
    room_status: RoomStatus = RoomStatus.FINISHED,
) -> None:
    """End the current game; its pending draw offer lapses."""
    room, game = state.room, state.game
    _drop_plans(session, state, "the game is over", ctx)
    conditionals.forget_game(session, game_id=game.id, seats=room.seats)
    game.status = GameStatus.FINISHED
    game.winner = winner
    game.termination = ending
    game.reason = reason
    game.ended_at = ctx.now
    room.status = room_status
    room.last_active_at = ctx.now
    _lapse_offers(state, ctx, kind=OfferKind.DRAW)
    append_event(
        session,
        state,
        kind=EventKind.GAME_OVER,
        now=ctx.now,
        game=game.number,
        winner=winner.value if winner else None,
        termination=ending,
        reason=reason,
    )
    _log("game_over", game, outcome=ending, winner=winner)


def _lapse_offers(
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


def _log(action: str, game: Game, **fields: Any) -> None:
    log_fields(log, action, room=game.room_id, game=game.number, ply=game.ply, **fields)


# --- actions ---------------------------------------------------------------------------


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
        _log("created", game, outcome="waiting", rule_set=rule_set)
        if computer is not None:
            _seat_opponent(session, state, ctx, token_hash=None, computer=computer)
        leave(session, state, ctx=ctx)
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
    _log("joined", game, outcome="playing")
    return seat


def play_move(
    session: Session,
    *,
    room_id: str,
    token: str | None,
    move: str,
    expected_ply: int,
    ctx: Context,
    in_tradition: bool = False,
    admit: Admission | None = None,
) -> GameState:
    """Play `move` for the token's seat at the game's ply `expected_ply`; a resend of the
    move this seat just played changes nothing. `move` is in the engine's notation, or
    with `in_tradition` in the rule set's own (its numbers or its board's names). Raises
    TokenRequired, WrongToken, GameOver, StalePly, NotYourTurn, IllegalMove or
    AmbiguousMove, or what `admit` raises to refuse the move before it is played."""
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        seat = state.require_seat()
        if _is_resend(state, seat, move, expected_ply, in_tradition):
            return state
        state.require_playing()
        game = state.game
        if expected_ply != game.ply:
            raise errors.StalePly(
                f"the game is at ply {game.ply}, not {expected_ply}: reload and choose again",
                current_ply=game.ply,
            )
        if game.side_of(seat.role) != game.turn:
            raise errors.NotYourTurn(
                f"it is not your turn: {game.turn.value} to move", turn=game.turn.value
            )
        if admit is not None:
            admit(state)
        record_move(session, state, seat=seat, move=move, ctx=ctx, in_tradition=in_tradition)
        return state


def record_move(
    session: Session,
    state: GameState,
    *,
    seat: Seat,
    move: str,
    ctx: Context,
    in_tradition: bool = False,
    conditional: bool = False,
) -> None:
    """Play `move` for `seat`, whose turn it is, in the locked room of `state`, and record
    it; `state` (moves, offers, board) stays up to date for the answer. The opponent's
    stored reply to it, if they have one, is played at once, in the same transaction."""
    room, game, now = state.room, state.game, ctx.now
    board = state.board()
    played = _read_move(board, move, in_tradition)
    irreversible = board.is_irreversible(played)
    side = board.turn
    board.push(played)
    game.ply += 1
    record = MoveRecord(
        ply=game.ply,
        side=side,
        notation=played.notation(),
        path=list(played.path),
        captured=list(played.captured),
        crowned=played.crowns,
        irreversible=irreversible,
        fen_after=board.fen(),
        created_at=now,
        conditional=conditional,
    )
    state.moves.append(record)
    session.connection().execute(_INSERT_MOVE, {"game_id": game.id, **record._asdict()})
    game.fen = record.fen_after
    game.turn = board.turn
    game.turn_started_at = now
    game.claim_notified = game.reminded = False
    room.last_active_at = now
    # A draw offer stands until answered or until the player it was made to moves.
    _lapse_offers(state, ctx, kind=OfferKind.DRAW, by_seat=seat.role.other)
    append_event(
        session,
        state,
        kind=EventKind.MOVE,
        now=now,
        game=game.number,
        ply=game.ply,
        side=side.value,
        notation=record.notation,
        path=record.path,
        captured=record.captured,
        fen=game.fen,
        **({"conditional": True} if conditional else {}),
    )
    _log("move", game, outcome="played", side=side, move=record.notation)
    outcome = board.outcome()
    if outcome is not None:
        finish_game(
            session,
            state,
            ctx=ctx,
            winner=outcome.winner,
            ending=Ending.of(outcome.termination),
            reason=outcome.detail,
        )
    elif game.ply >= ctx.settings.max_plies:
        finish_game(
            session,
            state,
            ctx=ctx,
            winner=None,
            ending=Ending.MOVE_LIMIT,
            reason=f"the {ctx.settings.max_plies}-ply limit was reached",
        )
    elif not conditional:
        _answer_from_plan(session, state, played, ctx)


def _answer_from_plan(session: Session, state: GameState, played: BoardMove, ctx: Context) -> None:
    """The seat now to move may have stored its reply to `played`: play it; a move no
    line expected drops them all, and the seat is told."""
    game = state.game
    owner = next(s for s in state.room.seats if s.role == game.seat_of(game.turn))
    if not owner.planned:
        return
    row = conditionals.load(session, game_id=game.id, seat=owner)
    if row is None or not row.tree:
        return
    found = conditionals.follow(row.tree, played)
    if found is None:
        text = format_move(state.room.rule_set, played)
        _drop_plan(
            session, state, owner, f"your opponent played {text}, which no line expected", ctx
        )
        return
    reply, rest = found
    conditionals.save(session, game_id=game.id, seat=owner, tree=rest, now=ctx.now)
    their_move = format_move(state.room.rule_set, played)
    record_move(session, state, seat=owner, move=reply, ctx=ctx, conditional=True)
    last = state.moves[-1]
    text = format_path(state.room.rule_set, last.path, bool(last.captured))
    facts = {"move": text, "their_move": their_move}
    state.notes.append((owner.role, "conditional_played", facts))


def _drop_plan(session: Session, state: GameState, seat: Seat, why: str, ctx: Context) -> None:
    conditionals.save(
        session, game_id=state.game.id, seat=seat, tree=[], now=ctx.now, note=f"Dropped: {why}."
    )
    state.notes.append((seat.role, "conditional_dropped", {"why": why}))


def _drop_plans(session: Session, state: GameState, why: str, ctx: Context) -> None:
    """Every seat's stored lines in this game go (a draw offer, the game's end)."""
    for seat in state.room.seats:
        if seat.planned:
            row = conditionals.load(session, game_id=state.game.id, seat=seat)
            if row is not None and row.tree:
                _drop_plan(session, state, seat, why, ctx)


def _read_move(board: Board, text: str, in_tradition: bool) -> BoardMove:
    """The legal move `text` names, in the engine's notation or the tradition's; the
    refusal lists the candidates or the legal moves in the same notation."""

    def written(move: BoardMove) -> str:
        return notation.format_move(board.rule_set, move) if in_tradition else move.notation()

    try:
        return notation.parse_move(board, text) if in_tradition else board.parse_move(text)
    except AmbiguousMoveError as exc:
        raise errors.AmbiguousMove(
            str(exc), candidates=[written(m) for m in exc.candidates]
        ) from exc
    except (IllegalMoveError, EngineError) as exc:
        raise errors.IllegalMove(
            f"illegal move: {exc}",
            legal_moves=[written(m) for m in board.legal_moves],
        ) from exc


def _is_resend(
    state: GameState, seat: Seat, text: str, expected_ply: int, in_tradition: bool = False
) -> bool:
    """Whether `text` at `expected_ply` is the move this seat just played: the game's last
    move, or the last but the opponent's conditional reply to it (played in the same
    transaction, so a client that lost the answer sees the game two plies on)."""
    game, moves = state.game, state.moves
    if state.room.status == RoomStatus.WAITING or not 0 <= expected_ply < game.ply:
        return False
    if len(moves) != game.ply or any(not m.conditional for m in moves[expected_ply + 1 :]):
        return False
    last = moves[expected_ply]
    if last.side != game.side_of(seat.role):
        return False
    before = moves[expected_ply - 1].fen_after if expected_ply > 0 else game.start_fen
    try:
        board = Board(state.room.rule_set, fen=before)
        move = notation.parse_move(board, text) if in_tradition else board.parse_move(text)
    except EngineError:
        return False
    return (move.start, move.end, sorted(move.captured)) == (
        last.path[0],
        last.path[-1],
        sorted(last.captured),
    )


def draw_action(
    session: Session,
    *,
    room_id: str,
    token: str | None,
    action: OfferAction,
    ctx: Context,
    admit: Admission | None = None,
    reason: DeclineReason | None = None,
) -> GameState:
    """Offer a draw, or accept or decline the other player's offer (a decline may give
    its `reason`, told to the one who offered)."""
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        seat = state.require_seat()
        state.require_playing()
        if admit is not None:
            admit(state)
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
                reason="agreed by both players",
            )
        return state


def rematch_action(
    session: Session,
    *,
    room_id: str,
    token: str | None,
    action: OfferAction,
    ctx: Context,
    admit: Admission | None = None,
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
        if admit is not None:
            admit(state)
        if _offer_or_answer(session, state, seat, OfferKind.REMATCH, action, ctx):
            _start_next_game(session, state, ctx)
        return state


_OFFERED = {OfferKind.DRAW: EventKind.DRAW_OFFERED, OfferKind.REMATCH: EventKind.REMATCH_OFFERED}
_DECLINED = {
    OfferKind.DRAW: EventKind.DRAW_DECLINED,
    OfferKind.REMATCH: EventKind.REMATCH_DECLINED,
}


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
            _drop_plans(session, state, "a draw was offered", ctx)
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
        _log(f"{kind}_offered", game, outcome="pending")
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
    _log(f"{kind}_declined", game, outcome="declined")
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
    _log("rematch_accepted", game, outcome="playing")


def resign(session: Session, *, room_id: str, token: str | None, ctx: Context) -> GameState:
    """The token's seat gives up the game in progress."""
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        seat = state.require_seat()
        state.require_playing()
        side = state.game.side_of(seat.role)
        _ended_by(
            session,
            state,
            seat,
            EventKind.RESIGNED,
            ctx=ctx,
            winner=side.opponent,
            ending=Ending.RESIGNATION,
            reason=f"{side.value} resigned",
        )
        return state


def claim_forfeit(session: Session, *, room_id: str, token: str | None, ctx: Context) -> GameState:
    """The waiting seat wins once the player to move has let the claim window open."""
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        seat = state.require_seat()
        state.require_playing()
        room, game = state.room, state.game
        if policy.vs_computer(room):
            raise errors.ClaimNotAllowed("no forfeit claims in games against the computer")
        side = game.side_of(seat.role)
        if side == game.turn:
            raise errors.ClaimNotAllowed("it is your turn: only the waiting player may claim")
        opens = policy.claim_opens_at(room, game, ctx.settings)
        assert opens is not None
        if ctx.now < opens:
            raise errors.ClaimNotOpen(
                f"the forfeit claim opens at {opens.isoformat()}", opens_at=opens.isoformat()
            )
        _ended_by(
            session,
            state,
            seat,
            EventKind.FORFEIT_CLAIMED,
            ctx=ctx,
            winner=side,
            ending=Ending.FORFEIT,
            reason=policy.forfeit_reason(ctx.settings),
        )
        return state


def _ended_by(
    session: Session,
    state: GameState,
    seat: Seat,
    kind: EventKind,
    *,
    ctx: Context,
    winner: Side,
    ending: Ending,
    reason: str,
) -> None:
    """A player's act that ends the game (resigning, claiming): its event, then the end."""
    side = state.game.side_of(seat.role)
    append_event(
        session,
        state,
        kind=kind,
        now=ctx.now,
        game=state.game.number,
        seat=seat.role,
        side=side.value,
    )
    finish_game(session, state, ctx=ctx, winner=winner, ending=ending, reason=reason)


# --- reads -----------------------------------------------------------------------------


def read_room(session: Session, *, room_id: str, token: str | None, ctx: Context) -> GameState:
    """The room as the token's holder (or a spectator) sees it. A deadline that has come
    is applied first, by a writer's transaction that then reads, even if no sweep ran."""
    with read_transaction(session):
        room = lock_room(session, room_id=room_id, read=True)
        if room.next_check_at is None or room.next_check_at > ctx.now:
            state = load_state(session, room)
            state.seat = identify(room, token)
            _read_plan(session, state)
            return state
    # Overdue. A share lock is not upgraded (two readers of one overdue room would
    # deadlock): the writer's lock is taken afresh.
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        return state


def check_viewer(session: Session, *, room_id: str, token: str | None) -> None:
    """RoomNotFound for an unknown room; WrongToken for a token that opens no seat of it."""
    with read_transaction(session):
        room = session.get(Room, room_id)
        if room is None:
            raise errors.RoomNotFound("no room with this id")
        identify(room, token)


def read_events(session: Session, *, room_id: str, after: int, limit: int) -> EventsOut:
    """Events with a version above `after`, oldest first."""
    with read_transaction(session):
        room = session.get(Room, room_id)
        if room is None:
            raise errors.RoomNotFound("no room with this id")
        events = session.scalars(
            select(Event)
            .where(Event.room_id == room_id, Event.version > after)
            .order_by(Event.version)
            .limit(limit)
        ).all()
        return EventsOut(
            room_id=room_id,
            version=room.version,
            events=[
                EventOut(
                    version=e.version, kind=EventKind(e.kind), data=e.data, created_at=e.created_at
                )
                for e in events
            ],
        )


def mark_reviewed(session: Session, *, room_id: str, number: int) -> None:
    """Note on a finished game that its review has been asked for, in the transaction
    that stores the review."""
    session.execute(
        update(Game).where(Game.room_id == room_id, Game.number == number).values(reviewed=True)
    )


def read_game(session: Session, *, room_id: str, number: int) -> tuple[Room, Game, list[Move]]:
    """A game of the room with its moves, oldest first."""
    with read_transaction(session):
        room = session.get(Room, room_id)
        if room is None:
            raise errors.RoomNotFound("no room with this id")
        game = session.scalars(
            select(Game).where(Game.room_id == room_id, Game.number == number)
        ).one_or_none()
        if game is None:
            raise errors.GameNotFound(f"this room has no game {number}")
        moves = list(
            session.scalars(select(Move).where(Move.game_id == game.id).order_by(Move.ply))
        )
        return room, game, moves
