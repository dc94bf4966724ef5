"""The analysis board's kept lines (issue 62, point 4): a player keeps lines for both sides
from any position of a game, in all six rule sets, for that seat alone; a line from the
current position that starts with the opponent's move becomes conditional moves."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from checkers_engine import RULE_SETS, Board

from .conftest import Api, Room


def url(room: Room, game: int = 1) -> str:
    return f"/api/rooms/{room.id}/games/{game}/analysis"


def keep(api: Api, room: Room, token: str | None, moves: list[str], from_ply: int = 0) -> Any:
    return api.client.post(
        url(room), json={"from_ply": from_ply, "moves": moves}, headers=api.auth(token)
    )


def lines(api: Api, room: Room, token: str | None) -> httpx.Response:
    return api.client.get(url(room), headers=api.auth(token))


def first_moves(rule_set: str, count: int, fen: str | None = None) -> list[str]:
    """A line of `count` plies: the last legal move each time (the engine's list)."""
    board = Board(rule_set, fen=fen)
    played = []
    for _ in range(count):
        move = board.legal_moves[-1]
        played.append(move.notation())
        board.push(move)
    return played


@pytest.mark.parametrize("rule_set", sorted(RULE_SETS))
def test_lines_are_kept_for_the_seat_in_every_rule_set(api: Api, rule_set: str) -> None:
    room = api.create(rule_set)
    assert room.joiner is not None
    line = first_moves(rule_set, 8)
    r = keep(api, room, room.creator, line)
    assert r.status_code == 200, r.text
    [kept] = r.json()["lines"]
    assert (kept["from_ply"], kept["moves"]) == (0, line)
    # Another visit, another device: the same seat's token reads the same lines.
    assert lines(api, room, room.creator).json()["lines"] == [kept]
    assert lines(api, room, room.joiner).json()["lines"] == []
    # A line from a later position of the game, for the other side to begin.
    first = api.view(room)["game"]["legal_moves"][0]["engine_notation"]
    api.play(room, first)
    fen = api.view(room)["game"]["fen"]
    theirs = first_moves(rule_set, 3, fen)
    r = keep(api, room, room.joiner, theirs, from_ply=1)
    assert r.status_code == 200, r.text
    assert [(x["from_ply"], x["moves"]) for x in r.json()["lines"]] == [(1, theirs)]


def test_a_multi_capture_is_kept_whole(api: Api) -> None:
    r = api.client.post("/api/rooms", json={"rule_set": "english", "fen": "B:W15,23,30:B10,1"})
    assert r.status_code == 201, r.text
    room = Room(r.json()["room_id"], r.json()["token"])
    assert api.client.post(f"/api/rooms/{room.id}/join").status_code == 200
    kept = keep(api, room, room.creator, ["10x26"])  # the short form: start and end
    assert kept.status_code == 200, kept.text
    assert kept.json()["lines"][0]["moves"] == ["10x19x26"]


def test_an_illegal_move_is_refused_and_nothing_kept(api: Api) -> None:
    room = api.create()
    r = keep(api, room, room.creator, ["11-15", "11-15"])
    assert r.status_code == 422
    body = r.json()
    assert (body["code"], body["ply"], body["move"]) == ("conditional_refused", 2, "11-15")
    assert "22-18" in body["legal_moves"]
    assert keep(api, room, room.creator, ["11-15"], from_ply=3).status_code == 422
    assert lines(api, room, room.creator).json()["lines"] == []


def test_only_the_seat_reads_its_lines(api: Api) -> None:
    room = api.create()
    assert keep(api, room, room.creator, ["11-15", "22-18"]).status_code == 200
    for r in (lines(api, room, None), keep(api, room, None, ["11-15"])):
        assert (r.status_code, r.json()["code"]) == (403, "players_only")
    assert lines(api, room, "stranger").status_code == 403
    for token in (None, room.joiner):
        assert "22-18" not in str(api.view(room, token)["you"])
    assert api.client.get(f"/api/rooms/{room.id}/events").text.count("22-18") == 0


def test_a_line_is_replaced_and_forgotten(api: Api) -> None:
    room = api.create()
    [line] = keep(api, room, room.creator, ["11-15"]).json()["lines"]
    changed = api.client.post(
        f"{url(room)}/{line['id']}",
        json={"moves": ["9-13", "22-18"]},
        headers=api.auth(room.creator),
    )
    assert changed.status_code == 200, changed.text
    assert changed.json()["lines"][0]["moves"] == ["9-13", "22-18"]
    other = api.client.post(
        f"{url(room)}/{line['id']}", json={"moves": ["9-13"]}, headers=api.auth(room.joiner)
    )
    assert (other.status_code, other.json()["code"]) == (404, "line_not_found")
    gone = api.client.post(f"{url(room)}/{line['id']}/forget", headers=api.auth(room.creator))
    assert gone.status_code == 200 and gone.json()["lines"] == []


def test_a_seat_keeps_at_most_forty_lines_a_game(api: Api) -> None:
    room = api.create()
    for _ in range(40):
        assert keep(api, room, room.creator, ["11-15"]).status_code == 200
    r = keep(api, room, room.creator, ["11-15"])
    assert (r.status_code, r.json()["code"]) == (409, "line_limit")


def test_a_line_becomes_conditional_moves_in_one_step(api: Api) -> None:
    room = api.create()
    assert room.joiner is not None
    api.play(room, "11-15")  # the tires to move; the drums wait and analyse
    auth = api.auth(room.creator)
    [line] = keep(api, room, room.creator, ["22-18", "15x22", "25x18", "8-11"], 1).json()["lines"]
    r = api.client.post(f"{url(room)}/{line['id']}/conditional", headers=auth)
    assert r.status_code == 200, r.text
    plan = r.json()["you"]["conditional"]["lines"]
    assert [(b["their_move"], b["reply"]) for b in plan] == [("22-18", "15x22")]
    assert [(b["their_move"], b["reply"]) for b in plan[0]["next"]] == [("25x18", "8-11")]
    # A second line from the same position joins the first.
    [_, other] = keep(api, room, room.creator, ["24-20", "15-19"], 1).json()["lines"]
    r = api.client.post(f"{url(room)}/{other['id']}/conditional", headers=auth)
    assert [b["their_move"] for b in r.json()["you"]["conditional"]["lines"]] == ["22-18", "24-20"]
    # The opponent plays into it: the reply goes out at once.
    assert api.move(room, room.joiner, "22-18", 1).status_code == 200
    view = api.view(room)
    assert [m["engine_notation"] for m in view["game"]["moves"]] == ["11-15", "22-18", "15x22"]


def test_only_a_line_from_the_current_position_with_their_move_first(api: Api) -> None:
    room = api.create()
    assert room.joiner is not None
    [early] = keep(api, room, room.creator, ["11-15", "22-18", "15x22"]).json()["lines"]
    api.play(room, "11-15")
    auth = api.auth(room.creator)
    r = api.client.post(f"{url(room)}/{early['id']}/conditional", headers=auth)
    assert (r.status_code, r.json()["code"]) == (409, "line_not_plannable")
    # The tires' own line from the current position: it is their move, not a plan.
    [mine] = keep(api, room, room.joiner, ["22-18", "15x22"], 1).json()["lines"]
    r = api.client.post(f"{url(room)}/{mine['id']}/conditional", headers=api.auth(room.joiner))
    assert (r.status_code, r.json()["code"]) == (409, "conditional_not_now")
    [short] = keep(api, room, room.creator, ["22-18"], 1).json()["lines"][1:]
    r = api.client.post(f"{url(room)}/{short['id']}/conditional", headers=auth)
    assert (r.status_code, r.json()["code"]) == (422, "conditional_refused")
