"""What the suite needs beyond Python, probed once: each check returns why its tests
cannot run here, or None. A missing part skips its tests with that reason, except under
CI=true, where it fails them; `make test` prints every reason in its first lines."""

from __future__ import annotations

import os
import shutil
import socket
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

import pytest

DEFAULT_TEST_DATABASE_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
AXE_VERSION = "4.14.1"
AXE_DIR = Path(os.environ.get("AXE_DIR", Path(__file__).resolve().parents[1] / ".cache" / "axe"))
AXE_SCRIPT = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"


def under_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def unavailable(reason: str) -> None:
    """Skip the test for a part this machine lacks; under CI that is a failure."""
    if under_ci():
        pytest.fail(reason)
    pytest.skip(reason)


def database_url() -> str:
    from app.core.settings import Settings

    url = os.environ.get("TEST_DATABASE_URL", DEFAULT_TEST_DATABASE_URL)
    return Settings(database_url=url).database_url


def _reachable(url: str, default_port: int) -> bool:
    parts = urlsplit(url)
    address = (parts.hostname or "127.0.0.1", parts.port or default_port)
    try:
        with socket.create_connection(address, 2):
            return True
    except OSError:
        return False


@cache
def missing_postgres() -> str | None:
    from sqlalchemy import create_engine, text

    engine = create_engine(database_url(), pool_size=1, connect_args={"connect_timeout": 3})
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:
        return (
            f"PostgreSQL unreachable at TEST_DATABASE_URL ({database_url()}): "
            f"{type(exc).__name__}. Start it or point TEST_DATABASE_URL at one."
        )
    finally:
        engine.dispose()
    return None


@cache
def missing_redis() -> str | None:
    if _reachable(REDIS_URL, 6379):
        return None
    return f"Redis is not reachable at {REDIS_URL} (TEST_REDIS_URL)"


@cache
def missing_browser() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[test]')"
    if not Path(CHROMIUM).exists():
        return f"Chromium not found at {CHROMIUM} (apt-get install chromium, or set CHROMIUM)"
    return None


@cache
def missing_axe() -> str | None:
    """axe-core is installed from npm on first use: npm must be there unless it already is."""
    if AXE_SCRIPT.exists() or shutil.which("npm"):
        return None
    return "npm is not installed, so axe-core cannot be (apt-get install npm)"


@cache
def missing_compiled_build() -> str | None:
    from checkers_engine import build

    if build.compiled_available():
        return None
    return "no compiled build here (installed without a C compiler, or stale)"


@cache
def missing_mkdocs() -> str | None:
    try:
        import material  # noqa: F401
        import mkdocs  # noqa: F401
    except ImportError as exc:
        return (
            f"MkDocs or its Material theme is not installed ({exc.name}): "
            "make install installs both (the dev extra)"
        )
    return None


def report() -> list[str]:
    """A line for each part this machine lacks, naming the tests that skip for it."""
    parts = (
        ("the PostgreSQL tests (the second run of every database test)", missing_postgres),
        ("the shared rate-limit test (Redis)", missing_redis),
        ("the browser tests", missing_browser),
        ("the accessibility audits (axe-core)", missing_axe),
        ("the compiled-build checks", missing_compiled_build),
        ("the documentation builds (tests/docs/test_mkdocs.py)", missing_mkdocs),
    )
    verb = "failing (CI=true)" if under_ci() else "skipping"
    lines = [f"{verb} {what}: {reason}" for what, probe in parts if (reason := probe())]
    everything = "PostgreSQL, Redis, Chromium, npm, the compiled build and MkDocs are here"
    return lines or [f"{everything}: nothing skips"]
