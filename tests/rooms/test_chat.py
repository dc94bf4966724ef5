"""The players' chat (issue 62, point 1): only the two seats read and write it, as plain
text up to 500 characters; either may switch it off; the computer's rooms have none; no
spectator's page of the record carries it."""

from __future__ import annotations

from typing import Any

import httpx
from sqlalchemy import select

from app.core.db import Database
from app.rooms.models import Seat

from .conftest import Api, Room


def say(api: Api, room: Room, token: str | None, text: str) -> httpx.Response:
    return api.client.post(
        f"/api/rooms/{room.id}/chat", json={"text": text}, headers=api.auth(token)
    )


def read(api: Api, room: Room, token: str | None) -> httpx.Response:
    return api.client.get(f"/api/rooms/{room.id}/chat", headers=api.auth(token))


def switch(api: Api, room: Room, token: str | None, on: bool) -> httpx.Response:
    return api.client.post(
        f"/api/rooms/{room.id}/chat/switch", json={"on": on}, headers=api.auth(token)
    )


def texts(body: dict[str, Any]) -> list[tuple[str, str]]:
    return [(m["seat"], m["text"]) for m in body["messages"]]


def record(api: Api, room: Room, token: str | None = None) -> list[dict[str, Any]]:
    r = api.client.get(f"/api/rooms/{room.id}/events", headers=api.auth(token))
    assert r.status_code == 200, r.text
    events: list[dict[str, Any]] = r.json()["events"]
    return events


def test_the_two_players_talk_and_read_it_as_written(api: Api) -> None:
    room = api.create()
    hello = "Good luck! <b>away</b> this weekend &amp; back Monday\nsee you"
    r = say(api, room, room.creator, f"  {hello}  ")
    assert r.status_code == 200, r.text
    assert texts(r.json()) == [("creator", hello)]  # trimmed, never rewritten as markup
    assert say(api, room, room.joiner, "Thanks, have fun").status_code == 200
    for token in (room.creator, room.joiner):
        body = read(api, room, token).json()
        assert texts(body) == [("creator", hello), ("joiner", "Thanks, have fun")]
        assert (body["off"], body["opponent_off"]) == (False, False)
    assert read(api, room, room.joiner).headers["cache-control"] == "no-store"


def test_spectators_never_see_it(api: Api) -> None:
    room = api.create()
    assert say(api, room, room.creator, "a secret between us").status_code == 200
    for token in (None,):
        r = read(api, room, token)
        assert (r.status_code, r.json()["code"]) == (403, "players_only")
        w = say(api, room, token, "let me in")
        assert (w.status_code, w.json()["code"]) == (403, "players_only")
        s = switch(api, room, token, False)
        assert (s.status_code, s.json()["code"]) == (403, "players_only")
    assert read(api, room, "stranger").json()["code"] == "wrong_token"
    # The record: a spectator's page has no chat, nor any trace of its text.
    public = record(api, room)
    assert [e["kind"] for e in public] == ["created", "joined"]
    assert "secret" not in str(public)
    assert api.view(room)["you"] is None and "secret" not in str(api.view(room))
    # Each player's page has it.
    for token in (room.creator, room.joiner):
        [chat] = [e for e in record(api, room, token) if e["kind"] == "chat"]
        assert chat["data"]["text"] == "a secret between us" and chat["data"]["seat"] == "creator"


def test_length_and_hidden_characters_are_refused(api: Api) -> None:
    room = api.create()
    assert say(api, room, room.creator, "é" * 500).status_code == 200
    long = say(api, room, room.creator, "é" * 501)
    assert long.status_code == 422
    for bad in ("   ", "bell\x07", "turn \u202eover"):
        r = say(api, room, room.creator, bad)
        assert r.status_code == 422, bad
    assert len(read(api, room, room.creator).json()["messages"]) == 1


def test_either_player_switches_it_off(api: Api) -> None:
    room = api.create()
    assert say(api, room, room.creator, "first").status_code == 200
    r = switch(api, room, room.joiner, False)
    assert r.status_code == 200 and r.json()["off"] is True
    assert r.json()["messages"] == []  # nothing more is shown to them
    assert api.view(room, room.joiner)["you"]["chat"] == {"off": True, "opponent_off": False}
    assert api.view(room, room.creator)["you"]["chat"] == {"off": False, "opponent_off": True}
    own = say(api, room, room.joiner, "hello?")
    assert (own.status_code, own.json()["code"]) == (409, "chat_off")
    theirs = say(api, room, room.creator, "are you there?")
    assert (theirs.status_code, theirs.json()["code"]) == (409, "chat_off_opponent")
    assert texts(read(api, room, room.creator).json()) == [("creator", "first")]
    assert switch(api, room, room.joiner, False).status_code == 200  # already off: no change
    switched = [e for e in record(api, room, room.creator) if e["kind"] == "chat_switched"]
    assert [(e["data"]["seat"], e["data"]["on"]) for e in switched] == [("joiner", False)]
    back = switch(api, room, room.joiner, True)
    assert texts(back.json()) == [("creator", "first")]
    assert say(api, room, room.creator, "welcome back").status_code == 200


def test_no_chat_before_the_opponent_or_against_the_computer(api: Api, database: Database) -> None:
    waiting = api.create(join=False)
    r = say(api, waiting, waiting.creator, "anyone?")
    assert (r.status_code, r.json()["code"]) == (409, "waiting_for_opponent")
    room = api.create()
    with database.session() as session, session.begin():
        seat = session.scalars(
            select(Seat).where(Seat.room_id == room.id, Seat.role == "joiner")
        ).one()
        seat.computer_level = "tamer"
    r = say(api, room, room.creator, "hello computer")
    assert (r.status_code, r.json()["code"]) == (409, "no_chat")
    assert read(api, room, room.creator).json()["code"] == "no_chat"
    assert api.view(room, room.creator)["you"]["chat"] is None


def test_the_chat_goes_on_after_the_game(api: Api) -> None:
    room = api.create()
    api.action(room, room.creator, "resign")
    assert say(api, room, room.joiner, "good game").status_code == 200
    assert texts(read(api, room, room.creator).json()) == [("joiner", "good game")]
