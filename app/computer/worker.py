"""What runs in the search processes: rebuild the position, think, answer.

Only the rules engine and the computer players are imported here, so the worker
processes stay small; tasks and answers are plain picklable values.
"""

from __future__ import annotations

import contextlib
import enum
import os
from dataclasses import dataclass
from typing import Any

from app.ai import Level, choose_move, evaluate_for_draw_offer, review_position
from app.engine import Board, Side


class TaskKind(enum.StrEnum):
    MOVE = "move"  # the computer's turn
    DRAW = "draw"  # answer the person's draw offer
    REMATCH = "rematch"  # answer the person's rematch offer
    REVIEW = "review"  # evaluate one position of a game under review


@dataclass(frozen=True)
class Task:
    """One thing the computer must do in a room, pinned to the game and ply it is for."""

    room_id: str
    game_number: int
    ply: int
    kind: TaskKind
    rule_set: str
    level: Level
    side: str  # the computer's side in this game
    base_fen: str  # the position after the last capture or man's move
    tail: tuple[str, ...]  # the plain king moves since then (the draw rules need them)
    # Plain king plies already counted at `base_fen`: a game from a position whose FEN
    # gave a half-move clock, before its first capture or man's move (else 0).
    base_king_plies: int = 0
    # Its own time limit, in seconds (a review's budget per position); None: the runner's.
    time_limit: float | None = None


def board_of(task: Task) -> Board:
    """The task's position with the history the draw rules need."""
    board = Board(task.rule_set, fen=task.base_fen)
    board.king_plies = task.base_king_plies
    for text in task.tail:
        board.push_text(text)
    return board


def lower_priority() -> None:
    """Pool initializer: searches yield the processor to the web process."""
    with contextlib.suppress(OSError):  # not permitted: run at normal priority
        os.nice(10)


Answer = str | bool | dict[str, Any]


def run_task(task: Task, time_limit: float) -> Answer:
    """A move in numeric notation for a "move" task; whether to accept, for an offer; the
    score and the best move, for a position under review.

    A draw is accepted when the computer is not clearly ahead; a rematch always is.
    """
    if task.time_limit is not None:
        time_limit = task.time_limit
    if task.kind == TaskKind.REVIEW:
        # The positions of one review share a transposition table in this process.
        review = (task.room_id, task.game_number, "review")
        score, best = review_position(board_of(task), time_limit=time_limit, game=review)
        return {"score": score, "best": best.notation() if best else None}
    if task.kind == TaskKind.REMATCH:
        return True
    board = board_of(task)
    if task.kind == TaskKind.DRAW:
        return evaluate_for_draw_offer(board, Side(task.side), time_limit=min(time_limit, 1.0))
    # Executive keeps what it learned from one move of this game to the next.
    game = (task.room_id, task.game_number, task.side)
    return choose_move(board, task.level, time_limit=time_limit, game=game).notation()
