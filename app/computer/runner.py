"""The computer's replies and reviews, computed in process pools off the web process's
threads.

``kick(key, client)`` is called after every action of the person (and by the periodic
scan, and once at start-up for work a restart interrupted). One room (or review) has at
most one task in flight; when it ends, it is looked at again, so an answered draw offer
is followed by the move still owed, and a review's next position is queued. The
searches run in separate processes at a lower priority, so the web process keeps
answering while they think.

Replies and reviews are two lanes, each with its own worker processes and its own fair,
bounded queue (`_Lane`): a review's positions never hold a worker a reply could take,
nor a place in the replies' queue, and its processes run at a lower priority still, so a
reply to a move finds a worker as it would with no review at all. Within a lane each
task is owed to the client (address) whose action asked for it; replies found by the
scan count for their room alone. A client has at most its lane's share of searches
running at once (`COMPUTER_THINKING_PER_CLIENT` for replies, one for reviews), and the
next free worker goes to the clients in turn (round robin), not to whoever queued first,
so one client opening forty games delays another's reply by at most the searches already
running. Before an action that would owe a reply is taken (or a review is stored),
`admit` refuses it with 429 when its client already has its share waiting
(`COMPUTER_QUEUE_PER_CLIENT`, `REVIEW_QUEUE_PER_CLIENT`), or 503 when the lane's queue is
full (`COMPUTER_QUEUE_MAX`, `REVIEW_QUEUE_MAX`); both say when to retry.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import multiprocessing
import threading
from collections import Counter, deque
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from apscheduler.schedulers.base import BaseScheduler

from app.core.clock import Clock
from app.core.context import Context
from app.core.db import Database
from app.core.errors import TooManyRequests, Unavailable
from app.core.jobs import add_periodic
from app.core.logging import log_fields
from app.core.settings import Settings
from app.rooms.policy import vs_computer
from app.rooms.state import GameState
from checkers_engine.ai import Level

from . import review, service
from .tables import TableBuilds
from .worker import (
    REPLY_NICENESS,
    REVIEW_NICENESS,
    Answer,
    Task,
    TaskKind,
    run_task,
    start_worker,
)

log = logging.getLogger("checkers.computer")

SCAN_JOB_ID = "computer-scan"


class ComputerQuota(TooManyRequests):
    """This client has its share of the computer's queue waiting; retry after `retry_after`."""

    code = "computer_quota"


class ComputerBusy(Unavailable):
    """The computer's queue (of replies, or of reviews) is full; retry after `retry_after`."""

    code = "computer_busy"


def search_pool(workers: int, niceness: int) -> ProcessPoolExecutor:
    """Worker processes for the computer's searches, started afresh (spawned: nothing of
    the web process is inherited) at `niceness` below the web process."""
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=start_worker,
        initargs=(niceness,),
    )


@dataclass
class _Lane:
    """One kind of work with its own worker processes and its own fair, bounded queue."""

    what: str  # what it computes, as its refusals name it
    workers: int
    niceness: int
    thinking_per_client: int  # searches one client may have running
    queue_per_client: int  # tasks one client may have waiting (429 past it)
    queue_max: int  # tasks waiting in all (503 past it)
    owed: Counter[str] = field(default_factory=Counter)  # keys in hand, per client
    waiting: dict[str, deque[Task]] = field(default_factory=dict)  # per client
    turns: deque[str] = field(default_factory=deque)  # clients with a task waiting
    running: Counter[str] = field(default_factory=Counter)  # per client
    pool: ProcessPoolExecutor | None = None

    def state(self) -> dict[str, int]:
        owed, running = sum(self.owed.values()), sum(self.running.values())
        return {"owed": owed, "running": running, "waiting": owed - running}


class ComputerRunner:
    """Owns the search pools, the rooms and reviews whose work is in hand and the two
    lanes' queues of searches waiting for a worker. Its knobs are the `COMPUTER_*` and
    `REVIEW_*` settings."""

    def __init__(self, database: Database, clock: Clock, settings: Settings) -> None:
        self.database = database
        self.clock = clock
        self.settings = settings
        self._lock = threading.Lock()
        self._busy: set[str] = set()
        self._dirty: set[str] = set()
        self._client_of: dict[str, str] = {}  # busy key -> the client its work is owed to
        self._replies = _Lane(
            "replies",
            workers=settings.computer_workers,
            niceness=REPLY_NICENESS,
            thinking_per_client=settings.computer_thinking_per_client,
            queue_per_client=settings.computer_queue_per_client,
            queue_max=settings.computer_queue_max,
        )
        self._reviews = _Lane(
            "reviews",
            workers=settings.review_workers,
            niceness=REVIEW_NICENESS,
            thinking_per_client=1,
            queue_per_client=settings.review_queue_per_client,
            queue_max=settings.review_queue_max,
        )
        self._threads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="computer")
        self._closed = False
        # The endgame tables' first-use builds (EGDB_BUILD_ON_USE); None when off.
        self.tables = TableBuilds(settings.egdb_pieces) if settings.egdb_build_on_use else None

    def _lane(self, key: str) -> _Lane:
        return self._reviews if review.review_id(key) is not None else self._replies

    # -- life cycle ---------------------------------------------------------------------

    def start(self, scheduler: BaseScheduler | None = None) -> None:
        """Pick up replies owed from before a restart; rescan periodically if a scheduler
        is given."""
        self.scan()
        if scheduler is not None:
            add_periodic(scheduler, SCAN_JOB_ID, self.settings.computer_scan_seconds, self.scan)

    def shutdown(self) -> None:
        """Stop taking work; a search already running finishes (within its time limit),
        so the worker processes exit with the server. Its reply stays owed, as data."""
        self._closed = True
        self._threads.shutdown(wait=False, cancel_futures=True)
        for lane in (self._replies, self._reviews):
            if lane.pool is not None:
                lane.pool.shutdown(wait=True, cancel_futures=True)
        if self.tables is not None:
            self.tables.stop()

    def idle(self) -> bool:
        """Whether no reply is being computed or applied."""
        with self._lock:
            return not self._busy

    def queue_state(self) -> dict[str, int]:
        """Replies owed (rooms in hand), searches running and waiting, in all."""
        with self._lock:
            return self._replies.state()

    def review_state(self) -> dict[str, int]:
        """Reviews in hand, positions being evaluated, and reviews waiting, in all."""
        with self._lock:
            return self._reviews.state()

    # -- admission ----------------------------------------------------------------------

    def admit(self, state: GameState, client: str) -> None:
        """Before-action hook of the rooms: refuse (nothing changes) an action in a room
        with a computer seat when its reply could not be queued fairly now."""
        if vs_computer(state.room):
            self._admit(self._replies, client)

    def admit_review(self, client: str) -> None:
        """Refuse a new review when its asker's share of the reviews' queue is spent, or
        that queue is full."""
        self._admit(self._reviews, client)

    def _admit(self, lane: _Lane, client: str) -> None:
        """One more task for `client` in `lane`, unless its share or the queue is spent."""
        retry = self.settings.retry_after_seconds
        with self._lock:
            mine = lane.owed[client] - lane.running[client]
            waiting = lane.state()["waiting"]
        if mine >= lane.queue_per_client:
            raise ComputerQuota(
                f"the computer already owes you {mine} {lane.what}: wait for them",
                retry_after=retry,
            )
        if waiting >= lane.queue_max:
            raise ComputerBusy(
                f"the computer has too many {lane.what} to think about: retry later",
                retry_after=retry,
            )

    # -- work ---------------------------------------------------------------------------

    def scan(self) -> int:
        """Kick every room where the computer owes a reply, and every review left
        unfinished (a restart resumes it); returns how many."""
        try:
            with self.database.session() as session:
                rooms = service.rooms_waiting_for_the_computer(session)
                reviews = review.pending(session)
        except Exception:
            log.exception("computer scan failed")
            return 0
        for room_id in rooms:
            self.kick(room_id)
        for key, client in reviews:
            self.kick(key, client)
        return len(rooms) + len(reviews)

    def room_changed(self, state: GameState, client: str | None = None) -> None:
        """After-action hook of the rooms: a room with a computer seat may owe a reply
        (to `client`, who acted)."""
        if vs_computer(state.room):
            self.kick(state.room.id, client)

    def kick(self, room_id: str, client: str | None = None) -> None:
        """Look at the room soon and start whatever the computer owes there."""
        if self._closed:
            return
        with self._lock:
            if room_id in self._busy:
                self._dirty.add(room_id)
                return
            self._busy.add(room_id)
            owner = client if client is not None else f"room:{room_id}"
            self._client_of[room_id] = owner
            self._lane(room_id).owed[owner] += 1
        self._threads.submit(self._dispatch, room_id)

    def _dispatch(self, room_id: str) -> None:
        try:
            with self.database.session() as session:
                if review.review_id(room_id) is not None:
                    task = review.next_task(session, key=room_id)
                else:
                    task = service.next_task(session, room_id=room_id, ctx=self._context())
        except Exception:
            log.exception("computer: reading room %s failed", room_id)
            task = None
        if task is None:
            self._release(room_id)
            return
        if self.tables is not None and task.level is Level.EXECUTIVE:
            self.tables.want(task.rule_set)  # starts a build when missing; never waits for it
        lane = self._lane(room_id)
        with self._lock:
            client = self._client_of[room_id]
            if client not in lane.waiting:
                lane.waiting[client] = deque()
                lane.turns.append(client)
            lane.waiting[client].append(task)
        self._pump(lane)

    def _pump(self, lane: _Lane) -> None:
        """Start the lane's waiting searches while its workers are free: each client in
        turn, skipping those running their share already."""
        started: list[tuple[Task, str]] = []
        with self._lock:
            free = lane.workers - sum(lane.running.values())
            for _ in range(len(lane.turns)):
                if free <= 0 or self._closed:
                    break
                client = lane.turns[0]
                lane.turns.rotate(-1)
                if lane.running[client] >= lane.thinking_per_client:
                    continue
                queue = lane.waiting[client]
                started.append((queue.popleft(), client))
                lane.running[client] += 1
                free -= 1
                if not queue:
                    del lane.waiting[client]
                    lane.turns.remove(client)
        for task, client in started:
            try:
                future = self._submit(lane, task)
            except Exception:
                log.exception("computer: could not start a search")
                self._searched(lane, client)
                self._release(task.room_id)
                continue
            future.add_done_callback(functools.partial(self._on_done, lane, task, client))

    def _searched(self, lane: _Lane, client: str) -> None:
        with self._lock:
            lane.running[client] -= 1
            if lane.running[client] <= 0:
                del lane.running[client]

    def _on_done(self, lane: _Lane, task: Task, client: str, future: Future[Answer]) -> None:
        self._searched(lane, client)
        if self._closed:
            return  # shutting down: the work stays owed and is done after the restart
        with contextlib.suppress(RuntimeError):  # the threads stopped in between
            self._threads.submit(self._pump, lane)
            self._threads.submit(self._finish, task, future)

    def _submit(self, lane: _Lane, task: Task) -> Future[Answer]:
        if lane.pool is None:
            lane.pool = search_pool(lane.workers, lane.niceness)
        try:
            return lane.pool.submit(run_task, task, self.settings.computer_time_limit)
        except BrokenProcessPool:
            lane.pool = None
            return self._submit(lane, task)

    def _finish(self, task: Task, future: Future[Answer]) -> None:
        try:
            answer = future.result()
            with self.database.session() as session:
                ctx = self._context()
                if task.kind == TaskKind.REVIEW:
                    assert isinstance(answer, dict)
                    applied = review.record(session, task, answer, ctx=ctx)
                elif task.kind == TaskKind.MOVE:
                    assert isinstance(answer, str)
                    applied = service.apply_move(session, task=task, move=answer, ctx=ctx)
                else:
                    applied = service.answer_offer(session, task=task, accept=bool(answer), ctx=ctx)
            log_fields(
                log,
                "computer reply",
                room=task.room_id,
                kind=task.kind,
                ply=task.ply,
                answer=answer,
                outcome="applied" if applied else "stale, dropped",
            )
        except Exception:
            log.exception("computer: reply for room %s failed", task.room_id)
            self._release(task.room_id)
            return
        # Look again: an answered offer may leave a move owed, a rematch a first move.
        self._dispatch(task.room_id)

    def _context(self) -> Context:
        return Context(self.clock.now(), self.settings)

    def _release(self, room_id: str) -> None:
        with self._lock:
            if room_id in self._dirty and not self._closed:
                self._dirty.discard(room_id)
                again = True
            else:
                self._busy.discard(room_id)
                owner = self._client_of.pop(room_id, None)
                if owner is not None:
                    owed = self._lane(room_id).owed
                    owed[owner] -= 1
                    if owed[owner] <= 0:
                        del owed[owner]
                again = False
        if again:
            self._threads.submit(self._dispatch, room_id)
