"""Rate limits shared between instances through Redis (`RATE_LIMIT_STORAGE=async+redis://`),
as the compose file runs them: what a client spent on one instance counts on the other.

Redis comes from TEST_REDIS_URL (default: the local server); when it is unreachable the
test skips, except under CI=true where it fails.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.core.db import Base, Database
from app.core.settings import Settings
from app.main import create_app
from tests import environment
from tests.environment import REDIS_URL


def _instance(database: Database, storage: str, client: str) -> TestClient:
    settings = Settings(
        database_url=database.url,
        scheduler_enabled=False,
        migrate_on_start=False,
        rate_limit_storage=storage,
        rate_limit_create="2/minute",
    )
    return TestClient(create_app(settings, database=database), client=(client, 50000))


@pytest.mark.parametrize("storage", ["redis", "memory"])
def test_two_instances_share_a_clients_limit_through_redis(tmp_path: Path, storage: str) -> None:
    if storage == "redis" and (reason := environment.missing_redis()):
        environment.unavailable(reason)
    uri = "async+" + REDIS_URL if storage == "redis" else "async+memory://"
    database = Database(f"sqlite:///{tmp_path}/shared.sqlite3")
    Base.metadata.create_all(database.engine)
    # A client address of its own per run: concurrent runs share the Redis server.
    client = f"client-{uuid.uuid4().hex}"
    with (
        _instance(database, uri, client) as first,
        _instance(database, uri, client) as second,
    ):
        assert [first.post("/api/rooms", json={}).status_code for _ in range(2)] == [201, 201]
        third = second.post("/api/rooms", json={})
        if storage == "redis":
            # The other instance knows the client has spent its share.
            assert third.status_code == 429
            assert third.json()["code"] == "rate_limited"
            assert int(third.headers["Retry-After"]) >= 1
        else:
            # Counted in each process's memory: the second instance has seen nothing.
            assert third.status_code == 201
    database.dispose()
