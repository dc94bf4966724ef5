"""Games against the computer through the HTTP API."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.computer import service as computer_service
from app.computer.runner import ComputerRunner
from app.computer.worker import Task, run_task
from app.core.clock import ManualClock
from app.core.context import Context
from app.core.db import Database
from app.core.settings import Settings
from app.main import create_app
from checkers_engine import Board

LEVELS = ["tamer", "driver", "warden", "executive"]


@pytest.fixture
def client(settings: Settings, clock: ManualClock, database: Database) -> Iterator[TestClient]:
    app = create_app(fast_computer(settings), clock=clock, database=database)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def fast_computer(settings: Settings) -> Settings:
    return settings.model_copy(update={"computer_workers": 1, "computer_time_limit": 0.05})


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def start(client: TestClient, level: str, rule_set: str = "english") -> tuple[str, str]:
    r = client.post("/api/computer-games", json={"rule_set": rule_set, "level": level})
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["side"] == "drums"
    seats = {s["seat"]: s for s in body["room"]["seats"]}
    assert seats["joiner"]["computer_level"] == level
    assert seats["joiner"]["side"] == "tires"
    return body["room_id"], body["token"]


def view(client: TestClient, room_id: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/rooms/{room_id}", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def runner(client: TestClient) -> ComputerRunner:
    r: ComputerRunner = client.app.state.computer  # type: ignore[attr-defined]
    return r


def wait_for(client: TestClient, room_id: str, test: Any, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = view(client, room_id)
        if test(v):
            return v
        time.sleep(0.02)
    raise AssertionError(f"timed out: {view(client, room_id)['game']}")


def open_with_11_15(client: TestClient, room_id: str, token: str) -> None:
    """The person (drums) plays the first move."""
    r = client.post(
        f"/api/rooms/{room_id}/moves",
        json={"move": "11-15", "expected_ply": 0},
        headers=auth(token),
    )
    assert r.status_code == 200, r.text


def person_to_move(v: dict[str, Any]) -> bool:
    return v["game"]["status"] != "playing" or v["game"]["turn"] == "drums"


def play_out(client: TestClient, room_id: str, token: str) -> dict[str, Any]:
    """The person plays the first legal move each turn; the computer answers each."""
    while True:
        v = wait_for(client, room_id, person_to_move)
        if v["game"]["status"] != "playing":
            return wait_for(client, room_id, lambda v: v["status"] == "finished")
        legal = v["game"]["legal_moves"]
        assert legal, v["game"]
        r = client.post(
            f"/api/rooms/{room_id}/moves",
            json={"move": legal[0]["notation"], "expected_ply": v["game"]["ply"]},
            headers=auth(token),
        )
        assert r.status_code == 200, r.text


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_a_whole_game_against_each_level(client: TestClient, level: str) -> None:
    room_id, token = start(client, level)
    final = play_out(client, room_id, token)
    assert final["status"] == "finished"
    moves = final["game"]["moves"]
    assert moves, "no move was played"
    assert {m["side"] for m in moves} == {"drums", "tires"}
    # Sides alternate from the drums: the computer answered every move of the person.
    assert [m["side"] for m in moves[:6]] == ["drums", "tires"] * 3
    events: list[dict[str, Any]] = []
    while True:  # the record comes in pages
        after = events[-1]["version"] if events else 0
        page = client.get(f"/api/rooms/{room_id}/events", params={"after": after}).json()
        if not page["events"]:
            break
        events += page["events"]
    computer_moves = [e for e in events if e["kind"] == "move" and e["data"]["side"] == "tires"]
    assert len(computer_moves) == sum(1 for m in moves if m["side"] == "tires")


def test_the_computer_replies_in_every_rule_set(client: TestClient) -> None:
    for rule_set in ("russian", "thai"):
        room_id, token = start(client, "tamer", rule_set)
        r = client.post(
            f"/api/rooms/{room_id}/moves",
            json={"move": Board(rule_set).legal_moves[0].notation(), "expected_ply": 0},
            headers=auth(token),
        )
        assert r.status_code == 200, r.text
        v = wait_for(client, room_id, lambda v: v["game"]["ply"] == 2)
        assert v["game"]["moves"][1]["side"] == "tires"


def test_bad_requests_are_refused(client: TestClient) -> None:
    r = client.post("/api/computer-games", json={"rule_set": "klondike", "level": "tamer"})
    assert r.status_code == 422 and r.json()["code"] == "unknown_rule_set"
    r = client.post("/api/computer-games", json={"rule_set": "english", "level": "god"})
    assert r.status_code == 422
    r = client.post("/api/computer-games", json={"rule_set": "english"})
    assert r.status_code == 422


def test_no_forfeit_claim_and_the_person_moves_first(client: TestClient) -> None:
    room_id, token = start(client, "tamer")
    v = view(client, room_id, token)
    assert v["game"]["turn"] == "drums" and v["game"]["ply"] == 0
    r = client.post(f"/api/rooms/{room_id}/claim-forfeit", headers=auth(token))
    assert r.status_code == 409
    # Nobody can act as the computer's seat with a token.
    r = client.post(
        f"/api/rooms/{room_id}/moves",
        json={"move": "11-15", "expected_ply": 0},
        headers=auth("computer"),
    )
    assert r.status_code == 403


def test_resignation_ends_the_game(client: TestClient) -> None:
    room_id, token = start(client, "driver")
    r = client.post(f"/api/rooms/{room_id}/resign", headers=auth(token))
    assert r.status_code == 200
    assert r.json()["status"] == "finished"


def test_draw_offers_are_answered_by_the_evaluation(client: TestClient, database: Database) -> None:
    # At the start nobody is ahead: the computer accepts.
    room_id, token = start(client, "warden")
    r = client.post(f"/api/rooms/{room_id}/draw", json={"action": "offer"}, headers=auth(token))
    assert r.status_code == 200, r.text
    v = wait_for(client, room_id, lambda v: v["status"] == "finished")
    assert v["game"]["result"]["termination"] == "agreement"
    assert v["game"]["result"]["winner"] is None


def test_a_computer_clearly_ahead_declines_a_draw() -> None:
    # Tires (the computer) have three kings against one man.
    ahead = Task("r", 1, 0, "draw", "english", "warden", "tires", "W:WK15,K18,K19:B5", ())
    behind = Task("r", 1, 0, "draw", "english", "warden", "drums", "W:WK15,K18,K19:B5", ())
    assert run_task(ahead, 0.2) is False
    assert run_task(behind, 0.2) is True


def test_a_draw_the_computer_declines_says_why(client: TestClient) -> None:
    # The computer (the tires) has three kings against the person's one man.
    r = client.post(
        "/api/computer-games",
        json={"rule_set": "english", "level": "warden", "fen": "B:WK15,K18,K19:B5"},
    )
    assert r.status_code == 201, r.text
    room_id, token = r.json()["room_id"], r.json()["token"]
    r = client.post(f"/api/rooms/{room_id}/draw", json={"action": "offer"}, headers=auth(token))
    assert r.status_code == 200, r.text
    v = wait_for(client, room_id, lambda v: v["declined"] is not None)
    assert v["status"] == "playing" and v["offers"] == []
    declined = v["declined"]
    assert (declined["kind"], declined["by_seat"], declined["reason"]) == (
        "draw",
        "creator",
        "computer_ahead",
    )
    events = client.get(f"/api/rooms/{room_id}/events").json()["events"]
    (event,) = [e for e in events if e["kind"] == "draw_declined"]
    assert event["data"] == {"game": 1, "seat": "joiner", "reason": "computer_ahead"}


def test_a_stale_result_is_dropped(client: TestClient, database: Database) -> None:
    room_id, token = start(client, "tamer")
    open_with_11_15(client, room_id, token)
    wait_for(client, room_id, lambda v: v["game"]["ply"] == 2)
    stale = Task(room_id, 1, 1, "move", "english", "tamer", "tires", Board().fen(), ())
    settings = client.app.state.settings  # type: ignore[attr-defined]
    with database.session() as session:
        applied = computer_service.apply_move(
            session,
            task=stale,
            move="22-18",
            ctx=Context(client.app.state.clock.now(), settings),  # type: ignore[attr-defined]
        )
    assert not applied
    assert view(client, room_id)["game"]["ply"] == 2


def test_a_reply_owed_before_a_restart_is_made_on_start(
    settings: Settings, clock: ManualClock, database: Database
) -> None:
    # First server: the person moves, but the computer never gets to answer.
    app = create_app(settings, clock=clock, database=database)
    app.state.computer.kick = lambda room_id, client=None: None  # dies before thinking
    with TestClient(app) as c:
        room_id, token = start(c, "tamer")
        open_with_11_15(c, room_id, token)
        assert view(c, room_id)["game"]["ply"] == 1
    # Second server: the owed reply is data, found and played on start.
    app2 = create_app(fast_computer(settings), clock=clock, database=database)
    with TestClient(app2) as c2:
        v = wait_for(c2, room_id, lambda v: v["game"]["ply"] == 2)
        assert v["game"]["moves"][1]["side"] == "tires"


def test_a_rematch_offer_is_accepted_and_the_computer_opens_the_next_game(
    client: TestClient,
) -> None:
    room_id, token = start(client, "tamer")
    assert client.post(f"/api/rooms/{room_id}/resign", headers=auth(token)).status_code == 200
    r = client.post(f"/api/rooms/{room_id}/rematch", json={"action": "offer"}, headers=auth(token))
    assert r.status_code == 200, r.text
    v = wait_for(client, room_id, lambda v: v["game"]["number"] == 2 and v["game"]["ply"] == 1)
    # Sides swap on a rematch: the computer has the drums and has made the first move.
    assert v["game"]["drums_seat"] == "joiner"
    assert v["game"]["moves"][0]["side"] == "drums"
    assert view(client, room_id, token)["you"]["to_move"]


def test_a_computer_game_expires_as_usual(client: TestClient, clock: ManualClock) -> None:
    room_id, token = start(client, "tamer")
    open_with_11_15(client, room_id, token)
    wait_for(client, room_id, lambda v: v["game"]["ply"] == 2)
    clock.advance(days=6, hours=23)
    assert view(client, room_id)["status"] == "playing"
    clock.advance(hours=2)
    assert view(client, room_id)["status"] == "expired"


def test_from_a_position_with_the_computer_to_move_it_moves_first(client: TestClient) -> None:
    """Russian, Black (the tires, the computer) to move: its reply is owed at creation."""
    r = client.post(
        "/api/computer-games",
        json={"rule_set": "russian", "level": "tamer", "fen": "B:W21,22,23:B10,11,12"},
    )
    assert r.status_code == 201, r.text
    game = r.json()["room"]["game"]
    assert (game["turn"], game["ply"], game["start_position"]) == (
        "tires",
        0,
        "B:Wa3,c3,e3:Bd6,f6,h6:H0:F1",
    )
    v = wait_for(client, r.json()["room_id"], lambda v: v["game"]["ply"] == 1, timeout=30)
    (move,) = v["game"]["moves"]
    assert move["side"] == "tires" and v["game"]["turn"] == "drums"
