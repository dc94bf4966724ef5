"""The API documentation works offline: Swagger UI and ReDoc load every byte from the
service itself, under its CSP, and show the operations."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import new_page

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


@pytest.mark.parametrize(
    ("path", "shown"),
    [("/docs", "#swagger-ui .opblock"), ("/redoc", "#redoc [data-section-id]")],
)
def test_the_docs_need_no_other_site(browser: Any, server: str, path: str, shown: str) -> None:
    from playwright.sync_api import expect

    page = new_page(browser)
    elsewhere: list[str] = []
    problems: list[str] = []

    def only_here(route: Any) -> None:
        if route.request.url.startswith(server):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    page.route("**/*", only_here)
    page.on(
        "console",
        lambda m: problems.append(m.text) if m.type == "error" else None,
    )
    page.goto(server + path)
    expect(page.locator(shown).first).to_be_visible(timeout=15_000)
    operation = page.locator(shown).get_by_text("Create a room, from the standard start")
    expect(operation.first).to_be_visible()
    assert elsewhere == []
    # ReDoc's sidebar credit names a logo on its maker's CDN; the CSP blocks it, so the
    # browser never asks for it (and nothing else is refused).
    refused = [p for p in problems if "Content Security Policy" in p]
    assert all("cdn.redoc.ly/redoc/logo-mini.svg" in p and "img-src" in p for p in refused)
    assert page.errors == []
