"""What runs in the search processes: rebuild the position, think, answer.

Only the rules engine and the computer players are imported here, so the worker
processes stay small; tasks and answers are plain picklable values.

A task's time limit bounds the whole reply, not only the search. A search leaves
hundreds of thousands of new objects behind (the entries of the game's transposition
table, kept from move to move), and the cycle collector's first pass after it, inside the
reply, walked them all: a reply of 0.2 s took up to half a second more. So in a worker the
collector runs during a task only once, at its start, over what the last task left
(`_collector_held`); what outlives a task is then frozen out of its reach.
"""

from __future__ import annotations

import contextlib
import enum
import gc
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from checkers_engine import Board, Side
from checkers_engine.ai import Level, choose_move, evaluate_for_draw_offer, review_position


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


def task_for(
    board: Board,
    *,
    room_id: str,
    game_number: int,
    ply: int,
    kind: TaskKind,
    level: Level,
    side: str,
) -> Task:
    """The task for `board`, the position its game has reached at `ply`."""
    base_fen, tail = board.reversible_history()
    return Task(
        room_id=room_id,
        game_number=game_number,
        ply=ply,
        kind=kind,
        rule_set=board.rule_set.key,
        level=level,
        side=side,
        base_fen=base_fen,
        tail=tuple(m.notation() for m in tail),
        # Each move of the tail is a plain king ply; what the count held before them is
        # the start position's half-move clock (or 0 after a capture or a man's move).
        base_king_plies=board.king_plies - len(tail),
    )


def board_of(task: Task) -> Board:
    """The task's position with the history the draw rules need."""
    board = Board(task.rule_set, fen=task.base_fen)
    board.king_plies = task.base_king_plies
    for text in task.tail:
        board.push_text(text)
    return board


REPLY_NICENESS = 10
"""The replies' searches yield the processor to the web process..."""
REVIEW_NICENESS = 19
"""...and a review's to the replies."""

# Whether this process is a search worker (`start_worker`), whose collector is held.
_worker = False


def start_worker(niceness: int = REPLY_NICENESS) -> None:
    """Pool initializer: lower the process's priority by `niceness`, and freeze what the
    imports built, so no collection walks it again."""
    global _worker
    with contextlib.suppress(OSError):  # not permitted: run at normal priority
        os.nice(niceness)
    gc.collect()
    gc.freeze()
    _worker = True


@contextlib.contextmanager
def _collector_held() -> Iterator[None]:
    """In a worker, collect what earlier tasks left (only what was made since the last
    freeze, so a short pass), hold the collector for the task, then freeze what survived
    it into the permanent generation, which no pass walks. Frozen objects are still freed
    when their count drops to zero; only a reference cycle among them would stay, and the
    search makes none. Elsewhere (a test calling `run_task`) nothing changes."""
    if not _worker:
        yield
        return
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


Answer = str | bool | dict[str, Any]


def run_task(task: Task, time_limit: float) -> Answer:
    """A move in numeric notation for a "move" task; whether to accept, for an offer; the
    score and the best move, for a position under review.

    A draw is accepted when the computer is not clearly ahead; a rematch always is. The
    Executive's time limit counts from the task's start: what goes before its search
    (the position rebuilt, a game's table made) comes off the search's time.
    """
    started = time.perf_counter()
    if task.time_limit is not None:
        time_limit = task.time_limit
    if task.kind == TaskKind.REMATCH:
        return True
    with _collector_held():
        board = board_of(task)
        if task.kind == TaskKind.REVIEW:
            # The positions of one review share a transposition table in this process.
            review = (task.room_id, task.game_number, "review")
            score, best = review_position(
                board, time_limit=time_limit, game=review, started=started
            )
            return {"score": score, "best": best.notation() if best else None}
        if task.kind == TaskKind.DRAW:
            return evaluate_for_draw_offer(board, Side(task.side), time_limit=min(time_limit, 1.0))
        # Executive keeps what it learned from one move of this game to the next.
        game = (task.room_id, task.game_number, task.side)
        move = choose_move(board, task.level, time_limit=time_limit, game=game, started=started)
        return move.notation()
