"""Issue 60, point 5: while you were away. A player who opens a room after being away sees,
above the fold and in their language, what happened since their last visit; "Your games"
marks the rooms with news."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import WAIT, new_page
from .test_fold import assert_in_view
from .test_room_page import _create, _join, _tap

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group(__name__)]


def test_the_player_is_told_what_happened_while_away(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    first = new_page(browser, 390, 844)
    url = _create(first, server, name="Ana")
    mine = first.context
    first.wait_for_function("() => localStorage.getItem('checkers.seen')", timeout=WAIT)
    first.close()  # Ana goes away with the link sent

    tires = new_page(browser, 390, 844)
    _join(tires, url, name="Ben")

    back = mine.new_page()
    back.goto(url)
    expect(back.locator("#away")).to_be_visible(timeout=WAIT)
    expect(back.locator("#away-list li")).to_have_text(["Ben accepted your invitation."])
    assert_in_view(back, "#board", "#away")
    _tap(back, 11, 15)
    expect(tires.locator("#status")).to_contain_text("Your move", timeout=WAIT)
    back.wait_for_timeout(300)  # the page notes the record as seen once the move is back
    back.close()

    _tap(tires, 22, 18)
    tires.get_by_role("button", name="Offer draw (3 left)").click()
    expect(tires.locator("#offer")).to_be_visible(timeout=WAIT)

    home = mine.new_page()
    home.goto(server + "/")
    entry = home.locator(".game-link")
    expect(entry).to_have_class("game-link turn news", timeout=WAIT)
    expect(entry.locator(".game-badge")).to_have_text("New · Your turn")
    entry.click()
    home.wait_for_url(url)
    expect(home.locator("#away-list li")).to_have_text(
        ["Ben played 1 move: 22-18", "Ben offered a draw."], timeout=WAIT
    )
    assert_in_view(home, "#away", "#actions")
    expect(home.locator("#offer")).to_be_hidden()  # said once, in the box
    home.locator("#away-close").click()
    expect(home.locator("#away")).to_be_hidden()
    expect(home.locator("#offer")).to_be_visible()

    # Seen now: nothing more is news, on the room nor on "Your games".
    again = mine.new_page()
    again.goto(url)
    expect(again.locator("#status")).to_contain_text("Your move", timeout=WAIT)
    again.wait_for_timeout(500)
    expect(again.locator("#away")).to_be_hidden()
    again.goto(server + "/")
    expect(again.locator(".game-link .game-badge")).to_have_text("Your turn", timeout=WAIT)


def test_it_is_told_in_the_players_language(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    first = new_page(browser, 360, 740, locale="ru-RU")
    first.goto(server + "/")
    first.locator('input[name="rule_set"][value="russian"]').check()
    first.locator("#create-form button[type=submit]").first.click()
    first.wait_for_url("**/r/**")
    url = first.url
    mine = first.context
    first.wait_for_function("() => localStorage.getItem('checkers.seen')", timeout=WAIT)
    first.close()
    tires = new_page(browser)
    _join(tires, url, name="Ben")
    back = mine.new_page()
    back.goto(url)
    expect(back.locator("#away-list li")).to_have_text(
        ["Ben принимает ваше приглашение."], timeout=WAIT
    )
    expect(back.locator(".away-title")).to_contain_text("Пока вас не было")
    assert_in_view(back, "#away")
