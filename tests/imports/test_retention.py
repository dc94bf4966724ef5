"""Issue 58, point 8: imported games are kept no longer than promised. With RETAIN_DAYS
(or their own IMPORT_RETAIN_DAYS) set, each is deleted that long after its import, its
computer review with it; with neither set they are kept forever."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from app.computer import review
from app.core.clock import ManualClock
from app.core.context import Context
from app.core.db import Database
from app.core.settings import Settings
from app.imports.jobs import RETENTION_JOB_ID, purge
from app.main import create_app
from app.rooms.jobs import sweep

GAME = "1. 11-15 22-18 2. 15x22 25x18 *\n"

Opened = Callable[..., tuple[TestClient, Settings]]


@pytest.fixture
def opened(settings: Settings, clock: ManualClock, database: Database) -> Iterator[Opened]:
    """`opened(**settings)`: a client of an app with those settings changed."""
    clients: list[TestClient] = []

    def open_app(**changes: Any) -> tuple[TestClient, Settings]:
        changed = settings.model_copy(update=changes)
        client = TestClient(create_app(changed, clock=clock, database=database))
        clients.append(client.__enter__())
        return client, changed

    yield open_app
    for client in clients:
        client.__exit__(None, None, None)


def imported(client: TestClient, games: int = 1) -> list[str]:
    answer = client.post(
        "/api/imports", content=(GAME * games).encode(), headers={"content-type": "text/plain"}
    )
    assert answer.status_code == 201, answer.text
    return [game["id"] for game in answer.json()["games"]]


def reviewed(database: Database, settings: Settings, clock: ManualClock, game_id: str) -> None:
    """A computer review of the game, stored as a request for one stores it."""
    with database.session() as session:
        _, new = review.request_for_import(
            session,
            imported_id=game_id,
            ctx=Context(clock.now(), settings),
            client="127.0.0.1",
            admit=lambda: None,
        )
    assert new


def count(database: Database, table: str) -> int:
    with database.engine.connect() as conn:
        return int(conn.scalar(text(f"SELECT count(*) FROM {table}")) or 0)


def test_imported_games_and_their_reviews_go_after_retain_days(
    opened: Opened, database: Database, clock: ManualClock
) -> None:
    client, settings = opened(retain_days=30, retention_batch_size=2)
    old = imported(client, 3)  # day 0: more than one batch
    reviewed(database, settings, clock, old[0])
    clock.advance(days=20)
    recent = imported(client)
    reviewed(database, settings, clock, recent[0])
    clock.advance(days=10)  # day 30: old's thirty days are not over yet
    assert purge(database, clock, settings) == 0
    clock.advance(seconds=1)
    assert purge(database, clock, settings) == 3
    assert (count(database, "imported_games"), count(database, "reviews")) == (1, 1)
    for game_id in old:
        assert client.get(f"/api/imported-games/{game_id}").status_code == 404
        assert client.get(f"/api/imported-games/{game_id}/review").status_code == 404
        assert client.get(f"/imported/{game_id}").status_code == 404
    assert client.get(f"/api/imported-games/{recent[0]}").status_code == 200
    clock.advance(days=20)
    assert purge(database, clock, settings) == 1
    assert (count(database, "imported_games"), count(database, "reviews")) == (0, 0)


def test_imported_games_may_have_a_retention_of_their_own(
    opened: Opened, database: Database, clock: ManualClock
) -> None:
    """IMPORT_RETAIN_DAYS alone: imported games go after it, finished rooms stay."""
    client, settings = opened(import_retain_days=7)
    assert settings.retain is None and settings.import_retain == timedelta(days=7)
    room = client.post("/api/rooms", json={"rule_set": "english"}).json()
    client.post(f"/api/rooms/{room['room_id']}/join")
    auth = {"Authorization": f"Bearer {room['token']}"}
    assert client.post(f"/api/rooms/{room['room_id']}/resign", headers=auth).status_code == 200
    imported(client, 2)
    clock.advance(days=7, seconds=1)
    sweep(database, clock, settings)
    assert purge(database, clock, settings) == 2
    assert count(database, "imported_games") == 0
    assert client.get(f"/api/rooms/{room['room_id']}").status_code == 200
    # And it wins over RETAIN_DAYS either way.
    longer = settings.model_copy(update={"retain_days": 1, "import_retain_days": 400})
    assert longer.import_retain == timedelta(days=400)


def test_without_a_retention_imported_games_are_kept(
    opened: Opened, database: Database, clock: ManualClock
) -> None:
    client, settings = opened()
    assert settings.retain_days is None and settings.import_retain is None
    imported(client, 2)
    clock.advance(days=3650)
    assert purge(database, clock, settings) == 0
    assert count(database, "imported_games") == 2


def test_the_scheduled_jobs_apply_it(database: Database, clock: ManualClock) -> None:
    settings = Settings(
        database_url=database.url,
        migrate_on_start=False,
        scheduler_enabled=True,
        sweep_interval_seconds=3600,
        retain_days=30,
    )
    app = create_app(settings, clock=clock, database=database)
    with TestClient(app):
        job = app.state.scheduler.get_job(RETENTION_JOB_ID)
        assert job is not None and job.trigger.interval == timedelta(hours=1)
