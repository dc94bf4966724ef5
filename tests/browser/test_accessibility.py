"""The pages measured with a real accessibility auditor (axe-core): no violation on the
home page, the import page, a waiting room, a player's and a spectator's room page and a
finished game, in the light and in the dark colour scheme (contrast included), at both
phone sizes and on the desktop (issue 60, point 7). Each page is resized and its scheme
emulated in place, rather than loaded again per size and scheme."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import WAIT, audit, new_page
from .test_fold import SIZES
from .test_room_page import _create, _join, _tap

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group(__name__)]


def audit_everywhere(page: Any, axe_source: str) -> dict[str, list[dict[str, Any]]]:
    """The page audited at each size, in the light colour scheme and then the dark one;
    then back to its own size and the light scheme."""
    found = {}
    own = page.viewport_size
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            found[f"{width}x{height} {scheme}"] = audit(page, axe_source)
    page.emulate_media(color_scheme="light")
    page.set_viewport_size(own)
    return found


def test_no_page_has_an_accessibility_violation(browser: Any, server: str, axe_source: str) -> None:
    from playwright.sync_api import expect

    found: dict[str, list[dict[str, Any]]] = {}

    def check(name: str, page: Any) -> None:
        for where, violations in audit_everywhere(page, axe_source).items():
            found[f"{name} ({where})"] = violations

    home = new_page(browser)
    home.goto(server + "/")
    check("home", home)
    home.goto(server + "/import")
    check("import", home)
    creator = new_page(browser)
    url = _create(creator, server)
    check("waiting room", creator)
    invited = new_page(browser, 375, 812)
    invited.goto(url)
    check("invitation", invited)
    _join(invited, url)
    expect(creator.locator("#status")).to_contain_text("Your move", timeout=WAIT)
    _tap(creator, 11, 15)
    expect(invited.locator("#moves button")).to_have_count(1, timeout=WAIT)
    check("player", creator)
    watcher = new_page(browser)
    watcher.goto(url)
    check("spectator", watcher)
    invited.get_by_role("button", name="Resign").click()
    invited.locator("#confirm-ok").click()
    expect(watcher.locator("#status")).to_contain_text("Drums win", timeout=WAIT)
    check("finished game", watcher)
    problems = {page: v for page, v in found.items() if v}
    assert problems == {}, json.dumps(problems, indent=1)


def test_the_profile_pages_have_no_accessibility_violation(
    browser: Any, server: str, axe_source: str
) -> None:
    """Signed out, signed in (with a passkey of Chromium's virtual authenticator), the
    record and a mailed link's page. Reached as `localhost`: a passkey's site is a host name."""
    from playwright.sync_api import expect

    site = server.replace("127.0.0.1", "localhost")
    found: dict[str, list[dict[str, Any]]] = {}

    def check(name: str, page: Any) -> None:
        for where, violations in audit_everywhere(page, axe_source).items():
            found[f"{name} ({where})"] = violations

    page = new_page(browser, 390, 844)
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable", {"enableUI": False})
    cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
            }
        },
    )
    _create(page, site)
    page.goto(site + "/profile")
    check("profile, signed out", page)
    page.locator("#create-name").fill("Ana")
    page.get_by_role("button", name="Create a profile with a passkey").click()
    expect(page.locator("#attach-go")).to_be_visible(timeout=WAIT)
    expect(page.locator("#passkeys li")).to_have_count(1)
    check("profile, signed in", page)
    page.locator("#record-link").click()
    expect(page.locator("h1")).to_have_text("Ana", timeout=WAIT)
    check("record", page)
    page.goto(site + "/profile/link#t=" + "x" * 43)
    expect(page.locator("#link-go")).to_be_visible(timeout=WAIT)
    check("mailed link", page)
    problems = {name: v for name, v in found.items() if v}
    assert problems == {}, json.dumps(problems, indent=1)
