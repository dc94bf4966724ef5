"""An app on the parametrised database, for the import API."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.core.clock import ManualClock
from app.core.db import Database
from app.core.settings import Settings
from app.main import create_app


@pytest.fixture
def client(settings: Settings, clock: ManualClock, database: Database) -> Iterator[TestClient]:
    app = create_app(settings, clock=clock, database=database)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c
