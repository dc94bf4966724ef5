"""Issue 60, point 1: decisions above the fold. Without scrolling, at 390x844 and 360x740
(phones) and at 1366x900 (a desktop), the page shows the board and next to it whichever
decision applies: Share for a creator still waiting, Accept and play for an invited
visitor, whose turn it is and the player's own deadline, a pending offer with its Accept
and Decline, the claim once it is open, the result and the rematch when the game is over.
Each is checked by its bounding box against the viewport."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import WAIT, new_page
from .test_room_page import _create, _join, _tap

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group(__name__)]

SIZES = [(390, 844), (360, 740), (1366, 900)]


def assert_in_view(page: Any, *selectors: str) -> None:
    """Each element lies wholly inside the viewport, and the page has not scrolled."""
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    assert page.evaluate("() => window.scrollY") == 0
    for selector in selectors:
        box = page.locator(selector).bounding_box()
        assert box is not None, f"{selector} is not shown"
        inside = (
            box["x"] >= 0
            and box["y"] >= 0
            and box["x"] + box["width"] <= width + 0.5
            and box["y"] + box["height"] <= height + 0.5
        )
        assert inside, f"{selector} at {box} is outside {width}x{height}"


def assert_in_view_at_each_size(page: Any, *selectors: str) -> None:
    """The page at each size in turn, from its top, with the elements in view."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("() => window.scrollTo(0, 0)")
        assert_in_view(page, *selectors)
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})


def test_each_decision_is_above_the_fold(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    width, height = SIZES[0]
    drums = new_page(browser, width, height)
    url = _create(drums, server)
    share = drums.get_by_role("button", name="Share").first
    expect(share).to_be_visible(timeout=WAIT)
    assert_in_view_at_each_size(drums, "#board", "#status", "#share-action")

    tires = new_page(browser, width, height)
    tires.goto(url)
    accept = tires.get_by_role("button", name="Accept and play the tires")
    expect(accept).to_be_visible(timeout=WAIT)
    assert_in_view_at_each_size(tires, "#board", "#actions .button.primary")

    _join(tires, url)
    expect(drums.locator("#status")).to_contain_text("Your move", timeout=WAIT)
    expect(drums.locator("#deadline")).to_contain_text("Move by", timeout=WAIT)
    assert_in_view_at_each_size(drums, "#board", "#status", "#deadline")

    _tap(drums, 11, 15)
    tires.get_by_role("button", name="Offer draw (3 left)").click()
    expect(drums.locator("#offer")).to_be_visible(timeout=WAIT)
    for name in ("Accept draw", "Decline draw"):
        expect(drums.get_by_role("button", name=name)).to_be_visible()
    assert_in_view_at_each_size(drums, "#board", "#offer", "#actions")

    drums.get_by_role("button", name="Decline draw").click()
    drums.get_by_role("button", name="Resign").click()
    drums.locator("#confirm-ok").click()
    expect(tires.locator("#status")).to_contain_text("Tires win", timeout=WAIT)
    expect(tires.get_by_role("button", name="Offer a rematch")).to_be_visible(timeout=WAIT)
    assert_in_view_at_each_size(tires, "#board", "#status", "#actions")


def test_the_claim_is_above_the_fold_once_open(browser: Any, quick_server: str) -> None:
    from playwright.sync_api import expect

    drums = new_page(browser, *SIZES[0])
    url = _create(drums, quick_server)
    tires = new_page(browser, *SIZES[0])
    _join(tires, url)
    expect(drums.locator("#status")).to_contain_text("Your move", timeout=WAIT)
    _tap(drums, 11, 15)
    claim = drums.get_by_role("button", name="Claim the win")
    expect(claim).to_be_enabled(timeout=8000)
    assert_in_view_at_each_size(drums, "#board", "#deadline", "#actions")
