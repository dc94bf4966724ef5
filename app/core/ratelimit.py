"""Per-client rate limits on every action a client could flood: creating rooms, joining,
moving, claiming forfeits, the other seat actions (draw, resign, rematch, more time),
chat messages, a seat's
settings (its name, push, mail, conditional moves), asking for a confirmation mail, device
links, reviews, importing PDN (API and page routes alike), and the profiles' passkey
ceremonies and sign-in links. Of reads, only those of an imported game are limited: each
replays the whole game.

Counting uses the `limits` library (moving windows) with the storage of
`RATE_LIMIT_STORAGE`: in memory per process by default, or Redis to share the counts
between instances. A client is its validated address (`app.core.proxies`: the peer, or
what a proxy of `TRUSTED_PROXIES` forwarded for), an IPv6 address counted by its /64.
Over the limit: 429 with `Retry-After` in seconds, before the request reaches the app,
so nothing changes.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass

from limits import RateLimitItem, parse
from limits.aio.storage import Storage as AsyncStorage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import Storage, storage_from_string
from starlette.types import ASGIApp, Receive, Scope, Send

from .proxies import client_key
from .responses import send_json
from .settings import Settings

_ROOM = r"/[^/]+"
# A game's number, or the route template's placeholder for it (the OpenAPI document asks
# `is_limited` about templates).
_NUMBER = r"/(?:[0-9]+|\{number\})"


@dataclass(frozen=True)
class Rule:
    """Requests whose method and path match `pattern` share the `bucket` limit."""

    bucket: str
    method: str
    pattern: re.Pattern[str]


def _rule(bucket: str, path: str) -> Rule:
    return Rule(bucket, "POST", re.compile(f"^{path}/?$"))


def _reads(bucket: str, path: str) -> tuple[Rule, ...]:
    return tuple(Rule(bucket, method, re.compile(f"^{path}/?$")) for method in ("GET", "HEAD"))


RULES = (
    _rule("create", "/api/rooms"),
    _rule("create", "/api/computer-games"),
    _rule("create", "/r"),
    _rule("create", "/computer"),
    _rule("join", f"/api/rooms{_ROOM}/join"),
    _rule("join", f"/r{_ROOM}/join"),
    _rule("moves", f"/api/rooms{_ROOM}/moves"),
    _rule("moves", f"/r{_ROOM}/moves"),
    _rule("claims", f"/api/rooms{_ROOM}/claim-forfeit"),
    _rule("claims", f"/r{_ROOM}/claim-forfeit"),
    _rule("imports", "/api/imports"),
    *(
        _rule("actions", f"{prefix}{_ROOM}/{action}")
        for prefix in ("/api/rooms", "/r")
        for action in ("draw", "resign", "rematch", "more-time")
    ),
    *(
        _rule("seat", f"{prefix}{_ROOM}/{setting}")
        for prefix in ("/api/rooms", "/r")
        for setting in (
            "name",
            "push",
            "push/off",
            "conditional",
            "conditional/clear",
            "email/off",
            "chat/switch",
        )
    ),
    *(
        _rule("seat", f"{prefix}{_ROOM}/games{_NUMBER}/{own}")
        for prefix in ("/api/rooms", "/r")
        for own in (
            "notes",
            "analysis",
            r"analysis/(?:[0-9]+|\{line_id\})(?:/forget|/conditional)?",
        )
    ),
    _rule("chat", f"/api/rooms{_ROOM}/chat"),
    _rule("chat", f"/r{_ROOM}/chat"),
    _rule("seat", f"/r{_ROOM}/attach"),  # a seat attached to a profile
    _rule("mail", f"/api/rooms{_ROOM}/email"),
    _rule("mail", f"/r{_ROOM}/email"),
    _rule("links", f"/r{_ROOM}/device-link"),
    _rule("links", f"/r{_ROOM}/continue"),
    _rule("reviews", f"/api/rooms{_ROOM}/games{_NUMBER}/review"),
    _rule("reviews", f"/api/imported-games{_ROOM}/review"),
    *(
        _rule(
            "reviews", f"{prefix}{_ROOM}/games{_NUMBER}/analysis/(?:[0-9]+|\\{{line_id\\}})/review"
        )
        for prefix in ("/api/rooms", "/r")
    ),
    *(
        _rule("profiles", f"/profile/{step}")
        for step in (
            "register/options",
            "register",
            "sign-in/options",
            "sign-in",
            "passkeys/options",
            "passkeys",
            "link",
            "link/redeem",
        )
    ),
    # An imported game is replayed for every read (its JSON, its PDN, its page).
    *_reads("imported_reads", f"/api/imported-games{_ROOM}"),
    *_reads("imported_reads", f"/imported{_ROOM}"),
)


def limits_of(settings: Settings) -> dict[str, RateLimitItem]:
    """Each bucket's limit, parsed from its setting (e.g. `120/minute`)."""
    return {
        "create": parse(settings.rate_limit_create),
        "join": parse(settings.rate_limit_join),
        "moves": parse(settings.rate_limit_moves),
        "claims": parse(settings.rate_limit_claims),
        "imports": parse(settings.rate_limit_imports),
        "actions": parse(settings.rate_limit_actions),
        "links": parse(settings.rate_limit_links),
        "seat": parse(settings.rate_limit_seat),
        "mail": parse(settings.rate_limit_mail),
        "chat": parse(settings.rate_limit_chat),
        "reviews": parse(settings.rate_limit_reviews),
        "imported_reads": parse(settings.rate_limit_imported_reads),
        "profiles": parse(settings.rate_limit_profiles),
    }


def bucket_of(method: str, path: str) -> str | None:
    for rule in RULES:
        if method == rule.method and rule.pattern.match(path):
            return rule.bucket
    return None


def is_limited(method: str, path: str) -> bool:
    """Whether requests to `path` (a route template works too) are rate-limited."""
    return bucket_of(method, path) is not None


def storage_of(uri: str) -> Storage | AsyncStorage:
    """The counts' storage for a `limits` URI; Redis through redis-py (`redis.asyncio`),
    the client the service installs, rather than `limits`' default, coredis."""
    options = {"implementation": "redispy"} if uri.startswith("async+redis") else {}
    return storage_from_string(uri, **options)


class RateLimitMiddleware:
    """Refuse a client's request with 429 once its bucket's limit is spent."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.items = limits_of(settings)
        self.limiter = MovingWindowRateLimiter(storage_of(settings.rate_limit_storage))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        bucket = bucket_of(scope.get("method", ""), scope.get("path", ""))
        if scope["type"] != "http" or bucket is None:
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        who = client_key(client[0] if client else "unknown")
        item = self.items[bucket]
        if await self.limiter.hit(item, bucket, who):
            await self.app(scope, receive, send)
            return
        stats = await self.limiter.get_window_stats(item, bucket, who)
        retry_after = max(1, math.ceil(stats.reset_time - time.time()))
        await _refuse(send, bucket, item, retry_after)


async def _refuse(send: Send, bucket: str, item: RateLimitItem, retry_after: int) -> None:
    body = {
        "detail": f"too many requests ({bucket}): at most {item}; retry in {retry_after} s",
        "code": "rate_limited",
        "retry_after": retry_after,
    }
    await send_json(send, 429, body, [(b"retry-after", str(retry_after).encode())])
