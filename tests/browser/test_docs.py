"""The API documentation works offline: Swagger UI and ReDoc load every byte from the
service itself, under its CSP, and show the operations."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .conftest import new_page

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group(__name__)]


@pytest.mark.parametrize(
    ("path", "shown"),
    [("/docs", "#swagger-ui .opblock"), ("/redoc", "#redoc [data-section-id]")],
)
def test_the_docs_need_no_other_site(browser: Any, server: str, path: str, shown: str) -> None:
    from playwright.sync_api import expect

    page = new_page(browser)
    elsewhere: list[str] = []
    problems: list[str] = []
    failed: list[str] = []

    def only_here(route: Any) -> None:
        if route.request.url.startswith(server):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    page.route("**/*", only_here)
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("requestfailed", lambda r: failed.append(f"{r.url}: {r.failure}"))
    page.on(
        "response", lambda r: failed.append(f"{r.url}: {r.status}") if r.status >= 400 else None
    )
    page.goto(server + path)
    expect(page.locator(shown).first).to_be_visible(timeout=15_000)
    operation = page.locator(shown).get_by_text("Create a room, from the standard start")
    expect(operation.first).to_be_visible()
    page.wait_for_timeout(500)  # a late image or icon would have been asked for by now
    assert elsewhere == [] and failed == [] and problems == []
    assert page.errors == []
    # The page's icon is the service's own (the browser asks for no /favicon.ico).
    icons = page.locator('link[rel="icon"]')
    assert icons.count() == 1
    assert httpx.get(server + str(icons.get_attribute("href"))).status_code == 200
    if path == "/redoc":  # its maker's credit stays, as text, without their CDN's logo
        credit = page.get_by_role("link", name="API docs by Redocly")
        expect(credit).to_be_visible()
        expect(credit.locator("img")).to_have_count(0)


def test_the_redoc_bundle_is_revalidated(server: str) -> None:
    first = httpx.get(f"{server}/docs-assets/redoc.standalone.js")
    assert first.status_code == 200 and "javascript" in first.headers["content-type"]
    assert b"cdn.redoc.ly/redoc/logo-mini.svg" not in first.content
    again = httpx.get(
        f"{server}/docs-assets/redoc.standalone.js",
        headers={"If-None-Match": first.headers["etag"]},
    )
    assert again.status_code == 304
