"""The board speaks each rule set's notation (issue 15, points 5 and 6), and the import
page (point 4), in headless Chromium through the pages only.

Squares are worked out by hand from the traditions' layouts (README): engine 11 = c3 and
15 = d4 (Russian 22 and 18), f6 = Russian 11, g5 = 16; the engine's a1 (4) is drawn in
the lower right corner of an Italian board, where Italian numbers it 32, and Italian 1 is
the top left corner (engine h8, 29); seen from the tires' side the lower left corner of an
English board is h8 (29).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .conftest import ARTIFACTS, WAIT, new_page

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group(__name__)]

BLACK_FIRST_MOVES = "b6-a5, b6-c5, d6-c5, d6-e5, f6-e5, f6-g5, h6-g5"


def _tap(page: Any, *squares: int) -> None:
    for square in squares:
        page.locator(f'.sq[data-square="{square}"]').click()


def _create(page: Any, server: str, rule_set: str, fen: str = "") -> str:
    page.goto(server + "/")
    page.locator(f'input[name="rule_set"][value="{rule_set}"]').check()
    if fen:
        page.locator("#create-form summary").click()
        page.locator("#create-fen").fill(fen)
    page.get_by_role("button", name="Create a room").click()
    page.wait_for_url(re.compile(r"/r/[\w-]+$"))
    return str(page.url)


def _join(page: Any, url: str) -> None:
    from playwright.sync_api import expect

    page.goto(url)
    page.get_by_role("button", name="Accept and play the tires").click()
    expect(page.locator("#player-bottom")).to_contain_text("Tires · you", timeout=WAIT)


def _cells(page: Any) -> list[dict[str, Any]]:
    """The board's 64 cells in screen order (top row first): square, colour, labels."""
    from playwright.sync_api import expect

    expect(page.locator(".squares > *")).to_have_count(64)  # drawn once the page's script ran
    # Coordinates and numbers stand in an overlay, one spot per labelled cell.
    result: list[dict[str, Any]] = page.locator(".squares > *").evaluate_all(
        """(cells) => cells.map((c, i) => {
            const spot = c.closest('.board').querySelector(`.coord-cell[data-cell="${i}"]`);
            return {
              square: c.dataset.square ? Number(c.dataset.square) : null,
              dark: c.classList.contains('dark'),
              file: spot?.querySelector('.coord.file')?.textContent ?? null,
              num: spot?.querySelector('.coord.num')?.textContent ?? null,
            };
        })"""
    )
    return result


def _moves(page: Any) -> list[str]:
    texts: list[str] = page.locator("#moves button").all_inner_texts()
    return texts


def test_a_russian_game_is_algebraic_and_the_numeric_choice_is_remembered(
    browser: Any, server: str
) -> None:
    from playwright.sync_api import expect

    drums = new_page(browser)
    url = _create(drums, server, "russian")
    tires = new_page(browser, 375, 812)
    _join(tires, url)
    expect(drums.locator("#status")).to_contain_text("Your move", timeout=WAIT)
    # What the tires' page says to a screen reader, as it says it (its live region).
    tires.evaluate(
        """() => { window.said = []; new MutationObserver(() =>
            window.said.push(document.getElementById('said').textContent))
            .observe(document.getElementById('said'), {childList: true, subtree: true,
            characterData: true}); }"""
    )
    assert [c["file"] for c in _cells(drums)[56:]] == list("abcdefgh")
    expect(drums.locator('.sq[data-square="11"]')).to_have_attribute(
        "aria-label", "c3, drum, can move"
    )
    _tap(drums, 11, 15)
    for page in (drums, tires):
        expect(page.locator("#moves button")).to_have_text(["c3-d4"], timeout=WAIT)
        expect(page.locator("#last-move")).to_have_text("Last move: Drums c3-d4")
    expect(drums.locator('.sq[data-square="15"]')).to_have_attribute("aria-label", "d4, drum")
    assert "Drums played c3-d4" in tires.evaluate("window.said")

    # The move typed, in the rule set's notation.
    tires.locator("#move-input").fill("f6-g5")
    tires.get_by_role("button", name="Play", exact=True).click()
    for page in (drums, tires):
        expect(page.locator("#moves button")).to_have_text(["c3-d4", "f6-g5"], timeout=WAIT)
    drums.locator("#move-input").fill("c3-b4")  # c3 is empty now
    drums.get_by_role("button", name="Play", exact=True).click()
    expect(drums.locator("#error")).to_contain_text("c3-b4 is not legal here", timeout=WAIT)
    expect(drums.locator("#moves button")).to_have_count(2)

    # Numeric, lidraughts' numbers; remembered by this browser, not the other one.
    drums.get_by_label("1-32").check()
    expect(drums.locator("#moves button")).to_have_text(["22-18", "11-16"])
    expect(drums.locator("#last-move")).to_have_text("Last move: Tires 11-16")
    expect(drums.locator('.sq[data-square="15"]')).to_have_attribute(
        "aria-label", re.compile(r"^square 18, drum")
    )
    drums.reload()
    expect(drums.locator("#moves button")).to_have_text(["22-18", "11-16"])
    expect(drums.get_by_label("1-32")).to_be_checked()
    tires.reload()
    expect(tires.locator("#moves button")).to_have_text(["c3-d4", "f6-g5"])
    for page in (drums, tires):
        assert page.errors == []


def test_an_italian_board_is_mirrored_and_shows_its_square_numbers(
    browser: Any, server: str
) -> None:
    from playwright.sync_api import expect

    russian = new_page(browser)
    _create(russian, server, "russian")
    cells = _cells(russian)
    assert (cells[56]["square"], cells[56]["file"], cells[63]["dark"]) == (4, "a", False)

    page = new_page(browser)
    _create(page, server, "italian")
    cells = _cells(page)
    assert not cells[56]["dark"] and cells[56]["file"] == "a"  # light lower left corner
    assert (cells[63]["square"], cells[63]["file"]) == (4, "h")  # the engine's a1
    assert cells[0]["square"] == 29
    expect(page.locator(".coord.num")).to_have_count(0)
    page.get_by_label("Square numbers").check()
    expect(page.locator(".coord.num")).to_have_count(32)
    cells = _cells(page)
    assert (cells[0]["num"], cells[63]["num"]) == ("1", "32")
    page.reload()
    expect(page.locator(".coord.num")).to_have_count(32)
    expect(page.get_by_label("Square numbers")).to_be_checked()
    page.screenshot(path=str(ARTIFACTS / "italian-numbers.png"), full_page=True)
    assert page.errors == [] and russian.errors == []


def test_a_spectator_flips_the_board(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    drums = new_page(browser)
    url = _create(drums, server, "english")
    tires = new_page(browser)
    _join(tires, url)
    watcher = new_page(browser)
    watcher.goto(url)
    expect(watcher.locator("#status")).to_contain_text("you are watching")
    expect(watcher.locator("#player-bottom")).to_contain_text("Drums")
    assert _cells(watcher)[56]["square"] == 4
    watcher.get_by_role("button", name="Flip board").click()
    expect(watcher.locator("#player-bottom")).to_contain_text("Tires")
    assert _cells(watcher)[56]["square"] == 29
    expect(watcher.locator(".piece")).to_have_count(24)
    _tap(drums, 11, 15)  # live updates keep the watcher's side
    expect(watcher.locator("#moves button")).to_have_text(["11-15"], timeout=WAIT)
    expect(watcher.locator("#player-bottom")).to_contain_text("Tires")
    watcher.get_by_role("button", name="Flip board").click()
    expect(watcher.locator("#player-bottom")).to_contain_text("Drums")
    assert watcher.errors == []


def test_a_game_from_a_fen_shows_its_position_to_the_invitee(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    maker = new_page(browser)
    maker.goto(server + "/")
    maker.locator('input[name="rule_set"][value="russian"]').check()
    maker.locator("#create-form summary").click()
    maker.locator("#create-fen").fill("W:W1:BK30")  # a White man on b8, its crowning row
    maker.get_by_role("button", name="Create a room").click()
    expect(maker.locator("#create-form .form-error")).to_contain_text("crowning row")

    # lidraughts' numbers: White c3 (22) and a king on a1 (29); Black f6 (11), king b8 (1).
    url = _create(maker, server, "russian", "W:W22,K29:B11,K1")
    invitee = new_page(browser, 375, 812)
    invitee.goto(url)
    expect(invitee.locator("#status")).to_contain_text("starts from the position on the board")
    expect(invitee.locator("#start-position")).to_have_text("Set-up start: W:WKa1,c3:Bf6,Kb8:H0:F1")
    expect(invitee.locator(".piece")).to_have_count(4)
    expect(invitee.locator(".piece.king")).to_have_count(2)
    for square, side in ((11, "drums"), (4, "drums"), (22, "tires"), (32, "tires")):
        expect(invitee.locator(f'.piece[data-at="{square}"]')).to_have_class(
            re.compile(rf"\b{side}\b")
        )
    invitee.get_by_role("button", name="Accept and play the tires").click()
    expect(maker.locator("#status")).to_contain_text("Your move", timeout=WAIT)
    _tap(maker, 11, 15)
    expect(invitee.locator("#moves button")).to_have_text(["c3-d4"], timeout=WAIT)
    invitee.get_by_role("button", name="First position").click()
    expect(invitee.locator('.piece[data-at="11"]')).to_have_count(1)
    expect(invitee.locator(".piece")).to_have_count(4)
    assert maker.errors == [] and invitee.errors == []


PDN = """[Event "one"]
[White "Wyllie"]
[Black "Martins"]
[Result "1-0"]

1. 11-15 23-19 2. 8-11 22-17 1-0

[Event "two"]
[Result "*"]

1. 11-15 23-19 2. 9-13 22-11 *
"""


def test_the_import_page_imports_and_shows_a_failure(
    browser: Any, server: str, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    page = new_page(browser)
    page.goto(server + "/")
    page.get_by_role("link", name="Import PDN").click()
    page.wait_for_url(re.compile(r"/import$"))
    source = tmp_path / "two.pdn"
    source.write_bytes(PDN.encode("cp1252"))
    page.locator("#pdn-file").set_input_files(str(source))
    expect(page.locator("#pdn-text")).to_have_value(PDN)
    page.get_by_role("button", name="Import").click()
    expect(page.locator("#import-summary")).to_have_text(
        "1 of 2 games imported, 1 not imported.", timeout=WAIT
    )
    failed = page.locator(".import-game.failed")
    expect(failed).to_contain_text("game 2, line 11, column 24, ply 3, move 22-11")
    expect(failed).to_contain_text("legal moves: 19-16, 21-17")
    ok = page.locator(".import-game.ok")
    expect(ok).to_contain_text("Game 1 · Wyllie \u2013 Martins · 1-0 · 4 moves")
    page.screenshot(path=str(ARTIFACTS / "import.png"), full_page=True)
    ok.get_by_role("link", name="Replay").click()
    page.wait_for_url(re.compile(r"/imported/[\w-]+$"))
    expect(page.locator("#status")).to_have_text("Black won (1-0)")
    expect(page.locator("#moves button")).to_have_text(["11-15", "23-19", "8-11", "22-17"])
    page.get_by_role("button", name="First position").click()
    expect(page.locator(".piece")).to_have_count(24)
    expect(page.locator('.piece[data-at="11"]')).to_have_count(1)
    assert page.errors == []
