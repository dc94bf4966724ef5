"""Defects a new user found walking the site: a finished game's page asking for a review
that does not exist, square numbers hidden under the pieces, the open seat given a
player's name, and blank gaps in the status panel."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from .conftest import ARTIFACTS, WAIT, finished_room, new_page

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group(__name__)]

# Kings and men on both far rows: the crowns and the file letters beside the numbers.
KINGS_FEN = "W:WK1,K2,K3,K4,5,12,13:BK29,K30,K31,K32,20,21"


def _watch(page: Any) -> list[str]:
    """Every console error, failed request and refused answer the page meets."""
    seen: list[str] = []
    page.on("console", lambda m: seen.append(m.text) if m.type == "error" else None)
    page.on("requestfailed", lambda r: seen.append(f"{r.url}: {r.failure}"))
    page.on("response", lambda r: seen.append(f"{r.url}: {r.status}") if r.status >= 400 else None)
    return seen


def test_a_finished_game_asks_for_its_review_only_once_there_is_one(
    browser: Any, server: str
) -> None:
    from playwright.sync_api import expect

    room = finished_room(server)
    page = new_page(browser)
    seen = _watch(page)
    asked: list[str] = []
    review = re.compile(r"/api/rooms/[\w-]+/games/\d+/review")
    page.on("request", lambda r: asked.append(r.url) if review.search(r.url) else None)
    page.goto(f"{server}/r/{room}")
    expect(page.locator("#review-panel")).to_be_visible()
    expect(page.get_by_role("button", name="Review with the computer")).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert asked == [] and seen == [] and page.errors == []

    # Once someone has asked for it, a new viewer's page shows it at once, no button.
    assert httpx.post(f"{server}/api/rooms/{room}/games/1/review").status_code == 202
    viewer = new_page(browser, 390, 844)
    seen_by_viewer = _watch(viewer)
    viewer.goto(f"{server}/r/{room}")
    expect(viewer.locator("#review-state")).to_contain_text("Reviewed:", timeout=30_000)
    expect(viewer.locator("#review-state")).to_contain_text("1 blunder")
    expect(viewer.get_by_role("button", name="Review with the computer")).to_be_hidden()
    expect(viewer.locator("#moves .judgement.blunder")).to_have_text("??")
    assert seen_by_viewer == [] and viewer.errors == []
    # The first page's button finds the review that is there now.
    page.get_by_role("button", name="Review with the computer").click()
    expect(page.locator("#review-state")).to_contain_text("1 blunder", timeout=WAIT)
    assert seen == [] and page.errors == []


# Every square number's box against every drawn piece (the man or king and its crown, as
# painted) and every coordinate: none may overlap.
OVERLAPS = """() => {
  const box = (e) => e.getBoundingClientRect();
  const meet = (a, b) => a.left < b.right && b.left < a.right
    && a.top < b.bottom && b.top < a.bottom;
  const numbers = [...document.querySelectorAll('#board .coord.num')];
  const drawn = [...document.querySelectorAll('#board .piece use')];
  const coords = [...document.querySelectorAll('#board .coord.rank, #board .coord.file')];
  const found = [];
  for (const n of numbers) {
    for (const d of drawn) {
      const at = d.closest('.piece').dataset.at;
      if (meet(box(n), box(d))) found.push(`${n.textContent} under the piece on ${at}`);
    }
    for (const c of coords) {
      if (meet(box(n), box(c))) found.push(`${n.textContent} on ${c.textContent}`);
    }
  }
  return {numbers: numbers.length, drawn: drawn.length, found};
}"""


@pytest.mark.parametrize("size", [(390, 844), (1366, 900)], ids=["phone", "desktop"])
def test_square_numbers_stay_clear_of_the_pieces_and_coordinates(
    browser: Any, server: str, size: tuple[int, int]
) -> None:
    from playwright.sync_api import expect

    rooms = {
        "english": {"rule_set": "english"},
        "kings": {"rule_set": "english", "fen": KINGS_FEN},
        "italian": {"rule_set": "italian"},  # mirrored, numbered from the other corner
    }
    for label, body in rooms.items():
        made = httpx.post(f"{server}/api/rooms", json=body)
        assert made.status_code == 201, made.text
        page = new_page(browser, *size)
        page.goto(f"{server}/r/{made.json()['room_id']}")  # seen from the tires' side
        expect(page.locator(".piece").first).to_be_visible()
        page.locator("#numbers-toggle").check()
        expect(page.locator("#board .coord.num")).to_have_count(32)
        page.wait_for_timeout(300)  # the pieces' size follows without a transition
        result = page.evaluate(OVERLAPS)
        assert result["drawn"] >= 13 and result["found"] == [], (label, result)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.locator("#board").screenshot(path=str(ARTIFACTS / f"numbers-{label}-{size[0]}.png"))
        assert page.errors == []


def _create(page: Any, server: str) -> str:
    page.goto(server + "/")
    page.locator('input[name="rule_set"][value="english"]').check()
    page.get_by_role("button", name="Create a room").click()
    page.wait_for_url(re.compile(r"/r/[\w-]+$"))
    return str(page.url).rsplit("/r/", 1)[1]


def test_the_creator_is_told_the_other_seat_is_open(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    page = new_page(browser, 390, 844)
    room = _create(page, server)
    expect(page.locator("#players")).to_have_text("Drums: Drums player · Tires: open seat")
    assert "Tires player" not in page.locator(".side").inner_text()
    httpx.post(f"{server}/api/rooms/{room}/join", json={"name": "Rita"})
    expect(page.locator("#players")).to_have_text("Drums: Drums player · Tires: Rita", timeout=WAIT)


# Children of the status panel that are laid out yet say nothing: each is a blank gap
# (its margins, its minimum height) between the lines that do.
BLANKS = """(panel) => [...panel.children]
  .filter((c) => c.getClientRects().length > 0 && !c.textContent.trim()
    && !c.querySelector('input, button, select, svg'))
  .map((c) => c.id || c.className)"""


def test_the_status_panel_has_no_blank_gap(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    creator = new_page(browser)
    room = _create(creator, server)
    invitee = new_page(browser, 390, 844)
    invitee.goto(f"{server}/r/{room}")
    expect(invitee.get_by_role("button", name="Accept and play the tires")).to_be_visible()
    expect(creator.locator("#status")).to_contain_text("Waiting for an opponent")
    for page in (creator, invitee):
        assert page.locator(".status-panel").evaluate(BLANKS) == []
    httpx.post(f"{server}/api/rooms/{room}/join")
    for size in ((390, 844), (1366, 900)):
        watcher = new_page(browser, *size)
        watcher.goto(f"{server}/r/{room}")
        expect(watcher.locator("#status")).to_contain_text("you are watching")
        expect(watcher.locator("#deadlines dd")).to_have_count(2)
        assert watcher.locator(".status-panel").evaluate(BLANKS) == []
        # Each countdown stays on one line beside its label, on a phone too.
        lines = (
            "(e) => { const r = document.createRange(); r.selectNodeContents(e);"
            " return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size; }"
        )
        for dd in watcher.locator("#deadlines dd").all():
            assert dd.evaluate(lines) == 1, dd.inner_text()
    assert creator.errors == [] and invitee.errors == []
