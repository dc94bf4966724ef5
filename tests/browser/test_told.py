"""Nothing happens silently on the room page, in the reader's language (here Russian): a
declined offer is said to the one who made it (with the computer's reason), a stored
reply played for the player is said as theirs, and a browser that cannot subscribe to
push gets the service's sentence, never the browser's own error. Screenshots of each at
phone and desktop sizes are kept under artifacts/."""

from __future__ import annotations

import re
from typing import Any

import pytest

from app.i18n import translator

from .conftest import ARTIFACTS, WAIT

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group(__name__)]

RU = translator("ru")
ROOM = re.compile(r"/r/[\w-]+$")
SIZES = {"phone": (390, 844), "desktop": (1366, 900)}


def _page(browser: Any, width: int = 1366, height: int = 900, **options: Any) -> Any:
    context = browser.new_context(locale="ru-RU", viewport={"width": width, "height": height})
    if options.get("notifications"):
        context.grant_permissions(["notifications"], origin=options["notifications"])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    return page


def _tap(page: Any, *squares: int) -> None:
    for square in squares:
        page.locator(f'.sq[data-square="{square}"]').click()


def _create(page: Any, server: str, name: str) -> str:
    page.goto(server + "/")
    page.locator("#create-name").fill(name)
    page.get_by_role("button", name=RU._("Create a room")).click()
    page.wait_for_url(ROOM)
    return str(page.url)


def _join(page: Any, url: str, name: str) -> None:
    from playwright.sync_api import expect

    page.goto(url)
    page.locator("#join-name").fill(name)
    page.get_by_role("button", name=RU._("Accept and play the tires")).click()
    expect(page.locator("#you-panel")).to_be_visible(timeout=WAIT)


def _shots(page: Any, name: str) -> None:
    """The page at phone and desktop sizes, for a person to look at."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(ARTIFACTS / f"told-{name}-{size}.png"), full_page=True)


def test_a_declined_draw_is_said_to_everyone_in_their_words(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    ana = _page(browser)
    url = _create(ana, server, "Ana")
    bob = _page(browser, 390, 844)
    _join(bob, url, "Bob")
    watcher = _page(browser)
    watcher.goto(url)
    offer = RU._("Offer draw ({left} left)", left="3")
    ana.get_by_role("button", name=offer).click(timeout=WAIT)
    bob.get_by_role("button", name=RU._("Decline draw")).click(timeout=WAIT)
    said = RU._("{name} declined your draw offer.", name="Bob")
    expect(ana.locator("#offer")).to_have_text(said, timeout=WAIT)
    expect(bob.locator("#offer")).to_have_text(RU._("You declined the draw offer."))
    expect(watcher.locator("#offer")).to_have_text(
        RU._("{name} declined the draw offer.", name="Bob"), timeout=WAIT
    )
    # A page opened later says it too.
    ana.reload()
    expect(ana.locator("#offer")).to_have_text(said, timeout=WAIT)
    _shots(ana, "declined")
    # Once the one who offered moves on, it is old news.
    _tap(ana, 11, 15)
    for page in (ana, bob, watcher):
        expect(page.locator("#offer")).to_be_hidden(timeout=WAIT)
    for page in (ana, bob, watcher):
        assert page.errors == []
        page.context.close()


def test_a_draw_the_computer_declines_says_why(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    page = _page(browser)
    page.goto(server + "/")
    page.locator('input[name="level"][value="warden"]').check()
    page.locator('select[name="rule_set"]').select_option("english")
    page.locator("#computer-form summary").click()
    # The computer (the tires) has three kings against one man.
    page.locator("#computer-fen").fill("B:WK15,K18,K19:B5")
    page.get_by_role("button", name=RU._("Play the computer")).click()
    page.wait_for_url(ROOM)
    page.get_by_role("button", name=RU._("Offer draw ({left} left)", left="3")).click()
    expect(page.locator("#offer")).to_have_text(
        RU._("{name} declined your draw offer: it finds itself clearly ahead.", name="Warden"),
        timeout=20_000,
    )
    again = RU._("Offer draw ({left} left)", left="2")
    expect(page.get_by_role("button", name=again)).to_be_visible()
    _shots(page, "computer-declined")
    assert page.errors == []
    page.context.close()


def test_a_planned_reply_played_is_said_as_yours(browser: Any, server: str) -> None:
    """Russian rules, so the reply is said in the tradition's notation (a1-h8)."""
    from playwright.sync_api import expect

    ana = _page(browser)
    url = _create(ana, server, "Ana")  # Russian rules: the Russian page's default
    bob = _page(browser, 390, 844)
    _join(bob, url, "Bob")
    _tap(ana, 11, 15)
    expect(bob.locator("#moves button")).to_have_count(1, timeout=WAIT)
    room = url.rsplit("/r/", 1)[1]
    stored = ana.evaluate(
        "async (room) => (await fetch(`/r/${room}/conditional`, {method: 'POST',"
        " headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify({lines: [{their_move: '22-18', reply: '15x22'}]})})).status",
        room,
    )
    assert stored == 200
    _tap(bob, 22, 18)
    expect(ana.locator("#moves button")).to_have_count(3, timeout=WAIT)
    reply = ana.evaluate(f"async () => (await (await fetch('/r/{room}/state')).json())"
                         ".game.moves[2].text")  # fmt: skip
    assert re.fullmatch(r"[a-h][1-8]:[a-h][1-8]", reply), reply  # not the engine's 15x22
    said = RU._("Your planned reply {move} was played.", move=reply)
    expect(ana.locator("#last-move")).to_have_text(said, timeout=WAIT)
    ana.reload()
    expect(ana.locator("#last-move")).to_have_text(said, timeout=WAIT)
    # The opponent reads the move as any move.
    expect(bob.locator("#last-move")).to_contain_text(reply)
    assert said not in bob.locator("body").inner_text()
    _shots(ana, "planned-reply")
    for page in (ana, bob):
        assert page.errors == []
        page.context.close()


def test_a_browser_that_cannot_subscribe_gets_the_services_sentence(
    browser: Any, quick_server: str
) -> None:
    from playwright.sync_api import expect

    page = _page(browser, notifications=quick_server)
    page.add_init_script(
        "PushManager.prototype.subscribe = async function () {"
        " throw new DOMException('Registration failed - push service not available',"
        " 'AbortError'); };"
        "PushManager.prototype.getSubscription = async function () { return null; };"
    )
    _create(page, quick_server, "Ana")
    toggle = page.locator("#push-toggle")
    expect(toggle).to_have_text(RU._("Notify me on this device"), timeout=WAIT)
    toggle.click()
    expect(page.locator("#error")).to_have_text(
        RU._("This browser cannot show notifications."), timeout=WAIT
    )
    assert "Registration failed" not in page.locator("body").inner_text()
    expect(page.locator("#push-state")).to_have_text(RU._("Notifications are off."))
    _shots(page, "push-refused")
    assert page.errors == []
    page.context.close()
