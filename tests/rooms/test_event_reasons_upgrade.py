"""The reasons of the event record, stored as English before revision 0016, become facts,
and back (issue 59, point 3).

Events are written at revision 0015 through the schema reflected there, with the English
the service wrote: a game's end (its game already keeps its facts) and a room's expiry or
closing. After the upgrade each holds `reason_code` and `reason_params` and no sentence;
the API's record says the same English `reason` as before, rendered from those facts; the
downgrade writes the stored English back.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import MetaData, create_engine, insert, select

from app.core.db import Database
from app.core.migrate import downgrade, upgrade
from app.core.settings import Settings
from app.main import create_app
from app.rooms.models import Event
from checkers_engine import Board

from .conftest import DIALECTS, Api, migrated_to

# kind, the game's facts (a game_over's), the English the event stored, its facts
STORED: list[tuple[str, str | None, dict[str, Any], str, str, dict[str, Any]]] = [
    ("game_over", "resigned", {"side": "drums"}, "drums resigned", "resigned", {"side": "drums"}),
    (
        "game_over",
        "move_limit",
        {"plies": 300},
        "the 300-ply limit was reached",
        "move_limit",
        {"plies": 300},
    ),
    ("game_over", "agreed", {}, "agreed by both players", "agreed", {}),
    (
        "expired",
        None,
        {},
        "nobody joined within 7 days",
        "nobody_joined",
        {"seconds": 604800},
    ),
    ("expired", None, {}, "expired: no move for 36 hours", "expired", {"seconds": 129600}),
    (
        "expired",
        None,
        {},
        "closed to rematches: no rematch within 90 minutes",
        "closed",
        {"seconds": 5400},
    ),
]


@pytest.fixture(params=DIALECTS)
def database_at_0015(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    """An empty database migrated to revision 0015 only."""
    with migrated_to(request, tmp_path, "0015") as url:
        yield url


def _store(url: str) -> None:
    """A finished room per stored reason, whose record's one event says it in English."""
    engine = create_engine(url)
    meta = MetaData()
    meta.reflect(engine)
    rooms, games, events = (meta.tables[t] for t in ("rooms", "games", "events"))
    at = datetime(2026, 12, 9, 12, 0, tzinfo=UTC)
    if engine.dialect.name == "sqlite":
        at = at.replace(tzinfo=None)
    board = Board("english")
    with engine.begin() as conn:
        for number, (kind, code, params, english, _, _) in enumerate(STORED):
            room_id = f"old-{number}"
            conn.execute(
                insert(rooms).values(
                    id=room_id,
                    rule_set="english",
                    status=30,
                    current_game_number=1,
                    version=1,
                    created_at=at,
                    last_active_at=at,
                    next_check_at=None,
                )
            )
            conn.execute(
                insert(games).values(
                    room_id=room_id,
                    number=1,
                    drums_seat="creator",
                    status=30,
                    fen=board.fen(),
                    ply=0,
                    turn=board.turn.value,
                    termination="expired" if kind == "expired" else "agreement",
                    reason_code=code or "expired",
                    reason_params=params,
                    created_at=at,
                    turn_started_at=at,
                    claim_notified=False,
                    ended_at=at,
                )
            )
            conn.execute(
                insert(events).values(
                    room_id=room_id,
                    version=1,
                    kind=kind,
                    data={"game": 1, "reason": english},
                    created_at=at,
                )
            )
    engine.dispose()


def _data(url: str) -> list[dict[str, Any]]:
    engine = create_engine(url)
    meta = MetaData()
    meta.reflect(engine)
    events = meta.tables["events"]
    with engine.connect() as conn:
        found = conn.execute(select(events.c.data).order_by(events.c.room_id)).scalars().all()
    engine.dispose()
    return [dict(data) for data in found]


def test_event_reasons_become_facts_and_back(database_at_0015: str) -> None:
    url = database_at_0015
    _store(url)
    before = _data(url)
    upgrade(url)

    after = _data(url)
    assert after == [
        {"game": 1, "reason_code": code, "reason_params": params} for *_, code, params in STORED
    ]

    database = Database(url)
    settings = Settings(
        database_url=url,
        scheduler_enabled=False,
        migrate_on_start=False,
        rate_limit_enabled=False,
        log_level="WARNING",
    )
    with TestClient(create_app(settings, database=database)) as client:
        for number, (kind, _, _, english, code, params) in enumerate(STORED):
            [event] = client.get(f"/api/rooms/old-{number}/events").json()["events"]
            assert event["kind"] == kind
            assert event["data"] == {
                "game": 1,
                "reason": english,
                "reason_code": code,
                "reason_params": params,
            }
    database.dispose()

    downgrade(url, "0015")
    assert _data(url) == before


def test_the_record_stores_facts_and_says_english(api: Api, database: Database) -> None:
    """A resignation's end is stored in the record as facts only; the record reads it
    back with the API's English beside them."""
    room = api.create()
    assert api.action(room, room.creator, "resign").status_code == 200
    with database.engine.connect() as conn:
        stored = conn.execute(
            select(Event.data).where(Event.room_id == room.id, Event.kind == "game_over")
        ).scalar_one()
    assert "reason" not in stored
    assert stored["reason_code"] == "resigned"
    [event] = [
        e
        for e in api.client.get(f"/api/rooms/{room.id}/events").json()["events"]
        if e["kind"] == "game_over"
    ]
    assert event["data"]["reason"] == f"{stored['reason_params']['side']} resigned"
