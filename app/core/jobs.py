"""Periodic jobs on an APScheduler scheduler: one run at a time, a missed run not
repeated, and a failing run logged without stopping the schedule (the next run retries)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from apscheduler.schedulers.base import BaseScheduler

from .context import Context
from .db import Database
from .logging import log_fields

log = logging.getLogger("checkers.jobs")


def add_periodic(
    scheduler: BaseScheduler,
    job_id: str,
    seconds: float,
    job: Callable[..., Any],
    *args: Any,
    first_run: datetime | None = None,
) -> None:
    """Run `job(*args)` every `seconds` (first at `first_run`, or after one period)."""

    def run() -> None:
        try:
            job(*args)
        except Exception:
            log.exception("job %s failed", job_id)

    options: dict[str, Any] = {"next_run_time": first_run} if first_run else {}
    scheduler.add_job(
        run,
        "interval",
        seconds=seconds,
        id=job_id,
        max_instances=1,
        coalesce=True,
        replace_existing=True,
        **options,
    )


def purge_in_batches(
    database: Database, purge_batch: Callable[..., int], *, ctx: Context, counted: str
) -> int:
    """Delete in transactions of `retention_batch_size` rows each, so a large backlog never
    holds one long transaction, until a batch comes back short; log how many went (as
    `counted`) and return it. `purge_batch(session, limit=, ctx=)` deletes one batch."""
    started = time.perf_counter()
    size, total = ctx.settings.retention_batch_size, 0
    while True:
        with database.session() as session:
            count: int = purge_batch(session, limit=size, ctx=ctx)
        total += count
        if count < size:
            break
    if total:
        elapsed = round((time.perf_counter() - started) * 1000, 1)
        log_fields(log, "retention", **{counted: total}, ms=elapsed)
    return total
