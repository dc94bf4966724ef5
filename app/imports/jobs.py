"""The retention of imported games: with `IMPORT_RETAIN_DAYS` (else `RETAIN_DAYS`) set,
each imported game is deleted that long after its import, and its computer review with
it (the database cascades the delete). Unset both, they are kept forever.

A batch of games is deleted per transaction, oldest first, found by the index on their
import time; the rows are claimed with `FOR UPDATE SKIP LOCKED`, so several workers
never collide.
"""

from __future__ import annotations

import logging

from apscheduler.schedulers.base import BaseScheduler
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from app.core.clock import Clock
from app.core.context import Context
from app.core.db import Database
from app.core.jobs import add_periodic, purge_in_batches
from app.core.settings import Settings

from .models import ImportedGame

log = logging.getLogger("checkers.jobs")

RETENTION_JOB_ID = "imports-retention"


def purge_batch(session: Session, *, limit: int, ctx: Context) -> int:
    """Delete up to `limit` imported games older than their retention; returns how many."""
    retain = ctx.settings.import_retain
    assert retain is not None
    with session.begin():
        ids = list(
            session.scalars(
                select(ImportedGame.id)
                .where(ImportedGame.created_at < ctx.now - retain)
                .order_by(ImportedGame.created_at)
                .limit(limit)
                .with_for_update(skip_locked=True)
            )
        )
        if ids:
            session.execute(delete(ImportedGame).where(ImportedGame.id.in_(ids)))
        return len(ids)


def purge(database: Database, clock: Clock, settings: Settings) -> int:
    """Apply the imported games' retention (nothing when it is unset); returns the games
    deleted."""
    if settings.import_retain is None:
        return 0
    ctx = Context(clock.now(), settings)
    return purge_in_batches(database, purge_batch, ctx=ctx, counted="imported_games")


def add_retention_job(
    scheduler: BaseScheduler, database: Database, clock: Clock, settings: Settings
) -> None:
    """Apply the retention now and then at the sweep's period."""
    add_periodic(
        scheduler,
        RETENTION_JOB_ID,
        settings.sweep_interval_seconds,
        purge,
        database,
        clock,
        settings,
        first_run=clock.now(),
    )
