"""`checkers migrate`, `checkers serve` and `checkers worker` as a user runs them."""

from __future__ import annotations

import importlib.metadata
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from app import build

ROOT = Path(__file__).resolve().parents[2]
CHECKERS = [sys.executable, "-m", "app.cli"]


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["DATABASE_URL"] = f"sqlite:///{tmp_path}/cli.sqlite3"
    env.pop("PUBLIC_URL", None)
    return env


def test_migrate_creates_the_schema(tmp_path: Path) -> None:
    import sqlite3

    done = subprocess.run(
        [*CHECKERS, "migrate"],
        cwd=ROOT,
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(tmp_path / "cli.sqlite3") as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"rooms", "seats", "games", "moves", "offers", "events", "alembic_version"} <= tables


@pytest.mark.parametrize("pure", [False, True])
def test_version_names_the_release_and_the_build(tmp_path: Path, pure: bool) -> None:
    env = _env(tmp_path)
    env.pop(build.PURE_SWITCH, None)
    if pure:
        env[build.PURE_SWITCH] = "1"
    done = subprocess.run(
        [*CHECKERS, "--version"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    version = importlib.metadata.version("checkers-service")
    expected = build.COMPILED if build.compiled_available() and not pure else build.PURE
    assert done.stdout.startswith(f"checkers-service {version}, {expected}")


def test_worker_once_sweeps_and_exits(tmp_path: Path) -> None:
    done = subprocess.run(
        [*CHECKERS, "worker", "--once"],
        cwd=ROOT,
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "rooms handled: 0" in done.stdout


@pytest.mark.slow
def test_serve_migrates_prints_the_url_and_answers(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [*CHECKERS, "serve", "--port", str(port)],
        cwd=ROOT,
        env=_env(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}" in line
        deadline = time.monotonic() + 30
        while True:
            try:
                r = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        assert r.json() == {
            "status": "ok",
            "database": "sqlite",
            "version": build.package_version(),
            "build": build.build_info(),
        }
        created = httpx.post(f"http://127.0.0.1:{port}/api/rooms", json={}, timeout=5)
        assert created.status_code == 201
        share_url = created.json()["share_url"]
        assert share_url.startswith(f"http://127.0.0.1:{port}/")
        assert share_url.endswith("/" + created.json()["room_id"])
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_serve_refuses_several_workers_on_sqlite(tmp_path: Path) -> None:
    """Live events cross no process boundary on SQLite: one process serves it."""
    done = subprocess.run(
        [*CHECKERS, "serve", "--workers", "2", "--port", "1"],
        cwd=ROOT,
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "SQLite is served by one process" in done.stderr
