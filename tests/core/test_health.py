"""Acceptance (issue 14, a crowd of viewers): `/healthz` never waits for the pool or a
worker thread, so a busy instance still answers its load balancer at once."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from app.core.clock import ManualClock
from app.core.db import Database
from app.core.settings import Settings
from app.main import create_app


def test_health_check_answers_while_every_pooled_connection_is_busy(
    database: Database, clock: ManualClock
) -> None:
    """With every connection of the pool held by requests, `/healthz` still answers 200
    at once, on both databases (through the pool it waited for one as long as the pool's
    timeout, then answered 503), and again on its next call, on its own connection."""
    small = Database(database.url, pool_size=1, max_overflow=0, pool_timeout=5)
    settings = Settings(
        database_url=small.url,
        scheduler_enabled=False,
        migrate_on_start=False,
        rate_limit_enabled=False,
    )
    try:
        with TestClient(create_app(settings, clock=clock, database=small)) as client:
            held = small.engine.connect()  # the pool's only connection, busy elsewhere
            try:
                for _ in range(2):
                    started = time.monotonic()
                    answer = client.get("/healthz")
                    took = time.monotonic() - started
                    assert answer.status_code == 200, answer.text
                    assert answer.json()["database"] == small.engine.dialect.name
                    assert took < 1.0, f"/healthz waited {took:.2f} s for a pooled connection"
            finally:
                held.close()
    finally:
        small.dispose()
