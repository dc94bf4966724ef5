"""`checkers migrate`, `checkers serve` and `checkers worker` as a user runs them."""

from __future__ import annotations

import importlib.metadata
import os
import socket
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import httpx
import pytest

from checkers_engine import build

ROOT = Path(__file__).resolve().parents[2]
CHECKERS = [sys.executable, "-m", "app.cli"]
PYPROJECT_VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


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
            "version": PYPROJECT_VERSION,
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


def test_version_is_pyprojects() -> None:
    done = subprocess.run(
        [*CHECKERS, "--version"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"checkers-service {PYPROJECT_VERSION}, ")


def _serve(tmp_path: Path, *args: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*CHECKERS, "serve", *args],
        cwd=ROOT,
        env={**_env(tmp_path), **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_serve_on_a_busy_port_says_so_in_one_line_and_prints_no_url(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = _serve(tmp_path, "--port", str(port))
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert out == ""  # no "open http://..." for a server that never ran
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert f"127.0.0.1:{port}" in lines[0] and "in use" in lines[0]
    assert f"PORT={port + 1} make run" in lines[0]
    # Nothing was done to the database either.
    assert not (tmp_path / "cli.sqlite3").exists()


def _wait_healthy(port: int, proc: subprocess.Popen[str]) -> httpx.Response:
    deadline = time.monotonic() + 30
    while True:
        assert proc.poll() is None, proc.communicate()
        try:
            return httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


@pytest.mark.parametrize("command", ["serve", "worker"])
def test_migrate_on_start_false_is_obeyed(tmp_path: Path, command: str) -> None:
    """With MIGRATE_ON_START=false neither `serve` nor `worker` touches the schema: an
    empty database stays empty (and the worker's sweep then fails on the missing table)."""
    import sqlite3

    if command == "worker":
        done = subprocess.run(
            [*CHECKERS, "worker", "--once"],
            cwd=ROOT,
            env={**_env(tmp_path), "MIGRATE_ON_START": "false"},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode != 0
        assert "no such table" in done.stderr
    else:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        proc = _serve(tmp_path, "--port", str(port), MIGRATE_ON_START="false")
        try:
            assert _wait_healthy(port, proc).status_code == 200
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    with sqlite3.connect(tmp_path / "cli.sqlite3") as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "alembic_version" not in tables and "rooms" not in tables
