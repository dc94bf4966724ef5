"""The README's picture of the room page, taken from a real game in a real browser.

Every run takes it and checks it; `SCREENSHOT=update` (`make screenshot`) writes it to
`docs/room.png`, which the README shows. Other runs leave the committed picture alone
(its bytes change with the clock and the fonts) and write theirs among the artifacts.
"""

from __future__ import annotations

import os
import struct
from pathlib import Path
from typing import Any

import pytest

from .conftest import ARTIFACTS, WAIT
from .test_room_page import _pair, _tap

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group(__name__)]

DOCS = Path(__file__).resolve().parents[2] / "docs"
WIDTH, HEIGHT = 1280, 860


def _png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (PNG specification, section 11.2.2)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def test_room_page_screenshot(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    drums, tires, _url = _pair(browser, server, drums="Ana", tires="Ben")
    # A short English opening: 11-15 22-18, then the forced capture 15x22.
    _tap(drums, 11, 15)
    expect(tires.locator("#moves button")).to_have_count(1, timeout=WAIT)
    _tap(tires, 22, 18)
    expect(drums.locator("#moves button")).to_have_count(2, timeout=WAIT)
    _tap(drums, 15, 22)
    expect(tires.locator("#moves button")).to_have_count(3, timeout=WAIT)
    expect(drums.locator("#status")).not_to_contain_text("Your move", timeout=WAIT)
    drums.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    picture = drums.screenshot(full_page=False)
    assert _png_size(picture) == (WIDTH, HEIGHT)
    assert drums.errors == []
    if os.environ.get("SCREENSHOT") == "update":
        DOCS.mkdir(exist_ok=True)
        (DOCS / "room.png").write_bytes(picture)
    else:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / "room.png").write_bytes(picture)
    # The committed picture is one this test made: a PNG of the same size.
    assert _png_size((DOCS / "room.png").read_bytes()) == (WIDTH, HEIGHT)
