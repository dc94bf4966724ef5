"""The room page's talk and time (issue 62): two players chat live while a spectator sees
none of it, and the waiting player gives the other one more day, which both pages show."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import WAIT, new_page
from .test_room_page import _pair, _tap

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group(__name__)]

HOSTILE = '<img src=x onerror="alert(1)"> hi & bye'


def test_two_players_chat_live_and_a_spectator_sees_none(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    drums, tires, url = _pair(browser, server)
    watcher = new_page(browser, 390, 844)
    watcher.goto(url)
    expect(watcher.locator("#status")).to_be_visible()
    for page in (drums, tires):
        expect(page.locator("#chat-panel")).to_be_visible()
    expect(watcher.locator("#chat-panel")).to_be_hidden()
    drums.locator("#chat-input").fill(HOSTILE)
    drums.get_by_role("button", name="Send").click()
    # The other player's page gets it live, as text: no element is made of it.
    line = tires.locator("#chat-list .chat-text")
    expect(line).to_have_text(HOSTILE, timeout=WAIT)
    assert tires.locator("#chat-list img").count() == 0
    expect(drums.locator("#chat-input")).to_have_value("")
    tires.locator("#chat-input").fill("Good luck!")
    tires.locator("#chat-input").press("Tab")
    tires.get_by_role("button", name="Send").click()
    expect(drums.locator("#chat-list .chat-text").nth(1)).to_have_text("Good luck!", timeout=WAIT)
    # The spectator's page never holds either message, even after a move refreshes it.
    _tap(drums, 11, 15)
    expect(watcher.locator("#moves")).to_contain_text("11-15", timeout=WAIT)
    body = watcher.content()
    assert "Good luck" not in body and "onerror" not in body
    # A player switches it off: their page shows nothing more; the other may not write.
    tires.get_by_role("button", name="Switch the chat off").click()
    expect(tires.locator("#chat-list")).to_be_hidden()
    expect(drums.locator("#chat-note")).to_have_text(
        "Your opponent switched the chat off.", timeout=WAIT
    )
    expect(drums.locator("#chat-form")).to_be_hidden()
    for page in (drums, tires, watcher):
        assert page.dialogs == [] and page.errors == []


def test_the_waiting_player_gives_one_more_day(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    drums, tires, _ = _pair(browser, server)
    expect(drums.locator("#more-time")).to_have_count(0)  # the drums are to move
    _tap(drums, 11, 15)
    expect(tires.locator("#status")).to_contain_text("Your move", timeout=WAIT)
    before = tires.locator("#deadline").inner_text()
    drums.locator("#more-time").click()
    expect(drums.locator("#extra-time")).to_have_text("1 of 7 days given")
    expect(tires.locator("#extra-time")).to_have_text("1 of 7 days given", timeout=WAIT)
    expect(tires.locator("#deadline")).not_to_have_text(before, timeout=WAIT)
    expect(tires.locator("#more-time")).to_have_count(0)  # it is their move: theirs to use
    assert drums.errors == [] and tires.errors == []


def test_a_players_notes_stay_theirs(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    drums, tires, url = _pair(browser, server)
    _tap(drums, 11, 15)
    expect(drums.locator("#note-label")).to_have_text("Note after 1. 11-15")
    drums.locator("#note-input").fill("<b>Old Fourteenth</b> next?")
    drums.get_by_role("button", name="Save note").click()
    expect(drums.locator("#notes-list .note-text")).to_have_text("<b>Old Fourteenth</b> next?")
    drums.reload()
    expect(drums.locator("#note-input")).to_have_value("<b>Old Fourteenth</b> next?")
    expect(tires.locator("#notes-panel")).to_be_visible()
    assert tires.locator("#notes-list li").count() == 0
    watcher = new_page(browser, 390, 844)
    watcher.goto(url)
    expect(watcher.locator("#notes-panel")).to_be_hidden()
    assert "Fourteenth" not in watcher.content() and "Fourteenth" not in tires.content()


def test_analysis_lines_are_kept_across_devices_and_become_conditional_moves(
    browser: Any, server: str
) -> None:
    from playwright.sync_api import expect

    drums, tires, _ = _pair(browser, server)
    _tap(drums, 11, 15)
    expect(tires.locator("#status")).to_contain_text("Your move", timeout=WAIT)
    drums.get_by_role("button", name="Analyse this position").click()
    board = drums.locator("#analysis-board")
    expect(board).to_be_visible()
    for start, end in ((22, 18), (15, 22), (25, 18)):
        board.locator(f'.sq[data-square="{start}"]').click()
        board.locator(f'.sq[data-square="{end}"]').click()
    expect(drums.locator("#analysis-line")).to_have_text("This line: 22-18 15x22 25x18")
    expect(drums.locator("#analysis-lines li")).to_have_count(1, timeout=WAIT)
    expect(drums.locator("#analysis-lines li .analysis-moves")).to_have_text(
        "After 1. 11-15: 22-18 15x22 25x18", timeout=WAIT
    )
    # The seat moves to another device: the line is there.
    drums.get_by_role("button", name="Continue on another device").click()
    expect(drums.locator("#device-row")).to_be_visible(timeout=WAIT)
    link = drums.locator("#device-url").input_value()
    other = new_page(browser, 390, 844)
    other.goto(link)
    expect(other.locator("#player-bottom")).to_contain_text("Drums · you", timeout=WAIT)
    lines = other.locator("#analysis-lines li")
    expect(lines).to_have_count(1, timeout=WAIT)
    expect(lines.locator(".analysis-moves")).to_have_text("After 1. 11-15: 22-18 15x22 25x18")
    assert tires.locator("#analysis-lines li").count() == 0
    # One step makes it conditional moves: their 22-18 is answered by 15x22.
    lines.get_by_role("button", name="Make these conditional moves").click()
    expect(other.locator("#plan-lines li")).to_have_text("if 22-18, 15x22", timeout=WAIT)
    tires.reload()
    _tap(tires, 22, 18)
    expect(tires.locator("#moves")).to_contain_text("15x22", timeout=WAIT)
    assert other.errors == [] and tires.errors == [] and drums.errors == []


def test_a_player_downloads_the_game_with_their_notes(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    drums, tires, url = _pair(browser, server)
    _tap(drums, 11, 15)
    expect(drums.locator("#note-label")).to_have_text("Note after 1. 11-15")
    drums.locator("#note-input").fill("my plan")
    drums.get_by_role("button", name="Save note").click()
    expect(drums.locator("#notes-list li")).to_have_count(1)
    drums.get_by_role("button", name="Resign").click()
    drums.locator("#confirm-ok").click()
    link = drums.locator("#own-pdn-link")
    expect(link).to_be_visible(timeout=WAIT)
    with drums.expect_download() as got:
        link.click()
    text = Path(got.value.path()).read_text(encoding="utf-8")
    assert "{my plan}" in text and "11-15" in text
    expect(tires.locator("#own-pdn-link")).to_be_visible(timeout=WAIT)
    watcher = new_page(browser, 390, 844)
    watcher.goto(url)
    expect(watcher.locator("#pdn-link")).to_be_visible(timeout=WAIT)
    expect(watcher.locator("#own-pdn")).to_be_hidden()


def test_after_the_game_the_computer_reviews_a_players_own_line(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    drums, tires, _ = _pair(browser, server)
    _tap(drums, 11, 15)
    expect(tires.locator("#status")).to_contain_text("Your move", timeout=WAIT)
    drums.get_by_role("button", name="Analyse this position").click()
    board = drums.locator("#analysis-board")
    for start, end in ((22, 18), (15, 22)):
        board.locator(f'.sq[data-square="{start}"]').click()
        board.locator(f'.sq[data-square="{end}"]').click()
    line = drums.locator("#analysis-lines li")
    expect(line.locator(".analysis-moves")).to_have_text(
        "After 1. 11-15: 22-18 15x22", timeout=WAIT
    )
    # No computer help while the game is on.
    expect(line.get_by_role("button", name="Review with the computer")).to_have_count(0)
    drums.get_by_role("button", name="Resign").click()
    drums.locator("#confirm-ok").click()
    line.get_by_role("button", name="Review with the computer").click()
    review = line.locator(".analysis-review")
    expect(review).to_contain_text("22-18", timeout=60_000)
    expect(review).to_contain_text("15x22")
    assert drums.errors == []
