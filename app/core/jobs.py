"""Periodic jobs on an APScheduler scheduler: one run at a time, a missed run not
repeated, and a failing run logged without stopping the schedule (the next run retries)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from apscheduler.schedulers.base import BaseScheduler

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
