"""Conditional moves: the rules of a seat's stored lines, and their rows.

A line says "if the opponent plays X, reply Y; then if they play Z, reply W". A seat's
lines form a tree whose top holds the opponent's possible next moves. Every move in it
is checked against the engine as it is stored, in the position it would be played in,
and stored in the engine's own notation with its identity (start, end and the captured
set: two routes that take the same pieces are the same move, as the rules say).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from app.core.context import Context
from app.core.errors import InvalidInput
from app.core.settings import Settings
from checkers_engine import AmbiguousMoveError, Board, EngineError, IllegalMoveError, Move

from .models import ConditionalLines, Seat
from .reasons import Dropped
from .state import GameState

Tree = list[dict[str, Any]]


class LineRefused(InvalidInput):
    """A conditional line cannot be stored; `ply`, `move` and `legal_moves` say where."""

    code = "conditional_refused"


@dataclass(frozen=True)
class LineIn:
    """One branch as a client sends it."""

    when: str
    reply: str
    then: Sequence[LineIn] = ()


def key_of(move: Move) -> list[Any]:
    return [move.start, move.end, sorted(move.captured)]


def _parse(board: Board, text: str, ply: int, whose: str) -> Move:
    try:
        return board.parse_move(text)
    except (IllegalMoveError, AmbiguousMoveError, EngineError) as exc:
        legal = [m.notation() for m in board.legal_moves]
        raise LineRefused(
            f"ply {ply}: {whose} {text!r} cannot be played there ({exc})",
            ply=ply,
            move=text,
            legal_moves=legal,
        ) from exc


def check_lines(board: Board, lines: Sequence[LineIn], settings: Settings, *, ply: int) -> Tree:
    """The lines as stored, each move checked in its position (`board`: the current one,
    at the game's `ply`, the opponent to move); LineRefused names the first bad ply (as
    the game counts them) and the legal moves there."""
    count = 0
    board_ply = ply

    def walk(branches: Sequence[LineIn], depth: int) -> Tree:
        nonlocal count
        if branches and depth > settings.conditional_max_depth:
            raise LineRefused(
                f"a line may hold at most {settings.conditional_max_depth} pairs of moves"
            )
        out: Tree = []
        seen: set[tuple[Any, ...]] = set()
        for branch in branches:
            count += 1
            if count > settings.conditional_max_moves:
                raise LineRefused(
                    f"at most {settings.conditional_max_moves} conditional moves may be stored"
                )
            ply = board_ply + 2 * (depth - 1) + 1
            theirs = _parse(board, branch.when, ply, "their move")
            key = key_of(theirs)
            if (key[0], key[1], tuple(key[2])) in seen:
                raise LineRefused(f"ply {ply}: {branch.when} is answered twice", ply=ply)
            seen.add((key[0], key[1], tuple(key[2])))
            board.push(theirs)
            try:
                if board.is_game_over():
                    raise LineRefused(
                        f"ply {ply}: the game ends with {branch.when}: nothing to reply", ply=ply
                    )
                mine = _parse(board, branch.reply, ply + 1, "your reply")
                board.push(mine)
                try:
                    if branch.then and board.is_game_over():
                        raise LineRefused(
                            f"ply {ply + 1}: the game ends with {branch.reply}", ply=ply + 1
                        )
                    later = walk(branch.then, depth + 1)
                finally:
                    board.pop()
            finally:
                board.pop()
            out.append(
                {
                    "if": theirs.notation(),
                    "key": key,
                    "then": mine.notation(),
                    "next": later,
                }
            )
        return out

    return walk(lines, 1)


def as_lines(tree: Tree) -> list[LineIn]:
    """A stored tree as the lines a client would send to store it again."""
    return [LineIn(str(b["if"]), str(b["then"]), as_lines(b["next"])) for b in tree]


def with_line(lines: Sequence[LineIn], pairs: Sequence[tuple[str, str]]) -> list[LineIn]:
    """`lines` with one more line of (their move, reply) pairs: a branch for the same move
    of theirs takes the new reply, and what followed the old one goes with it."""
    if not pairs:
        return list(lines)
    (theirs, reply), rest = pairs[0], pairs[1:]
    out: list[LineIn] = []
    found = False
    for branch in lines:
        if branch.when != theirs:
            out.append(branch)
            continue
        found = True
        later = with_line(branch.then, rest) if branch.reply == reply else with_line([], rest)
        out.append(LineIn(theirs, reply, later))
    if not found:
        out.append(LineIn(theirs, reply, with_line([], rest)))
    return out


def follow(tree: Tree, played: Move) -> tuple[str, Tree] | None:
    """The stored reply to `played` and the lines that go on from it; None if no line
    expected that move."""
    key = key_of(played)
    for branch in tree:
        stored = branch["key"]
        if [stored[0], stored[1], sorted(stored[2])] == key:
            return str(branch["then"]), list(branch["next"])
    return None


def count_moves(tree: Tree) -> int:
    return sum(1 + count_moves(branch["next"]) for branch in tree)


# --- rows ------------------------------------------------------------------------------


def load(session: Session, *, game_id: int, seat: Seat) -> ConditionalLines | None:
    return session.scalar(
        select(ConditionalLines).where(
            ConditionalLines.game_id == game_id, ConditionalLines.seat_id == seat.id
        )
    )


def save(
    session: Session,
    *,
    game_id: int,
    seat: Seat,
    tree: Tree,
    now: datetime,
    note: Dropped | None = None,
) -> ConditionalLines | None:
    """Keep `tree` (and `note`: why earlier lines were dropped) for the seat; with neither,
    forget its row."""
    row = load(session, game_id=game_id, seat=seat)
    if not tree and note is None:
        if row is not None:
            session.delete(row)
        seat.planned = False
        return None
    if row is None:
        row = ConditionalLines(game_id=game_id, seat_id=seat.id)
        session.add(row)
    row.tree, row.updated_at = tree, now
    row.note = note.code if note is not None else None
    row.note_params = dict(note.params) if note is not None else None
    seat.planned = True
    return row


def forget_game(session: Session, *, game_id: int, seats: Sequence[Seat]) -> None:
    """A game is over: no line of it can be played any more."""
    if any(seat.planned for seat in seats):
        session.execute(delete(ConditionalLines).where(ConditionalLines.game_id == game_id))
        for seat in seats:
            seat.planned = False


def drop_plan(session: Session, state: GameState, seat: Seat, why: Dropped, ctx: Context) -> None:
    """The seat's stored lines go, the note keeps why, and the seat is told (a note of
    the action: no event may show its private lines)."""
    save(session, game_id=state.game.id, seat=seat, tree=[], now=ctx.now, note=why)
    state.notes.append((seat.role, "conditional_dropped", {"why": why.code, **why.params}))


def drop_plans(session: Session, state: GameState, why: Dropped, ctx: Context) -> None:
    """Every seat's stored lines in this game go (a draw offer, the game's end)."""
    for seat in state.room.seats:
        if seat.planned:
            row = load(session, game_id=state.game.id, seat=seat)
            if row is not None and row.tree:
                drop_plan(session, state, seat, why, ctx)
