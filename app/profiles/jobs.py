"""The profiles' housekeeping: sessions past their expiry, passkey ceremonies never
finished and mailed links a day old are deleted at the sweep's period (a link counts
against its profile's hourly share for an hour only)."""

from __future__ import annotations

from datetime import timedelta

from apscheduler.schedulers.base import BaseScheduler
from sqlalchemy import delete

from app.core.clock import Clock
from app.core.context import Context
from app.core.db import Database
from app.core.jobs import add_periodic
from app.core.settings import Settings

from . import passkeys, sessions
from .models import SignInLink

JOB_ID = "profiles-cleanup"
LINKS_KEPT = timedelta(days=1)


def clean(database: Database, clock: Clock, settings: Settings) -> int:
    """Delete what no longer serves; returns how many rows went."""
    ctx = Context(clock.now(), settings)
    with database.session() as session:
        gone = sessions.forget_expired(session, ctx.now)
        gone += passkeys.forget_ceremonies(session, ctx)
        with session.begin():
            done = session.execute(
                delete(SignInLink).where(SignInLink.created_at <= ctx.now - LINKS_KEPT)
            )
            gone += int(getattr(done, "rowcount", 0) or 0)
    return gone


def add_cleanup_job(
    scheduler: BaseScheduler, database: Database, clock: Clock, settings: Settings
) -> None:
    add_periodic(
        scheduler, JOB_ID, settings.sweep_interval_seconds, clean, database, clock, settings
    )
