"""The pages measured with a real accessibility auditor (axe-core): no violation on the
home page, a waiting room, a player's and a spectator's room page and a finished game, in
the light and in the dark colour scheme (contrast included)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import WAIT, audit, new_page
from .test_room_page import _create, _join, _tap

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group(__name__)]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_page_has_an_accessibility_violation(
    browser: Any, server: str, axe_source: str, scheme: str
) -> None:
    from playwright.sync_api import expect

    found: dict[str, list[dict[str, Any]]] = {}
    home = new_page(browser, scheme=scheme)
    home.goto(server + "/")
    found["home"] = audit(home, axe_source)
    creator = new_page(browser, scheme=scheme)
    url = _create(creator, server)
    found["waiting room"] = audit(creator, axe_source)
    invited = new_page(browser, 375, 812, scheme=scheme)
    invited.goto(url)
    found["invitation"] = audit(invited, axe_source)
    _join(invited, url)
    expect(creator.locator("#status")).to_contain_text("Your move", timeout=WAIT)
    _tap(creator, 11, 15)
    expect(invited.locator("#moves button")).to_have_count(1, timeout=WAIT)
    found["player"] = audit(creator, axe_source)
    watcher = new_page(browser, scheme=scheme)
    watcher.goto(url)
    found["spectator"] = audit(watcher, axe_source)
    invited.get_by_role("button", name="Resign").click()
    invited.locator("#confirm-ok").click()
    expect(watcher.locator("#status")).to_contain_text("Drums win", timeout=WAIT)
    found["finished game"] = audit(watcher, axe_source)
    problems = {page: v for page, v in found.items() if v}
    assert problems == {}, json.dumps(problems, indent=1)
