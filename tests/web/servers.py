"""Real app instances for the live and browser tests: `uvicorn` subprocesses on free
loopback ports, each serving `app.main:create_app` against the database of its env."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serve(
    database_url: str, *, log: Path, migrate: bool = True, env: dict[str, str] | None = None
) -> Iterator[str]:
    """Run one instance until the block ends; yields its base URL. `env` adds settings."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "SCHEDULER_ENABLED": "false",
        "MIGRATE_ON_START": "true" if migrate else "false",
        "LOG_LEVEL": "WARNING",
        **(env or {}),
    }
    command = [
        sys.executable, "-m", "uvicorn", "--factory", "app.main:create_app",
        "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
        "--timeout-graceful-shutdown", "1",
    ]  # fmt: skip
    with log.open("ab") as out:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited with {proc.returncode}: {log.read_text()}")
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"server did not start: {log.read_text()}")
            time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
