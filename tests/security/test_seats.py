"""Acceptance: every seat action tried as a spectator, as the other seat, with a malformed
token and with a token of another room is refused, and nothing stored changes."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.clock import ManualClock

Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]

MALFORMED = [
    "not-a-token",
    "",  # "Bearer " with nothing: no credentials at all
    "x" * 2000,
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",  # a token's shape, no seat's token
    "bad\ttoken",
]
# Every action a seat can take through the API, with a body that would be valid.
ACTIONS: list[tuple[str, dict[str, Any] | None]] = [
    ("moves", {"move": "22-18", "expected_ply": 1}),
    ("moves", {"move": "9-13", "expected_ply": 1}),
    ("draw", {"action": "offer"}),
    ("draw", {"action": "accept"}),
    ("draw", {"action": "decline"}),
    ("resign", None),
    ("claim-forfeit", None),
    ("rematch", {"action": "offer"}),
    ("rematch", {"action": "accept"}),
    ("rematch", {"action": "decline"}),
]
PAGE_ACTIONS = [*ACTIONS, ("device-link", None)]
SAME_ORIGIN = {"Origin": "http://testserver"}


def _room(client: TestClient) -> dict[str, str]:
    created = client.post("/api/rooms", json={"rule_set": "english"})
    joined = client.post(f"/api/rooms/{created.json()['room_id']}/join")
    assert created.status_code == 201 and joined.status_code == 200
    return {
        "id": created.json()["room_id"],
        "drums": created.json()["token"],
        "tires": joined.json()["token"],
    }


def _bearer(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


@pytest.fixture
def rooms(client: TestClient) -> tuple[dict[str, str], dict[str, str]]:
    """Room A after 11-15 (tires to move) with a pending draw offer from the drums; room B
    is another room whose tokens must open nothing in A."""
    a, b = _room(client), _room(client)
    moved = client.post(
        f"/api/rooms/{a['id']}/moves",
        json={"move": "11-15", "expected_ply": 0},
        headers=_bearer(a["drums"]),
    )
    assert moved.status_code == 200
    offered = client.post(
        f"/api/rooms/{a['id']}/draw", json={"action": "offer"}, headers=_bearer(a["drums"])
    )
    assert offered.status_code == 200
    return a, b


def _outsiders(b: dict[str, str]) -> list[tuple[str, str | None, set[int]]]:
    """(who, token, statuses that count as a refusal)."""
    return [
        ("spectator", None, {401}),
        *[(f"malformed {t[:12]!r}", t, {401, 403}) for t in MALFORMED],
        ("room B drums", b["drums"], {403}),
        ("room B tires", b["tires"], {403}),
    ]


def test_outsiders_cannot_act_for_a_seat(
    client: TestClient, rooms: tuple[dict[str, str], dict[str, str]], snapshot: Snapshot
) -> None:
    a, b = rooms
    before = snapshot()
    for who, token, refused in _outsiders(b):
        for what, body in ACTIONS:
            answer = client.post(f"/api/rooms/{a['id']}/{what}", json=body, headers=_bearer(token))
            assert answer.status_code in refused, (who, what, body, answer.text)
            assert answer.json()["code"] in ("token_required", "wrong_token"), answer.text
    assert snapshot() == before


def test_outsiders_cannot_act_through_the_pages(
    client: TestClient, rooms: tuple[dict[str, str], dict[str, str]], snapshot: Snapshot
) -> None:
    """The same with the seat cookie of the pages: none, malformed, or another room's."""
    a, b = rooms
    before = snapshot()
    for who, token, refused in _outsiders(b):
        headers = dict(SAME_ORIGIN)
        if token:
            headers["Cookie"] = f"seat={token}"
        for what, body in PAGE_ACTIONS:
            answer = client.post(f"/r/{a['id']}/{what}", json=body, headers=headers)
            assert answer.status_code in refused, (who, what, body, answer.text)
    assert snapshot() == before


def test_the_other_seat_cannot_act_out_of_turn(
    client: TestClient,
    rooms: tuple[dict[str, str], dict[str, str]],
    snapshot: Snapshot,
    clock: ManualClock,
) -> None:
    a, _ = rooms
    # Let the claim window open and its event be recorded, so only the refusals remain.
    clock.advance(timedelta(hours=48, seconds=1))
    assert client.get(f"/api/rooms/{a['id']}").json()["claim_opens_at"] is not None
    before = snapshot()
    url = f"/api/rooms/{a['id']}"
    attempts = [
        # The drums moved last: neither of their men may move now, at either ply.
        ("drums", "moves", {"move": "9-13", "expected_ply": 1}, "not_your_turn"),
        ("drums", "moves", {"move": "15-19", "expected_ply": 1}, "not_your_turn"),
        ("drums", "moves", {"move": "9-13", "expected_ply": 0}, "stale_ply"),
        # One cannot answer one's own offer, nor offer twice.
        ("drums", "draw", {"action": "accept"}, "no_offer"),
        ("drums", "draw", {"action": "decline"}, "no_offer"),
        ("drums", "draw", {"action": "offer"}, "offer_pending"),
        ("tires", "draw", {"action": "offer"}, "offer_pending"),
        # The seat to move may not claim its own forfeit.
        ("tires", "claim-forfeit", None, "claim_not_allowed"),
        # No rematch while the game runs.
        ("drums", "rematch", {"action": "offer"}, "game_not_over"),
        ("tires", "rematch", {"action": "accept"}, "game_not_over"),
    ]
    for seat, what, body, code in attempts:
        answer = client.post(f"{url}/{what}", json=body, headers=_bearer(a[seat]))
        assert answer.status_code == 409, (seat, what, answer.text)
        assert answer.json()["code"] == code, (seat, what, answer.text)
    assert snapshot() == before


def test_a_rematch_offer_is_answered_only_by_the_other_seat(
    client: TestClient, rooms: tuple[dict[str, str], dict[str, str]], snapshot: Snapshot
) -> None:
    a, b = rooms
    url = f"/api/rooms/{a['id']}"
    assert client.post(f"{url}/resign", headers=_bearer(a["tires"])).status_code == 200
    offer = client.post(f"{url}/rematch", json={"action": "offer"}, headers=_bearer(a["drums"]))
    assert offer.status_code == 200
    before = snapshot()
    for token, action, status in [
        (a["drums"], "accept", 409),
        (a["drums"], "decline", 409),
        (None, "accept", 401),
        (b["tires"], "accept", 403),
        (b["drums"], "decline", 403),
    ]:
        answer = client.post(f"{url}/rematch", json={"action": action}, headers=_bearer(token))
        assert answer.status_code == status, answer.text
    for what in ("moves", "resign", "claim-forfeit", "draw"):
        body = {"action": "offer"} if what == "draw" else {"move": "22-18", "expected_ply": 1}
        answer = client.post(f"{url}/{what}", json=body, headers=_bearer(a["tires"]))
        assert answer.status_code == 409, (what, answer.text)
    assert snapshot() == before


def test_a_full_room_refuses_a_third_player(
    client: TestClient, rooms: tuple[dict[str, str], dict[str, str]], snapshot: Snapshot
) -> None:
    a, b = rooms
    before = snapshot()
    for token in (None, a["drums"], b["tires"], "garbage"):
        answer = client.post(f"/api/rooms/{a['id']}/join", headers=_bearer(token))
        assert answer.status_code == 409, answer.text
        assert answer.json()["code"] == "room_full"
        page = client.post(f"/r/{a['id']}/join", headers=SAME_ORIGIN)
        assert page.status_code == 409, page.text
    assert snapshot() == before
