"""Issue 60, point 4: offline, it still helps. With the network gone, "Your games" and a
room opened before show what this device saw last, under an offline banner; a move made
offline in the player's turn is kept and sent, with its ply, when the network is back;
if the game changed meanwhile, nothing is played and the player is told.

The pages come from the service worker's cache, not the network: a change made on the
server while the browser is offline is not on the page it reloads, and Playwright says
the answer came from the worker."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from .conftest import WAIT, new_page
from .test_accessibility import audit_everywhere
from .test_room_page import _create, _tap

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group(__name__)]


def _api(server: str, room: str, token: str, path: str, body: dict[str, Any] | None = None) -> Any:
    answer = httpx.post(
        f"{server}/api/rooms/{room}/{path}",
        json=body or {},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def _plies(server: str, room: str) -> int:
    return int(httpx.get(f"{server}/api/rooms/{room}").json()["game"]["ply"])


def test_offline_pages_and_a_move_kept_until_the_network_is_back(
    browser: Any, server: str, axe_source: str
) -> None:
    from playwright.sync_api import expect

    page = new_page(browser, 390, 844)
    url = _create(page, server)
    room = url.rsplit("/", 1)[1]
    tires = httpx.post(f"{server}/api/rooms/{room}/join", json={"name": "Ben"}).json()["token"]
    page.wait_for_function(
        "async () => Boolean((await navigator.serviceWorker.ready).active)", timeout=WAIT
    )
    page.reload()  # under the worker's control: the page is kept as it is loaded
    expect(page.locator("#status")).to_contain_text("Your move", timeout=WAIT)
    _tap(page, 11, 15)
    expect(page.locator("#moves button")).to_have_count(1, timeout=WAIT)
    _api(server, room, tires, "moves", {"move": "24-20", "expected_ply": 1})
    expect(page.locator("#moves button")).to_have_count(2, timeout=WAIT)
    banner = page.locator("#offline")
    expect(banner).to_be_hidden()

    context = page.context
    context.set_offline(True)
    expect(banner).to_be_visible(timeout=WAIT)
    expect(banner).to_contain_text("You are offline")
    # The server moves on while this browser cannot see it.
    _api(server, room, tires, "name", {"name": "Zed"})

    # A move in the player's turn is kept, not sent.
    _tap(page, 9, 13)
    pending = page.locator("#pending")
    expect(pending).to_have_text(
        "Your move 9-13 is kept on this device and will be sent when the connection is back."
    )
    expect(page.locator('.piece[data-at="13"]')).to_have_count(1)
    assert _plies(server, room) == 2

    # Reloaded offline: the worker's copy, the move still waiting on the board.
    answer = page.reload()
    assert answer is not None and answer.from_service_worker
    expect(banner).to_be_visible(timeout=WAIT)
    expect(page.locator("#players")).to_contain_text("Ben")
    expect(page.locator("#players")).not_to_contain_text("Zed")
    expect(pending).to_contain_text("Your move 9-13 is kept", timeout=WAIT)
    expect(page.locator('.piece[data-at="13"]')).to_have_count(1)
    expect(page.locator('.piece[data-at="9"]')).to_have_count(0)
    expect(page.locator("#moves button")).to_have_count(2)
    # The banner and the note read as well as the rest, in both schemes, at each size.
    problems = {k: v for k, v in audit_everywhere(page, axe_source).items() if v}
    assert problems == {}, json.dumps(problems, indent=1)

    # "Your games", offline: the room as it was last seen.
    home = page.goto(server + "/")
    assert home is not None and home.from_service_worker
    expect(banner).to_be_visible(timeout=WAIT)
    entry = page.locator(".game-link")
    expect(entry).to_have_count(1, timeout=WAIT)
    expect(entry).to_contain_text("Ben")
    expect(entry).to_contain_text("Ben played 24-20")  # as this device saw it last
    expect(entry).to_contain_text("your move 9-13 waits to be sent")
    page.goto(url)
    expect(pending).to_be_visible(timeout=WAIT)

    # Back online: the kept move is played at the ply it was chosen at.
    context.set_offline(False)
    expect(pending).to_be_hidden(timeout=WAIT)
    expect(banner).to_be_hidden()
    expect(page.locator("#moves button")).to_have_count(3, timeout=WAIT)
    expect(page.locator("#moves button").last).to_have_text("9-13")
    expect(page.locator("#said")).to_have_text("Your move 9-13, made offline, has been played.")
    expect(page.locator("#players")).to_contain_text("Zed", timeout=WAIT)
    assert _plies(server, room) == 3

    # The game changes while a kept move waits: nothing is played, and the player is told.
    _api(server, room, tires, "moves", {"move": "28-24", "expected_ply": 3})
    expect(page.locator("#moves button")).to_have_count(4, timeout=WAIT)
    context.set_offline(True)
    expect(banner).to_be_visible(timeout=WAIT)
    _tap(page, 10, 14)
    expect(pending).to_contain_text("Your move 10-14 is kept")
    _api(server, room, tires, "resign")
    context.set_offline(False)
    expect(page.locator("#error")).to_have_text(
        "Your move 10-14, made offline, was not played: the game ended meanwhile "
        "(Drums win: tires resigned).",
        timeout=WAIT,
    )
    expect(pending).to_be_hidden()
    expect(page.locator("#moves button")).to_have_count(4)
    assert _plies(server, room) == 4
    assert page.evaluate("() => localStorage.getItem('checkers.pending')") == "{}"
    assert page.errors == []


def test_a_kept_move_the_game_has_passed_is_not_played_and_said_in_the_pages_language(
    browser: Any, server: str
) -> None:
    """The same seat plays elsewhere while this browser is offline with a move kept: the
    kept move is not played, and the player is told so, in Spanish."""
    from playwright.sync_api import expect

    made = httpx.post(f"{server}/api/rooms", json={"rule_set": "english"}).json()
    room, drums = made["room_id"], made["token"]
    httpx.post(f"{server}/api/rooms/{room}/join").raise_for_status()
    page = new_page(browser, 390, 844, locale="es-ES")
    page.context.add_cookies(
        [{"name": "seat", "value": drums, "domain": "127.0.0.1", "path": f"/r/{room}"}]
    )
    page.goto(f"{server}/r/{room}")
    expect(page.locator("#status")).to_contain_text("Tu turno", timeout=WAIT)
    page.context.set_offline(True)
    expect(page.locator("#offline")).to_have_text(
        "Sin conexión: esto es lo último que vio este dispositivo. "
        "Se pondrá al día cuando vuelva la conexión.",
        timeout=WAIT,
    )
    _tap(page, 11, 15)
    expect(page.locator("#pending")).to_have_text(
        "Tu jugada 11-15 queda guardada en este dispositivo y se enviará cuando vuelva la conexión."
    )
    _api(server, room, drums, "moves", {"move": "9-13", "expected_ply": 0})  # elsewhere
    page.context.set_offline(False)
    expect(page.locator("#error")).to_have_text(
        "Tu jugada 11-15, hecha sin conexión, no se jugó: la partida cambió entretanto. "
        "El tablero está al día.",
        timeout=WAIT,
    )
    expect(page.locator("#moves button")).to_have_text(["9-13"])
    expect(page.locator('.piece[data-at="15"]')).to_have_count(0)
    assert _plies(server, room) == 1
    assert page.errors == []
