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


def audit_both(page: Any, axe_source: str) -> dict[str, list[dict[str, Any]]]:
    """The page audited in the light colour scheme, then in the dark one, then back."""
    found = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        found[scheme] = audit(page, axe_source)
    page.emulate_media(color_scheme="light")
    return found


def test_no_page_has_an_accessibility_violation(browser: Any, server: str, axe_source: str) -> None:
    from playwright.sync_api import expect

    found: dict[str, list[dict[str, Any]]] = {}

    def check(name: str, page: Any) -> None:
        for scheme, violations in audit_both(page, axe_source).items():
            found[f"{name} ({scheme})"] = violations

    home = new_page(browser)
    home.goto(server + "/")
    check("home", home)
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
        for scheme, violations in audit_both(page, axe_source).items():
            found[f"{name} ({scheme})"] = violations

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
