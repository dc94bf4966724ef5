"""Conditional moves through the API: stored while the opponent is to move, checked by the
rules, private to their seat, played in the opponent's move's own transaction, dropped by
a move no line expected, by a draw offer and by the game's end."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

import httpx
import pytest

from app.core.clock import ManualClock
from app.core.context import Context
from app.core.db import Database
from app.core.settings import Settings
from app.rooms import service

from .conftest import Api, Room

# After 11-15 the tires are to move; the drums may plan: 22-18 is met by the forced
# 15x22, then 25x18 by 9-14 (and 26x17 by 10-15).
PLAN = [
    {
        "their_move": "22-18",
        "reply": "15x22",
        "next": [
            {"their_move": "25x18", "reply": "9-14"},
            {"their_move": "26x17", "reply": "10-15"},
        ],
    }
]


def plan(api: Api, room: Room, token: str | None, lines: Any) -> httpx.Response:
    return api.client.post(
        f"/api/rooms/{room.id}/conditional", json={"lines": lines}, headers=api.auth(token)
    )


def opened(api: Api) -> Room:
    room = api.create()
    api.play(room, "11-15")
    return room


def test_a_stored_line_is_played_in_the_opponents_move_and_the_rest_kept(api: Api) -> None:
    room = opened(api)
    stored = plan(api, room, room.creator, PLAN)
    assert stored.status_code == 200, stored.text
    mine = stored.json()["you"]["conditional"]
    assert mine["note"] is None
    assert [(b["their_move"], b["reply"]) for b in mine["lines"]] == [("22-18", "15x22")]
    # The opponent moves: the stored reply follows in the same answer.
    answer = api.move(room, room.joiner, "22-18", 1)
    assert answer.status_code == 200
    game = answer.json()["game"]
    assert game["ply"] == 3 and game["turn"] == "tires"
    assert [(m["engine_notation"], m["conditional"]) for m in game["moves"]] == [
        ("11-15", False),
        ("22-18", False),
        ("15x22", True),
    ]
    events = api.client.get(f"/api/rooms/{room.id}/events").json()["events"]
    moves = [e["data"] for e in events if e["kind"] == "move"]
    assert moves[-1]["notation"] == "15x22" and moves[-1]["conditional"] is True
    assert "conditional" not in moves[-2]
    rest = api.view(room, room.creator)["you"]["conditional"]["lines"]
    assert [(b["their_move"], b["reply"]) for b in rest] == [("25x18", "9-14"), ("26x17", "10-15")]
    # And the next level when it comes; then nothing is left.
    api.move(room, room.joiner, "26x17", 3)
    view = api.view(room, room.creator)
    assert view["game"]["moves"][-1]["engine_notation"] == "10-15"
    assert view["you"]["conditional"] is None


def test_a_resend_answered_by_a_conditional_reply_changes_nothing(api: Api) -> None:
    """A client that lost the answer to its move resends it; the game is two plies on
    (its move and the stored reply), and the resend is recognised, not refused as stale."""
    room = opened(api)
    assert plan(api, room, room.creator, PLAN).status_code == 200
    first = api.move(room, room.joiner, "22-18", 1)
    assert first.status_code == 200 and first.json()["game"]["ply"] == 3
    again = api.move(room, room.joiner, "22-18", 1)
    assert again.status_code == 200, again.text
    assert again.json()["game"]["ply"] == 3
    assert [m["engine_notation"] for m in again.json()["game"]["moves"]] == [
        "11-15",
        "22-18",
        "15x22",
    ]
    # Only that move: a different one at the same ply is still stale, and the reply's
    # owner cannot "resend" the opponent's move.
    other = api.move(room, room.joiner, "24-19", 1)
    assert other.status_code == 409 and other.json()["code"] == "stale_ply"
    assert api.move(room, room.creator, "22-18", 1).status_code == 409


def test_lines_are_private_to_their_seat(api: Api, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="checkers")
    room = opened(api)
    plan(api, room, room.creator, PLAN)
    texts = [
        api.client.get(f"/api/rooms/{room.id}").text,
        api.client.get(f"/api/rooms/{room.id}", headers=api.auth(room.joiner)).text,
        api.client.get(f"/api/rooms/{room.id}/events").text,
        api.client.get(f"/r/{room.id}").text,
        caplog.text,
    ]
    for text in texts:
        assert "25x18" not in text and "9-14" not in text
    assert api.view(room)["you"] is None
    assert api.view(room, room.joiner)["you"]["conditional"] is None


def test_a_move_no_line_expected_drops_them_all(api: Api) -> None:
    room = opened(api)
    plan(api, room, room.creator, PLAN)
    answer = api.move(room, room.joiner, "24-20", 1)
    assert answer.json()["game"]["ply"] == 2  # nothing played for the drums
    mine = api.view(room, room.creator)["you"]["conditional"]
    assert mine["lines"] == []
    assert mine["note"] == "Dropped: your opponent played 24-20, which no line expected."
    cleared = api.client.post(
        f"/api/rooms/{room.id}/conditional/clear", headers=api.auth(room.creator)
    )
    assert cleared.json()["you"]["conditional"] is None


@pytest.mark.parametrize("what", ["draw", "resign"])
def test_a_draw_offer_or_the_games_end_drops_them(api: Api, what: str) -> None:
    room = opened(api)
    plan(api, room, room.creator, PLAN)
    if what == "draw":
        api.action(room, room.joiner, "draw", "offer")
        note = api.view(room, room.creator)["you"]["conditional"]["note"]
        assert note == "Dropped: a draw was offered."
    else:
        api.action(room, room.joiner, "resign")
        assert api.view(room, room.creator)["you"]["conditional"] is None
    api.action(room, room.creator, "draw", "decline") if what == "draw" else None
    if what == "draw":
        assert api.move(room, room.joiner, "22-18", 1).json()["game"]["ply"] == 2


def test_expiry_drops_them(api: Api, clock: ManualClock) -> None:
    room = opened(api)
    plan(api, room, room.creator, PLAN)
    clock.advance(timedelta(days=7))
    view = api.view(room, room.creator)
    assert view["status"] == "expired" and view["you"]["conditional"] is None


def test_a_stored_reply_that_wins_ends_the_game(
    api: Api, database: Database, settings: Settings, clock: ManualClock
) -> None:
    room = _from(api, database, settings, clock, "W:W20:B17,12")
    stored = plan(api, room, room.creator, [{"their_move": "20-16", "reply": "12x19"}])
    assert stored.status_code == 200, stored.text
    answer = api.move(room, room.joiner, "20-16", 0).json()
    assert answer["status"] == "finished"
    assert answer["game"]["result"]["text"] == "Drums win: tires have no pieces left"
    assert answer["game"]["moves"][-1]["conditional"] is True


def test_capture_routes_that_take_the_same_pieces_are_one_move(
    api: Api, database: Database, settings: Settings, clock: ManualClock
) -> None:
    # The tires king on 15 can take 18, 19, 26 and 27 round either way (rule 8).
    room = _from(api, database, settings, clock, "W:WK15,32:B1,18,19,26,27")
    stored = plan(api, room, room.creator, [{"their_move": "15x24x31x22x15", "reply": "1-5"}])
    assert stored.status_code == 200, stored.text
    answer = api.move(room, room.joiner, "15x22x31x24x15", 0).json()
    assert answer["game"]["moves"][-1]["engine_notation"] == "1-5"


def _from(api: Api, database: Database, settings: Settings, clock: ManualClock, fen: str) -> Room:
    with database.session() as session:
        granted = service.create_room(
            session, rule_set="english", ctx=Context(clock.now(), settings), first_fen=fen
        )
    room = Room(granted.room_id, granted.token)
    room.joiner = api.client.post(f"/api/rooms/{room.id}/join").json()["token"]
    return room


def test_bad_lines_are_refused_with_the_ply_and_the_legal_moves(api: Api) -> None:
    room = opened(api)
    bad = plan(api, room, room.creator, [{"their_move": "22-18", "reply": "9-13"}])
    assert bad.status_code == 422 and bad.json()["code"] == "conditional_refused"
    assert bad.json()["ply"] == 3 and bad.json()["legal_moves"] == ["15x22"]
    theirs = plan(api, room, room.creator, [{"their_move": "12-16", "reply": "9-13"}])
    assert theirs.json()["ply"] == 2 and "22-18" in theirs.json()["legal_moves"]
    twice = plan(
        api,
        room,
        room.creator,
        [{"their_move": "22-18", "reply": "15x22"}, {"their_move": "22-18", "reply": "15x22"}],
    )
    assert twice.status_code == 422 and "twice" in twice.json()["detail"]
    # Only while the opponent is to move, only for a seat.
    mover = plan(api, room, room.joiner, [{"their_move": "15-19", "reply": "22x15"}])
    assert mover.status_code == 409 and mover.json()["code"] == "conditional_not_now"
    assert plan(api, room, None, PLAN).status_code == 401
    assert api.view(room, room.creator)["you"]["conditional"] is None  # nothing stored


def test_the_limits_hold(settings: Settings, clock: ManualClock, database: Database) -> None:
    from fastapi.testclient import TestClient

    from app.main import create_app

    small = settings.model_copy(update={"conditional_max_depth": 1, "conditional_max_moves": 2})
    with TestClient(create_app(small, clock=clock, database=database)) as client:
        api = Api(client)
        room = opened(api)
        deep = plan(api, room, room.creator, PLAN)
        assert deep.status_code == 422 and "at most 1" in deep.json()["detail"]
        wide = [
            {"their_move": m, "reply": r}
            for m, r in (("22-18", "15x22"), ("24-20", "9-14"), ("23-19", "15x24"))
        ]
        many = plan(api, room, room.creator, wide)
        assert many.status_code == 422 and "at most 2" in many.json()["detail"]
        assert plan(api, room, room.creator, wide[:2]).status_code == 200


# --- races: one consistent result, on both databases --------------------------------


def _together(*actions: Any) -> list[Any]:
    """Run the actions released at once, each in its own thread; their results in order."""
    import threading

    barrier = threading.Barrier(len(actions))
    results: list[Any] = [None] * len(actions)

    def run(i: int) -> None:
        barrier.wait()
        results[i] = actions[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(actions))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


NEW = [
    {
        "their_move": "22-18",
        "reply": "15x22",
        "next": [{"their_move": "25x18", "reply": "8-11"}],
    }
]


def test_a_move_racing_an_edit_applies_one_whole_set_of_lines(api: Api) -> None:
    for _ in range(4):
        room = opened(api)
        plan(api, room, room.creator, PLAN)
        moved, edited = _together(
            lambda room=room: api.move(room, room.joiner, "22-18", 1),
            lambda room=room: plan(api, room, room.creator, NEW),
        )
        assert moved.status_code == 200
        view = api.view(room, room.creator)
        assert view["game"]["ply"] == 3 and view["game"]["moves"][-1]["conditional"] is True
        rest = [(b["their_move"], b["reply"]) for b in view["you"]["conditional"]["lines"]]
        if edited.status_code == 200:  # the edit came first: its lines were followed
            assert rest == [("25x18", "8-11")]
        else:  # the move came first: the edit no longer fits the position
            assert edited.status_code == 422
            assert rest == [("25x18", "9-14"), ("26x17", "10-15")]


def test_a_move_racing_a_draw_offer_plays_the_reply_or_drops_it(api: Api) -> None:
    for _ in range(4):
        room = opened(api)
        plan(api, room, room.creator, PLAN)
        moved, offered = _together(
            lambda room=room: api.move(room, room.joiner, "22-18", 1),
            lambda room=room: api.action(room, room.creator, "draw", "offer"),
        )
        assert moved.status_code == 200 and offered.status_code == 200
        view = api.view(room, room.creator)
        mine = view["you"]["conditional"]
        assert mine["lines"] == [] and mine["note"] == "Dropped: a draw was offered."
        moves = view["game"]["moves"]
        if view["game"]["ply"] == 3:  # the move came first: the reply was played
            assert moves[-1]["engine_notation"] == "15x22" and moves[-1]["conditional"] is True
        else:  # the offer came first: nothing was played for the drums
            assert view["game"]["ply"] == 2 and not moves[-1]["conditional"]


def test_a_move_racing_the_expiry_sweep(
    api: Api, clock: ManualClock, database: Database, settings: Settings
) -> None:
    from app.rooms.jobs import sweep

    for _ in range(4):
        room = opened(api)
        plan(api, room, room.creator, PLAN)
        clock.advance(timedelta(days=7))  # the room expires at this very instant
        moved, _ = _together(
            lambda room=room: api.move(room, room.joiner, "22-18", 1),
            lambda: sweep(database, clock, settings),
        )
        view = api.view(room, room.creator)
        assert view["status"] == "expired" and view["you"]["conditional"] is None
        assert moved.status_code == 409 and view["game"]["ply"] == 1
