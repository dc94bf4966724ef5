"""Issue 60, point 6: the pages follow the system's colour scheme, and a switch kept in
the browser (a cookie) overrides it; the board keeps its colours in both."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import WAIT, new_page
from .test_room_page import _create

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group(__name__)]

LIGHT_BG, DARK_BG = "rgb(244, 241, 234)", "rgb(18, 21, 18)"


def background(page: Any) -> str:
    return str(page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor"))


def test_the_page_follows_the_system_scheme(browser: Any, server: str) -> None:
    for scheme, expected in (("light", LIGHT_BG), ("dark", DARK_BG)):
        page = new_page(browser, 390, 844, scheme=scheme)
        page.goto(server + "/")
        assert background(page) == expected, scheme
        assert page.locator("meta[name=color-scheme]").get_attribute("content") == "light dark"


def test_the_switch_is_kept_and_overrides_the_system(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    page = new_page(browser, 390, 844, scheme="dark", locale="ru-RU")
    page.goto(server + "/")
    switch = page.locator("#theme-switch")
    assert switch.get_attribute("aria-label") == "Цвета как в системе: переключить на светлые"
    seen = []
    for _ in range(3):
        switch.click()
        page.wait_for_load_state()
        seen.append((page.locator("html").get_attribute("data-theme"), background(page)))
    assert seen == [("light", LIGHT_BG), ("dark", DARK_BG), (None, DARK_BG)]
    # Kept by the browser: another page of the same browser opens in the chosen scheme.
    switch.click()
    expect(page.locator("html")).to_have_attribute("data-theme", "light", timeout=WAIT)
    other = page.context.new_page()
    other.goto(server + "/import")
    assert background(other) == LIGHT_BG
    assert other.locator("meta[name=color-scheme]").get_attribute("content") == "light"


def test_the_board_keeps_its_colours(browser: Any, server: str) -> None:
    squares = []
    for scheme in ("light", "dark"):
        page = new_page(browser, 1366, 900, scheme=scheme)
        _create(page, server)
        page.locator(".sq.dark").first.wait_for()
        squares.append(
            page.evaluate(
                "() => [...document.querySelectorAll('.sq')].slice(0, 2)"
                ".map(s => getComputedStyle(s).backgroundColor)"
            )
        )
    assert squares[0] == squares[1]
    assert len(set(squares[0])) == 2


def test_a_refused_switch_changes_nothing(browser: Any, server: str) -> None:
    page = new_page(browser)
    page.goto(server + "/")
    answer = page.request.post(
        server + "/theme",
        form={"theme": "purple", "back": "//elsewhere.example"},
        headers={"Origin": server},
        max_redirects=0,
    )
    assert answer.status == 303
    assert answer.headers["location"] == "/"
    assert "theme=" not in answer.headers.get("set-cookie", "")
