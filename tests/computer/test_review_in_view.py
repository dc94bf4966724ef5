"""The room view says which of its games have a computer review (`review_url`), so that a
page asks for a review only when there is one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.core.clock import ManualClock
from app.core.db import Database
from app.core.settings import Settings
from app.main import create_app
from tests.rooms.conftest import Api

from .test_review import blundered, quick


@pytest.fixture
def client(settings: Settings, clock: ManualClock, database: Database) -> Iterator[TestClient]:
    with TestClient(create_app(quick(settings), clock=clock, database=database)) as c:
        yield c


def test_the_room_view_says_which_games_have_a_review(
    client: TestClient, database: Database, settings: Settings, clock: ManualClock
) -> None:
    api = Api(client)
    reviewed, other = (blundered(api, database, settings, clock) for _ in range(2))
    for room in (reviewed, other):
        (summary,) = client.get(f"/api/rooms/{room.id}").json()["games"]
        assert summary["review_url"] is None
        assert client.get(f"/api/rooms/{room.id}/games/1/review").status_code == 404
    assert client.post(f"/api/rooms/{reviewed.id}/games/1/review").status_code == 202
    (summary,) = client.get(f"/api/rooms/{reviewed.id}").json()["games"]
    assert summary["review_url"] == f"/api/rooms/{reviewed.id}/games/1/review"
    assert client.get(summary["review_url"]).status_code == 200
    # Each seat's answer carries it too; the other room's game has none.
    seat = {"Authorization": f"Bearer {reviewed.creator}"}
    (summary,) = client.get(f"/api/rooms/{reviewed.id}", headers=seat).json()["games"]
    assert summary["review_url"] is not None
    (summary,) = client.get(f"/api/rooms/{other.id}").json()["games"]
    assert summary["review_url"] is None
