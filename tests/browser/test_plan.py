"""Planning ahead in the room page: a line tried on the scratch board and kept is
played for its player the moment the opponent's expected move arrives elsewhere."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import WAIT, new_page
from .test_room_page import _pair, _tap

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group(__name__)]


def _tap_plan(page: Any, *squares: int) -> None:
    for square in squares:
        page.locator(f'#plan-board .sq[data-square="{square}"]').click()


def test_a_two_move_line_is_played_when_its_move_comes(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    drums, tires, url = _pair(browser, server)
    _tap(drums, 11, 15)
    expect(tires.locator("#moves button")).to_have_count(1, timeout=WAIT)
    # The drums plan: if 22-18, take back with 15x22.
    expect(drums.get_by_role("button", name="Plan a line")).to_be_visible(timeout=WAIT)
    drums.get_by_role("button", name="Plan a line").click()
    expect(drums.locator("#plan-step")).to_have_text("Play your opponent's move on this board.")
    _tap_plan(drums, 22, 18)
    expect(drums.locator("#plan-step")).to_have_text("Now play your reply.")
    _tap_plan(drums, 15, 22)
    expect(drums.locator("#plan-draft")).to_have_text("This line: if 22-18, 15x22")
    drums.get_by_role("button", name="Keep this line").click()
    expect(drums.locator("#plan-lines li")).to_have_text(["if 22-18, 15x22"], timeout=WAIT)
    # Nobody else sees it.
    watcher = new_page(browser)
    watcher.goto(url)
    expect(watcher.locator("#plan-panel")).to_be_hidden()
    assert "15x22" not in tires.content()
    # The tires play the expected move: the reply follows at once, for every viewer.
    _tap(tires, 22, 18)
    for page in (tires, drums, watcher):
        expect(page.locator("#moves button")).to_have_count(3, timeout=WAIT)
        expect(page.locator("#moves button").last).to_have_text("15x22")
    expect(tires.locator("#status")).to_contain_text("Your move", timeout=WAIT)
    expect(drums.locator("#plan-empty")).to_be_visible(timeout=WAIT)
    for page in (drums, tires, watcher):
        assert page.errors == []
