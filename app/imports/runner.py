"""Imports replayed in worker processes, with a fair, bounded queue.

Replaying a text is seconds of CPU for a large archive (Tinsley's 724 games are about
2 s), and in the web process those seconds are taken from every other request. So the
replay runs in its own worker processes (`IMPORT_WORKERS`) at a lower priority, and the
web process only stores the rows and answers. A client has at most
`IMPORT_QUEUE_PER_CLIENT` imports in hand (429 past it) and the service at most
`IMPORT_QUEUE_MAX` (503 past it); both say when to retry. A text's total moves are
capped (`IMPORT_MAX_TOTAL_PLIES`), which bounds one import's time in a worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import multiprocessing
import os
import threading
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from app.core.errors import TooManyRequests, Unavailable
from app.core.settings import Settings

from .replay import Replayed, replay_text
from .service import limits_of

# Below the web process, and below the computer's replies (which answer a waiting player).
IMPORT_NICENESS = 10


class ImportQuota(TooManyRequests):
    """This client has its share of imports in hand; retry after `retry_after`."""

    code = "import_quota"


class ImportBusy(Unavailable):
    """The service has as many imports in hand as it takes; retry after `retry_after`."""

    code = "import_busy"


def _start_worker(niceness: int) -> None:
    with contextlib.suppress(OSError):  # not permitted: run at normal priority
        os.nice(niceness)


class ImportRunner:
    """Owns the import worker processes (started on the first import) and who has how
    many imports in hand."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.limits = limits_of(settings)
        self._lock = threading.Lock()
        self._in_hand: Counter[str] = Counter()
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    max_workers=self.settings.import_workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker,
                    initargs=(IMPORT_NICENESS,),
                )
            return self._pool

    def _take(self, client: str) -> None:
        retry = self.settings.retry_after_seconds
        with self._lock:
            if self._in_hand[client] >= self.settings.import_queue_per_client:
                raise ImportQuota(
                    "your last import is still being replayed: wait for its answer",
                    retry_after=retry,
                )
            if sum(self._in_hand.values()) >= self.settings.import_queue_max:
                raise ImportBusy(
                    "the service is replaying as many imports as it takes: retry later",
                    retry_after=retry,
                )
            self._in_hand[client] += 1

    def _give_back(self, client: str) -> None:
        with self._lock:
            self._in_hand[client] -= 1
            if self._in_hand[client] <= 0:
                del self._in_hand[client]

    def in_hand(self) -> int:
        """Imports being replayed or waiting for a worker, in all."""
        with self._lock:
            return sum(self._in_hand.values())

    async def replay(self, text: str, *, default_rule_set: str, client: str) -> Replayed:
        """`text` replayed in a worker, once `client` may have one more import in hand."""
        self._take(client)
        try:
            job = functools.partial(
                replay_text, text, default_rule_set=default_rule_set, limits=self.limits
            )
            try:
                return await asyncio.wrap_future(self._executor().submit(job))
            except BrokenProcessPool:
                # A worker died (killed, out of memory): the next import starts afresh.
                with self._lock:
                    self._pool = None
                raise ImportBusy(
                    "the import's worker stopped: retry",
                    retry_after=self.settings.retry_after_seconds,
                ) from None
        finally:
            self._give_back(client)

    def shutdown(self) -> None:
        """Stop taking imports; an import being replayed finishes in its worker (its
        total moves are capped), the ones waiting are dropped."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
