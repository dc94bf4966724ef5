"""ASGI middleware: request body cap, one structured log line per request, and the JSON
answer to an unexpected failure."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .logging import log_fields
from .responses import send_json

access_log = logging.getLogger("checkers.access")
log = logging.getLogger("checkers.app")


class UnexpectedErrorMiddleware:
    """Answer a failure no handler expected (a bug) as JSON `{"detail", "code"}` with 500,
    inside the security headers, instead of Starlette's bare text answer outside them.

    The failure is logged with its traceback and not shown to the client. If the answer
    had already begun (a stream), the connection is closed instead.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_wrapper(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        except Exception:
            log.exception("unexpected failure of %s %s", scope.get("method"), scope.get("path"))
            if started:
                raise
            await send_json(send, 500, {"detail": "internal error", "code": "internal_error"})


class BodyLimitMiddleware:
    """Refuse request bodies above `max_bytes` with 413 before the app reads them;
    `larger` allows more on the paths it names (a PDN import)."""

    def __init__(
        self, app: ASGIApp, max_bytes: int, larger: Mapping[str, int] | None = None
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.larger = dict(larger or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(scope["path"].rstrip("/") or "/", self.max_bytes)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None:
            try:
                too_big = int(declared) > limit
            except ValueError:
                too_big = True
            if too_big:
                await self._refuse(send, limit)
                return
        body = b""
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before sending its whole body
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > limit:
                await self._refuse(send, limit)
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send, limit: int) -> None:
        detail = f"request body larger than {limit} bytes"
        await send_json(send, 413, {"detail": detail, "code": "too_large"})


class AccessLogMiddleware:
    """One JSON line per request: method, path, status, duration. Headers (and so the
    bearer tokens) are never logged; tokens are never part of a URL."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status: dict[str, Any] = {"code": 500}

        async def send_wrapper(message: Message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        finally:
            log_fields(
                access_log,
                "request",
                method=scope["method"],
                path=scope["path"],
                status=status["code"],
                ms=round((time.perf_counter() - started) * 1000, 1),
            )
