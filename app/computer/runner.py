"""The computer's replies, computed in a process pool off the web process's threads.

``kick(room_id)`` is called after every action of the person (and by the periodic scan,
and once at start-up for replies a restart interrupted). One room has at most one task in
flight; when it ends, the room is looked at again, so an answered draw offer is followed
by the move still owed. The searches run in separate processes at a lower priority, so
the web process keeps answering while they think.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import threading
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from apscheduler.schedulers.base import BaseScheduler

from app.core.clock import Clock
from app.core.context import Context
from app.core.db import Database
from app.core.jobs import add_periodic
from app.core.logging import log_fields
from app.core.settings import Settings
from app.rooms.policy import vs_computer
from app.rooms.state import GameState

from . import service
from .worker import Task, TaskKind, lower_priority, run_task

log = logging.getLogger("checkers.computer")

SCAN_JOB_ID = "computer-scan"


class ComputerRunner:
    """Owns the search pool and the rooms whose reply is being computed. Its knobs are
    the `COMPUTER_*` settings."""

    def __init__(self, database: Database, clock: Clock, settings: Settings) -> None:
        self.database = database
        self.clock = clock
        self.settings = settings
        self._lock = threading.Lock()
        self._busy: set[str] = set()
        self._dirty: set[str] = set()
        self._pool: ProcessPoolExecutor | None = None
        self._threads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="computer")
        self._closed = False

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

    def idle(self) -> bool:
        """Whether no reply is being computed or applied."""
        with self._lock:
            return not self._busy

    # -- work ---------------------------------------------------------------------------

    def scan(self) -> int:
        """Kick every room where the computer owes a reply; returns how many."""
        try:
            with self.database.session() as session:
                rooms = service.rooms_waiting_for_the_computer(session)
        except Exception:
            log.exception("computer scan failed")
            return 0
        for room_id in rooms:
            self.kick(room_id)
        return len(rooms)

    def room_changed(self, state: GameState) -> None:
        """After-action hook of the rooms: a room with a computer seat may owe a reply."""
        if vs_computer(state.room):
            self.kick(state.room.id)

    def kick(self, room_id: str) -> None:
        """Look at the room soon and start whatever the computer owes there."""
        if self._closed:
            return
        with self._lock:
            if room_id in self._busy:
                self._dirty.add(room_id)
                return
            self._busy.add(room_id)
        self._threads.submit(self._dispatch, room_id)

    def _dispatch(self, room_id: str) -> None:
        try:
            with self.database.session() as session:
                task = service.next_task(session, room_id=room_id, ctx=self._context())
        except Exception:
            log.exception("computer: reading room %s failed", room_id)
            task = None
        if task is None:
            self._release(room_id)
            return
        try:
            future = self._submit(task)
        except Exception:
            log.exception("computer: could not start a search")
            self._release(room_id)
            return
        future.add_done_callback(lambda f: self._on_done(task, f))

    def _on_done(self, task: Task, future: Future[str | bool]) -> None:
        if self._closed:
            return  # shutting down: the reply stays owed and is made after the restart
        with contextlib.suppress(RuntimeError):  # the threads stopped in between
            self._threads.submit(self._finish, task, future)

    def _submit(self, task: Task) -> Future[str | bool]:
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

    def _finish(self, task: Task, future: Future[str | bool]) -> None:
        try:
            answer = future.result()
            with self.database.session() as session:
                ctx = self._context()
                if task.kind == TaskKind.MOVE:
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
                again = False
        if again:
            self._threads.submit(self._dispatch, room_id)
