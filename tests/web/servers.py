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
from typing import Any

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
    yield from _until_stopped(command, env, log, port, start_timeout=30, stop_timeout=10)


@contextmanager
def serve_app(app: Any, **options: Any) -> Iterator[str]:
    """Serve an app object built by the test through a real Uvicorn server in a thread
    (real sockets, real headers), so the test can still reach the app's own objects."""
    import threading

    import uvicorn

    port = free_port()
    options.setdefault("timeout_graceful_shutdown", 1)  # open streams are cut after 1 s
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", lifespan="on", **options
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the threaded server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(15)


def raw_request(base: str, request: bytes, timeout: float = 10) -> tuple[int, bytes]:
    """Send `request` as raw bytes (headers no HTTP client would send) and return the
    status and the whole answer."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=timeout) as sock:
        sock.sendall(request)
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
        head, _, rest = answer.partition(b"\r\n\r\n")
        length = next(
            (
                int(line.split(b":", 1)[1])
                for line in head.split(b"\r\n")
                if line.lower().startswith(b"content-length:")
            ),
            None,
        )
        while length is not None and len(rest) < length:
            chunk = sock.recv(65536)
            if not chunk:
                break
            rest += chunk
    return int(head.split(b" ", 2)[1]), head + b"\r\n\r\n" + rest


@contextmanager
def serve_cli(database_url: str, *, log: Path, **env: str) -> Iterator[str]:
    """`checkers serve` as a user starts it (migrations, its Uvicorn options), with extra
    settings from `env`; yields its base URL."""
    port = free_port()
    environ = {
        **os.environ,
        "DATABASE_URL": database_url,
        "SCHEDULER_ENABLED": "false",
        "LOG_LEVEL": "WARNING",
        **env,
    }
    if "PUBLIC_URL" not in env:
        environ.pop("PUBLIC_URL", None)
    command = [sys.executable, "-m", "app.cli", "serve", "--port", str(port)]
    yield from _until_stopped(command, environ, log, port, start_timeout=60, stop_timeout=15)


def _until_stopped(
    command: list[str],
    env: dict[str, str],
    log: Path,
    port: int,
    *,
    start_timeout: float,
    stop_timeout: float,
) -> Iterator[str]:
    """Start `command`, yield its base URL once `/healthz` answers, terminate it after."""
    with log.open("ab") as out:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + start_timeout
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
            proc.wait(timeout=stop_timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
