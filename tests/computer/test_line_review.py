"""After the game, the computer's review works on a player's own analysis lines (issue 62,
point 4): never while the game is in progress, only for the line's seat, and again for a
line changed since its review."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.clock import ManualClock
from app.core.context import Context
from app.core.db import Database
from app.core.settings import Settings
from app.main import create_app
from app.rooms import service
from tests.rooms.conftest import Api, Room

from .test_review import BLUNDER_FEN, quick


@pytest.fixture
def client(settings: Settings, clock: ManualClock, database: Database) -> Iterator[TestClient]:
    with TestClient(create_app(quick(settings), clock=clock, database=database)) as c:
        yield c


def review_of(api: Api, path: str, token: str, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        review: dict[str, Any] = api.client.get(path, headers=api.auth(token)).json()
        if review.get("status") == "done" or time.monotonic() > deadline:
            return review
        time.sleep(0.1)


def test_a_players_line_is_reviewed_once_the_game_is_over(
    client: TestClient, database: Database, settings: Settings, clock: ManualClock
) -> None:
    api = Api(client)
    with database.session() as session:
        granted = service.create_room(
            session, rule_set="english", ctx=Context(clock.now(), settings), first_fen=BLUNDER_FEN
        )
    room = Room(granted.room_id, granted.token)
    room.joiner = api.client.post(f"/api/rooms/{room.id}/join").json()["token"]
    assert room.joiner is not None
    lines = f"/api/rooms/{room.id}/games/1/analysis"
    # The drums' own line from the start: the blunder and the shot that punishes it.
    kept = api.client.post(
        lines, json={"moves": ["14-17", "21x14x7"]}, headers=api.auth(room.creator)
    ).json()
    line = kept["lines"][0]["id"]
    path = f"{lines}/{line}/review"
    during = api.client.post(path, headers=api.auth(room.creator))
    assert (during.status_code, during.json()["code"]) == (409, "game_not_over")
    api.play(room, "4-8")
    api.action(room, room.joiner, "resign")
    assert api.client.post(path).status_code == 403
    assert api.client.post(path, headers=api.auth(room.joiner)).status_code == 404
    asked = api.client.post(path, headers=api.auth(room.creator))
    assert asked.status_code == 202, asked.text
    review = review_of(api, path, room.creator)
    assert review["status"] == "done" and review["positions"] == 3
    first = review["moves"][0]
    assert first["move"]["engine_notation"] == "14-17"
    assert first["judgement"] == "blunder", review
    # Asking again is the same review; a changed line is reviewed afresh.
    assert api.client.post(path, headers=api.auth(room.creator)).status_code == 200
    changed = api.client.post(
        f"{lines}/{line}", json={"moves": ["10-15"]}, headers=api.auth(room.creator)
    )
    assert changed.status_code == 200, changed.text
    assert api.client.post(path, headers=api.auth(room.creator)).status_code == 202
    again = review_of(api, path, room.creator)
    assert [m["move"]["engine_notation"] for m in again["moves"]] == ["10-15"]
    # The game's own review is not the line's.
    assert api.client.get(f"/api/rooms/{room.id}/games/1/review").status_code == 404
