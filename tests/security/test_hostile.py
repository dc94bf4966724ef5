"""Acceptance (issue 14): nothing a client sends gets a 500, and an unexpected failure is
still answered as JSON with the security headers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from app.core.clock import ManualClock
from app.core.db import Database
from app.core.settings import Settings
from app.main import create_app
from tests.web.servers import raw_request, serve_app

SECURITY_HEADERS = ("content-security-policy", "referrer-policy", "x-content-type-options")


def _room(client: TestClient | httpx.Client) -> dict[str, Any]:
    answer = client.post("/api/rooms", json={"rule_set": "english"})
    assert answer.status_code == 201, answer.text
    return answer.json()


@pytest.mark.parametrize("after", [2**31, 2**63 - 1, 2**63, 2**64, 10**40, -1, "1e3", "9" * 400])
def test_an_event_version_past_the_column_is_refused(client: TestClient, after: Any) -> None:
    room = _room(client)["room_id"]
    for accept in ("application/json", "text/event-stream"):
        answer = client.get(
            f"/api/rooms/{room}/events", params={"after": after}, headers={"Accept": accept}
        )
        assert answer.status_code == 422, (after, answer.status_code, answer.text)
        assert answer.json()["code"] == "validation_error"


@pytest.fixture
def served(settings: Settings, clock: ManualClock, database: Database) -> Iterator[str]:
    """The app behind a real Uvicorn socket: raw header bytes reach it as sent."""
    with serve_app(create_app(settings, clock=clock, database=database)) as base:
        yield base


@pytest.mark.parametrize(
    "value", [b"\xb2", "\u0663".encode(), b"\xd9\xa3", b"99999999999", b"2147483648", b"1 2", b"-1"]
)
def test_a_last_event_id_that_is_no_version_is_refused(served: str, value: bytes) -> None:
    """`"\u00b2".isdigit()` is true but `int("\u00b2")` fails: only ASCII digits make a
    version (byte 0xB2 is "\u00b2" in the Latin-1 that HTTP headers are read as)."""
    with httpx.Client(base_url=served) as client:
        room = _room(client)["room_id"]
    for accept in (b"application/json", b"text/event-stream"):
        status, answer = raw_request(
            served,
            b"GET /api/rooms/" + room.encode() + b"/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Accept: " + accept + b"\r\nLast-Event-ID: " + value + b"\r\n"
            b"Connection: close\r\n\r\n",
        )
        assert status == 422, (value, answer)
        assert b'"code":"invalid_input"' in answer


def test_the_largest_version_is_accepted(client: TestClient) -> None:
    room = _room(client)["room_id"]
    answer = client.get(f"/api/rooms/{room}/events", params={"after": 2**31 - 1})
    assert answer.status_code == 200 and answer.json()["events"] == []
    answer = client.get(f"/api/rooms/{room}/events", headers={"Last-Event-ID": "2147483647"})
    assert answer.status_code == 200 and answer.json()["events"] == []


def test_an_unexpected_failure_is_answered_as_json_with_the_security_headers(
    settings: Settings, clock: ManualClock, database: Database
) -> None:
    app = create_app(settings, clock=clock, database=database)

    def broken() -> None:
        raise RuntimeError("a bug, not the client's fault")

    app.add_api_route("/api/broken", broken)
    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.get("/api/broken")
    assert answer.status_code == 500
    assert answer.headers["content-type"] == "application/json"
    assert answer.json() == {"detail": "internal error", "code": "internal_error"}
    for name in SECURITY_HEADERS:
        assert name in answer.headers, name
    assert "a bug" not in answer.text  # nothing of the failure is shown to the client
