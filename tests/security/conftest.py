"""Fixtures of the security tests: an app on the test database and a snapshot of every
stored row, to prove that a refused request changed nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from app.core.clock import ManualClock
from app.core.db import Database
from app.core.settings import Settings
from app.main import create_app

TABLES = ("rooms", "seats", "games", "moves", "offers", "events", "seat_transfers")


@pytest.fixture
def client(settings: Settings, clock: ManualClock, database: Database) -> Iterator[TestClient]:
    app = create_app(settings, clock=clock, database=database)
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture
def snapshot(database: Database) -> Callable[[], dict[str, list[tuple[Any, ...]]]]:
    """Every row of every table of the service, in a stable order."""

    def take() -> dict[str, list[tuple[Any, ...]]]:
        with database.engine.connect() as conn:
            return {
                table: [tuple(row) for row in conn.execute(text(f"SELECT * FROM {table}"))]
                for table in TABLES
            }

    def stable() -> dict[str, list[tuple[Any, ...]]]:
        return {table: sorted(rows, key=repr) for table, rows in take().items()}

    return stable
