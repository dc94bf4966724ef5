"""Games from a position and the rule set's notation in the rooms API (issue 15, points 5
and 6): start FENs in each tradition, validated; the half-move clock kept on every rebuilt
board; the position's PDN; moves in both forms with the tradition's default; moves typed
in the tradition.

Expected squares come from the traditions' published layouts (README, notation table),
worked out by hand: Russian c3-d4 is lidraughts' 22-18 (White on 21-32, b8 = 1); Italian
21-17 is b3-a4 on its mirrored board (engine 9-13); the engine's a1 (4) is Italian 32
and Spanish 1, named h1 on their boards.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.computer import service as computer
from app.computer.worker import board_of
from app.core.clock import ManualClock
from app.core.context import Context
from app.core.db import Database
from app.core.settings import Settings
from app.rooms import service
from app.rooms.models import Level
from checkers_engine import pdn

from .conftest import Api, Room

KINGS_AT_18 = "W:WK29:BK1:H18:F30"  # Russian: White king a1, Black king b8, clock 18


def create(api: Api, rule_set: str, fen: str | None, *, join: bool = True) -> tuple[Room, Any]:
    r = api.client.post("/api/rooms", json={"rule_set": rule_set, "fen": fen})
    assert r.status_code == 201, r.text
    room = Room(r.json()["room_id"], r.json()["token"])
    if join:
        j = api.client.post(f"/api/rooms/{room.id}/join")
        assert j.status_code == 200, j.text
        room.joiner = j.json()["token"]
    return room, r.json()["room"]


def typed(api: Api, room: Room, token: str | None, move: str, ply: int) -> Any:
    return api.client.post(
        f"/api/rooms/{room.id}/moves",
        json={"move": move, "expected_ply": ply, "notation": "tradition"},
        headers=api.auth(token),
    )


def test_a_room_starts_from_a_lidraughts_fen_and_its_clock_draws_it(api: Api) -> None:
    room, created = create(api, "russian", KINGS_AT_18)
    game = created["game"]
    assert game["start_position"] == "W:WKa1:BKb8:H18:F30"
    assert game["start_fen"] == "B:WK32:BK4"  # the engine's: drums (White) king on a1 = 4
    assert game["turn"] == "drums" and game["status"] == "waiting"
    # Each request rebuilds the board from the stored moves: the clock must survive that.
    first = typed(api, room, room.creator, "a1-c3", 0)
    assert first.status_code == 200, first.text
    assert first.json()["game"]["status"] == "playing"
    (move,) = first.json()["game"]["moves"]
    assert (move["number"], move["text"], move["numeric"]) == (30, "a1-c3", "29-22")
    last = typed(api, room, room.joiner, "b8-a7", 1).json()
    assert last["game"]["result"]["termination"] == "king_moves"
    assert last["game"]["result"]["text"].startswith("Draw: 20 king moves")
    text = api.client.get(f"/api/rooms/{room.id}/games/1.pdn").text
    assert '[SetUp "1"]' in text and '[FEN "W:WKa1:BKb8:H18:F30"]' in text
    assert "30. a1-c3 b8-a7" in text
    (report,) = pdn.read_pdn(text)
    assert report.ok and report.start is not None
    assert (report.start.half_move_clock, report.start.move_number) == (18, 30)
    assert [m.notation() for m in report.moves] == ["4-11", "32-28"]
    assert report.result == "1/2-1/2"


def test_the_invitee_sees_the_position_and_who_moves_first(api: Api) -> None:
    # Black (the tires) to move first, at move 7.
    room, _ = create(api, "russian", "B:WK29,c3:BK1,f6:F7", join=False)
    view = api.view(room)
    assert view["status"] == "waiting" and view["you"] is None
    assert view["game"]["start_position"] == "B:WKa1,c3:Bf6,Kb8:H0:F7"
    assert view["game"]["turn"] == "tires"
    assert view["game"]["fen"] == view["game"]["start_fen"]
    room.joiner = api.client.post(f"/api/rooms/{room.id}/join").json()["token"]
    view = api.play(room, "22-18")  # engine notation: the Black man f6 (22) to e5 (18)
    (move,) = view["game"]["moves"]
    assert (move["number"], move["side"], move["text"]) == (7, "tires", "f6-e5")


@pytest.mark.parametrize(
    ("rule_set", "fen", "code", "detail"),
    [
        (
            "russian",
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
            "invalid_fen",
            "invalid start position: wrong side to move: Black to move, but White moves "
            "first in Russian",
        ),
        ("russian", "W:W1:BK30", "invalid_fen", "a White man on square b8, its crowning row"),
        ("russian", "W:W21,21:B1", "invalid_fen", "a3 is given twice"),
        ("english", "hello", "invalid_fen", "a FEN starts with the side to move"),
        ("english", "B:W8,11:B4", "position_decided", "Black, to move, has no legal move"),
        ("russian", "W:W21", "position_decided", "Black has no pieces"),
        ("russian", "W:WK29:BK1:H20", "position_decided", "drawn already (20 king moves"),
    ],
)
def test_a_bad_start_position_is_refused_precisely(
    api: Api, rule_set: str, fen: str, code: str, detail: str
) -> None:
    for url, body in (
        ("/api/rooms", {"rule_set": rule_set, "fen": fen}),
        ("/api/computer-games", {"rule_set": rule_set, "fen": fen, "level": "tamer"}),
    ):
        r = api.client.post(url, json=body)
        assert r.status_code == 422, r.text
        assert r.json()["code"] == code
        assert detail in r.json()["detail"]


def test_a_blank_fen_is_the_standard_start_and_a_huge_one_is_refused(api: Api) -> None:
    _, created = create(api, "english", "  ", join=False)
    assert created["game"]["start_fen"] is None and created["game"]["start_position"] is None
    r = api.client.post("/api/rooms", json={"rule_set": "english", "fen": "W:W" + "1," * 300})
    assert r.status_code == 422 and r.json()["code"] == "validation_error"


def test_a_rematch_starts_from_the_same_position_with_the_colours_swapped(api: Api) -> None:
    room, _ = create(api, "russian", KINGS_AT_18)
    api.action(room, room.creator, "resign")
    api.action(room, room.joiner, "rematch", "offer")
    view = api.action(room, room.creator, "rematch", "accept").json()
    game = view["game"]
    assert (game["number"], game["drums_seat"], game["ply"]) == (2, "joiner", 0)
    assert game["start_position"] == "W:WKa1:BKb8:H18:F30"
    view = api.play(room, "4-11", "32-28")  # the clock carried over too
    assert view["game"]["result"]["termination"] == "king_moves"


def test_the_computers_task_carries_the_start_clock(
    database: Database, settings: Settings, clock: ManualClock
) -> None:
    ctx = Context(clock.now(), settings)
    with database.session() as session:
        # English: White (the tires, the computer) to move, clock 15.
        granted = service.create_room(
            session, rule_set="english", ctx=ctx, computer=Level.TAMER, first_fen="W:WK32:BK1:H15"
        )
    with database.session() as session:
        task = computer.next_task(session, room_id=granted.room_id, ctx=ctx)
    assert task is not None and task.kind == "move"
    assert (task.base_king_plies, task.tail) == (15, ())
    assert board_of(task).king_plies == 15
    with database.session() as session:
        assert computer.apply_move(session, task=task, move="32-27", ctx=ctx)
    with database.session() as session:
        service.play_move(
            session,
            room_id=granted.room_id,
            token=granted.token,
            move="1-6",
            expected_ply=1,
            ctx=ctx,
        )
    with database.session() as session:
        task = computer.next_task(session, room_id=granted.room_id, ctx=ctx)
    assert task is not None
    assert (task.base_king_plies, task.tail) == (15, ("32-27", "1-6"))
    assert board_of(task).king_plies == 17


def test_moves_carry_both_forms_and_name_the_default(api: Api) -> None:
    rule_sets = {r["key"]: r for r in api.client.get("/api/rule-sets").json()}
    expected = {  # style, first mover's colour, mirrored (README's notation table)
        "english": ("numeric", "Black", False),
        "brazilian": ("algebraic", "White", False),
        "russian": ("algebraic", "White", False),
        "spanish": ("numeric", "White", True),
        "italian": ("numeric", "White", True),
        "thai": ("algebraic", "White", False),
    }
    for key, (style, first, mirrored) in expected.items():
        n = rule_sets[key]["notation"]
        assert (n["style"], n["first_mover"], n["mirrored"]) == (style, first, mirrored)
        assert n["colours"]["drums"] == first
        assert sorted(s["number"] for s in n["squares"]) == list(range(1, 33))
    squares = {k: {s["square"]: s for s in r["notation"]["squares"]} for k, r in rule_sets.items()}
    assert (squares["english"][1]["number"], squares["english"][1]["name"]) == (1, "g1")
    assert (squares["russian"][11]["number"], squares["russian"][11]["name"]) == (22, "c3")
    assert (squares["italian"][4]["number"], squares["italian"][4]["name"]) == (32, "h1")
    assert (squares["spanish"][4]["number"], squares["spanish"][4]["name"]) == (1, "h1")

    russian = api.create("russian")
    view = api.play(russian, "11-15")
    (move,) = view["game"]["moves"]
    assert (move["engine_notation"], move["numeric"], move["algebraic"], move["text"]) == (
        "11-15",
        "22-18",
        "c3-d4",
        "c3-d4",
    )
    black = {m["text"] for m in view["game"]["legal_moves"]}
    assert black == {"b6-a5", "b6-c5", "d6-c5", "d6-e5", "f6-e5", "f6-g5", "h6-g5"}

    schema = api.client.get("/openapi.json").json()["components"]["schemas"]
    assert {"numeric", "algebraic", "text", "engine_notation", "number"} <= set(
        schema["PlayedMoveOut"]["properties"]
    )
    assert "style" in schema["NotationOut"]["properties"]
    assert "notation" in schema["MoveIn"]["properties"]


def test_moves_typed_in_the_tradition(api: Api) -> None:
    italian = api.create("italian")
    r = typed(api, italian, italian.creator, "21-17", 0)
    assert r.status_code == 200, r.text
    (move,) = r.json()["game"]["moves"]
    assert (move["engine_notation"], move["text"], move["algebraic"]) == ("9-13", "21-17", "b3-a4")
    again = typed(api, italian, italian.creator, "21-17", 0)  # a resend changes nothing
    assert again.status_code == 200 and again.json()["game"]["ply"] == 1

    russian = api.create("russian")
    assert typed(api, russian, russian.creator, "22-18", 0).status_code == 200  # c3-d4
    refused = typed(api, russian, russian.joiner, "22-18", 1)
    assert refused.status_code == 422 and refused.json()["code"] == "illegal_move"
    assert "b6-a5" in refused.json()["detail"]
    assert set(refused.json()["legal_moves"]) == {
        "b6-a5",
        "b6-c5",
        "d6-c5",
        "d6-e5",
        "f6-e5",
        "f6-g5",
        "h6-g5",
    }
    ok = typed(api, russian, russian.joiner, "f6-g5", 1)
    assert ok.status_code == 200 and ok.json()["game"]["moves"][1]["numeric"] == "11-16"


def test_a_refused_start_position_says_why_by_code(api: Api) -> None:
    """Both routes give the engine's FEN code and params beside the English detail, for a
    page that says the reason in its reader's language."""
    for url, body in (
        ("/api/rooms", {"rule_set": "russian", "fen": "W:W21,21:B1"}),
        ("/api/computer-games", {"rule_set": "russian", "fen": "W:W21,21:B1", "level": "tamer"}),
    ):
        r = api.client.post(url, json=body)
        assert r.status_code == 422, r.text
        assert r.json()["code"] == "invalid_fen"
        assert r.json()["reason"] == {"code": "fen_square_twice", "params": {"square": "a3"}}
