"""Acceptance: per-client rate limits (429 + Retry-After) on creating rooms, joining,
moving and claiming; request size limits; security headers on every response."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from app.computer.router import router as computer_router
from app.core.clock import ManualClock
from app.core.db import Database
from app.core.proxies import client_key
from app.core.ratelimit import is_limited
from app.core.settings import Settings
from app.main import create_app
from app.notify.router import router as notify_router
from app.profiles.routes import router as profiles_router
from app.rooms.router import router as rooms_router
from app.web.router import router as web_router

Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]
LIMITS = {
    "rate_limit_enabled": True,
    "rate_limit_create": "3/minute",
    "rate_limit_join": "2/minute",
    "rate_limit_moves": "4/minute",
    "rate_limit_claims": "2/minute",
    "rate_limit_actions": "3/minute",
    "rate_limit_links": "2/minute",
    "rate_limit_seat": "4/minute",
    "rate_limit_mail": "2/minute",
    "rate_limit_chat": "3/minute",
    "rate_limit_profiles": "3/minute",
}
SAME_ORIGIN = {"Origin": "http://testserver"}


@pytest.fixture
def limited(settings: Settings, clock: ManualClock, database: Database) -> Iterator[Any]:
    """A rate-limited app; `open(address)` gives a client seen as coming from `address`."""
    app = create_app(settings.model_copy(update=LIMITS), clock=clock, database=database)
    clients: list[TestClient] = []

    def open_client(address: str) -> TestClient:
        client = TestClient(app, raise_server_exceptions=False, client=(address, 40000))
        client.__enter__()
        clients.append(client)
        return client

    yield open_client
    for client in clients:
        client.__exit__(None, None, None)


def _refused(answer: Any) -> None:
    assert answer.status_code == 429, answer.text
    assert answer.json()["code"] == "rate_limited"
    retry_after = int(answer.headers["retry-after"])
    assert 1 <= retry_after <= 60
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_room_creation_is_limited_per_client(limited: Any, snapshot: Snapshot) -> None:
    alice, bob = limited("10.0.0.1"), limited("10.0.0.2")
    for _ in range(2):
        assert alice.post("/api/rooms", json={"rule_set": "english"}).status_code == 201
    assert alice.post("/r", json={"rule_set": "russian"}, headers=SAME_ORIGIN).status_code == 201
    before = snapshot()
    _refused(alice.post("/api/rooms", json={"rule_set": "english"}))
    _refused(alice.post("/r", json={"rule_set": "english"}, headers=SAME_ORIGIN))
    _refused(alice.post("/api/computer-games", json={"rule_set": "english", "level": "tamer"}))
    assert snapshot() == before  # refused before reaching the app
    # Another client is not affected, and reading is never limited.
    assert bob.post("/api/rooms", json={"rule_set": "english"}).status_code == 201
    assert alice.get("/api/rule-sets").status_code == 200


def test_joins_moves_and_claims_are_limited_per_client(limited: Any, snapshot: Snapshot) -> None:
    alice, bob, carol = limited("10.0.1.1"), limited("10.0.1.2"), limited("10.0.1.3")
    rooms = [alice.post("/api/rooms", json={"rule_set": "english"}).json() for _ in range(3)]
    joined = [bob.post(f"/api/rooms/{r['room_id']}/join") for r in rooms[:2]]
    assert [j.status_code for j in joined] == [200, 200]
    _refused(bob.post(f"/api/rooms/{rooms[2]['room_id']}/join"))
    assert carol.post(f"/api/rooms/{rooms[2]['room_id']}/join").status_code == 200

    room, tires = rooms[0], joined[0].json()["token"]
    url = f"/api/rooms/{room['room_id']}/moves"
    plies = [("11-15", room["token"]), ("22-18", tires), ("15x22", room["token"])]
    for ply, (move, token) in enumerate(plies):
        answer = alice.post(
            url,
            json={"move": move, "expected_ply": ply},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert answer.status_code == 200, answer.text
    # A refused move counts too: the limit is on submissions, not on legal moves.
    bad = alice.post(
        url, json={"move": "1-2", "expected_ply": 3}, headers={"Authorization": f"Bearer {tires}"}
    )
    assert bad.status_code in (400, 409, 422)
    before = snapshot()
    _refused(
        alice.post(
            url,
            json={"move": "25x18", "expected_ply": 3},
            headers={"Authorization": f"Bearer {tires}"},
        )
    )
    _refused(
        alice.post(
            f"/r/{room['room_id']}/moves",
            json={"move": "25x18", "expected_ply": 3},
            headers=SAME_ORIGIN,
        )
    )
    assert snapshot() == before

    claim = f"/api/rooms/{room['room_id']}/claim-forfeit"
    auth = {"Authorization": f"Bearer {room['token']}"}
    assert [carol.post(claim, headers=auth).status_code for _ in range(2)] == [409, 409]
    before = snapshot()
    _refused(carol.post(claim, headers=auth))
    assert snapshot() == before


def test_draw_resign_rematch_and_device_links_are_limited_per_client(
    limited: Any, snapshot: Snapshot
) -> None:
    """349 resign/rematch cycles once grew one room's view to 99 KB: these seat actions
    are limited like moves, on the API and on the page endpoints."""
    alice, bob, carol = limited("10.0.2.1"), limited("10.0.2.2"), limited("10.0.2.3")
    room = alice.post("/api/rooms", json={"rule_set": "english"}).json()
    tires = bob.post(f"/api/rooms/{room['room_id']}/join").json()["token"]
    base = f"/api/rooms/{room['room_id']}"
    drums = {"Authorization": f"Bearer {room['token']}"}
    tires_auth = {"Authorization": f"Bearer {tires}"}
    assert alice.post(f"{base}/draw", json={"action": "offer"}, headers=drums).status_code == 200
    assert (
        alice.post(f"{base}/draw", json={"action": "decline"}, headers=tires_auth).status_code
        == 200
    )
    assert alice.post(f"{base}/resign", headers=drums).status_code == 200
    before = snapshot()
    _refused(alice.post(f"{base}/rematch", json={"action": "offer"}, headers=drums))
    _refused(alice.post(f"/r/{room['room_id']}/resign", headers=SAME_ORIGIN))
    assert snapshot() == before
    assert carol.post(f"{base}/rematch", json={"action": "offer"}, headers=drums).status_code == 200

    page = carol.post("/r", json={"rule_set": "english"}, headers=SAME_ORIGIN).json()
    links = [carol.post(f"/r/{page['room_id']}/device-link", headers=SAME_ORIGIN) for _ in range(2)]
    assert [link.status_code for link in links] == [200, 200]
    before = snapshot()
    _refused(carol.post(f"/r/{page['room_id']}/device-link", headers=SAME_ORIGIN))
    _refused(
        carol.post(f"/r/{page['room_id']}/continue", json={"secret": "x" * 43}, headers=SAME_ORIGIN)
    )
    assert snapshot() == before


def test_a_seats_settings_are_limited_per_client(limited: Any, snapshot: Snapshot) -> None:
    """870 renames from one address once reached 500 viewers as 432,500 frames and took
    SQLite's write lock 176 times a second: renaming, push on and off, conditional moves
    stored and cleared and mail off are limited like the other seat actions, on the API
    and on the page endpoints."""
    alice, bob = limited("10.0.3.1"), limited("10.0.3.2")
    room = alice.post("/api/rooms", json={"rule_set": "english"}).json()
    base, page = f"/api/rooms/{room['room_id']}", f"/r/{room['room_id']}"
    drums = {"Authorization": f"Bearer {room['token']}"}
    renames = [
        alice.post(f"{base}/name", json={"name": f"Ann {n}"}, headers=drums) for n in range(4)
    ]
    assert [r.status_code for r in renames] == [200] * 4
    before = snapshot()
    settings: list[tuple[str, Any]] = [
        ("name", {"name": "Storm"}),
        ("push", {"endpoint": "https://push.example/x", "keys": {"p256dh": "x", "auth": "x"}}),
        ("push/off", {"endpoint": "https://push.example/x"}),
        ("conditional", {"lines": []}),
        ("conditional/clear", None),
        ("email/off", None),
    ]
    for path, body in settings:
        _refused(alice.post(f"{base}/{path}", json=body, headers=drums))
        _refused(alice.post(f"{page}/{path}", json=body, headers=SAME_ORIGIN))
    assert snapshot() == before
    assert alice.get(base).json()["seats"][0]["name"] == "Ann 3"
    # Another client's share is its own.
    answer = bob.post(f"{base}/name", json={"name": "Bo"}, headers=drums)
    assert answer.status_code == 200 and answer.json()["seats"][0]["name"] == "Bo"


def test_asking_for_confirmation_mails_is_limited_per_client(limited: Any) -> None:
    """Every request counts, whatever its answer (here the service sends no mail: 409)."""
    carol = limited("10.0.3.3")
    room = carol.post("/api/rooms", json={"rule_set": "english"}).json()
    drums = {"Authorization": f"Bearer {room['token']}"}
    url = f"/api/rooms/{room['room_id']}/email"
    asked = [carol.post(url, json={"address": "a@example.org"}, headers=drums) for _ in range(2)]
    assert [a.json()["code"] for a in asked] == ["email_unavailable"] * 2
    _refused(carol.post(url, json={"address": "a@example.org"}, headers=drums))
    _refused(
        carol.post(
            f"/r/{room['room_id']}/email", json={"address": "a@example.org"}, headers=SAME_ORIGIN
        )
    )


def test_chat_messages_are_limited_per_client(limited: Any, snapshot: Snapshot) -> None:
    """A player cannot flood the other with messages, through the API or the page."""
    dave, erin = limited("10.0.4.4"), limited("10.0.4.5")
    room = dave.post("/api/rooms", json={"rule_set": "english"}).json()
    joined = erin.post(f"/api/rooms/{room['room_id']}/join").json()
    drums = {"Authorization": f"Bearer {room['token']}"}
    url = f"/api/rooms/{room['room_id']}/chat"
    for n in range(3):
        assert dave.post(url, json={"text": f"hi {n}"}, headers=drums).status_code == 200
    before = snapshot()
    _refused(dave.post(url, json={"text": "again"}, headers=drums))
    _refused(dave.post(f"/r/{room['room_id']}/chat", json={"text": "x"}, headers=SAME_ORIGIN))
    assert snapshot() == before
    tires = {"Authorization": f"Bearer {joined['token']}"}
    assert erin.post(url, json={"text": "my turn"}, headers=tires).status_code == 200
    assert dave.get(url, headers=drums).status_code == 200  # reading is not limited


def test_passkey_ceremonies_and_sign_in_links_are_limited_per_client(limited: Any) -> None:
    """Every step counts, whichever it is; another client is not held up."""
    dave = limited("10.0.4.4")
    steps = [
        ("/profile/sign-in/options", None),
        ("/profile/register/options", {"name": "Dave"}),
        ("/profile/link", {"address": "d@example.org"}),
    ]
    for path, body in steps:
        assert dave.post(path, json=body, headers=SAME_ORIGIN).status_code in (200, 202)
    for path in ("/profile/sign-in", "/profile/register", "/profile/link/redeem"):
        _refused(dave.post(path, json={}, headers=SAME_ORIGIN))
    erin = limited("10.0.4.5")
    assert erin.post("/profile/sign-in/options", headers=SAME_ORIGIN).status_code == 200


def test_every_action_on_a_room_is_limited() -> None:
    """No route that changes a room, on the API or the pages, is left out of the limits."""
    routers = (rooms_router, notify_router, web_router, computer_router, profiles_router)
    actions = {
        (method, route.path)
        for router in routers
        for route in router.routes
        if isinstance(route, APIRoute) and "{room_id}" in route.path
        for method in route.methods - {"GET", "HEAD"}
    }
    assert len(actions) >= 29
    # A route template's `{number}` stands for the digits the rule matches.
    unlimited = {
        (method, path)
        for method, path in actions
        if not is_limited(method, path.replace("{number}", "1"))
    }
    assert unlimited == set()


def test_request_bodies_are_capped(client: TestClient, settings: Settings) -> None:
    cap = settings.max_body_bytes
    room = client.post("/api/rooms", json={"rule_set": "english"}).json()
    url = f"/api/rooms/{room['room_id']}/moves"
    auth = {"Authorization": f"Bearer {room['token']}"}
    big = {"move": "11-15" + " " * cap, "expected_ply": 0}
    answer = client.post(url, json=big, headers=auth)
    assert answer.status_code == 413 and answer.json()["code"] == "too_large"

    def chunks() -> Iterator[bytes]:  # no Content-Length: the cap applies while reading
        yield b'{"move": "11-15", "expected_ply": 0, "pad": "'
        for _ in range(cap // 512 + 2):
            yield b"x" * 512
        yield b'"}'

    answer = client.post(
        url, content=chunks(), headers={**auth, "Content-Type": "application/json"}
    )
    assert answer.status_code == 413
    lying = client.post(url, content=b"{}", headers={**auth, "Content-Length": "abc"})
    assert lying.status_code in (400, 413)
    assert client.get(f"/api/rooms/{room['room_id']}").json()["game"]["ply"] == 0


HEADERS = {
    "content-security-policy",
    "referrer-policy",
    "x-content-type-options",
    "x-frame-options",
}


def test_security_headers_on_every_response(client: TestClient) -> None:
    room = client.post("/api/rooms", json={"rule_set": "english"})
    room_id, token = room.json()["room_id"], room.json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    answers = {
        "created": room,
        "home page": client.get("/"),
        "room page": client.get(f"/r/{room_id}"),
        "missing page": client.get("/r/nope"),
        "view": client.get(f"/api/rooms/{room_id}"),
        "events": client.get(f"/api/rooms/{room_id}/events"),
        "pdn": client.get(f"/api/rooms/{room_id}/games/1.pdn"),
        "openapi": client.get("/openapi.json"),
        "docs": client.get("/docs"),
        "static": client.get("/static/css/app.css"),
        "healthz": client.get("/healthz"),
        "unknown route": client.get("/no/such/thing"),
        "wrong method": client.delete("/api/rooms"),
        "not found": client.get("/api/rooms/nope"),
        "unauthenticated": client.post(f"/api/rooms/{room_id}/resign"),
        "forbidden": client.post(
            f"/api/rooms/{room_id}/resign", headers={"Authorization": "Bearer x"}
        ),
        "conflict": client.post(f"/api/rooms/{room_id}/resign", headers=auth),
        "invalid": client.post("/api/rooms", json={"rule_set": 5}),
        "bad json": client.post(
            "/api/rooms", content=b"{", headers={"Content-Type": "application/json"}
        ),
        "too large": client.post("/api/rooms", content=b"x" * 10_000),
        "cross site": client.post(
            f"/r/{room_id}/resign", headers={"Origin": "https://evil.example"}
        ),
    }
    for name, answer in answers.items():
        missing = HEADERS - {h.lower() for h in answer.headers}
        assert not missing, (name, answer.status_code, missing)
        assert answer.headers["referrer-policy"] == "no-referrer"
        assert answer.headers["x-content-type-options"] == "nosniff"
    statuses = {answer.status_code for answer in answers.values()}
    assert {200, 201, 401, 403, 404, 405, 409, 413, 422} <= statuses


def test_an_ipv6_client_is_counted_by_its_64(limited: Any, snapshot: Snapshot) -> None:
    """One /64 is one client (a home line or a site gets at least that many addresses):
    rotating through it spends one share. Another /64, and IPv4, have their own."""
    one_network = [limited(f"2001:db8:5:6::{n:x}") for n in (1, 2, 0xBEEF)]
    for client in one_network:
        assert client.post("/api/rooms", json={"rule_set": "english"}).status_code == 201
    before = snapshot()
    _refused(limited("2001:db8:5:6:ffff:ffff:ffff:ffff").post("/api/rooms", json={}))
    _refused(limited("2001:0db8:0005:0006::9").post("/api/rooms", json={}))  # spelt otherwise
    assert snapshot() == before
    assert limited("2001:db8:5:7::1").post("/api/rooms", json={}).status_code == 201
    # An IPv4 address mapped into IPv6 is that IPv4 client.
    for _ in range(3):
        assert limited("192.0.2.7").post("/api/rooms", json={}).status_code == 201
    _refused(limited("::ffff:192.0.2.7").post("/api/rooms", json={}))


def test_client_keys() -> None:
    assert client_key("203.0.113.9") == "203.0.113.9"
    assert client_key("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64"
    assert client_key("[2001:DB8:1:2::7]") == "2001:db8:1:2::/64"
    assert client_key("::1") == "::/64"
    assert client_key("::ffff:198.51.100.1") == "198.51.100.1"
    assert client_key("testclient") == "testclient"
