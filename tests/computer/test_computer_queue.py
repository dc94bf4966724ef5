"""Acceptance (issue 14): the computer's queue is fair and bounded. One client flooding
the computer with games neither delays another client's reply beyond its level's budget
(round robin, a per-client limit on searches running) nor grows the queue without end
(429 for the client past its share, 503 when the queue is full, both with Retry-After,
and nothing stored for a refused move). Issue 58: reviews have their own lane (worker
processes and bounded queue), so they neither fill the replies' queue nor hold a worker
a reply could take."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.computer.runner import ComputerRunner
from app.core.clock import ManualClock
from app.core.db import Database
from app.core.settings import Settings
from app.main import create_app
from checkers_engine import Board

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("computer")]

BUDGET = 1.0  # Executive's seconds a move here
MARGIN = 1.0


@pytest.fixture
def served(settings: Settings, clock: ManualClock, database: Database) -> Iterator[Any]:
    """`served(**settings)` -> (app, client_for(address)); the first client runs the app's
    lifespan, the others share it."""
    opened: list[TestClient] = []

    def start(**changes: Any) -> tuple[Any, Any]:
        app = create_app(
            settings.model_copy(
                update={"computer_workers": 2, "computer_time_limit": BUDGET, **changes}
            ),
            clock=clock,
            database=database,
        )
        owner = TestClient(app, raise_server_exceptions=False)
        owner.__enter__()
        opened.append(owner)

        def client_for(address: str) -> TestClient:
            return TestClient(app, raise_server_exceptions=False, client=(address, 50000))

        return app, client_for

    yield start
    for client in opened:
        client.__exit__(None, None, None)


# The standard start less one man: out of the Executive's opening book, so it searches.
OUT_OF_BOOK = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11"


def _game(client: TestClient, level: str = "executive") -> tuple[str, dict[str, str]]:
    body = {"rule_set": "english", "level": level, "fen": OUT_OF_BOOK}
    answer = client.post("/api/computer-games", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()["room_id"], {"Authorization": f"Bearer {answer.json()['token']}"}


def _open(client: TestClient, room: str, auth: dict[str, str]) -> Any:
    return client.post(
        f"/api/rooms/{room}/moves", json={"move": "11-15", "expected_ply": 0}, headers=auth
    )


def _ply(client: TestClient, room: str) -> int:
    return int(client.get(f"/api/rooms/{room}").json()["game"]["ply"])


def _until(check: Any, timeout: float, step: float = 0.02) -> float:
    """Seconds until `check()` holds (AssertionError after `timeout`)."""
    started = time.monotonic()
    while not check():
        if time.monotonic() - started > timeout:
            raise AssertionError("not within the time allowed")
        time.sleep(step)
    return time.monotonic() - started


def _settled(runner: ComputerRunner, running: int) -> None:
    _until(lambda: runner.queue_state()["running"] == running, 5)


def test_a_flood_of_games_from_one_client_does_not_delay_another(served: Any) -> None:
    app, client_for = served()
    flooder, player = client_for("10.4.0.1"), client_for("10.4.0.2")
    # Both worker processes up before timing anything.
    warm = [_game(flooder, "tamer"), _game(player, "tamer")]
    for room, auth in warm:
        assert _open(flooder if room == warm[0][0] else player, room, auth).status_code == 200
    for room, _ in warm:
        _until(lambda room=room: _ply(flooder, room) == 2, 30)

    rooms = [_game(flooder) for _ in range(10)]
    answers = [_open(flooder, room, auth) for room, auth in rooms]
    room, auth = _game(player)
    assert _open(player, room, auth).status_code == 200
    waited = _until(lambda: _ply(player, room) == 2, 60)
    assert waited < BUDGET + MARGIN, f"the other client's reply took {waited:.2f} s"

    # The flooder's share of the queue ran out; its refused moves were not played.
    accepted = [a.status_code for a in answers].count(200)
    assert accepted >= 8, [a.status_code for a in answers]
    refused = [a for a in answers if a.status_code != 200]
    assert refused, "the flooder's share of the queue should have run out"
    for answer in refused:
        assert answer.status_code == 429, answer.text
        assert answer.json()["code"] == "computer_quota"
        assert int(answer.headers["retry-after"]) >= 1
    for (room, _), answer in zip(rooms, answers, strict=True):
        if answer.status_code != 200:
            assert _ply(flooder, room) == 0
    assert app.state.computer.queue_state()["running"] <= 2


def test_the_queue_is_bounded_for_everyone(served: Any) -> None:
    # Searches long enough that none ends while the queue fills.
    app, client_for = served(
        computer_time_limit=4.0, computer_queue_max=5, computer_queue_per_client=3
    )
    runner: ComputerRunner = app.state.computer
    alice, bob = client_for("10.5.0.1"), client_for("10.5.0.2")
    games = {name: [_game(c) for _ in range(5)] for name, c in (("alice", alice), ("bob", bob))}
    for room, auth in games["alice"][:4]:
        assert _open(alice, room, auth).status_code == 200
        _settled(runner, 1)
    room, auth = games["alice"][4]
    over = _open(alice, room, auth)
    assert (over.status_code, over.json()["code"]) == (429, "computer_quota")
    # Bob has his own share, until the whole queue is full.
    for index, (room, auth) in enumerate(games["bob"][:3]):
        assert _open(bob, room, auth).status_code == 200, index
        _settled(runner, 2)
    assert runner.queue_state()["waiting"] == 5
    room, auth = games["bob"][3]
    full = _open(bob, room, auth)
    assert (full.status_code, full.json()["code"]) == (503, "computer_busy")
    assert int(full.headers["retry-after"]) >= 1
    assert _ply(bob, room) == 0
    # Games without the computer are not held up by its queue.
    free = bob.post("/api/rooms", json={"rule_set": "english"}).json()
    joined = alice.post(f"/api/rooms/{free['room_id']}/join").json()
    moved = bob.post(
        f"/api/rooms/{free['room_id']}/moves",
        json={"move": "11-15", "expected_ply": 0},
        headers={"Authorization": f"Bearer {free['token']}"},
    )
    assert moved.status_code == 200 and joined["token"]


# --- reviews have a lane of their own (issues 16 and 58) -----------------------------------

REVIEW_SECONDS = 0.5


def _long_game(client: TestClient, seed: int, plies: int = 30) -> str:
    """An imported game of `plies` random legal moves; returns its review's path."""
    rng = random.Random(seed)
    board = Board("english")
    moves = []
    while len(moves) < plies and board.outcome() is None:
        move = rng.choice(board.legal_moves)
        moves.append(move.notation())
        board.push(move)
    numbered = " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(moves))
    pdn = f'[GameType "21"]\n[Result "*"]\n\n{numbered} *\n'
    imported = client.post("/api/imports", json={"pdn": pdn})
    assert imported.status_code == 201, imported.text
    return f"/api/imported-games/{imported.json()['games'][0]['id']}/review"


def _done(client: TestClient, path: str) -> int:
    return int(client.get(path).json()["done"])


def test_reviews_from_many_clients_leave_the_replies_their_queue_and_workers(
    served: Any,
) -> None:
    # Review positions longer than a reply's whole budget: a reply that waited for one
    # would be late. The replies' queue holds 8 waiting, as 64 for 64 reviewers.
    app, client_for = served(
        computer_queue_max=8,
        computer_queue_per_client=2,
        review_seconds_per_position=3.0,
        review_queue_per_client=2,
        review_queue_max=30,
    )
    runner: ComputerRunner = app.state.computer
    reviewers = [client_for(f"10.8.0.{n}") for n in range(1, 11)]
    paths = [_long_game(reviewer, seed) for seed, reviewer in enumerate(reviewers)]
    asked = [reviewer.post(path) for reviewer, path in zip(reviewers, paths, strict=True)]
    assert [a.status_code for a in asked] == [202] * 10, [a.text for a in asked]
    _until(lambda: runner.review_state()["running"] == 1, 10)  # the reviews' own worker
    assert runner.review_state()["waiting"] == 9
    assert runner.queue_state()["owed"] == 0  # none of it in the replies' queue

    player = client_for("10.8.1.1")
    room, auth = _game(player)
    moved = _open(player, room, auth)
    assert moved.status_code == 200, moved.text  # was 503 computer_busy
    waited = _until(lambda: _ply(player, room) == 2, 60)
    assert waited < BUDGET + MARGIN, f"the reply took {waited:.2f} s"
    # The reviews went on meanwhile, in their own process.
    assert runner.review_state()["owed"] == 10


def test_the_reviews_queue_is_bounded(served: Any) -> None:
    app, client_for = served(
        review_seconds_per_position=4.0, review_queue_per_client=2, review_queue_max=3
    )
    runner: ComputerRunner = app.state.computer
    alice, bob = client_for("10.9.0.1"), client_for("10.9.0.2")
    for n in range(3):  # one evaluated, two waiting: her share
        assert alice.post(_long_game(alice, n)).status_code == 202
        _until(lambda: runner.review_state()["running"] == 1, 10)
    over = alice.post(_long_game(alice, 3))
    assert (over.status_code, over.json()["code"]) == (429, "computer_quota")
    assert int(over.headers["retry-after"]) >= 1
    assert bob.post(_long_game(bob, 4)).status_code == 202
    refused = _long_game(bob, 5)
    full = bob.post(refused)
    assert (full.status_code, full.json()["code"]) == (503, "computer_busy")
    assert runner.review_state() == {"owed": 4, "running": 1, "waiting": 3}
    # Nothing was stored for the refused one: asking later starts it afresh.
    assert bob.get(refused).json()["code"] == "review_not_found"
    # The replies' queue is untouched by all this.
    room, auth = _game(bob)
    assert _open(bob, room, auth).status_code == 200


def test_a_flood_of_games_does_not_starve_a_review(served: Any) -> None:
    # One worker process for the replies, kept busy by the flood.
    _, client_for = served(computer_workers=1, review_seconds_per_position=REVIEW_SECONDS)
    reviewer, flooder = client_for("10.6.0.1"), client_for("10.6.0.2")
    path = _long_game(reviewer, seed=1)
    rooms = [_game(flooder) for _ in range(6)]
    assert reviewer.post(path).status_code == 202
    assert all(_open(flooder, room, auth).status_code == 200 for room, auth in rooms)
    # The review goes on in its own process while the six replies wait for theirs.
    _until(lambda: _done(reviewer, path) >= 3, 30, step=0.1)
    assert sum(_ply(flooder, room) == 2 for room, _ in rooms) < len(rooms)


def test_reviews_do_not_starve_a_game(served: Any) -> None:
    _, client_for = served(computer_workers=1, review_seconds_per_position=REVIEW_SECONDS)
    reviewer, player = client_for("10.7.0.1"), client_for("10.7.0.2")
    paths = [_long_game(reviewer, seed) for seed in range(3)]
    assert all(reviewer.post(path).status_code == 202 for path in paths)
    time.sleep(0.5)  # the reviews are under way
    room, auth = _game(player)
    assert _open(player, room, auth).status_code == 200
    waited = _until(lambda: _ply(player, room) == 2, 60)
    # Behind no review position at all (it waited for one, before).
    assert waited < BUDGET + MARGIN, f"the reply took {waited:.2f} s"
    assert sum(_done(reviewer, path) for path in paths) < 3 * 31
