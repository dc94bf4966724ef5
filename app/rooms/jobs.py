"""The deadline sweep: opens forfeit claims and expires rooms.

Deadlines are data (each room's indexed `next_check_at`), so the sweep only reads rooms
that are due, and a restart loses nothing: the next sweep catches up. Batches are claimed
with `FOR UPDATE SKIP LOCKED`, so several sweepers (instances) never act on one room twice,
and every action re-checks the room's state under its lock (idempotent).
"""

from __future__ import annotations

import contextlib
import logging
import time

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler

from app.core.clock import Clock
from app.core.db import Database
from app.core.logging import log_fields
from app.core.settings import Settings

from .service import sweep_batch

log = logging.getLogger("checkers.jobs")

SWEEP_JOB_ID = "rooms-sweep"


def sweep(database: Database, clock: Clock, settings: Settings) -> int:
    """Apply every deadline due now; returns how many rooms were handled."""
    started = time.perf_counter()
    now = clock.now()
    total = 0
    while True:
        with database.session() as session:
            count = sweep_batch(session, now, settings, settings.sweep_batch_size)
        total += count
        if count < settings.sweep_batch_size:
            break
    if total:
        log_fields(log, "sweep", rooms=total, ms=round((time.perf_counter() - started) * 1000, 1))
    return total


def _safe_sweep(database: Database, clock: Clock, settings: Settings) -> None:
    try:
        sweep(database, clock, settings)
    except Exception:  # a failed run must not stop the schedule; the next run retries
        log.exception("sweep failed")


def add_sweep_job(
    scheduler: BaseScheduler, database: Database, clock: Clock, settings: Settings
) -> None:
    """Run the sweep now and then every `sweep_interval_seconds` (one run at a time)."""
    scheduler.add_job(
        _safe_sweep,
        "interval",
        seconds=settings.sweep_interval_seconds,
        args=(database, clock, settings),
        id=SWEEP_JOB_ID,
        max_instances=1,
        coalesce=True,
        next_run_time=clock.now(),
        replace_existing=True,
    )


def start_background(database: Database, clock: Clock, settings: Settings) -> BaseScheduler:
    """The in-process scheduler of the web app."""
    scheduler = BackgroundScheduler(timezone="UTC")
    add_sweep_job(scheduler, database, clock, settings)
    scheduler.start()
    return scheduler


def run_worker(database: Database, clock: Clock, settings: Settings) -> None:
    """Block, running only the sweep (`checkers worker`)."""
    scheduler = BlockingScheduler(timezone="UTC")
    add_sweep_job(scheduler, database, clock, settings)
    log_fields(log, "worker started", interval_s=settings.sweep_interval_seconds)
    with contextlib.suppress(KeyboardInterrupt, SystemExit):
        scheduler.start()
