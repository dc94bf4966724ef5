"""Private notes (issue 62, point 3): a player keeps notes on a game, on the whole game or
after any move; only that seat ever reads them."""

from __future__ import annotations

from typing import Any

import httpx

from .conftest import Api, Room


def note(api: Api, room: Room, token: str | None, ply: int, text: str, game: int = 1) -> Any:
    return api.client.post(
        f"/api/rooms/{room.id}/games/{game}/notes",
        json={"ply": ply, "text": text},
        headers=api.auth(token),
    )


def notes(api: Api, room: Room, token: str | None, game: int = 1) -> httpx.Response:
    return api.client.get(f"/api/rooms/{room.id}/games/{game}/notes", headers=api.auth(token))


def kept(api: Api, room: Room, token: str) -> list[tuple[int, str]]:
    r = notes(api, room, token)
    assert r.status_code == 200, r.text
    return [(n["ply"], n["text"]) for n in r.json()["notes"]]


def test_each_seat_keeps_its_own_notes_per_move(api: Api) -> None:
    room = api.create()
    api.play(room, "11-15", "22-18")
    assert room.joiner is not None
    assert note(api, room, room.creator, 2, "He always plays 22-18 <here>").status_code == 200
    assert note(api, room, room.creator, 0, "A friendly game").status_code == 200
    assert note(api, room, room.joiner, 1, "the Old Fourteenth?").status_code == 200
    assert kept(api, room, room.creator) == [
        (0, "A friendly game"),
        (2, "He always plays 22-18 <here>"),
    ]
    assert kept(api, room, room.joiner) == [(1, "the Old Fourteenth?")]
    # Replaced, then forgotten by a blank text.
    note(api, room, room.creator, 2, "second thoughts")
    assert kept(api, room, room.creator)[1] == (2, "second thoughts")
    note(api, room, room.creator, 2, "   ")
    assert kept(api, room, room.creator) == [(0, "A friendly game")]
    assert notes(api, room, room.creator).headers["cache-control"] == "no-store"


def test_nobody_else_ever_sees_them(api: Api) -> None:
    room = api.create()
    api.play(room, "11-15")
    note(api, room, room.creator, 1, "secret plan: the Dyke")
    r = notes(api, room, None)
    assert (r.status_code, r.json()["code"]) == (403, "players_only")
    w = note(api, room, None, 1, "mine now")
    assert (w.status_code, w.json()["code"]) == (403, "players_only")
    assert notes(api, room, "stranger").status_code == 403
    for token in (None, room.creator, room.joiner):
        assert "Dyke" not in str(api.view(room, token))
    assert "Dyke" not in api.client.get(f"/api/rooms/{room.id}/events").text
    assert "Dyke" not in api.client.get(f"/api/rooms/{room.id}/games/1.pdn").text
    assert "Dyke" not in api.client.get(f"/api/rooms/{room.id}/games/1").text


def test_a_note_needs_a_move_that_was_played(api: Api) -> None:
    room = api.create()
    api.play(room, "11-15")
    late = note(api, room, room.creator, 2, "too soon")
    assert late.status_code == 422
    assert notes(api, room, room.creator, game=2).json()["code"] == "game_not_found"
    assert note(api, room, room.creator, 1, "x" * 2001).status_code == 422
    assert note(api, room, room.creator, 1, "bad\x00byte").status_code == 422
    assert kept(api, room, room.creator) == []
