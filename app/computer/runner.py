"""The computer's replies, computed in a process pool off the web process's threads.

``kick(room_id, client)`` is called after every action of the person (and by the periodic
scan, and once at start-up for replies a restart interrupted). One room has at most one
task in flight; when it ends, the room is looked at again, so an answered draw offer is
followed by the move still owed. The searches run in separate processes at a lower
priority, so the web process keeps answering while they think.

The queue is fair and bounded. Each reply is owed to the client (address) whose action
asked for it; replies found by the scan count for their room alone. A client has at most
`COMPUTER_THINKING_PER_CLIENT` searches running at once, and the next free worker goes to
the clients in turn (round robin), not to whoever queued first, so one client opening
forty games delays another's reply by at most the searches already running. Before an
action that would owe a reply is taken, `admit` refuses it with 429 when its client
already has `COMPUTER_QUEUE_PER_CLIENT` replies waiting, or 503 when
`COMPUTER_QUEUE_MAX` are waiting in all; both say when to retry.
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

from apscheduler.schedulers.base import BaseScheduler

from app.ai import Level
from app.core.clock import Clock
from app.core.context import Context
from app.core.db import Database
from app.core.errors import TooManyRequests, Unavailable
from app.core.jobs import add_periodic
from app.core.logging import log_fields
from app.core.settings import Settings
from app.rooms.policy import vs_computer
from app.rooms.state import GameState

from . import review, service
from .tables import TableBuilds
from .worker import Answer, Task, TaskKind, lower_priority, run_task

log = logging.getLogger("checkers.computer")

SCAN_JOB_ID = "computer-scan"


class ComputerQuota(TooManyRequests):
    """This client has its share of the computer's replies waiting; retry after `retry_after`."""

    code = "computer_quota"


class ComputerBusy(Unavailable):
    """The computer's queue is full; retry after `retry_after`."""

    code = "computer_busy"


class ComputerRunner:
    """Owns the search pool, the rooms whose reply is being computed and the fair queue of
    searches waiting for a worker. Its knobs are the `COMPUTER_*` settings."""

    def __init__(self, database: Database, clock: Clock, settings: Settings) -> None:
        self.database = database
        self.clock = clock
        self.settings = settings
        self._lock = threading.Lock()
        self._busy: set[str] = set()
        self._dirty: set[str] = set()
        self._client_of: dict[str, str] = {}  # busy room -> the client its reply is owed to
        self._rooms_of: Counter[str] = Counter()  # busy rooms per client
        self._waiting: dict[str, deque[Task]] = {}  # searches waiting, per client
        self._turns: deque[str] = deque()  # clients with a search waiting, in turn order
        self._running: Counter[str] = Counter()  # searches running, per client
        self._pool: ProcessPoolExecutor | None = None
        self._threads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="computer")
        self._closed = False
        # The endgame tables' first-use builds (EGDB_BUILD_ON_USE); None when off.
        self.tables = TableBuilds(settings.egdb_pieces) if settings.egdb_build_on_use else None

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
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        if self.tables is not None:
            self.tables.stop()

    def idle(self) -> bool:
        """Whether no reply is being computed or applied."""
        with self._lock:
            return not self._busy

    def queue_state(self) -> dict[str, int]:
        """Replies owed (rooms in hand), searches running and waiting, in all."""
        with self._lock:
            owed, running = sum(self._rooms_of.values()), sum(self._running.values())
            return {"owed": owed, "running": running, "waiting": owed - running}

    # -- admission ----------------------------------------------------------------------

    def admit(self, state: GameState, client: str) -> None:
        """Before-action hook of the rooms: refuse (nothing changes) an action in a room
        with a computer seat when its reply could not be queued fairly now."""
        if vs_computer(state.room):
            self._admit(client)

    def admit_review(self, client: str) -> None:
        """Refuse a new review when its asker's share of the queue is spent, or the queue
        is full (it waits its turn like any reply)."""
        self._admit(client)

    def _admit(self, client: str) -> None:
        """One more task for `client`, unless its share or the whole queue is spent."""
        limits, retry = self.settings, self.settings.retry_after_seconds
        with self._lock:
            mine = self._rooms_of[client] - self._running[client]
            waiting = sum(self._rooms_of.values()) - sum(self._running.values())
        if mine >= limits.computer_queue_per_client:
            raise ComputerQuota(
                f"the computer already owes you {mine} replies: wait for them",
                retry_after=retry,
            )
        if waiting >= limits.computer_queue_max:
            raise ComputerBusy(
                "the computer has too many replies to think about: retry later",
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
            self._rooms_of[owner] += 1
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
        with self._lock:
            client = self._client_of[room_id]
            if client not in self._waiting:
                self._waiting[client] = deque()
                self._turns.append(client)
            self._waiting[client].append(task)
        self._pump()

    def _pump(self) -> None:
        """Start waiting searches while workers are free: each client in turn, skipping
        those running their share already."""
        started: list[tuple[Task, str]] = []
        with self._lock:
            free = self.settings.computer_workers - sum(self._running.values())
            for _ in range(len(self._turns)):
                if free <= 0 or self._closed:
                    break
                client = self._turns[0]
                self._turns.rotate(-1)
                if self._running[client] >= self.settings.computer_thinking_per_client:
                    continue
                queue = self._waiting[client]
                started.append((queue.popleft(), client))
                self._running[client] += 1
                free -= 1
                if not queue:
                    del self._waiting[client]
                    self._turns.remove(client)
        for task, client in started:
            try:
                future = self._submit(task)
            except Exception:
                log.exception("computer: could not start a search")
                self._searched(client)
                self._release(task.room_id)
                continue
            future.add_done_callback(functools.partial(self._on_done, task, client))

    def _searched(self, client: str) -> None:
        with self._lock:
            self._running[client] -= 1
            if self._running[client] <= 0:
                del self._running[client]

    def _on_done(self, task: Task, client: str, future: Future[Answer]) -> None:
        self._searched(client)
        if self._closed:
            return  # shutting down: the reply stays owed and is made after the restart
        with contextlib.suppress(RuntimeError):  # the threads stopped in between
            self._threads.submit(self._pump)
            self._threads.submit(self._finish, task, future)

    def _submit(self, task: Task) -> Future[Answer]:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.settings.computer_workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=lower_priority,
            )
        try:
            return self._pool.submit(run_task, task, self.settings.computer_time_limit)
        except BrokenProcessPool:
            self._pool = None
            return self._submit(task)

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
                    self._rooms_of[owner] -= 1
                    if self._rooms_of[owner] <= 0:
                        del self._rooms_of[owner]
                again = False
        if again:
            self._threads.submit(self._dispatch, room_id)
