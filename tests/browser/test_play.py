"""Two players and a spectator in headless Chromium, through the pages only.

The expected boards come from the rules by hand (rules.md numbering: 16 = b4, 19 = c5,
23 = d6, 26 = e7, 10 = e3, 15 = d4, 20 = a5, 11 = c3, 18 = e5), not from the engine.
Skipped when Chromium or Playwright is missing, except under CI=true where that fails.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import ARTIFACTS, WAIT, new_page

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group(__name__)]


def _tap(page: Any, *squares: int) -> None:
    for square in squares:
        page.locator(f'.sq[data-square="{square}"]').click()


def _piece(page: Any, square: int) -> Any:
    return page.locator(f'.piece[data-at="{square}"]')


def _create(page: Any, server: str, rule_set: str) -> str:
    page.goto(server + "/")
    page.locator(f'input[name="rule_set"][value="{rule_set}"]').check()
    page.get_by_role("button", name="Create a room").click()
    page.wait_for_url(re.compile(r"/r/[\w-]+$"))
    return str(page.url)


def _seat_up(browser: Any, server: str, rule_set: str, name: str) -> tuple[Any, Any, Any]:
    """Creator (drums), joiner (tires, phone-sized) and a spectator on one new room."""
    from playwright.sync_api import expect

    drums = new_page(browser)
    url = _create(drums, server, rule_set)
    expect(drums.locator("#status")).to_contain_text("Waiting for an opponent")
    tires = new_page(browser, 375, 812)
    tires.goto(url)
    # The invitee sees the rule set and the creator's side before accepting.
    expect(tires.locator("#ruleset")).to_have_text(f"{name} rules")
    expect(tires.locator("#status")).to_contain_text("The creator plays the drums and moves first")
    tires.get_by_role("button", name="Accept and play the tires").click()
    expect(tires.locator("#player-bottom")).to_contain_text("Tires · you")
    expect(drums.locator("#status")).to_contain_text("Your move", timeout=WAIT)
    watcher = new_page(browser)
    watcher.goto(url)
    expect(watcher.locator("#status")).to_contain_text("you are watching")
    return drums, tires, watcher


def _moves_seen(pages: list[Any], count: int) -> None:
    from playwright.sync_api import expect

    for page in pages:
        expect(page.locator("#moves button")).to_have_count(count, timeout=WAIT)


def test_english_game_capture_draw_resign_rematch(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    drums, tires, watcher = _seat_up(browser, server, "english", "English")
    everyone = [drums, tires, watcher]

    # The seat token is an HttpOnly, SameSite=Lax cookie of this room's path only.
    room_path = "/r/" + tires.url.rsplit("/r/", 1)[1]
    (cookie,) = tires.context.cookies()
    assert (cookie["name"], cookie["path"]) == ("seat", room_path)
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
    assert tires.evaluate("document.cookie") == ""
    assert cookie["value"] not in tires.url

    # Boards from each viewer's side: drums at the bottom for drums and spectators.
    assert drums.locator("#player-bottom").inner_text().startswith("Drums")
    assert watcher.locator("#player-bottom").inner_text().startswith("Drums")
    assert tires.locator("#player-bottom").inner_text().startswith("Tires")

    plays = [(drums, (12, 16)), (tires, (24, 20)), (drums, (10, 15)), (tires, (23, 19))]
    for n, (page, squares) in enumerate(plays, start=1):
        _tap(page, *squares)
        _moves_seen(everyone, n)
        for viewer in everyone:
            expect(_piece(viewer, squares[-1])).to_have_count(1, timeout=WAIT)

    # Drums must capture c5 (19): only b4 (16, landing on d6) and d4 (15, landing on b6)
    # are selectable, and c5 is marked to be taken.
    expect(drums.locator(".sq.selectable")).to_have_count(2)
    for square in (15, 16):
        expect(drums.locator(f'.sq.selectable[data-square="{square}"]')).to_have_count(1)
    expect(drums.locator(".piece.marked")).to_have_count(1)
    expect(drums.locator('.piece.marked[data-at="19"]')).to_have_count(1)
    _tap(drums, 16, 23)
    _moves_seen(everyone, 5)

    # Tires answer with a double jump, tapped landing by landing: e7 x d6 x d4 -> e3.
    _tap(tires, 26)
    expect(tires.locator('.piece.marked[data-at="23"]')).to_have_count(1)
    expect(tires.locator('.piece.marked[data-at="15"]')).to_have_count(1)
    _tap(tires, 19)
    expect(tires.locator('.sq.target[data-square="10"]')).to_have_count(1)
    _tap(tires, 10)
    _moves_seen(everyone, 6)
    for viewer in everyone:
        expect(viewer.locator("#moves button").last).to_have_text("26x19x10")
        expect(_piece(viewer, 10)).to_have_class(re.compile(r"\btires\b"), timeout=WAIT)
        for empty in (26, 23, 19, 15):
            expect(_piece(viewer, empty)).to_have_count(0, timeout=WAIT)
    expect(drums.locator(".sq.last")).to_have_count(3)  # the whole path of the last move

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    drums.screenshot(path=str(ARTIFACTS / "room-desktop.png"), full_page=True)
    tires.screenshot(path=str(ARTIFACTS / "room-phone.png"), full_page=True)

    # Replay: the first move again, hop by hop, then back to the game.
    watcher.locator("#moves button").first.click()
    expect(watcher.locator("#replay-pos")).to_have_text("1 / 6")
    expect(_piece(watcher, 16)).to_have_count(1)
    expect(_piece(watcher, 24)).to_have_count(1)  # the tires' reply is not played yet
    watcher.get_by_role("button", name="Latest position").click()
    expect(_piece(watcher, 10)).to_have_count(1)

    # A draw offered and declined.
    drums.get_by_role("button", name="Offer draw (3 left)").click()
    tires.get_by_role("button", name="Decline draw").click(timeout=WAIT)
    expect(drums.get_by_role("button", name="Offer draw (2 left)")).to_be_visible(timeout=WAIT)

    # Resignation needs a confirmation.
    drums.get_by_role("button", name="Resign").click()
    drums.locator("#confirm-ok").click()
    for viewer in everyone:
        expect(viewer.locator("#status")).to_have_text("Tires win: drums resigned", timeout=WAIT)

    # Rematch: the sides swap, so the joiner now plays the drums and moves first.
    tires.get_by_role("button", name="Offer a rematch").click()
    drums.get_by_role("button", name="Accept rematch").click(timeout=WAIT)
    expect(drums.locator("#player-bottom")).to_contain_text("Tires · you")
    expect(tires.locator("#status")).to_contain_text("Your move (you play the drums)", timeout=WAIT)
    expect(tires.locator("#player-bottom")).to_contain_text("Drums · you", timeout=WAIT)
    expect(watcher.locator("#moves button")).to_have_count(0, timeout=WAIT)
    for page in everyone:
        assert page.errors == []


def test_flying_king_rules_drag_and_backward_double_capture(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    drums, tires, watcher = _seat_up(browser, server, "russian", "Russian")
    everyone = [drums, tires, watcher]

    # The first move by drag and drop: the man on a3 (12) to b4 (16).
    start = drums.locator('.sq[data-square="12"]').bounding_box()
    end = drums.locator('.sq[data-square="16"]').bounding_box()
    drums.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    drums.mouse.down()
    drums.mouse.move(end["x"] + 5, end["y"] + 5, steps=8)
    drums.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=4)
    drums.mouse.up()
    _moves_seen(everyone, 1)

    _tap(tires, 24, 20)
    _moves_seen(everyone, 2)
    _tap(drums, 11, 15)
    _moves_seen(everyone, 3)
    # A Russian man captures backward too: a5 x b4 -> c3, then x d4 -> e5.
    _tap(tires, 20, 11, 18)
    _moves_seen(everyone, 4)
    for viewer in everyone:
        # Russian moves are algebraic by default (a5 = 20, c3 = 11, e5 = 18).
        expect(viewer.locator("#moves button").last).to_have_text("a5:c3:e5")
        expect(_piece(viewer, 18)).to_have_class(re.compile(r"\btires\b"), timeout=WAIT)
        for empty in (20, 16, 15, 11):
            expect(_piece(viewer, empty)).to_have_count(0, timeout=WAIT)

    # Keyboard: focus a square, move with the arrows, play with Enter.
    drums.locator('.sq[data-square="9"]').focus()
    drums.keyboard.press("Enter")  # select g3 (9)
    drums.keyboard.press("ArrowUp")  # up-left from g3 is f4 (14)
    expect(drums.locator('.sq[data-square="14"]')).to_be_focused()
    drums.keyboard.press("Enter")
    _moves_seen(everyone, 5)
    expect(_piece(watcher, 14)).to_have_count(1, timeout=WAIT)
    for page in everyone:
        assert page.errors == []


def test_room_page_first_load_is_light(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    maker = new_page(browser)
    url = _create(maker, server, "english")
    page = new_page(browser, 375, 812)  # a fresh context: nothing cached
    page.goto(url)
    expect(page.locator(".piece")).to_have_count(24)
    stats = page.evaluate(
        """() => {
        const nav = performance.getEntriesByType('navigation')[0];
        const res = performance.getEntriesByType('resource')
            .filter((r) => !r.name.includes('/events'));
        const bytes = nav.transferSize + res.reduce((n, r) => n + r.transferSize, 0);
        const shown = performance.getEntriesByName('board-shown')[0].startTime;
        return { bytes, shown };
    }"""
    )
    print(f"\nroom page first load: {stats['bytes'] / 1024:.1f} KB, board shown in "
          f"{stats['shown']:.0f} ms")  # fmt: skip
    assert 0 < stats["bytes"] < 150 * 1024
    # The board is drawn from the page's own data, before the stream opens. How soon is
    # printed, not asserted: on a machine shared with the rest of the suite it moves past
    # any bound a test could hold (speed is benchmarked, not tested).
    assert stats["shown"] > 0


def test_play_the_computer_and_find_the_game_on_the_home_page(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    page = new_page(browser, 375, 812)
    page.goto(server + "/")
    page.locator('input[name="level"][value="tamer"]').check()
    page.locator('select[name="rule_set"]').select_option("english")
    page.get_by_role("button", name="Play the computer").click()
    page.wait_for_url(re.compile(r"/r/[\w-]+$"))
    expect(page.locator("#player-top")).to_contain_text("Tamer (computer)")
    _tap(page, 11, 15)
    # The computer's answer arrives live: a second move, and the drums to move again.
    expect(page.locator("#moves button")).to_have_count(2, timeout=10_000)
    expect(page.locator("#status")).to_contain_text("Your move", timeout=WAIT)
    page.goto(server + "/")
    game = page.locator("#games .game-link")
    expect(game).to_have_count(1)
    expect(game).to_have_class(re.compile(r"\bturn\b"))
    expect(game.locator(".game-badge")).to_have_text("Your turn")
    expect(game.locator(".game-meta")).to_contain_text("Tamer (computer) played")
    page.screenshot(path=str(ARTIFACTS / "home-phone.png"), full_page=True)
    assert page.errors == []
