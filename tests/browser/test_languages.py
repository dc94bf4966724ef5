# ruff: noqa: RUF001 (Russian and Thai texts: their letters are meant)
"""The service in its six languages, in headless Chromium: each page in each language,
a Russian game through the Russian interface, the picker keeping the seat, and Thai
drawn with a Thai font (in a screenshot kept under artifacts/).

The expected texts are read from the committed catalogs (the translators' text), so
these tests check that the pages show the catalogs' messages, not what they say.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from app.i18n import LANGUAGES, translator
from app.rooms.texts import RULE_SET_DESCRIPTIONS, RULE_SET_NAMES

from .conftest import ARTIFACTS, WAIT

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group(__name__)]

ROOM = re.compile(r"/r/[\w-]+$")


def _page(browser: Any, locale: str, width: int = 1280, height: int = 860) -> Any:
    """A page of a browser whose language is `locale` (its Accept-Language)."""
    context = browser.new_context(locale=locale, viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    return page


@pytest.mark.parametrize("tag", list(LANGUAGES))
def test_home_and_room_pages_load_in_each_language(browser: Any, server: str, tag: str) -> None:
    from playwright.sync_api import expect

    tr = translator(tag)
    page = _page(browser, tag)
    page.goto(server + "/")
    expect(page.locator("html")).to_have_attribute("lang", tag)
    expect(page.locator("#friend-h")).to_have_text(tr._("Play a friend"))
    # The rule set of the language is the one chosen by default.
    default = {"en": "english", "pt-BR": "brazilian", "ru": "russian", "es": "spanish",
               "it": "italian", "th": "thai"}[tag]  # fmt: skip
    expect(page.locator(f'input[name="rule_set"][value="{default}"]')).to_be_checked()
    page.get_by_role("button", name=tr._("Create a room")).click()
    page.wait_for_url(ROOM)
    expect(page.locator("#ruleset")).to_have_text(
        tr._("{rule_set} rules", rule_set=tr._(RULE_SET_NAMES[default]))
    )
    expect(page.locator("#status")).to_have_text(
        tr._("Waiting for an opponent: send them the link below."), timeout=WAIT
    )
    expect(page.get_by_role("button", name=tr._("Copy link"))).to_be_visible()
    assert page.errors == []
    page.context.close()


def test_a_russian_game_start_to_end_in_russian(browser: Any, server: str) -> None:
    """From a position (the rule set's own FEN): white (the drums) g3, h4; black e3, h8.
    By the Russian rules, worked by hand: 1. g3-f4 e3:g5 (black must take) 2. h4:f6
    h8-g7 (its only move) 3. f6:h8, and black has no piece left. Every word on the way
    is Russian; a rematch is offered and accepted in Russian."""
    from playwright.sync_api import expect

    ru = translator("ru")
    creator = _page(browser, "ru-RU")
    creator.goto(server + "/")
    expect(creator.locator("html")).to_have_attribute("lang", "ru")
    expect(creator.locator('input[name="rule_set"][value="russian"]')).to_be_checked()
    creator.locator("#create-form summary").click()
    creator.locator("#create-fen").fill("W:Wg3,h4:Be3,h8")
    creator.get_by_role("button", name="Создать комнату").click()
    creator.wait_for_url(ROOM)
    url = creator.url
    expect(creator.locator("#status")).to_have_text("Ждём соперника: отправьте ему ссылку ниже.")

    joiner = _page(browser, "ru", 375, 812)
    joiner.goto(url)
    # Before accepting, the invitee reads the rule set, explained in Russian.
    expect(joiner.locator("#ruleset")).to_have_text("Правила: Русские")
    expect(joiner.locator("#hint")).to_have_text(ru._(RULE_SET_DESCRIPTIONS["russian"]))
    expect(joiner.locator("#status")).to_contain_text("Вас приглашают сыграть в шашки")
    joiner.get_by_role("button", name="Принять и играть шинами").click()
    expect(joiner.locator("#player-bottom")).to_contain_text("Шины · вы")
    expect(creator.locator("#status")).to_have_text("Ваш ход (вы играете бочками)", timeout=WAIT)
    for page, move in (
        (creator, "g3-f4"),
        (joiner, "e3:g5"),
        (creator, "h4:f6"),
        (joiner, "h8-g7"),
        (creator, "f6:h8"),
    ):
        expect(page.locator("#move-form")).to_be_visible(timeout=WAIT)
        if move == "e3:g5":  # the capture is forced, and the page says so
            expect(page.locator("#hint")).to_contain_text("Бить обязательно")
        page.locator("#move-input").fill(move)
        page.get_by_role("button", name="Сходить").click()
        expect(page.locator("#moves button").last).to_have_text(move, timeout=WAIT)
    for page in (creator, joiner):
        expect(page.locator("#status")).to_have_text(
            "Бочки выиграли: у шин не осталось шашек", timeout=WAIT
        )
        expect(page.locator("#score")).to_have_text(re.compile(r"^вы [01] – [01]$"))
    creator.get_by_role("button", name="Предложить реванш").click()
    expect(joiner.locator("#offer")).to_have_text("Соперник предлагает реванш.", timeout=WAIT)
    joiner.get_by_role("button", name="Принять реванш").click()
    expect(joiner.locator("#status")).to_have_text("Ваш ход (вы играете бочками)", timeout=WAIT)
    expect(creator.locator("#history")).to_contain_text("Партия 1")
    expect(creator.locator("#history")).to_contain_text("Бочки выиграли")
    creator.screenshot(path=str(ARTIFACTS / "room-russian.png"), full_page=True)
    assert creator.errors == [] and joiner.errors == []
    creator.context.close()
    joiner.context.close()


def test_the_picker_switches_language_and_keeps_the_seat_then_thai_renders(
    browser: Any, server: str
) -> None:
    from playwright.sync_api import expect

    page = _page(browser, "ru")
    page.goto(server + "/")
    page.get_by_role("button", name="Создать комнату").click()
    page.wait_for_url(ROOM)
    url = page.url
    expect(page.locator("#you-panel")).to_be_visible()
    page.locator("#language-select").select_option("en")
    page.wait_for_load_state()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert page.url == url
    expect(page.locator("#status")).to_have_text(
        "Waiting for an opponent: send them the link below.", timeout=WAIT
    )
    expect(page.locator("#you-panel")).to_be_visible()  # still the creator's seat
    # The choice outlasts the browser's Accept-Language: the home page is English too.
    page.goto(server + "/")
    expect(page.locator("#friend-h")).to_have_text("Play a friend")
    page.goto(url)
    page.locator("#language-select").select_option("th")
    page.wait_for_load_state()
    expect(page.locator("html")).to_have_attribute("lang", "th")
    expect(page.locator("#status")).to_have_text("รอคู่แข่ง: ส่งลิงก์ด้านล่างให้เขา", timeout=WAIT)
    expect(page.locator("#you-panel")).to_be_visible()
    # The text is drawn in a face that has Thai glyphs.
    font = page.evaluate("() => getComputedStyle(document.getElementById('status')).fontFamily")
    assert "Garuda" in font or "Noto Sans Thai" in font
    assert page.evaluate("() => document.fonts.check('16px Garuda', 'รอคู่แข่ง')")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "room-thai.png"), full_page=True)
    assert page.errors == []
    page.context.close()


def test_an_invitee_reads_the_rule_set_in_their_own_language(browser: Any, server: str) -> None:
    """An English creator's Italian room; a Thai invitee reads its rules in Thai."""
    from playwright.sync_api import expect

    creator = _page(browser, "en-GB")
    creator.goto(server + "/")
    creator.locator('input[name="rule_set"][value="italian"]').check()
    creator.get_by_role("button", name="Create a room").click()
    creator.wait_for_url(ROOM)
    guest = _page(browser, "th-TH")
    guest.goto(creator.url)
    th = translator("th")
    expect(guest.locator("#hint")).to_have_text(th._(RULE_SET_DESCRIPTIONS["italian"]))
    expect(guest.get_by_role("button", name=th._("Accept and play the tires"))).to_be_visible()
    creator.context.close()
    guest.context.close()


# Game 1: a Result tag that is not a PDN result (read as *); game 2 fails on "hello"
# (line 6, column 10, after one move).
NOTED_AND_FAILING = """[Result "?"]

1. 11-15 23-19 *

[Result "*"]
1. 11-15 hello *
"""


def test_the_import_pages_say_the_readers_notes_and_failures_in_russian(
    browser: Any, server: str
) -> None:
    from playwright.sync_api import expect

    from app.imports.texts import PDN_TEXTS

    tr = translator("ru")
    note = tr._(PDN_TEXTS["result_not_pdn"], tag="?")
    reason = tr._(PDN_TEXTS["unreadable_text"], text="hello")
    assert note != PDN_TEXTS["result_not_pdn"].format(tag="?")
    page = _page(browser, "ru")
    page.goto(server + "/import")
    page.locator("#pdn-text").fill(NOTED_AND_FAILING)
    page.get_by_role("button", name=tr._("Import")).click()
    ok = page.locator(".import-game.ok")
    expect(ok.locator(".notes li")).to_have_text(
        [tr._("Line {line}, column {column}: {text}", line=1, column=1, text=note)], timeout=WAIT
    )
    failed = page.locator(".import-game.failed")
    expect(failed).to_contain_text(
        tr._(
            "game {game}, line {line}, column {column}, ply {ply}, move {move}: {reason}",
            game=2,
            line=6,
            column=10,
            ply=1,
            move="hello",
            reason=reason,
        )
    )
    ok.get_by_role("link", name=tr._("Replay")).click()
    page.wait_for_url(re.compile(r"/imported/[\w-]+$"))
    expect(page.locator("#notes li")).to_have_text(
        [tr._("Line {line}, column {column}: {text}", line=1, column=1, text=note)]
    )
    assert page.errors == []
    page.context.close()


BAD_FEN_TAG = """[GameType "25"]
[FEN "W:Wc3,c3:Bf6"]
1. c3-d4 *

[GameType "99"]
1. 11-15 *
"""


def test_the_import_page_says_a_bad_fen_tag_and_an_unknown_gametype_in_russian(
    browser: Any, server: str
) -> None:
    """The FEN tag's own reason, and the known GameTypes' rule-set names, in Russian."""
    from playwright.sync_api import expect

    from app.imports.texts import PDN_TEXTS
    from checkers_engine.pdn import known_gametypes

    tr = translator("ru")
    detail = tr._(PDN_TEXTS["fen_square_twice"], square="c3")
    reason = tr._(PDN_TEXTS["bad_fen"], detail=detail)
    assert detail != PDN_TEXTS["fen_square_twice"].format(square="c3")
    known = known_gametypes()
    for name in RULE_SET_NAMES.values():
        known = known.replace(f"({name})", f"({tr._(name)})")
    unknown = tr._(PDN_TEXTS["unknown_gametype"], gametype="99", known=known)
    assert "(Русские)" in unknown
    page = _page(browser, "ru")
    page.goto(server + "/import")
    page.locator("#pdn-text").fill(BAD_FEN_TAG)
    page.get_by_role("button", name=tr._("Import")).click()
    failed = page.locator(".import-game.failed")
    expect(failed).to_have_count(2, timeout=WAIT)
    expect(failed.nth(0)).to_contain_text(reason)
    expect(failed.nth(1)).to_contain_text(unknown)
    assert page.errors == []
    page.context.close()


def test_the_home_page_says_why_a_start_position_is_refused_in_russian(
    browser: Any, server: str
) -> None:
    """The API's detail is English; the page says the engine's reason by its code."""
    from playwright.sync_api import expect

    from app.imports.texts import PDN_TEXTS

    tr = translator("ru")
    page = _page(browser, "ru")
    page.goto(server + "/")
    page.locator("#create-form summary").click()
    error = page.locator("#create-form .form-error")
    for text, detail in (
        ("W:Wc3,c3:Bf6", tr._(PDN_TEXTS["fen_square_twice"], square="c3")),
        (
            "W:Wc3:Ba7,c7,e7,g7,b8,d8,f8,h8,b6,d6,f6,h6,a5",
            tr._(PDN_TEXTS["fen_too_many_black"], count=13, rule_set=tr._("Russian"), n=12),
        ),
    ):
        page.locator("#create-fen").fill(text)
        page.get_by_role("button", name=tr._("Create a room")).click()
        expect(error).to_have_text(
            tr._(
                "That start position cannot be read as a FEN of this rule set: {detail}",
                detail=detail,
            ),
            timeout=WAIT,
        )
    assert "Русские" in error.inner_text()
    assert page.errors == []
    page.context.close()


def _shown_titles(page: Any, cdp: Any, registration: str, origin: str, data: str) -> list[str]:
    """Deliver a push message to the page's service worker and read back the titles of
    the notifications it shows."""
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": origin, "registrationId": registration, "data": data},
    )
    titles: list[str] = []
    for _ in range(50):
        titles = page.evaluate(
            """async () => (await (await navigator.serviceWorker.ready).getNotifications())
                 .map((n) => n.title)"""
        )
        if titles:
            break
        page.wait_for_timeout(100)
    return titles


def test_the_service_worker_titles_a_notification_in_the_devices_language(
    browser: Any, server: str
) -> None:
    """A payload without a title (or not JSON at all) is shown under the service's name in
    the device's language: the payload's `app`, else the pages' catalog's for the
    device's language, not the English."""
    tr = translator("ru")
    name = tr._("Checkers")
    assert name != "Checkers"
    page = _page(browser, "ru")
    page.context.grant_permissions(["notifications"], origin=server)
    cdp = page.context.new_cdp_session(page)
    registrations: list[str] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(r["registrationId"] for r in event["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    page.goto(server + "/")
    page.evaluate("async () => { await navigator.serviceWorker.register('/sw.js'); "
                  "await navigator.serviceWorker.ready; }")  # fmt: skip
    for _ in range(50):
        if registrations:
            break
        page.wait_for_timeout(100)
    assert registrations, "no service worker registration was reported"
    payload = json.dumps({"body": "x", "lang": "ru", "app": name, "tag": "a"})
    assert _shown_titles(page, cdp, registrations[-1], server, payload) == [name]
    page.evaluate("""async () => { for (const n of await (await navigator.serviceWorker.ready)
                       .getNotifications()) n.close(); }""")  # fmt: skip
    assert _shown_titles(page, cdp, registrations[-1], server, "plain text") == [name]
    page.context.close()
