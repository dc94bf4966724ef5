"""Endgame tables built on first use: the first time the computer needs a rule set's
tables and finds them missing, one background build starts.

The build runs in its own process at the lowest priority, so no reply waits for it: the
Executive plays by search alone until the file appears (``egdb.available`` looks again
within a minute). One build runs at a time per machine: it holds the tables directory's
lock file, which other processes and instances see, and each table file is written under
another name and renamed when complete. A process starts at most one build per rule set
while one of its builds is alive, and tries a failed one (a directory it may not write,
say) again only after a pause. A build's process is waited for the moment it ends.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections import Counter
from multiprocessing.process import BaseProcess
from pathlib import Path

from checkers_engine.ai import egdb

log = logging.getLogger("checkers.computer")

RETRY_SECONDS = 600.0
"""How long after a build of a rule set ended without its file another one may start."""


def build_in_background(rule_set: str, pieces: int, directory: str) -> None:
    """The build process: lowest priority, then build unless another build is running."""
    with contextlib.suppress(OSError):  # not permitted: run at the priority inherited
        os.nice(19)
    egdb.build_unless_busy(rule_set, pieces, Path(directory))


class TableBuilds:
    """Starts the first-use builds of one process (the web process's computer runner)."""

    def __init__(self, pieces: int, directory: Path | None = None) -> None:
        self.pieces = pieces
        self.directory = directory
        self.started: Counter[str] = Counter()  # builds started, per rule set
        self._lock = threading.Lock()
        self._running: dict[str, tuple[BaseProcess, float]] = {}
        self._failed: dict[str, float] = {}  # when a rule set's build could not start

    def want(self, rule_set: str) -> bool:
        """The computer needs this rule set's tables: start their build when they are
        missing and no build is running; returns whether one started. Cheap when the
        tables are there (one look at the file)."""
        where = egdb.default_dir() if self.directory is None else self.directory
        try:
            if egdb.built(rule_set, self.pieces, where):
                return False
            with self._lock:
                failed = self._failed.get(rule_set)
                if failed is not None and time.monotonic() - failed < RETRY_SECONDS:
                    return False
                previous = self._running.get(rule_set)
                if previous is not None:
                    process, started = previous
                    if process.is_alive() or time.monotonic() - started < RETRY_SECONDS:
                        return False
                with egdb.build_lock(where) as free:
                    if not free:  # another process builds; the next request looks again
                        return False
                process = multiprocessing.get_context("spawn").Process(
                    target=build_in_background,
                    args=(rule_set, self.pieces, str(where)),
                    name=f"egdb-build-{rule_set}",
                    daemon=True,  # it ends with the server; the next start builds again
                )
                process.start()
                # Waited for as soon as it ends, so it never lingers as a zombie (once
                # the file is there, nothing else here looks at the process again).
                threading.Thread(
                    target=process.join, name=f"{process.name}-wait", daemon=True
                ).start()
                self._running[rule_set] = (process, time.monotonic())
                self.started[rule_set] += 1
        except OSError as exc:  # the directory cannot be made or locked: play without
            with self._lock:
                self._failed[rule_set] = time.monotonic()
            log.warning("endgame tables of %s: no build (%s)", rule_set, exc)
            return False
        log.info("endgame tables of %s: building %d pieces in %s", rule_set, self.pieces, where)
        return True

    def stop(self) -> None:
        """End the builds still running (at shutdown): the lock goes with them."""
        with self._lock:
            for process, _ in self._running.values():
                if process.is_alive():
                    process.terminate()
                    process.join(5)
            self._running.clear()
