"""Notifications stored with their text before revision 0015 keep it and are sent as they
are; the downgrade gives them their payload back (issue 59, point 2)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import MetaData, create_engine, insert, select

from app.core.migrate import downgrade, upgrade
from app.notify.delivery import Claimed, payload
from app.notify.models import Channel
from tests.rooms.conftest import DIALECTS, migrated_to

RENDERED = {
    "title": "Your move · English",
    "body": "Drums player played 11-15.",
    "url": "/r/old",
    "tag": "room-old-game-1",
    "lang": "en",
    "app": "Checkers",
}


@pytest.fixture(params=DIALECTS)
def database_at_0014(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    """An empty database migrated to revision 0014 only."""
    with migrated_to(request, tmp_path, "0014") as url:
        yield url


def _tables(url: str) -> Any:
    engine = create_engine(url)
    meta = MetaData()
    meta.reflect(engine)
    return engine, meta.tables


def test_rendered_notifications_are_sent_as_they_are(database_at_0014: str) -> None:
    url = database_at_0014
    engine, tables = _tables(url)
    at = datetime(2026, 12, 9, 12, 0, tzinfo=UTC)
    if engine.dialect.name == "sqlite":
        at = at.replace(tzinfo=None)
    with engine.begin() as conn:
        conn.execute(
            insert(tables["rooms"]).values(
                id="old",
                rule_set="english",
                status=20,
                current_game_number=1,
                version=0,
                created_at=at,
                last_active_at=at,
            )
        )
        seat_id = conn.execute(
            insert(tables["seats"])
            .values(room_id="old", role="joiner", joined_at=at, push_on=True)
            .returning(tables["seats"].c.id)
        ).scalar_one()
        common = {"room_id": "old", "seat_id": seat_id, "game_number": 1, "created_at": at}
        for kind, channel, stored in (
            ("move", "push", RENDERED),
            ("confirm_address", "email", {"nonce": "n"}),
        ):
            conn.execute(
                insert(tables["notifications"]).values(
                    **common,
                    channel=channel,
                    kind=kind,
                    payload=stored,
                    due_at=at,
                    attempts=0,
                    state="pending",
                )
            )
    engine.dispose()

    upgrade(url)
    engine, tables = _tables(url)
    with engine.connect() as conn:
        rows = conn.execute(
            select(tables["notifications"].c.kind, tables["notifications"].c.params).order_by(
                tables["notifications"].c.id
            )
        ).all()
    engine.dispose()
    assert [tuple(row) for row in rows] == [
        ("move", {"rendered": RENDERED}),
        ("confirm_address", {"nonce": "n"}),
    ]
    claimed = Claimed(
        id=1,
        room_id="old",
        channel=Channel.PUSH,
        attempts=1,
        game_number=1,
        params=rows[0][1],
        language="ru",  # the text was written before: it is not rendered again
        zone=None,
        subscription_id=None,
        subscription=None,
        email_id=None,
        kind="move",
        address=None,
        base_url=None,
    )
    assert payload(claimed) == RENDERED

    downgrade(url, "0014")
    engine, tables = _tables(url)
    with engine.connect() as conn:
        back = conn.execute(
            select(tables["notifications"].c.payload, tables["notifications"].c.state).order_by(
                tables["notifications"].c.id
            )
        ).all()
    engine.dispose()
    assert [tuple(row) for row in back] == [(RENDERED, "pending"), ({"nonce": "n"}, "pending")]
