"""The computer's review on the room page: asked for by a spectator, its progress, the
graph that moves the replay, the blunder marked in the move list, the better move drawn
on the board."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import WAIT, finished_room, new_page

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group(__name__)]


def test_a_spectator_reviews_a_finished_game(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    room = finished_room(server)

    page = new_page(browser)
    page.goto(f"{server}/r/{room}")
    expect(page.locator("#review-panel")).to_be_visible()
    page.get_by_role("button", name="Review with the computer").click()
    expect(page.locator("#review-state")).to_contain_text("Reviewed:", timeout=30_000)
    expect(page.locator("#review-state")).to_contain_text("1 blunder")
    expect(page.locator("svg.eval-graph circle")).to_have_count(3)
    expect(page.locator("#moves .judgement.blunder")).to_have_text("??")
    # A point of the graph takes the replay there; the Executive's move is drawn.
    page.locator('svg.eval-graph circle[data-ply="1"]').click()
    expect(page.locator("#replay-pos")).to_have_text("1 / 2")
    expect(page.locator(".arrow-layer polyline")).to_have_count(1)
    page.locator('svg.eval-graph circle[data-ply="0"]').click()
    expect(page.locator("#replay-pos")).to_have_text("0 / 2", timeout=WAIT)
    assert page.errors == []
