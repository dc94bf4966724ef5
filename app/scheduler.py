"""The scheduled jobs: the deadline sweep, the imported games' retention and the delivery
of notifications, run by the web process (`SCHEDULER_ENABLED`) or by `checkers worker`.
All are safe to run in many processes at once: they claim their rows with `FOR UPDATE
SKIP LOCKED`."""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler

from app.core.clock import Clock
from app.core.db import Database
from app.core.logging import log_fields
from app.core.settings import Settings
from app.imports.jobs import add_retention_job
from app.notify import outbox
from app.notify.delivery import Sender, add_delivery_job
from app.profiles.jobs import add_cleanup_job
from app.rooms.jobs import add_sweep_job

log = logging.getLogger("checkers.jobs")


def add_jobs(
    scheduler: BaseScheduler, database: Database, clock: Clock, settings: Settings
) -> Sender:
    """Add the jobs; the notifications' sender is returned, to be stopped first. The
    notifications' hook is registered first: the deadlines the sweep applies notify."""
    outbox.install()
    add_sweep_job(scheduler, database, clock, settings)
    add_retention_job(scheduler, database, clock, settings)
    add_cleanup_job(scheduler, database, clock, settings)
    return add_delivery_job(scheduler, database, clock, settings)


@dataclass(frozen=True)
class Background:
    """The web process's scheduler and its notifications' sender."""

    scheduler: BaseScheduler
    sender: Sender

    def shutdown(self) -> None:
        """Stop at once: deliveries in flight are cut short (they go again later), so the
        server is not held past its graceful timeout by a push service that never answers."""
        self.sender.stop()
        self.scheduler.shutdown(wait=True)


def start_background(database: Database, clock: Clock, settings: Settings) -> Background:
    """The in-process scheduler of the web app."""
    scheduler = BackgroundScheduler(timezone="UTC")
    sender = add_jobs(scheduler, database, clock, settings)
    scheduler.start()
    return Background(scheduler, sender)


def run_worker(database: Database, clock: Clock, settings: Settings) -> None:
    """Block, running the scheduled jobs (`checkers worker`)."""
    scheduler = BlockingScheduler(timezone="UTC")
    sender = add_jobs(scheduler, database, clock, settings)
    log_fields(log, "worker started", sweep_s=settings.sweep_interval_seconds)
    try:
        with contextlib.suppress(KeyboardInterrupt, SystemExit):
            scheduler.start()
    finally:
        sender.stop()
