"""Issue 60, point 3: an installable app. Chromium, asked over its DevTools protocol,
finds nothing that keeps the site from being installed; the manifest names the app in
the visitor's language; the service worker keeps the app shell, so the home page opens
with the network gone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.environment import CHROMIUM

from .conftest import ARGS, WAIT, new_page

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group(__name__)]


def _worker_ready(page: Any) -> None:
    page.wait_for_function(
        "async () => Boolean((await navigator.serviceWorker.ready).active)", timeout=WAIT
    )


def test_chromium_finds_the_site_installable(browser: Any, server: str, tmp_path: Path) -> None:
    """In a profile of its own: Chromium installs nothing from an incognito context."""
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=CHROMIUM,
        args=ARGS,
        viewport={"width": 390, "height": 844},
    )
    try:
        page = context.new_page()
        page.goto(server + "/")
        _worker_ready(page)
        cdp = context.new_cdp_session(page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == []
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == []
        assert manifest["url"].endswith("/manifest.webmanifest")
    finally:
        context.close()


def test_the_manifest_speaks_the_visitors_language(browser: Any, server: str) -> None:
    page = new_page(browser, locale="ru-RU")
    page.goto(server + "/")
    answer = page.request.get(server + "/manifest.webmanifest")
    assert answer.headers["content-type"].startswith("application/manifest+json")
    # As the browser asks for it: with the page's language.
    manifest = page.evaluate("async () => (await fetch('/manifest.webmanifest')).json()")
    assert (manifest["name"], manifest["short_name"], manifest["lang"]) == (
        "Шашки в своём темпе",
        "Шашки",
        "ru",
    )
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = {(icon["sizes"], icon.get("purpose", "any")) for icon in manifest["icons"]}
    assert sizes == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for icon in manifest["icons"]:
        image = page.request.get(server + icon["src"])
        assert image.ok and image.headers["content-type"] == "image/png", icon
        width, height = icon["sizes"].split("x")
        png = image.body()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert (int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")) == (
            int(width),
            int(height),
        )


def test_the_home_page_opens_offline_from_the_shell(browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    page = new_page(browser, 390, 844)
    page.goto(server + "/")
    _worker_ready(page)
    page.reload()  # now under the worker's control
    page.context.set_offline(True)
    try:
        page.reload()
        expect(page.locator("#create-form")).to_be_visible(timeout=WAIT)
        # Styled from the cache: the top bar has its colour, not the browser's default.
        bar = page.evaluate(
            "() => getComputedStyle(document.querySelector('.topbar')).backgroundColor"
        )
        assert bar == "rgb(31, 42, 34)"
    finally:
        page.context.set_offline(False)
