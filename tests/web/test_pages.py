"""The pages and their cookie endpoints, through the app's real routes: seat cookies,
cross-site refusals, security headers, device links, and the flows the room page uses."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.core.clock import ManualClock
from app.core.db import Database
from app.core.settings import Settings
from app.main import create_app
from app.rooms.models import SeatTransfer
from checkers_engine import RULE_SETS

# A seat that chose no name, asked for no notifications and stored no conditional moves,
# with the chat on, and no time to give (not waiting for the opponent's move).
NO_NAME_NO_ALERTS = {
    "name": None,
    "notifications": {"push": False, "email": False},
    "conditional": None,
    "chat": {"off": False, "opponent_off": False},
    "can_give_time": False,
}

ORIGIN = "http://testserver"
SAME = {"Origin": ORIGIN, "Sec-Fetch-Site": "same-origin"}


@pytest.fixture
def app(settings: Settings, clock: ManualClock, database: Database) -> Any:
    return create_app(
        settings.model_copy(update={"public_url": None}), clock=clock, database=database
    )


def _client(app: Any) -> TestClient:
    return TestClient(app, raise_server_exceptions=False)


@pytest.fixture
def browser(app: Any) -> Iterator[TestClient]:
    with _client(app) as client:
        yield client


def _create(client: TestClient, rule_set: str = "english") -> str:
    r = client.post("/r", json={"rule_set": rule_set}, headers=SAME)
    assert r.status_code == 201, r.text
    room_id: str = r.json()["room_id"]
    return room_id


def _page_data(html: str) -> dict[str, Any]:
    match = re.search(r'<script type="application/json" id="room-data">(.*?)</script>', html, re.S)
    assert match, "the room page embeds its view"
    data: dict[str, Any] = json.loads(match.group(1))
    return data


def test_home_lists_every_rule_set_with_its_description(browser: TestClient) -> None:
    r = browser.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    for rule_set in RULE_SETS.values():
        assert f'value="{rule_set.key}"' in r.text
        assert rule_set.description.replace("'", "&#39;") in r.text
    # The service offers computer games, so that form is enabled.
    assert 'id="computer-off"' not in r.text
    assert '<button type="submit" class="button">Play the computer' in r.text


def test_play_the_computer_keeps_the_seat_in_the_cookie(browser: TestClient) -> None:
    r = browser.post("/computer", json={"level": "tamer", "rule_set": "thai"}, headers=SAME)
    assert r.status_code == 201, r.text
    room_id = r.json()["room_id"]
    assert r.json() == {"room_id": room_id, "url": f"/r/{room_id}"}
    assert f"Path=/r/{room_id}" in r.headers["set-cookie"] and "HttpOnly" in r.headers["set-cookie"]
    view = browser.get(f"/r/{room_id}/state").json()
    assert view["you"]["side"] == "drums" and view["rule_set"]["key"] == "thai"
    assert [s["computer_level"] for s in view["seats"]] == [None, "tamer"]
    bad = browser.post("/computer", json={"level": "grandmaster"}, headers=SAME)
    assert bad.status_code == 422


def test_security_headers_on_pages_api_static_and_errors(browser: TestClient) -> None:
    for path in ("/", "/api/rule-sets", "/static/css/app.css", "/r/nope", "/api/rooms/nope"):
        r = browser.get(path)
        assert r.headers["referrer-policy"] == "no-referrer", path
        assert r.headers["x-content-type-options"] == "nosniff", path
        csp = r.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp, path
        assert "unsafe-inline" not in csp, path
    assert browser.get("/r/nope").status_code == 404
    assert "No such room" in browser.get("/r/nope").text


def test_creating_a_room_puts_the_seat_in_an_httponly_cookie_of_the_room_path(
    browser: TestClient,
) -> None:
    r = browser.post("/r", json={"rule_set": "italian"}, headers=SAME)
    assert r.status_code == 201
    room_id = r.json()["room_id"]
    assert r.json() == {"room_id": room_id, "url": f"/r/{room_id}"}  # no token in the body
    cookie = r.headers["set-cookie"]
    token = re.match(r"seat=([\w-]+);", cookie)
    assert token and len(token.group(1)) >= 43
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert f"Path=/r/{room_id};" in cookie or cookie.endswith(f"Path=/r/{room_id}")
    # The cookie's token is the creator's seat token: the bearer API recognises it.
    view = browser.get(
        f"/api/rooms/{room_id}", headers={"Authorization": f"Bearer {token.group(1)}"}
    ).json()
    assert view["you"] == {
        "seat": "creator",
        "side": "drums",
        "to_move": False,
        **NO_NAME_NO_ALERTS,
    }
    # The page shows the rule set and the creator's seat; its data carries no token.
    page = browser.get(f"/r/{room_id}")
    data = _page_data(page.text)
    assert data["status"] == "waiting" and data["rule_set"]["key"] == "italian"
    assert data["you"]["seat"] == "creator"
    assert token.group(1) not in page.text
    assert data["share_url"] == f"{ORIGIN}/r/{room_id}"


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Origin": "https://evil.example"},
        {"Origin": ORIGIN, "Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
    ],
)
def test_cross_site_page_requests_are_refused_and_change_nothing(
    browser: TestClient, headers: dict[str, str]
) -> None:
    room_id = _create(browser)
    before = browser.get(f"/api/rooms/{room_id}/events").json()["version"]
    for path, body in (
        ("/r", {"rule_set": "english"}),
        (f"/r/{room_id}/join", {}),
        (f"/r/{room_id}/moves", {"move": "11-15", "expected_ply": 0}),
        (f"/r/{room_id}/resign", {}),
        (f"/r/{room_id}/device-link", {}),
    ):
        r = browser.post(path, json=body, headers=headers)
        assert (r.status_code, r.json()["code"]) == (403, "cross_site_request"), path
        assert "set-cookie" not in r.headers
    assert browser.get(f"/api/rooms/{room_id}/events").json()["version"] == before


def test_accept_then_play_with_cookies_and_spectate_without(app: Any) -> None:
    with _client(app) as drums, _client(app) as tires, _client(app) as watcher:
        room_id = _create(drums)
        invite = _page_data(watcher.get(f"/r/{room_id}").text)
        assert invite["you"] is None and invite["status"] == "waiting"
        assert [(s["seat"], s["side"], s["taken"]) for s in invite["seats"]] == [
            ("creator", "drums", True),
            ("joiner", "tires", False),
        ]
        joined = tires.post(f"/r/{room_id}/join", headers=SAME)
        assert joined.status_code == 200 and "token" not in joined.json()
        assert joined.json()["you"]["side"] == "tires"
        again = watcher.post(f"/r/{room_id}/join", headers=SAME)
        assert (again.status_code, again.json()["code"]) == (409, "room_full")

        # Only the seat to move moves; a spectator has no seat at all.
        r = tires.post(
            f"/r/{room_id}/moves", json={"move": "24-20", "expected_ply": 0}, headers=SAME
        )
        assert (r.status_code, r.json()["code"]) == (409, "not_your_turn")
        r = watcher.post(
            f"/r/{room_id}/moves", json={"move": "11-15", "expected_ply": 0}, headers=SAME
        )
        assert (r.status_code, r.json()["code"]) == (401, "token_required")
        r = drums.post(
            f"/r/{room_id}/moves", json={"move": "11-14", "expected_ply": 0}, headers=SAME
        )
        assert (r.status_code, r.json()["code"]) == (422, "illegal_move")
        assert "11-15" in r.json()["legal_moves"]
        r = drums.post(
            f"/r/{room_id}/moves", json={"move": "c3-d4", "expected_ply": 0}, headers=SAME
        )
        assert r.status_code == 200
        assert r.json()["game"]["moves"][0]["engine_notation"] == "11-15"

        spectator = watcher.get(f"/r/{room_id}/state").json()
        assert spectator["you"] is None and spectator["game"]["ply"] == 1
        assert tires.get(f"/r/{room_id}/state").json()["you"]["to_move"] is True

        # Draw offered and declined, then resignation, then a rematch with sides swapped.
        r = drums.post(f"/r/{room_id}/draw", json={"action": "offer"}, headers=SAME)
        assert r.json()["offers"][0]["kind"] == "draw"
        r = tires.post(f"/r/{room_id}/draw", json={"action": "decline"}, headers=SAME)
        assert r.json()["offers"] == [] and r.json()["game"]["draw_offers_left"]["drums"] == 2
        r = tires.post(f"/r/{room_id}/resign", headers=SAME)
        assert r.json()["game"]["result"]["text"] == "Drums win: tires resigned"
        drums.post(f"/r/{room_id}/rematch", json={"action": "offer"}, headers=SAME)
        r = tires.post(f"/r/{room_id}/rematch", json={"action": "accept"}, headers=SAME)
        assert r.json()["you"] == {
            "seat": "joiner",
            "side": "drums",
            "to_move": True,
            **NO_NAME_NO_ALERTS,
        }
        assert r.json()["score"] == {"creator": 1.0, "joiner": 0.0}


def test_claim_through_the_page_opens_after_two_days(app: Any, clock: ManualClock) -> None:
    with _client(app) as drums, _client(app) as tires:
        room_id = _create(drums)
        tires.post(f"/r/{room_id}/join", headers=SAME)
        drums.post(f"/r/{room_id}/moves", json={"move": "11-15", "expected_ply": 0}, headers=SAME)
        early = drums.post(f"/r/{room_id}/claim-forfeit", headers=SAME)
        assert (early.status_code, early.json()["code"]) == (409, "claim_not_open")
        clock.advance(hours=48)
        won = drums.post(f"/r/{room_id}/claim-forfeit", headers=SAME)
        assert won.status_code == 200
        assert won.json()["game"]["result"]["text"] == (
            "Drums win by forfeit: tires made no move for 2 days"
        )


def test_device_link_moves_the_seat_once(app: Any, clock: ManualClock, database: Database) -> None:
    with _client(app) as laptop, _client(app) as phone, _client(app) as thief:
        room_id = _create(laptop)
        r = laptop.post(f"/r/{room_id}/device-link", headers=SAME)
        assert r.status_code == 200
        url = r.json()["url"]
        assert url.startswith(f"{ORIGIN}/r/{room_id}#continue=")  # a fragment: never sent
        secret = url.split("#continue=", 1)[1]
        with database.session() as session:
            (stored,) = session.scalars(select(SeatTransfer)).all()
        assert stored.secret_hash == hashlib.sha256(secret.encode()).hexdigest()
        assert secret not in stored.secret_hash

        moved = phone.post(f"/r/{room_id}/continue", json={"secret": secret}, headers=SAME)
        assert moved.status_code == 200 and moved.json()["you"]["seat"] == "creator"
        assert f"Path=/r/{room_id}" in moved.headers["set-cookie"]
        # Once only; the old browser lost the seat and is a spectator again.
        replay = thief.post(f"/r/{room_id}/continue", json={"secret": secret}, headers=SAME)
        assert (replay.status_code, replay.json()["code"]) == (403, "transfer_invalid")
        old = laptop.get(f"/r/{room_id}/state")
        assert old.json()["you"] is None
        refused = laptop.post(f"/r/{room_id}/device-link", headers=SAME)
        assert refused.status_code in (401, 403)

        # A link expires after an hour, and a newer link replaces an older one.
        first = phone.post(f"/r/{room_id}/device-link", headers=SAME).json()["url"]
        second = phone.post(f"/r/{room_id}/device-link", headers=SAME).json()["url"]
        r = thief.post(
            f"/r/{room_id}/continue", json={"secret": first.split("=", 1)[1]}, headers=SAME
        )
        assert r.status_code == 403
        clock.advance(hours=1)
        r = thief.post(
            f"/r/{room_id}/continue", json={"secret": second.split("=", 1)[1]}, headers=SAME
        )
        assert (r.status_code, r.json()["detail"]) == (
            403,
            "this link has expired: make a new one on your other device",
        )
        assert phone.get(f"/r/{room_id}/state").json()["you"]["seat"] == "creator"


def test_bad_page_input_gets_clear_refusals(browser: TestClient) -> None:
    room_id = _create(browser)
    for path, body, code in (
        ("/r", {"rule_set": "chess"}, "unknown_rule_set"),
        ("/r", {"rule_set": "english", "extra": 1}, "validation_error"),
        (f"/r/{room_id}/moves", {"move": "", "expected_ply": 0}, "validation_error"),
        (f"/r/{room_id}/draw", {"action": "maybe"}, "validation_error"),
        (f"/r/{room_id}/continue", {"secret": "x" * 43}, "transfer_invalid"),
        ("/r/nope/join", {}, "room_not_found"),
        ("/computer", {"level": "tamer", "rule_set": "chess"}, "unknown_rule_set"),
    ):
        r = browser.post(path, json=body, headers=SAME)
        assert 400 <= r.status_code < 500 and r.json()["code"] == code, (path, r.text)
    big = browser.post("/r", content=b"{" + b" " * 10_000 + b"}", headers=SAME)
    assert big.status_code == 413


def test_a_stale_cookie_makes_a_spectator_and_is_dropped(browser: TestClient) -> None:
    room_id = _create(browser)
    browser.cookies.set("seat", "stolen-or-stale", path=f"/r/{room_id}")
    r = browser.get(f"/r/{room_id}")
    assert r.status_code == 200 and _page_data(r.text)["you"] is None
    assert 'seat=""' in r.headers["set-cookie"] and "Max-Age=0" in r.headers["set-cookie"]


def test_expired_rooms_show_their_end(browser: TestClient, clock: ManualClock) -> None:
    room_id = _create(browser)
    clock.advance(timedelta(days=7))
    data = _page_data(browser.get(f"/r/{room_id}").text)
    assert data["status"] == "expired"
    assert data["game"]["result"]["reason"] == "nobody joined within 7 days"


def test_each_page_preloads_every_module_its_script_imports(browser: TestClient) -> None:
    """The modules a page's script imports, directly or through another, are named in
    its head (`modulepreload`), with its catalog (`preload`): a phone fetches them in one
    round trip, not one level of imports at a time."""
    room = browser.post("/r", json={"rule_set": "english"}, headers=SAME).json()["room_id"]
    for path, script in [("/", "home.js"), (f"/r/{room}", "room.js"), ("/import", "import.js")]:
        page = browser.get(path).text
        head = page.split("</head>")[0]
        named = set(re.findall(r'<link rel="modulepreload" href="([^"]+)">', head))
        # What the modules import, read from the served files themselves.
        wanted: set[str] = set()
        pending = [f"/static/js/{script}"]
        while pending:
            source = browser.get(pending.pop()).text
            for name in re.findall(r'from "\./([\w-]+\.js)";', source):
                url = f"/static/js/{name}"
                if url not in wanted:
                    wanted.add(url)
                    pending.append(url)
        assert named == wanted, path
        catalog = re.search(r'<meta name="messages" content="([^"]+)">', head)
        assert catalog is not None
        assert f'<link rel="preload" href="{catalog.group(1)}" as="fetch" crossorigin>' in head
    notice = browser.get("/r/no-such-room").text.split("</head>")[0]
    assert "modulepreload" not in notice  # a page without a script preloads nothing
