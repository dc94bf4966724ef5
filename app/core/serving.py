"""How `checkers serve` runs Uvicorn: connections that cannot be held forever.

Uvicorn closes an idle kept-alive connection (`timeout_keep_alive`) but not one that
never finishes its headers or body: a client that connects and then sends nothing, or a
byte now and then, keeps its socket (and a slot of `limit_concurrency`) for good. The
protocol here adds the two missing clocks: the headers of each request must arrive within
`HTTP_HEADER_TIMEOUT` of its first byte (or of the connection, or of the previous answer),
its body within `HTTP_BODY_TIMEOUT` of the headers; otherwise the connection is closed
(with a 408 when no request is being answered).

Client addresses come from `app.core.proxies` (`TRUSTED_PROXIES`), so Uvicorn's own
`X-Forwarded-For` handling, which trusts every local peer by default, is switched off.
"""

from __future__ import annotations

import asyncio
import contextlib
import resource
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .settings import Settings, get_settings

_TIMEOUT_BODY = b'{"detail":"request not sent in time","code":"request_timeout"}'
_TIMEOUT_ANSWER = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
    b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(_TIMEOUT_BODY), _TIMEOUT_BODY)
)


class GuardedHttpProtocol(HttpToolsProtocol):
    """Uvicorn's httptools protocol with a header and a body read timeout."""

    header_timeout: float = 10.0
    body_timeout: float = 20.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None

    def _answering(self) -> bool:
        return self.cycle is not None and not self.cycle.response_complete

    def _arm_header_timer(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_timeout, self._headers_late)

    def _cancel(self, timer: asyncio.TimerHandle | None) -> None:
        if timer is not None:
            timer.cancel()

    def _headers_late(self) -> None:
        self._header_timer = None
        if self.transport.is_closing():
            return
        if not self._answering():
            with contextlib.suppress(Exception):
                self.transport.write(_TIMEOUT_ANSWER)
        self.transport.close()

    def _body_late(self) -> None:
        self._body_timer = None
        if not self.transport.is_closing():
            self.transport.close()  # the app sees the client disconnect

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_header_timer()

    def data_received(self, data: bytes) -> None:
        if not self._answering():
            self._arm_header_timer()  # the next request's clock starts with its first byte
        super().data_received(data)

    def on_headers_complete(self) -> None:
        self._cancel(self._header_timer)
        self._header_timer = None
        super().on_headers_complete()
        headers = dict(self.headers)
        chunked = b"chunked" in headers.get(b"transfer-encoding", b"").lower()
        if chunked or headers.get(b"content-length", b"0").strip() not in (b"", b"0"):
            self._body_timer = self.loop.call_later(self.body_timeout, self._body_late)

    def on_message_complete(self) -> None:
        self._cancel(self._body_timer)
        self._body_timer = None
        super().on_message_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel(self._header_timer)
        self._cancel(self._body_timer)
        self._header_timer = self._body_timer = None
        super().connection_lost(exc)


def guarded_protocol(settings: Settings) -> type[GuardedHttpProtocol]:
    """The protocol class with the timeouts of `settings`."""
    return type(
        "ServedHttpProtocol",
        (GuardedHttpProtocol,),
        {
            "header_timeout": settings.http_header_timeout,
            "body_timeout": settings.http_body_timeout,
        },
    )


# What worker processes of `checkers serve --workers N` import (by name, from their
# environment's settings).
ServedHttpProtocol = guarded_protocol(get_settings())


def uvicorn_options(settings: Settings, *, by_name: bool = False) -> dict[str, Any]:
    """Uvicorn's options for the served app (the protocol given by import path when
    worker processes must import it themselves)."""
    return {
        "http": "app.core.serving:ServedHttpProtocol" if by_name else guarded_protocol(settings),
        "timeout_keep_alive": settings.http_keepalive_timeout,
        "limit_concurrency": settings.http_limit_concurrency,
        "proxy_headers": False,
        "forwarded_allow_ips": "",
        "server_header": False,
    }


def raise_file_limit(wanted: int) -> int:
    """Raise this process's open-file limit towards `wanted` (each connection is a file),
    within the hard limit; returns the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
    return int(soft)
