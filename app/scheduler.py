"""The scheduled jobs: the deadline sweep and the delivery of notifications, run by the
web process (`SCHEDULER_ENABLED`) or by `checkers worker`. Both are safe to run in many
processes at once: they claim their rows with `FOR UPDATE SKIP LOCKED`."""

from __future__ import annotations

import contextlib
import logging

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler

from app.core.clock import Clock
from app.core.db import Database
from app.core.logging import log_fields
from app.core.settings import Settings
from app.notify.delivery import add_delivery_job
from app.rooms.jobs import add_sweep_job

log = logging.getLogger("checkers.jobs")


def add_jobs(
    scheduler: BaseScheduler, database: Database, clock: Clock, settings: Settings
) -> None:
    add_sweep_job(scheduler, database, clock, settings)
    add_delivery_job(scheduler, database, clock, settings)


def start_background(database: Database, clock: Clock, settings: Settings) -> BaseScheduler:
    """The in-process scheduler of the web app."""
    scheduler = BackgroundScheduler(timezone="UTC")
    add_jobs(scheduler, database, clock, settings)
    scheduler.start()
    return scheduler


def run_worker(database: Database, clock: Clock, settings: Settings) -> None:
    """Block, running the scheduled jobs (`checkers worker`)."""
    scheduler = BlockingScheduler(timezone="UTC")
    add_jobs(scheduler, database, clock, settings)
    log_fields(log, "worker started", sweep_s=settings.sweep_interval_seconds)
    with contextlib.suppress(KeyboardInterrupt, SystemExit):
        scheduler.start()
