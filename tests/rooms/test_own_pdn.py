"""A player's own PDN (issue 62, point 5): after the game, the seat's download carries its
notes as comments and its analysis lines as variations; the public PDN never does; the
project's own importer reads every variation and comment back, in all six rule sets."""

from __future__ import annotations

from typing import Any

import pytest

from checkers_engine import RULE_SETS, Board

from .conftest import Api, Room


def post(api: Api, room: Room, token: str | None, path: str, body: dict[str, Any]) -> Any:
    r = api.client.post(f"/api/rooms/{room.id}/games/1/{path}", json=body, headers=api.auth(token))
    assert r.status_code == 200, r.text
    return r.json()


def line_from(board: Board, count: int) -> list[str]:
    """`count` plies from `board` (a copy is played): the first legal move each time."""
    board = board.copy()
    out = []
    for _ in range(count):
        if not board.legal_moves:
            break
        move = board.legal_moves[0]
        out.append(move.notation())
        board.push(move)
    return out


def own(api: Api, room: Room, token: str | None) -> Any:
    return api.client.get(f"/api/rooms/{room.id}/games/1/own.pdn", headers=api.auth(token))


@pytest.mark.parametrize("rule_set", sorted(RULE_SETS))
def test_the_own_pdn_reads_back_with_every_variation_and_note(api: Api, rule_set: str) -> None:
    room = api.create(rule_set)
    assert room.joiner is not None
    board = Board(rule_set)
    played: list[str] = []
    lines: dict[int, list[str]] = {}
    for ply in range(6):
        if ply in (0, 3):
            lines[ply] = line_from(board, 4)
        move = board.legal_moves[-1].notation()
        api.play(room, move)
        board.push(board.parse_move(move))
        played.append(move)
    lines[6] = line_from(board, 2)  # from the last position: no move of the game beside it
    for ply, moves in lines.items():
        post(api, room, room.creator, "analysis", {"from_ply": ply, "moves": moves})
    notes = {0: "A friendly game {with braces}", 2: "Why this?", 6: "Time to think"}
    for ply, text in notes.items():
        post(api, room, room.creator, "notes", {"ply": ply, "text": text})
    post(api, room, room.joiner, "notes", {"ply": 1, "text": "the tires' own thought"})
    early = own(api, room, room.creator)
    assert (early.status_code, early.json()["code"]) == (409, "game_not_over")
    api.action(room, room.creator, "resign")

    r = own(api, room, room.creator)
    assert r.status_code == 200, r.text
    assert r.headers["cache-control"] == "no-store"
    text = r.text
    public = api.client.get(f"/api/rooms/{room.id}/games/1.pdn").text
    assert "(" not in public.split("\n\n", 1)[1] and "Why this" not in public
    assert "Why this" not in own(api, room, room.joiner).text
    imported = api.client.post("/api/imports", json={"pdn": text})
    assert imported.status_code == 201, imported.text
    [report] = imported.json()["games"]
    assert report["imported"] and report["failure"] is None, report
    game = api.client.get(f"/api/imported-games/{report['id']}").json()
    assert [m["engine_notation"] for m in game["moves"]] == played
    comments = [(c["ply"], c["text"]) for c in game["comments"]]
    assert comments[:3] == [
        (0, "A friendly game (with braces)"),
        (2, "Why this?"),
        (6, "Time to think"),
    ]
    [(ply, last)] = comments[3:]  # the lines from the last position, then the result's
    assert ply == 6 and last.startswith("Analysis from the final position: ")
    assert [(v["ply"], v["moves"]) for v in game["variations"]] == [
        (0, lines[0]),
        (3, lines[3]),
    ]


def test_only_a_player_gets_their_own_copy(api: Api) -> None:
    room = api.create()
    api.action(room, room.creator, "resign")
    for token, status in ((None, 403), ("stranger", 403)):
        assert own(api, room, token).status_code == status
    assert own(api, room, room.joiner).status_code == 200
