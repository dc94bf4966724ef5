"""Acceptance (issue 14): secrets and hosts. Answers carrying a token or a device link
are not cacheable; a forged Host never reaches a share link; a join whose answer was lost
can be retried with its Idempotency-Key and gets the same token, once."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.clock import ManualClock
from app.core.db import Database
from app.core.settings import Settings
from app.main import create_app

SAME_ORIGIN = {"Origin": "http://testserver"}
KEY = "7b0e3a52-5c1f-4d7e-9a51-1b6f0c9f2e11"

Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]


def _no_store(answer: Any) -> None:
    assert answer.status_code in (200, 201), answer.text
    assert answer.headers.get("cache-control") == "no-store", (
        answer.request.url,
        answer.headers.get("cache-control"),
    )


def test_answers_with_a_token_or_a_device_link_are_not_stored(client: TestClient) -> None:
    created = client.post("/api/rooms", json={"rule_set": "english"})
    _no_store(created)
    _no_store(client.post(f"/api/rooms/{created.json()['room_id']}/join"))
    _no_store(client.post("/api/computer-games", json={"rule_set": "english", "level": "tamer"}))
    page = client.post("/r", json={"rule_set": "russian"}, headers=SAME_ORIGIN)
    _no_store(page)
    other = TestClient(client.app)
    _no_store(other.post(f"/r/{page.json()['room_id']}/join", headers=SAME_ORIGIN))
    link = client.post(f"/r/{page.json()['room_id']}/device-link", headers=SAME_ORIGIN)
    _no_store(link)
    secret = link.json()["url"].split("#continue=")[1]
    third = TestClient(client.app)
    _no_store(
        third.post(
            f"/r/{page.json()['room_id']}/continue", json={"secret": secret}, headers=SAME_ORIGIN
        )
    )


@pytest.fixture
def unlinked(settings: Settings, clock: ManualClock, database: Database) -> Iterator[Any]:
    """The app without PUBLIC_URL (links are built from the request), the default hosts
    plus the test client's own."""

    def open_client(**changes: Any) -> TestClient:
        app = create_app(
            settings.model_copy(update={"public_url": None, **changes}),
            clock=clock,
            database=database,
        )
        return TestClient(app, raise_server_exceptions=False)

    yield open_client


def test_a_forged_host_is_refused_and_never_copied_into_a_link(
    unlinked: Any, snapshot: Snapshot
) -> None:
    client = unlinked()
    before = snapshot()
    for host in ("evil.example", "evil.example:8000", "localhost.evil.example", "[::2]"):
        answer = client.post("/api/rooms", json={"rule_set": "english"}, headers={"Host": host})
        assert answer.status_code == 400, (host, answer.text)
        assert answer.json()["code"] == "bad_host"
        assert "x-content-type-options" in answer.headers
    assert client.get("/healthz", headers={"Host": "evil.example"}).status_code == 400
    assert snapshot() == before
    for host, base in (
        ("localhost:8000", "http://localhost:8000/r/"),
        ("127.0.0.1", "http://127.0.0.1/r/"),
        ("[::1]:8000", "http://[::1]:8000/r/"),
    ):
        answer = client.post("/api/rooms", json={"rule_set": "english"}, headers={"Host": host})
        assert answer.status_code == 201, (host, answer.text)
        assert answer.json()["share_url"].startswith(base)
    # An operator names the hosts it serves; subdomain patterns work.
    named = unlinked(allowed_hosts="checkers.example,*.checkers.example")
    assert named.get("/healthz", headers={"Host": "play.checkers.example"}).status_code == 200
    assert named.get("/healthz", headers={"Host": "localhost"}).status_code == 400


def test_with_public_url_links_come_from_it_and_its_host_is_served(
    settings: Settings, clock: ManualClock, database: Database
) -> None:
    public = settings.model_copy(
        update={"public_url": "https://checkers.example", "allowed_hosts": "localhost"}
    )
    with TestClient(create_app(public, clock=clock, database=database)) as client:
        answer = client.post(
            "/api/rooms", json={"rule_set": "english"}, headers={"Host": "checkers.example"}
        )
        assert answer.status_code == 201
        assert answer.json()["share_url"].startswith("https://checkers.example/r/")
        forged = client.post(
            "/api/rooms", json={"rule_set": "english"}, headers={"Host": "evil.example"}
        )
        assert forged.status_code == 400


def test_a_join_retried_with_its_key_gets_the_same_token_once(
    client: TestClient, clock: ManualClock, snapshot: Snapshot
) -> None:
    room = client.post("/api/rooms", json={"rule_set": "english"}).json()["room_id"]
    first = client.post(f"/api/rooms/{room}/join", headers={"Idempotency-Key": KEY})
    assert first.status_code == 200
    token = first.json()["token"]
    # The answer was lost; the same request again gets the same seat and token.
    again = client.post(f"/api/rooms/{room}/join", headers={"Idempotency-Key": KEY})
    assert again.status_code == 200, again.text
    assert (again.json()["token"], again.json()["seat"]) == (token, "joiner")
    assert again.headers["cache-control"] == "no-store"
    view = client.get(f"/api/rooms/{room}", headers={"Authorization": f"Bearer {token}"})
    assert view.json()["you"]["seat"] == "joiner"
    # Once only; another key or no key is a second join, refused as before.
    before = snapshot()
    for headers in (
        {"Idempotency-Key": KEY},
        {"Idempotency-Key": "another-key-of-this-client"},
        {},
    ):
        refused = client.post(f"/api/rooms/{room}/join", headers=headers)
        assert (refused.status_code, refused.json()["code"]) == (409, "room_full"), headers
    assert snapshot() == before
    # The key is not kept in the clear, nor is the token.
    stored = repr(before)
    assert KEY not in stored and token not in stored


def test_a_join_key_works_only_within_its_window(
    client: TestClient, clock: ManualClock, settings: Settings
) -> None:
    room = client.post("/api/rooms", json={"rule_set": "english"}).json()["room_id"]
    assert (
        client.post(f"/api/rooms/{room}/join", headers={"Idempotency-Key": KEY}).status_code == 200
    )
    clock.advance(seconds=settings.join_retry_seconds)
    late = client.post(f"/api/rooms/{room}/join", headers={"Idempotency-Key": KEY})
    assert (late.status_code, late.json()["code"]) == (409, "room_full")
    # A key too short to be a secret is refused before anything is looked at.
    short = client.post(f"/api/rooms/{room}/join", headers={"Idempotency-Key": "abc"})
    assert short.status_code == 422


def test_a_key_does_not_follow_a_seat_moved_to_another_device(client: TestClient) -> None:
    room = client.post("/r", json={"rule_set": "english"}, headers=SAME_ORIGIN).json()["room_id"]
    joined = client.post(f"/api/rooms/{room}/join", headers={"Idempotency-Key": KEY})
    token = joined.json()["token"]
    # The joiner moves its seat: its old token, which the key would hand back, is void.
    browser = TestClient(client.app)
    browser.cookies.set("seat", token, path=f"/r/{room}")
    link = browser.post(f"/r/{room}/device-link", headers=SAME_ORIGIN).json()["url"]
    moved = TestClient(client.app).post(
        f"/r/{room}/continue", json={"secret": link.split("#continue=")[1]}, headers=SAME_ORIGIN
    )
    assert moved.status_code == 200
    again = client.post(f"/api/rooms/{room}/join", headers={"Idempotency-Key": KEY})
    assert (again.status_code, again.json()["code"]) == (409, "room_full")
