"""Acceptance (issue 14): a room's view stays bounded. It carries the current game in full
and a summary of the others, each fetched in full on demand; a room holds at most
MAX_GAMES_PER_ROOM games."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.core.clock import ManualClock
from app.core.db import Database
from app.core.settings import Settings
from app.main import create_app

from .conftest import Api, Room


@pytest.fixture
def capped(settings: Settings, clock: ManualClock, database: Database) -> Iterator[Api]:
    app = create_app(
        settings.model_copy(update={"max_games_per_room": 3}), clock=clock, database=database
    )
    with TestClient(app, raise_server_exceptions=False) as client:
        yield Api(client)


def _cycle(api: Api, room: Room) -> dict[str, object]:
    """The player to move resigns; the other offers a rematch, which is accepted."""
    token = api.token_to_move(room)
    assert api.action(room, token, "resign").status_code == 200
    other = api.other(room, token)
    offered = api.action(room, other, "rematch", "offer")
    if offered.status_code != 200:
        return dict(offered.json())
    accepted = api.action(room, token, "rematch", "accept")
    assert accepted.status_code == 200, accepted.text
    return dict(accepted.json())


def test_a_room_holds_at_most_max_games(capped: Api) -> None:
    room = capped.create()
    assert _cycle(capped, room)["game"]["number"] == 2  # type: ignore[index]
    assert _cycle(capped, room)["game"]["number"] == 3  # type: ignore[index]
    refused = _cycle(capped, room)
    assert refused["code"] == "game_limit" and refused["max_games"] == 3
    view = capped.view(room)
    assert len(view["games"]) == 3 and view["status"] == "finished"


def test_earlier_games_are_summaries_fetched_in_full_on_demand(api: Api) -> None:
    room = api.create()
    api.play(room, "11-15", "22-18", "15x22")
    for _ in range(2):
        _cycle(api, room)
    view = api.view(room)
    assert view["game"]["number"] == 3 and view["game"]["moves"] == []
    first = view["games"][0]
    assert first["number"] == 1 and first["plies"] == 3
    assert "moves" not in first  # a summary, not the game
    assert first["url"] == f"/api/rooms/{room.id}/games/1"
    assert first["pdn_url"] == f"/api/rooms/{room.id}/games/1.pdn"

    full = api.client.get(first["url"])
    assert full.status_code == 200, full.text
    game = full.json()
    assert (game["room_id"], game["number"], game["ply"]) == (room.id, 1, 3)
    assert [m["engine_notation"] for m in game["moves"]] == ["11-15", "22-18", "15x22"]
    assert game["moves"][-1]["fen_after"] == game["fen"]
    assert game["result"]["termination"] == "resignation"
    assert (game["drums_seat"], game["tires_seat"]) == ("creator", "joiner")
    assert api.client.get(f"/api/rooms/{room.id}/games/2").json()["drums_seat"] == "joiner"
    # The PDN route beside it is unchanged.
    assert api.client.get(first["pdn_url"]).headers["content-type"].startswith("application/x-pdn")
    assert api.client.get(f"/api/rooms/{room.id}/games/9").json()["code"] == "game_not_found"
    assert api.client.get(f"/api/rooms/{room.id}/games/0").status_code == 422
    assert api.client.get("/api/rooms/nope/games/1").status_code == 404
    paths = api.client.get("/openapi.json").json()["paths"]
    assert "/api/rooms/{room_id}/games/{number}" in paths


def test_the_view_stays_small_at_the_game_limit(api: Api, settings: Settings) -> None:
    room = api.create()
    small = len(api.client.get(f"/api/rooms/{room.id}").content)
    for _ in range(settings.max_games_per_room - 1):
        _cycle(api, room)
    assert _cycle(api, room)["code"] == "game_limit"
    view = api.client.get(f"/api/rooms/{room.id}")
    assert len(view.json()["games"]) == settings.max_games_per_room
    # Each earlier game costs its summary (~0.3 KB), never its moves.
    assert len(view.content) < small + 350 * settings.max_games_per_room
