"""Headless Chromium (Debian's, driven by Playwright) and served app instances for the
browser tests. Skipped when Chromium or Playwright is missing, except under CI=true where
that fails."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.environment import (
    AXE_DIR,
    AXE_SCRIPT,
    AXE_VERSION,
    CHROMIUM,
    missing_browser,
    unavailable,
)
from tests.web.servers import serve

ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # Less work for the machine the suite shares: no GPU process, no extensions, shared
    # memory in a file where /dev/shm is small.
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-extensions",
]
ARTIFACTS = Path(os.environ.get("ARTIFACTS_DIR", Path(__file__).resolve().parents[2] / "artifacts"))
WAIT = 5000  # ms: live updates arrive well within this


# Per module, not per session: Playwright's sync API keeps an event loop running while
# it is open, and other tests in the same worker run their own (asyncio.run).
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    reason = missing_browser()
    if reason:
        unavailable(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


# Each browser module is a group of its own (`xdist_group(__name__)`): its tests share
# one Chromium, and the two workers take modules in turn, each with its own browser.
# The servers are shared by every browser test of a worker (a start costs seconds of the
# machine's CPU); each test makes rooms of its own, so none sees another's. All their
# requests come from one address, so the per-client limits are off: they are tested in
# tests/security.
SHARED = {"RATE_LIMIT_ENABLED": "false"}


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("browser")
    with serve(f"sqlite:///{tmp}/checkers.sqlite3", log=tmp / "server.log", env=SHARED) as base:
        yield base


@pytest.fixture(scope="session")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A claim opens 4 s after a turn begins; push endpoints may be on loopback (a test-only
    setting)."""
    tmp = tmp_path_factory.mktemp("quick")
    env = {
        "CLAIM_AFTER_SECONDS": "4",
        "EXPIRE_AFTER_SECONDS": "600",
        "PUSH_ALLOW_LOOPBACK_FOR_TESTS": "true",
        **SHARED,
    }
    with serve(f"sqlite:///{tmp}/checkers.sqlite3", log=tmp / "server.log", env=env) as base:
        yield base


@pytest.fixture(scope="module")
def expiring_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A waiting room expires 2 s after it was made."""
    tmp = tmp_path_factory.mktemp("expiring")
    env = {"EXPIRE_AFTER_SECONDS": "2"}
    with serve(f"sqlite:///{tmp}/checkers.sqlite3", log=tmp / "server.log", env=env) as base:
        yield base


@pytest.fixture(autouse=True)
def _close_pages(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test's pages close when it ends: a room page left open keeps its live stream and
    its clocks running, and the module's later tests would share the machine with it."""
    yield
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()


def new_page(
    browser: Any, width: int = 1280, height: int = 860, *, scheme: str = "light", **options: Any
) -> Any:
    """A page in a context of its own, at `width` x `height`, with the system's colour
    `scheme` emulated (light or dark)."""
    context = browser.new_context(
        viewport={"width": width, "height": height}, color_scheme=scheme, **options
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    dialogs: list[str] = []  # an injected script's alert() would land here

    def on_dialog(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.dialogs = dialogs
    return page


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core, Deque's accessibility auditor, from npm (installed once into .cache)."""
    import subprocess

    script = AXE_SCRIPT
    if not script.exists():
        AXE_DIR.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            ["npm", "install", "--no-save", "--no-audit", "--no-fund", "--prefix", str(AXE_DIR),
             f"axe-core@{AXE_VERSION}"],
            capture_output=True,
            text=True,
            timeout=300,
        )  # fmt: skip
        if done.returncode != 0 or not script.exists():
            unavailable(f"axe-core could not be installed with npm: {done.stderr[-500:]}")
    return script.read_text()


def audit(page: Any, axe_source: str) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it stands. The auditor is evaluated through
    the browser's debugging protocol, so the page's CSP stays as it is."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(axe_source)
    result = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' '))"
        ".slice(0, 5), help: v.help}))"
    )
    return list(result)


BLUNDER_FEN = "B:W13,16,21,29,30:B4,5,10,14,18"  # 14-17 loses two men to 21x14x7


def finished_room(server: str) -> str:
    """A room whose one game is over: the drums blunder, the tires take two, the drums
    resign."""
    made = httpx.post(f"{server}/api/rooms", json={"rule_set": "english", "fen": BLUNDER_FEN})
    assert made.status_code == 201, made.text
    room, drums = made.json()["room_id"], made.json()["token"]
    tires = httpx.post(f"{server}/api/rooms/{room}/join").json()["token"]
    for ply, (token, move) in enumerate([(drums, "14-17"), (tires, "21x14x7")]):
        r = httpx.post(
            f"{server}/api/rooms/{room}/moves",
            json={"move": move, "expected_ply": ply},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert r.status_code == 200, r.text
    resigned = httpx.post(
        f"{server}/api/rooms/{room}/resign", headers={"Authorization": f"Bearer {drums}"}
    )
    assert resigned.status_code == 200, resigned.text
    return str(room)
