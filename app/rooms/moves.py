"""Playing moves: a seat's move, the opponent's stored reply to it, and a move sent
again because its answer was lost."""

from __future__ import annotations

from typing import Any

from sqlalchemy import insert
from sqlalchemy.orm import Session

from app.core.context import Context
from checkers_engine import (
    AmbiguousMoveError,
    Board,
    EngineError,
    IllegalMoveError,
    notation,
)
from checkers_engine import Move as BoardMove
from checkers_engine.notation import format_move, format_path

from . import conditionals, errors, reasons
from .conditionals import drop_plan
from .endings import finish_game, lapse_offers
from .events import append_event
from .locking import admit, locked_room
from .logs import log_action
from .models import (
    Ending,
    EventKind,
    Move,
    OfferKind,
    RoomStatus,
    Seat,
)
from .state import GameState, MoveRecord

_INSERT_MOVE = insert(Move)


def play_move(
    session: Session,
    *,
    room_id: str,
    token: str | None,
    move: str,
    expected_ply: int,
    ctx: Context,
    in_tradition: bool = False,
) -> GameState:
    """Play `move` for the token's seat at the game's ply `expected_ply`; a resend of the
    move this seat just played changes nothing. `move` is in the engine's notation, or
    with `in_tradition` in the rule set's own (its numbers or its board's names). Raises
    TokenRequired, WrongToken, GameOver, StalePly, NotYourTurn, IllegalMove or
    AmbiguousMove, or what the app's hooks raise to refuse the move before it is played
    (`admit`)."""
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
        admit(state, ctx)
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
    game.turn_extra_days = 0  # time given was for the turn just played
    room.last_active_at = now
    # A draw offer stands until answered or until the player it was made to moves.
    lapse_offers(state, ctx, kind=OfferKind.DRAW, by_seat=seat.role.other)
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
        **_planned(conditional),
    )
    log_action("move", game, outcome="played", side=side, move=record.notation)
    outcome = board.outcome()
    if outcome is not None:
        finish_game(
            session,
            state,
            ctx=ctx,
            winner=outcome.winner,
            ending=Ending.of(outcome.termination),
            reason=reasons.of_outcome(outcome),
        )
    elif game.ply >= ctx.settings.max_plies:
        finish_game(
            session,
            state,
            ctx=ctx,
            winner=None,
            ending=Ending.MOVE_LIMIT,
            reason=reasons.move_limit(ctx.settings.max_plies),
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
        drop_plan(session, state, owner, reasons.unexpected(text), ctx)
        return
    reply, rest = found
    conditionals.save(session, game_id=game.id, seat=owner, tree=rest, now=ctx.now)
    their_move = format_move(state.room.rule_set, played)
    record_move(session, state, seat=owner, move=reply, ctx=ctx, conditional=True)
    last = state.moves[-1]
    text = format_path(state.room.rule_set, last.path, bool(last.captured))
    facts = {"move": text, "their_move": their_move}
    state.notes.append((owner.role, "conditional_played", facts))


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


def _planned(conditional: bool) -> dict[str, Any]:
    """A move event's mark of a reply played from the seat's stored lines."""
    return {"conditional": True} if conditional else {}
