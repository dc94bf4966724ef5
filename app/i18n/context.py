"""The language of the request being served, for the texts a view builds for people.

A pure ASGI middleware reads it once per request (the picker's cookie, else
Accept-Language) and every text built while serving it (results, rule-set descriptions)
is in that language; work done outside a request (notifications) names its language
explicitly. The API's `detail` texts stay English whatever this says.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from http.cookies import CookieError, SimpleCookie
from typing import Any

from . import COOKIE, DEFAULT, Translator, negotiate, translator

_current: ContextVar[str] = ContextVar("language", default=DEFAULT)


def current_tag() -> str:
    return _current.get()


def current() -> Translator:
    return translator(_current.get())


@contextmanager
def using(tag: str) -> Iterator[Translator]:
    token = _current.set(tag)
    try:
        yield translator(tag)
    finally:
        _current.reset(token)


def request_language(headers: list[tuple[bytes, bytes]]) -> str:
    """The language an ASGI request's headers ask for."""
    cookie_value: str | None = None
    accept: str | None = None
    for name, value in headers:
        if name == b"cookie":
            try:
                jar = SimpleCookie(value.decode("latin-1"))
            except CookieError:
                continue
            if COOKIE in jar:
                cookie_value = jar[COOKIE].value
        elif name == b"accept-language":
            accept = value.decode("latin-1")
    return negotiate(cookie_value, accept)


class LanguageMiddleware:
    """Serve each HTTP request in the language it asks for."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        token = _current.set(request_language(scope["headers"]))
        try:
            await self.app(scope, receive, send)
        finally:
            _current.reset(token)
