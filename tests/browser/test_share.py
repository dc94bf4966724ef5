"""Issue 60, point 2: sharing as phones share. Share opens the system's share sheet with
the invitation in the player's language where the browser has one, and copies the link
where it has none; the room also offers its link as a QR code, drawn by the server, which
a real decoder (ZXing) reads back as the room's link."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from .conftest import WAIT, new_page
from .test_room_page import _create

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group(__name__)]

# What the system's share sheet is handed: headless Chromium has none of its own.
SHARE_SHEET = "navigator.share = async (data) => { window.shared = data; };"


def test_share_hands_the_invitation_to_the_share_sheet(browser: Any, server: str) -> None:
    url = _create(new_page(browser), server)
    page = new_page(browser, 390, 844, locale="ru-RU")
    page.add_init_script(SHARE_SHEET)
    page.goto(url)
    page.locator("#share-native").click()
    page.wait_for_function("() => window.shared !== undefined", timeout=WAIT)
    shared = page.evaluate("() => window.shared")
    assert shared["url"] == url
    assert shared["text"] == "Сыграем в шашки (Английские), каждый в своём темпе."


def test_without_a_share_sheet_the_link_is_copied(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    page = new_page(browser, 1366, 900)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    url = _create(page, server)
    assert page.evaluate("() => typeof navigator.share") == "undefined"
    page.locator("#share-native").click()
    expect(page.locator("#share-native")).to_have_text("Copied", timeout=WAIT)
    assert page.evaluate("() => navigator.clipboard.readText()") == url


def test_the_qr_code_reads_back_as_the_rooms_link(browser: Any, server: str) -> None:
    import numpy
    import zxingcpp

    page = new_page(browser, 390, 844)
    url = _create(page, server)
    page.locator(".qr summary").click()
    image = page.locator(".qr img")
    image.wait_for()
    page.wait_for_function("() => document.querySelector('.qr img').complete", timeout=WAIT)
    # The picture as the page draws it, one grey byte a pixel (base64: a long array of
    # numbers would cost the bridge seconds), for the decoder.
    size = 440
    grey_text = page.evaluate(
        """(size) => {
          const img = document.querySelector('.qr img');
          const canvas = document.createElement('canvas');
          canvas.width = size; canvas.height = size;
          const g = canvas.getContext('2d');
          g.fillStyle = '#fff'; g.fillRect(0, 0, size, size);
          g.drawImage(img, 0, 0, size, size);
          const rgba = g.getImageData(0, 0, size, size).data;
          let text = '';
          for (let i = 0; i < rgba.length; i += 4) {
            text += String.fromCharCode(Math.round((rgba[i] + rgba[i + 1] + rgba[i + 2]) / 3));
          }
          return btoa(text);
        }""",
        size,
    )
    grey = numpy.frombuffer(base64.b64decode(grey_text), dtype=numpy.uint8).reshape(size, size)
    found = zxingcpp.read_barcodes(grey)
    assert [code.text for code in found] == [url]
    assert page.request.get(server + "/r/" + "0" * 32 + "/qr.svg").status == 404
    assert page.request.get(server + "/r/not-an-id/qr.svg").status == 404
