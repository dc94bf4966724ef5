"""Acceptance (issue 58, point 9): the computer keeps its time, the whole reply and not
only the search. With its transposition table kept across a game's moves, a search left
hundreds of thousands of new objects behind, and the cycle collector's first pass after
the search walked them all, inside the reply. In a search worker (started as the
service starts them) no collection during a reply walks more than what the last task
left, and the time a reply spends before its search (a game's table made, or the least
recent one dropped) comes off the search's. `bench/reply_time.py` measures the replies'
times over whole games."""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from app.computer.runner import search_pool
from app.computer.worker import (
    REPLY_NICENESS,
    Answer,
    Task,
    TaskKind,
    run_task,
    start_worker,
    task_for,
)
from checkers_engine import Board
from checkers_engine.ai import Level, analyse

pytestmark = [pytest.mark.slow]

BUDGET = 0.2
# The standard start less one man: out of the Executive's opening book, so it searches.
OUT_OF_BOOK = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11"
# Objects a collection may walk during a reply: the last task's leftovers, a few dozen.
# Before, the pass after a search walked tens of thousands, up to 158,000 in this game.
MOST_WALKED = 5_000


def watched(task: Task, time_limit: float) -> tuple[Answer, list[int]]:
    """In the worker: `run_task`, and how many objects each collection during it walked
    (the generations it collected, as they stood when it began)."""
    walked: list[int] = []

    def watch(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            young = range(info["generation"] + 1)
            walked.append(sum(len(gc.get_objects(generation=g)) for g in young))

    gc.callbacks.append(watch)
    try:
        return run_task(task, time_limit), walked
    finally:
        gc.callbacks.remove(watch)


def settle() -> None:
    """In the worker: unpickling a function of this module imported it (and pytest, and
    the web modules), which a service worker never does; freeze that as the pool's
    initializer froze its own imports."""
    start_worker(0)


@pytest.fixture
def worker() -> Iterator[ProcessPoolExecutor]:
    pool = search_pool(1, REPLY_NICENESS)
    pool.submit(settle).result(timeout=60)
    yield pool
    pool.shutdown(wait=True, cancel_futures=True)


def test_no_collection_during_a_reply_walks_what_the_searches_left(
    worker: ProcessPoolExecutor,
) -> None:
    board = Board("english", fen=OUT_OF_BOOK)
    passes: list[int] = []
    replies = 0
    # Both sides are the Executive, each with its own table kept across the game's moves
    # in the one worker process, as the computer worker keeps them.
    while board.outcome() is None and replies < 24:
        task = task_for(
            board,
            room_id="room",
            game_number=1,
            ply=board.ply,
            kind=TaskKind.MOVE,
            level=Level.EXECUTIVE,
            side=board.turn.value,
        )
        answer, walked = worker.submit(watched, task, BUDGET).result(timeout=60)
        assert isinstance(answer, str)
        board.push_text(answer)
        passes.extend(walked)
        replies += 1
    assert replies >= 16, "the game should last long enough for the tables to fill"
    assert passes, "each reply collects what the last task left"
    assert max(passes) < MOST_WALKED, sorted(passes)[-5:]


def test_the_time_before_the_search_comes_off_it() -> None:
    # 0.9 s of a 1 s budget went before the search (making or dropping a game's table,
    # rebuilding the position): the search has what is left, a tenth of its time at least.
    board = Board("english", fen=OUT_OF_BOOK)
    late = analyse(
        board, Level.EXECUTIVE, time_limit=1.0, game="late", started=time.perf_counter() - 0.9
    )
    assert late.best is not None and late.elapsed < 0.5, late.elapsed
