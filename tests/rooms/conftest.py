"""API fixtures: an app on the parametrised database with a manual clock, and a small
client that plays as the two seats."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from app.core.clock import ManualClock
from app.core.db import Database
from app.core.migrate import upgrade
from app.core.settings import Settings
from app.main import create_app
from checkers_engine import Board, Move


def played_row(board: Board, move: Move, ply: int, at: datetime) -> dict[str, Any]:
    """Play `move` on `board` and return its row of the `moves` table, as the service
    writes it (an upgrade test stores games through an old schema with these)."""
    irreversible, side = board.is_irreversible(move), board.turn
    board.push(move)
    return {
        "ply": ply,
        "side": side.value,
        "notation": move.notation(),
        "path": list(move.path),
        "captured": list(move.captured),
        "crowned": move.crowns,
        "irreversible": irreversible,
        "fen_after": board.fen(),
        "created_at": at,
    }


# The two databases an upgrade test runs on (its fixture's `request.param`).
DIALECTS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


@contextmanager
def migrated_to(request: pytest.FixtureRequest, tmp_path: Any, revision: str) -> Iterator[str]:
    """An empty database of the test's kind (`request.param`: one of `DIALECTS`),
    migrated to `revision` only, for an upgrade test to fill as that schema stood."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path}/old.sqlite3"
        upgrade(url, revision)
        yield url
        return
    postgres = request.getfixturevalue("postgres")
    url = postgres.create("checkers_upg")
    try:
        upgrade(url, revision)
        yield url
    finally:
        postgres.drop(url)


@dataclass
class Room:
    id: str
    creator: str  # the creator's token
    joiner: str | None = None


class Api:
    """Thin helpers over the HTTP API (every call goes through the real routes)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client

    @staticmethod
    def auth(token: str | None) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"} if token else {}

    def create(self, rule_set: str = "english", *, join: bool = True) -> Room:
        r = self.client.post("/api/rooms", json={"rule_set": rule_set})
        assert r.status_code == 201, r.text
        room = Room(r.json()["room_id"], r.json()["token"])
        if join:
            j = self.client.post(f"/api/rooms/{room.id}/join")
            assert j.status_code == 200, j.text
            room.joiner = j.json()["token"]
        return room

    def view(self, room: Room, token: str | None = None) -> dict[str, Any]:
        r = self.client.get(f"/api/rooms/{room.id}", headers=self.auth(token))
        assert r.status_code == 200, r.text
        return r.json()

    def move(
        self, room: Room, token: str | None, move: str, expected_ply: int | None = None
    ) -> httpx.Response:
        if expected_ply is None:
            expected_ply = self.view(room)["game"]["ply"]
        return self.client.post(
            f"/api/rooms/{room.id}/moves",
            json={"move": move, "expected_ply": expected_ply},
            headers=self.auth(token),
        )

    def token_to_move(self, room: Room) -> str:
        view = self.view(room)
        seat = (
            view["game"]["drums_seat"]
            if view["game"]["turn"] == "drums"
            else (view["game"]["tires_seat"])
        )
        token = room.creator if seat == "creator" else room.joiner
        assert token is not None
        return token

    def other(self, room: Room, token: str) -> str:
        other = room.joiner if token == room.creator else room.creator
        assert other is not None
        return other

    def play(self, room: Room, *moves: str) -> dict[str, Any]:
        """Play `moves` in order, each by the seat to move; returns the last view."""
        view: dict[str, Any] = {}
        for text in moves:
            r = self.move(room, self.token_to_move(room), text)
            assert r.status_code == 200, r.text
            view = r.json()
        return view

    def action(
        self, room: Room, token: str | None, what: str, action: str | None = None
    ) -> httpx.Response:
        body = {"action": action} if action else None
        return self.client.post(f"/api/rooms/{room.id}/{what}", json=body, headers=self.auth(token))


@pytest.fixture
def app_client(settings: Settings, clock: ManualClock, database: Database) -> Iterator[TestClient]:
    app = create_app(settings, clock=clock, database=database)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


@pytest.fixture
def api(app_client: TestClient) -> Api:
    return Api(app_client)
