"""Issue 60, point 7: play without a mouse or without sight. The board is reached with Tab,
walked with the arrow keys and played with Enter or Space, a multi-capture hop by hop as
the mouse plays it; each square is named in the rule set's notation with what stands on
it, and each move played, the player's and the opponent's, is said in a live region in the
page's language."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from .conftest import WAIT, new_page

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group(__name__)]

MULTI_FEN = "B:W14,23,30:B1,9"  # the drums on 9 take 14 and 23: 9x18x27


def _focused(page: Any) -> int | None:
    square = page.evaluate("() => document.activeElement?.dataset?.square ?? null")
    return int(square) if square else None


def _walk_to(page: Any, square: int) -> None:
    """Move the board's focus to `square` with the arrow keys only: up or down a row at a
    time, then along the row."""
    target = page.locator(f'.sq[data-square="{square}"]').bounding_box()
    for _ in range(24):
        now = _focused(page)
        assert now is not None, "the focus left the board"
        if now == square:
            return
        box = page.locator(f'.sq[data-square="{now}"]').bounding_box()
        if abs(box["y"] - target["y"]) > 2:
            page.keyboard.press("ArrowUp" if target["y"] < box["y"] else "ArrowDown")
        else:
            page.keyboard.press("ArrowLeft" if target["x"] < box["x"] else "ArrowRight")
    raise AssertionError(f"square {square} was not reached with the arrow keys")


def _tab_to_board(page: Any) -> None:
    page.locator("body").focus()
    for _ in range(12):
        page.keyboard.press("Tab")
        if _focused(page) is not None:
            return
    raise AssertionError("Tab never reached the board")


def _create_from(page: Any, server: str, fen: str | None) -> str:
    """An English room made on the home page, in whatever language the page speaks."""
    page.goto(server + "/")
    page.locator('input[name="rule_set"][value="english"]').check()
    if fen:
        page.locator("#create-form details.from-position summary").click()
        page.locator("#create-fen").fill(fen)
    page.get_by_role("button", name=re.compile("Create a room|Crear una sala")).click()
    page.wait_for_url(re.compile(r"/r/[\w-]+$"))
    return str(page.url)


def test_a_game_played_with_the_keyboard_alone(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    page = new_page(browser, 390, 844)
    url = _create_from(page, server, None)
    room = url.rsplit("/", 1)[1]
    tires = httpx.post(f"{server}/api/rooms/{room}/join").json()["token"]
    expect(page.locator("#status")).to_contain_text("Your move", timeout=WAIT)

    _tab_to_board(page)
    _walk_to(page, 11)
    cell = page.locator('.sq[data-square="11"]')
    expect(cell).to_have_attribute("aria-label", "square 11, drum, can move")
    page.keyboard.press("Enter")
    expect(cell).to_have_attribute("aria-label", "square 11, drum, selected")
    _walk_to(page, 15)
    expect(page.locator('.sq[data-square="15"]')).to_have_attribute(
        "aria-label", "square 15, empty, move here"
    )
    page.keyboard.press("Space")
    said = page.locator("#said")
    expect(said).to_have_text("You played 11-15", timeout=WAIT)
    assert said.get_attribute("aria-live") == "polite"
    expect(page.locator("#moves button")).to_have_count(1)

    answer = httpx.post(
        f"{server}/api/rooms/{room}/moves",
        json={"move": "22-18", "expected_ply": 1},
        headers={"Authorization": f"Bearer {tires}"},
    )
    assert answer.status_code == 200, answer.text
    expect(said).to_have_text("Tires played 22-18", timeout=WAIT)
    assert page.errors == []


def test_a_multi_capture_by_keyboard_hop_by_hop_in_the_pages_language(
    browser: Any, server: str
) -> None:
    from playwright.sync_api import expect

    page = new_page(browser, 1366, 900, locale="es-ES")
    url = _create_from(page, server, MULTI_FEN)
    room = url.rsplit("/", 1)[1]
    httpx.post(f"{server}/api/rooms/{room}/join")
    expect(page.locator("#status")).to_contain_text("Tu turno", timeout=WAIT)

    _tab_to_board(page)
    _walk_to(page, 9)
    page.keyboard.press("Enter")
    _walk_to(page, 18)
    hop = page.locator('.sq[data-square="18"]')
    expect(hop).to_have_attribute("aria-label", re.compile(r"^casilla 18, vacía"))
    page.keyboard.press("Enter")
    # Half-way: the piece stands on the first landing, the next one is offered.
    expect(page.locator('.piece[data-at="18"]')).to_have_count(1)
    expect(page.locator('.sq[data-square="27"]')).to_have_class(re.compile(r"\btarget\b"))
    expect(page.locator("#moves button")).to_have_count(0)
    _walk_to(page, 27)
    page.keyboard.press("Enter")
    expect(page.locator("#said")).to_have_text("Jugaste 9x18x27", timeout=WAIT)
    expect(page.locator("#moves button")).to_have_count(1)
    for taken in (14, 23):
        expect(page.locator(f'.piece[data-at="{taken}"]')).to_have_count(0)
    assert page.errors == []
