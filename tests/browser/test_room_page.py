"""The room page as a correspondence player lives in it: names, notifications, personal
deadlines, the games of the room, and the defects found by playing it as a new user."""

from __future__ import annotations

import base64
import json
import os
import re
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from .conftest import ARTIFACTS, WAIT, new_page

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group(__name__)]

XSS = "<svg onload=alert(1)>"  # 21 characters: a name may be this long
XSS_LONG = "<img src=x onerror=alert(1)>"  # 28: longer than a name may be
RTL = "שחקנית מצטיינת מתל אביב!"  # 24 characters, right to left


def _tap(page: Any, *squares: int) -> None:
    for square in squares:
        page.locator(f'.sq[data-square="{square}"]').click()


def _create(page: Any, server: str, *, name: str = "", rule_set: str = "english") -> str:
    page.goto(server + "/")
    page.locator(f'input[name="rule_set"][value="{rule_set}"]').check()
    if name:
        page.locator("#create-name").fill(name)
    page.get_by_role("button", name="Create a room").click()
    page.wait_for_url(re.compile(r"/r/[\w-]+$"))
    return str(page.url)


def _join(page: Any, url: str, *, name: str = "") -> None:
    from playwright.sync_api import expect

    page.goto(url)
    if name:
        page.locator("#join-name").fill(name)
    page.get_by_role("button", name="Accept and play the tires").click()
    expect(page.locator("#player-bottom")).to_contain_text("Tires · you", timeout=WAIT)


def _pair(browser: Any, server: str, **names: str) -> tuple[Any, Any, str]:
    """The creator (drums) and a joiner (tires, phone-sized), once the creator's page knows
    the game has begun."""
    from playwright.sync_api import expect

    drums = new_page(browser)
    url = _create(drums, server, name=names.get("drums", ""))
    tires = new_page(browser, 375, 812)
    _join(tires, url, name=names.get("tires", ""))
    expect(drums.locator("#status")).to_contain_text("Your move", timeout=WAIT)
    return drums, tires, url


def test_names_are_shown_escaped_and_hold_the_layout(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    refused = httpx.post(f"{server}/api/rooms", json={"name": XSS_LONG})
    assert refused.status_code == 422 and "24" in refused.json()["detail"]
    drums, tires, url = _pair(browser, server, drums=XSS, tires=RTL)
    watcher = new_page(browser)
    watcher.goto(url)
    for page in (drums, tires, watcher):
        expect(page.locator("#player-top, #player-bottom").filter(has_text=XSS)).to_have_count(1)
        expect(page.locator("#player-top, #player-bottom").filter(has_text=RTL)).to_have_count(1)
        expect(page.locator("#players")).to_contain_text(XSS)
        expect(page.locator("#players")).to_contain_text(RTL)
        assert page.locator("svg[onload]").count() == 0
        # The long right-to-left name stays on its line inside its label.
        for label in ("#player-top", "#player-bottom"):
            box = page.locator(label).evaluate(
                "(el) => ({h: el.getBoundingClientRect().height, sw: el.scrollWidth,"
                " cw: el.clientWidth})"
            )
            assert box["sw"] <= box["cw"] + 1 and box["h"] < 60, box
    _tap(drums, 11, 15)
    expect(tires.locator("#moves button")).to_have_count(1, timeout=WAIT)
    # Renaming a seat reaches the other pages live.
    drums.locator("#rename-input").fill("Ana")
    drums.get_by_role("button", name="Save name").click()
    expect(tires.locator("#player-top")).to_contain_text("Ana", timeout=WAIT)
    expect(watcher.locator("#players")).to_contain_text("Ana", timeout=WAIT)
    # The home page's list shows the opponent's name, escaped, too.
    tires.goto(server + "/")
    expect(tires.locator("#games .game-link").first).to_contain_text("Ana")
    drums.goto(server + "/")
    expect(drums.locator("#games .game-link").first).to_contain_text(RTL)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    watcher.screenshot(path=str(ARTIFACTS / "names.png"), full_page=True)
    for page in (drums, tires, watcher):
        assert page.errors == [] and page.dialogs == []


def _fake_push(page: Any) -> dict[str, Any]:
    """Headless Chromium cannot reach a vendor's push service: the page's PushManager
    hands out a subscription whose keys a browser would make."""
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    point = key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    sub = {
        "endpoint": "http://127.0.0.1:9/push/fake-device",
        "keys": {
            "p256dh": base64.urlsafe_b64encode(point).decode().rstrip("="),
            "auth": base64.urlsafe_b64encode(os.urandom(16)).decode().rstrip("="),
        },
    }
    page.add_init_script(
        "const sub = " + json.dumps(sub) + ";"
        """
        let current = null;
        const make = () => ({
          endpoint: sub.endpoint, expirationTime: null, options: {},
          toJSON() { return {endpoint: sub.endpoint, expirationTime: null, keys: sub.keys}; },
          unsubscribe: async () => { current = null; return true; },
        });
        PushManager.prototype.subscribe = async function (options) {
          window.__applicationServerKey = options.applicationServerKey;
          current = make(); return current;
        };
        PushManager.prototype.getSubscription = async function () { return current; };
        """
    )
    return sub


def test_notifications_turn_on_and_off(browser: Any, quick_server: str) -> None:
    from playwright.sync_api import expect

    drums = new_page(browser)
    url = _create(drums, quick_server)
    tires = browser.new_context(viewport={"width": 1280, "height": 860})
    tires.grant_permissions(["notifications"], origin=quick_server)
    page = tires.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    _fake_push(page)
    _join(page, url)
    toggle = page.locator("#push-toggle")
    expect(toggle).to_have_text("Notify me on this device")
    toggle.click()
    expect(page.locator("#push-state")).to_have_text("Notifications are on for this device.")
    expect(toggle).to_have_text("Turn notifications off")
    registration = page.evaluate(
        "async () => { const r = await navigator.serviceWorker.getRegistration('/');"
        " const w = r && (r.active || r.installing || r.waiting);"
        " return w ? w.scriptURL : null; }"
    )
    assert registration and registration.endswith("/sw.js")
    key = page.evaluate(
        "() => btoa(String.fromCharCode(...new Uint8Array(window.__applicationServerKey)))"
        ".replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '')"
    )
    assert key == httpx.get(f"{quick_server}/api/push-key").json()["public_key"]
    room_id = url.rsplit("/r/", 1)[1]
    state = page.evaluate(f"async () => (await fetch('/r/{room_id}/state')).json()")
    assert state["you"]["notifications"]["push"] is True
    toggle.click()
    expect(page.locator("#push-state")).to_have_text("Notifications are off.")
    state = page.evaluate(f"async () => (await fetch('/r/{room_id}/state')).json()")
    assert state["you"]["notifications"]["push"] is False
    assert page.errors == []


def test_deadlines_speak_to_each_player_by_the_servers_clock(
    browser: Any, quick_server: str
) -> None:
    from playwright.sync_api import expect

    drums = new_page(browser)
    url = _create(drums, quick_server)
    tires = new_page(browser, 375, 812)
    # The tires' device runs three hours fast: the countdowns must not care.
    tires.add_init_script("Date.now = ((real) => () => real() + 3 * 3600 * 1000)(Date.now);")
    _join(tires, url)
    expect(drums.locator("#status")).to_contain_text("Your move", timeout=WAIT)
    _tap(drums, 11, 15)
    expect(tires.locator("#deadline")).to_have_text(
        re.compile(r"^Move by .+ \(in [1-4] s\) or your opponent may claim the win\.$"),
        timeout=WAIT,
    )
    expect(drums.locator("#deadline")).to_have_text(
        re.compile(r"^You may claim the win from .+\.$"), timeout=WAIT
    )
    expect(drums.get_by_role("button", name="Claim the win")).to_have_count(0)
    expect(tires).to_have_title(re.compile(r"^Your move"))
    expect(drums).to_have_title(re.compile(r"^English"))
    claim = drums.get_by_role("button", name="Claim the win")
    expect(claim).to_be_enabled(timeout=8000)
    expect(drums.locator("#deadline")).to_have_text("You may claim the win now.")
    expect(tires.locator("#deadline")).to_have_text(
        "Your opponent may now claim the win: move now.", timeout=WAIT
    )
    claim.click()
    expect(tires.locator("#status")).to_have_text(
        "Drums win by forfeit: tires made no move for 4 seconds", timeout=WAIT
    )
    for page in (drums, tires):
        assert page.errors == []


def test_your_games_tell_themselves_apart(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    me = new_page(browser)
    first = _create(me, server, name="Me")  # waiting for an opponent
    bob = new_page(browser, 375, 812)
    second = _create(me, server, name="Me")
    _join(bob, second, name="Bob")
    # Seen here before leaving, so the join is no news on "Your games" below.
    expect(me.locator("#status")).to_contain_text("Your move", timeout=WAIT)
    cleo = new_page(browser, 375, 812)
    third = _create(me, server, name="Me")
    _join(cleo, third, name="Cleo")
    me.goto(third)
    _tap(me, 11, 15)  # Cleo to move there; my move against Bob
    expect(cleo.locator("#moves button")).to_have_count(1, timeout=WAIT)
    me.goto(server + "/")
    entries = me.locator("#games .game-link")
    expect(entries).to_have_count(3)
    expect(entries.nth(0)).to_contain_text("Bob")  # my turn first
    expect(entries.nth(0).locator(".game-badge")).to_have_text("Your turn")
    expect(entries.nth(0)).to_contain_text(re.compile(r"Move by .+"))
    expect(entries.nth(1)).to_contain_text("Cleo")
    expect(entries.nth(1)).to_contain_text(re.compile(r"you played 11-15 .*(just now|ago)"))
    expect(entries.nth(2)).to_contain_text("Waiting for an opponent")
    for i in range(3):
        expect(entries.nth(i).locator("svg.mini-board")).to_have_count(1)
        expect(entries.nth(i)).to_contain_text("English · you play the drums")
    expect(me).to_have_title(re.compile(r"^\(1\) Your move"))
    assert first.rsplit("/", 1)[1] in entries.nth(2).get_attribute("href")
    me.screenshot(path=str(ARTIFACTS / "your-games.png"), full_page=True)
    assert me.errors == []


def test_a_rematch_during_a_replay_shows_the_new_game(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    drums, tires, _ = _pair(browser, server)
    _tap(drums, 11, 15)
    expect(tires.locator("#moves button")).to_have_count(1, timeout=WAIT)
    _tap(tires, 22, 18)
    expect(drums.locator("#moves button")).to_have_count(2, timeout=WAIT)
    drums.get_by_role("button", name="Resign").click()
    drums.locator("#confirm-ok").click()
    expect(tires.locator("#status")).to_contain_text("Tires win", timeout=WAIT)
    tires.locator("#moves button").first.click()  # the tires replay the game
    expect(tires.locator("#replay-pos")).to_have_text("1 / 2")
    tires.get_by_role("button", name="Offer a rematch").click()
    drums.get_by_role("button", name="Accept rematch").click(timeout=WAIT)
    expect(tires.locator("#status")).to_contain_text("Your move", timeout=WAIT)
    expect(tires.locator("#moves button")).to_have_count(0)
    expect(tires.locator("#replay-pos")).to_have_text("start")
    assert tires.errors == [] and drums.errors == []


def test_pending_offers_are_said_to_everyone(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    drums, tires, url = _pair(browser, server, drums="Ana")
    watcher = new_page(browser)
    watcher.goto(url)
    drums.get_by_role("button", name="Offer draw (3 left)").click()
    expect(tires.locator("#offer")).to_have_text("Your opponent offers a draw.", timeout=WAIT)
    expect(watcher.locator("#offer")).to_have_text("Ana offers a draw.", timeout=WAIT)
    expect(drums.locator("#offer")).to_have_text("You offered a draw.")
    tires.get_by_role("button", name="Decline draw").click()
    expect(watcher.locator("#offer")).to_have_text(
        "Tires player declined the draw offer.", timeout=WAIT
    )
    expect(drums.locator("#offer")).to_have_text(
        "Tires player declined your draw offer.", timeout=WAIT
    )
    drums.get_by_role("button", name="Resign").click()
    drums.locator("#confirm-ok").click()
    tires.get_by_role("button", name="Offer a rematch").click(timeout=WAIT)
    expect(drums.locator("#offer")).to_have_text("Your opponent offers a rematch.", timeout=WAIT)
    expect(watcher.locator("#offer")).to_have_text("Tires player offers a rematch.", timeout=WAIT)


def test_the_share_panel_follows_the_seats(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    drums = new_page(browser)
    url = _create(drums, server)
    expect(drums.locator("#share-note")).to_have_text(
        "Anyone with this link can watch, or accept and play."
    )
    tires = new_page(browser)
    _join(tires, url)
    for page in (drums, tires):
        expect(page.locator("#share-note")).to_have_text(
            "Anyone with this link can watch.", timeout=WAIT
        )


def test_errors_are_plain_sentences_and_the_page_recovers(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    drums, tires, url = _pair(browser, server)
    # A second tab of the drums' seat moves first; the first tab, deaf to live updates,
    # then tries a move of its own.
    deaf = drums.context.new_page()
    deaf.errors = []
    deaf.on("pageerror", lambda exc: deaf.errors.append(str(exc)))
    deaf.route("**/events*", lambda route: route.abort())
    deaf.goto(url)
    _tap(drums, 11, 15)
    expect(tires.locator("#moves button")).to_have_count(1, timeout=WAIT)
    _tap(deaf, 9, 13)
    error = deaf.locator("#error")
    expect(error).to_have_text(
        "The game moved on while you chose. The board is up to date: choose again.",
        timeout=WAIT,
    )
    expect(deaf.locator("#moves button")).to_have_count(1)
    # Offline: a plain sentence, and the page says it is reconnecting; a move is kept
    # (test_offline.py); back online, the message goes, the move is sent and the page
    # catches up.
    tires.context.set_offline(True)
    expect(tires.locator("#live")).to_have_text("Reconnecting…", timeout=10_000)
    tires.get_by_role("button", name="Offer draw (3 left)").click()
    expect(tires.locator("#error")).to_have_text(
        "You seem to be offline: the page will catch up when the connection is back.",
        timeout=WAIT,
    )
    _tap(tires, 22, 18)
    expect(tires.locator("#pending")).to_be_visible()
    tires.context.set_offline(False)
    expect(tires.locator("#live")).to_be_hidden(timeout=15_000)
    expect(tires.locator("#error")).to_be_hidden(timeout=WAIT)
    expect(tires.locator("#pending")).to_be_hidden(timeout=WAIT)
    expect(drums.locator("#moves button")).to_have_count(2, timeout=WAIT)
    # A refusal that carries an instant says it as a date, not as ISO text.
    text = tires.evaluate(
        "async () => (await import('/static/js/common.js')).plainError("
        "{code: 'claim_not_open', opens_at: '2030-01-03T07:31:00Z', detail: 'raw'})"
    )
    assert text.startswith("You may claim the win from ") and "2030-01-03T" not in text
    assert deaf.errors == [] and tires.errors == []


def test_an_old_tab_lets_go_of_a_seat_moved_to_another_device(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    drums, _, _ = _pair(browser, server)
    drums.get_by_role("button", name="Continue on another device").click()
    expect(drums.locator("#device-row")).to_be_visible(timeout=WAIT)
    link = drums.locator("#device-url").input_value()
    other = new_page(browser, 375, 812)
    other.goto(link)
    expect(other.locator("#player-bottom")).to_contain_text("Drums · you", timeout=WAIT)
    expect(drums.locator("#status")).to_contain_text("you are watching", timeout=WAIT)
    expect(drums.get_by_role("button", name="Resign")).to_have_count(0)
    assert drums.errors == [] and other.errors == []


def test_an_expired_waiting_room_says_nobody_joined(browser: Any, expiring_server: str) -> None:
    from playwright.sync_api import expect

    page = new_page(browser)
    url = _create(page, expiring_server)
    page.wait_for_timeout(2500)
    page.goto(url)
    expect(page.locator("#status")).to_have_text("Nobody joined within 2 seconds")
    expect(page.locator("#score")).to_have_text("")
    assert "0 \u2013 0" not in page.locator("body").inner_text()  # no score of no game


def test_earlier_games_are_listed_replayable_and_downloadable(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    drums, tires, url = _pair(browser, server)
    _tap(drums, 11, 15)
    expect(tires.locator("#moves button")).to_have_count(1, timeout=WAIT)
    tires.get_by_role("button", name="Resign").click()
    tires.locator("#confirm-ok").click()
    room_id = url.rsplit("/r/", 1)[1]
    pdn = drums.locator("#pdn-link")
    expect(pdn).to_have_attribute("href", f"/api/rooms/{room_id}/games/1.pdn", timeout=WAIT)
    drums.get_by_role("button", name="Offer a rematch").click()
    tires.get_by_role("button", name="Accept rematch").click(timeout=WAIT)
    history = drums.locator("#history li")
    expect(history).to_have_count(1, timeout=WAIT)
    expect(history.first).to_contain_text("Game 1")
    expect(history.first).to_contain_text("Drums win: tires resigned")
    expect(history.first.get_by_role("link", name="PDN")).to_have_attribute(
        "href", f"/api/rooms/{room_id}/games/1.pdn"
    )
    history.first.get_by_role("button", name="Replay").click()
    expect(drums.locator("#replay-pos")).to_have_text("1 / 1", timeout=WAIT)
    expect(drums.locator("#status")).to_contain_text("Game 1")
    expect(drums.locator('.piece[data-at="15"]')).to_have_count(1)
    drums.get_by_role("button", name="Back to the game").click()
    expect(drums.locator("#moves button")).to_have_count(0)
    text = httpx.get(f"{tires.url.split('/r/')[0]}/api/rooms/{room_id}/games/1.pdn").text
    assert '[Result "1-0"]' in text
    assert drums.errors == [] and tires.errors == []
