"""The computer's review of finished games: every position evaluated by the Executive
through the computer's own queue, a planted blunder found with the shot that punishes it,
one review per game, resumed after a restart, and in the PDN."""

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

# Drums to move: 14-17 lets the tires' man on 21 take 17 and 10 (21x14x7), and nothing
# takes it back; 4-8, 10-15, 18-22 or 18-23 lose nothing.
BLUNDER_FEN = "B:W13,16,21,29,30:B4,5,10,14,18"


def quick(settings: Settings) -> Settings:
    return settings.model_copy(
        update={
            "computer_workers": 1,
            "computer_time_limit": 0.05,
            "review_seconds_per_position": 0.05,
        }
    )


@pytest.fixture
def client(settings: Settings, clock: ManualClock, database: Database) -> Iterator[TestClient]:
    with TestClient(create_app(quick(settings), clock=clock, database=database)) as c:
        yield c


def blundered(api: Api, database: Database, settings: Settings, clock: ManualClock) -> Room:
    """A finished game: the drums blunder, the tires take two, the drums resign."""
    with database.session() as session:
        granted = service.create_room(
            session, rule_set="english", ctx=Context(clock.now(), settings), first_fen=BLUNDER_FEN
        )
    room = Room(granted.room_id, granted.token)
    room.joiner = api.client.post(f"/api/rooms/{room.id}/join").json()["token"]
    api.play(room, "14-17", "21x14x7")
    assert api.action(room, room.creator, "resign").status_code == 200
    return room


def finished(api: Api, path: str, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        review: dict[str, Any] = api.client.get(path).json()
        if review.get("status") == "done" or time.monotonic() > deadline:
            return review
        time.sleep(0.1)


def test_a_planted_blunder_is_found_with_the_shot(
    client: TestClient, database: Database, settings: Settings, clock: ManualClock
) -> None:
    api = Api(client)
    room = blundered(api, database, settings, clock)
    path = f"/api/rooms/{room.id}/games/1/review"
    assert client.get(path).json()["code"] == "review_not_found"
    asked = client.post(path)
    assert asked.status_code == 202, asked.text
    assert asked.json()["positions"] == 3 and asked.json()["done"] < 3
    review = finished(api, path)
    assert review["status"] == "done" and review["done"] == 3
    assert all(score is not None for score in review["graph"])  # every position evaluated
    first, second = review["moves"]
    assert first["move"]["engine_notation"] == "14-17" and first["judgement"] == "blunder"
    assert first["loss"] >= 150
    assert first["best"]["engine_notation"] in {"4-8", "10-15", "18-22", "18-23"}
    # The better reply to the blunder is the shot itself, which the tires found.
    assert second["best"]["engine_notation"] == "21x14x7" and second["judgement"] is None
    # Asking again returns the same review; anyone with the link may ask.
    again = client.post(path)
    assert again.status_code == 200 and again.json()["graph"] == review["graph"]
    pdn = client.get(f"/api/rooms/{room.id}/games/1/review.pdn").text
    assert "{eval -" in pdn and "blunder, best" in pdn


def test_only_a_finished_game_is_reviewed(client: TestClient) -> None:
    api = Api(client)
    room = api.create()
    api.play(room, "11-15")
    r = client.post(f"/api/rooms/{room.id}/games/1/review")
    assert r.status_code == 409 and r.json()["code"] == "game_not_finished"
    assert client.post("/api/rooms/nope/games/1/review").status_code == 404


def test_a_review_resumes_after_a_restart(
    settings: Settings, clock: ManualClock, database: Database
) -> None:
    first = create_app(quick(settings), clock=clock, database=database)
    first.state.computer.kick = lambda key, client=None: None  # the process dies first
    with TestClient(first) as c:
        api = Api(c)
        room = blundered(api, database, settings, clock)
        path = f"/api/rooms/{room.id}/games/1/review"
        assert c.post(path).json()["done"] == 0
    with TestClient(create_app(quick(settings), clock=clock, database=database)) as c2:
        review = finished(Api(c2), path)
        assert review["status"] == "done" and None not in review["graph"]


def test_an_imported_game_is_reviewed(client: TestClient) -> None:
    pdn = (
        '[GameType "21"]\n[FEN "B:W13,16,21,29,30:B4,5,10,14,18"]\n[Result "0-1"]\n\n'
        "1. 14-17 21x14x7 0-1\n"
    )
    imported = client.post("/api/imports", json={"pdn": pdn})
    assert imported.status_code == 201, imported.text
    game_id = imported.json()["games"][0]["id"]
    path = f"/api/imported-games/{game_id}/review"
    assert client.post(path).status_code == 202
    review = finished(Api(client), path)
    assert review["moves"][0]["judgement"] == "blunder"
