"""Acceptance (issue 14): data retention. Finished and expired rooms are kept for
RETAIN_DAYS after their last activity (forever by default), then the sweep deletes them
in batches with everything they hold: seats, games, moves, offers, events and device
links. Rooms still in play or waiting are never deleted."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from app.core.clock import ManualClock
from app.core.db import Database
from app.core.settings import Settings
from app.main import create_app
from app.rooms.jobs import sweep

from .conftest import Api, Room

TABLES = ("rooms", "seats", "games", "moves", "offers", "events", "seat_transfers")
SAME_ORIGIN = {"Origin": "http://testserver"}


def _rows(database: Database, room_id: str) -> dict[str, int]:
    """Rows of each table that belong to the room."""
    queries = {
        "rooms": "SELECT count(*) FROM rooms WHERE id = :r",
        "seats": "SELECT count(*) FROM seats WHERE room_id = :r",
        "games": "SELECT count(*) FROM games WHERE room_id = :r",
        "moves": "SELECT count(*) FROM moves JOIN games ON games.id = moves.game_id "
        "WHERE games.room_id = :r",
        "offers": "SELECT count(*) FROM offers JOIN games ON games.id = offers.game_id "
        "WHERE games.room_id = :r",
        "events": "SELECT count(*) FROM events WHERE room_id = :r",
        "seat_transfers": "SELECT count(*) FROM seat_transfers JOIN seats "
        "ON seats.id = seat_transfers.seat_id WHERE seats.room_id = :r",
    }
    with database.engine.connect() as conn:
        return {
            t: int(conn.execute(text(q), {"r": room_id}).scalar_one()) for t, q in queries.items()
        }


@pytest.fixture
def retaining(settings: Settings, clock: ManualClock, database: Database) -> Iterator[Api]:
    changed = settings.model_copy(update={"retain_days": 30, "retention_batch_size": 2})
    app = create_app(changed, clock=clock, database=database)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield Api(client)


def _finished_with_everything(api: Api) -> Room:
    """A page room (so a device link exists) with moves, offers and a resignation."""
    client = api.client
    created = client.post("/r", json={"rule_set": "english"}, headers=SAME_ORIGIN)
    room = Room(created.json()["room_id"], created.cookies["seat"])
    room.joiner = client.post(f"/api/rooms/{room.id}/join").json()["token"]
    api.play(room, "11-15", "22-18")
    assert api.action(room, room.creator, "draw", "offer").status_code == 200
    link = client.post(f"/r/{room.id}/device-link", headers=SAME_ORIGIN)
    assert link.status_code == 200
    assert api.action(room, room.joiner, "resign").status_code == 200
    return room


def test_finished_and_expired_rooms_are_deleted_after_retain_days(
    retaining: Api, database: Database, clock: ManualClock
) -> None:
    settings = retaining.client.app.state.settings  # type: ignore[attr-defined]

    def days(n: int) -> None:
        clock.advance(days=n)
        sweep(database, clock, settings)

    old = [_finished_with_everything(retaining) for _ in range(3)]  # day 0
    abandoned = retaining.create()
    retaining.play(abandoned, "11-15")
    waiting = retaining.create(join=False)
    assert all(v for v in _rows(database, old[0].id).values())
    days(8)  # abandoned and waiting expire now; the old ones closed to rematches at day 7
    assert retaining.view(abandoned)["status"] == "expired"
    days(12)  # day 20
    recent = _finished_with_everything(retaining)
    playing = retaining.create()
    days(6)
    retaining.play(playing, "11-15")
    days(5)  # day 31: the old rooms' last activity is 31 days ago
    for room in old:
        assert _rows(database, room.id) == dict.fromkeys(TABLES, 0), room.id
        assert retaining.client.get(f"/api/rooms/{room.id}").status_code == 404
    for room in (abandoned, waiting, recent, playing):
        assert _rows(database, room.id)["rooms"] == 1
    assert retaining.view(playing)["status"] == "playing"
    days(8)  # day 39: the rooms that expired at day 8 have had their 30 days
    for room in (abandoned, waiting):
        assert _rows(database, room.id) == dict.fromkeys(TABLES, 0), room.id
    assert retaining.view(recent)["status"] == "expired"  # closed to rematches, still kept
    days(12)  # day 51
    assert _rows(database, recent.id)["rooms"] == 0


def test_rooms_are_kept_forever_by_default(
    api: Api, database: Database, clock: ManualClock, settings: Settings
) -> None:
    assert settings.retain_days is None
    room = api.create()
    assert api.action(room, room.creator, "resign").status_code == 200
    clock.advance(days=3650)
    sweep(database, clock, settings)
    assert _rows(database, room.id)["rooms"] == 1
    assert api.view(room)["status"] == "expired"
