"""Acceptance (issue 14): connections that can't be held forever. `checkers serve` closes
a client that never finishes its headers or its body and an idle kept-alive one, and
refuses connections past its concurrency limit; 300 slow sockets held at once do not
keep a normal client from its answers."""

from __future__ import annotations

import selectors
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.web.servers import serve_cli

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("served")]

HEADER_TIMEOUT = 2.0
BODY_TIMEOUT = 2.0


def _address(base: str) -> tuple[str, int]:
    host, port = base.removeprefix("http://").split(":")
    return host, int(port)


def _closed_by_server(sock: socket.socket, within: float) -> bool:
    """Whether the server closes `sock` within `within` seconds (reading what it sends)."""
    return not _open_after([sock], within)


def _open_after(socks: list[socket.socket], within: float) -> list[socket.socket]:
    """Those of `socks` the server has not closed `within` seconds from now."""
    selector = selectors.DefaultSelector()
    for sock in socks:
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
    open_ = set(socks)
    deadline = time.monotonic() + within
    while open_ and (left := deadline - time.monotonic()) > 0:
        for key, _ in selector.select(left):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            try:
                closed = not sock.recv(65536)
            except OSError:
                closed = True
            if closed:
                selector.unregister(sock)
                open_.discard(sock)
    selector.close()
    return list(open_)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("slow")
    with serve_cli(
        f"sqlite:///{tmp}/slow.sqlite3",
        log=tmp / "server.log",
        HTTP_HEADER_TIMEOUT=str(HEADER_TIMEOUT),
        HTTP_BODY_TIMEOUT=str(BODY_TIMEOUT),
        HTTP_KEEPALIVE_TIMEOUT="1",
        RATE_LIMIT_ENABLED="false",
    ) as base:
        yield base


def test_300_slow_sockets_are_closed_and_starve_nobody(served: str) -> None:
    address = _address(served)
    slow: dict[str, list[socket.socket]] = {"silent": [], "headers": [], "trickle": [], "body": []}
    opened = time.monotonic()
    for n in range(300):
        sock = socket.create_connection(address, timeout=5)
        kind = ("silent", "headers", "trickle", "body")[n % 4]
        if kind in ("headers", "trickle"):
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        elif kind == "body":
            sock.sendall(
                b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"rule'
            )
        slow[kind].append(sock)
    try:
        # While the 300 are held, a normal client gets every answer within a second.
        with httpx.Client(base_url=served, timeout=5) as client:
            room = None
            for n in range(12):
                started = time.monotonic()
                if n % 3 == 0:
                    answer = client.get("/healthz")
                elif n % 3 == 1:
                    answer = client.post("/api/rooms", json={"rule_set": "english"})
                    room = answer.json()["room_id"]
                else:
                    answer = client.get(f"/api/rooms/{room}")
                took = time.monotonic() - started
                assert answer.status_code in (200, 201), answer.text
                assert took < 1.0, f"request {n} took {took:.2f} s"
                if n == 6:
                    for sock in slow["trickle"]:  # a byte now and then buys no time
                        sock.sendall(b"x")
        # Every slow client is closed once its clock has run out, none much later.
        limit = max(HEADER_TIMEOUT, BODY_TIMEOUT) + 3.0 - (time.monotonic() - opened)
        left = _open_after([sock for socks in slow.values() for sock in socks], max(limit, 0.5))
        still_open = {kind: sum(sock in left for sock in socks) for kind, socks in slow.items()}
        assert still_open == {"silent": 0, "headers": 0, "trickle": 0, "body": 0}
    finally:
        for socks in slow.values():
            for sock in socks:
                sock.close()


def test_a_header_timeout_is_answered_408_and_a_kept_alive_idle_connection_closed(
    served: str,
) -> None:
    with socket.create_connection(_address(served), timeout=5) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        sock.settimeout(HEADER_TIMEOUT + 3)
        answer = sock.recv(65536)
        assert answer.startswith(b"HTTP/1.1 408"), answer
        assert b'"code":"request_timeout"' in answer
    with socket.create_connection(_address(served), timeout=5) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        sock.settimeout(5)
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        started = time.monotonic()
        assert _closed_by_server(sock, 4.0)
        assert time.monotonic() - started < 3.0


def test_connections_past_the_concurrency_limit_are_refused(tmp_path: Path) -> None:
    with serve_cli(
        f"sqlite:///{tmp_path}/limit.sqlite3",
        log=tmp_path / "server.log",
        HTTP_LIMIT_CONCURRENCY="20",
    ) as base:
        held = [socket.create_connection(_address(base), timeout=5) for _ in range(25)]
        try:
            time.sleep(0.3)
            answer = httpx.get(f"{base}/healthz", timeout=5)
            assert answer.status_code == 503
        finally:
            for sock in held:
                sock.close()
        time.sleep(0.3)
        assert httpx.get(f"{base}/healthz", timeout=5).status_code == 200
