"""Browser-facing protections: security headers on every response, the seat cookie and
the cross-site check of state-changing page requests."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from fastapi import Request, Response
from fastapi.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.rooms import errors

SEAT_COOKIE = "seat"
# Browsers cap cookie lifetimes at 400 days; a room lives while it is played.
SEAT_COOKIE_MAX_AGE = 400 * 24 * 3600

# Pages load only their own scripts, styles and images; no inline script, no framing.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
# The API docs (Swagger UI, ReDoc) are served whole from here too; both viewers style
# their elements from script (inline styles) and ReDoc renders in a blob worker.
DOCS_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src 'self' blob:; "
    "base-uri 'none'; frame-ancestors 'none'"
)
DOCS_PATHS = ("/docs", "/redoc")


class SecurityHeadersMiddleware:
    """Adds CSP, `Referrer-Policy: no-referrer` (share and device links never leak to
    other sites) and `X-Content-Type-Options: nosniff` to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        csp = DOCS_CSP if path.startswith(DOCS_PATHS) else CSP

        async def send_wrapper(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                for name, value in (
                    (b"content-security-policy", csp.encode()),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-content-type-options", b"nosniff"),
                    (b"x-frame-options", b"DENY"),
                ):
                    if name not in present:
                        headers.append((name, value))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_wrapper)


class CrossSiteRequest(errors.Forbidden):
    """A page action sent from another site is refused."""

    code = "cross_site_request"


def _origin_of(request: Request) -> str:
    url = request.base_url
    return f"{url.scheme}://{url.netloc}"


async def require_same_origin(request: Request) -> None:
    """Refuse a state-changing page request that another site could have made.

    Browsers send `Sec-Fetch-Site`; older ones at least `Origin` on POST. A request with
    neither comes from no browser page and is refused too: programs use the bearer API.
    """
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        if site in ("same-origin", "none"):
            return
        raise CrossSiteRequest("refused: this request came from another site")
    origin = request.headers.get("origin")
    if origin is None:
        raise CrossSiteRequest(
            "refused: a page request must carry Origin or Sec-Fetch-Site "
            "(programs use the API with a bearer token)"
        )
    allowed = {_origin_of(request)}
    public = request.app.state.settings.public_url
    if public:
        allowed.add(public.rstrip("/"))
    if origin.rstrip("/") not in allowed:
        raise CrossSiteRequest("refused: this request came from another site")


def seat_cookie_path(room_id: str) -> str:
    return f"/r/{room_id}"


def set_seat_cookie(request: Request, response: Response, room_id: str, token: str) -> None:
    """The seat's token in an HttpOnly cookie sent only to this room's page endpoints."""
    public = request.app.state.settings.public_url or ""
    response.set_cookie(
        SEAT_COOKIE,
        token,
        max_age=SEAT_COOKIE_MAX_AGE,
        path=seat_cookie_path(room_id),
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https" or public.startswith("https://"),
    )


@dataclass(frozen=True)
class SeatHolder:
    """Something besides a room's cookie that may hold a page's seat for the person
    acting (a signed-in player profile, registered at start-up by `app.profiles`), so the
    pages know nothing of it.

    `find(request, room_id)`: the credential of the seat it holds in that room, or None;
    asked only when the request carries `cookie`, in the thread pool (it may query).
    `seated(request, room_id, token)`: a seat was just taken in this browser (created,
    joined, moved here), in the thread of the route.
    """

    cookie: str
    find: Callable[[Request, str], str | None]
    seated: Callable[[Request, str, str], None]


_HOLDERS: list[SeatHolder] = []


def register_holder(holder: SeatHolder) -> None:
    """Add a seat holder (once: registering an equal one again changes nothing)."""
    if holder not in _HOLDERS:
        _HOLDERS.append(holder)


async def seat_token(request: Request) -> str | None:
    """The credential of this page's seat: the one a holder keeps for the person (their
    profile's seat in the room), else the token of this room's cookie (the cookie's path
    limits it to one room)."""
    room_id = request.path_params.get("room_id")
    if isinstance(room_id, str):
        for holder in _HOLDERS:
            if request.cookies.get(holder.cookie):
                held = await run_in_threadpool(holder.find, request, room_id)
                if held is not None:
                    return held
    value = request.cookies.get(SEAT_COOKIE)
    return value or None


def seat_taken(request: Request, room_id: str, token: str) -> None:
    """Tell the holders that this browser took a seat."""
    for holder in _HOLDERS:
        if request.cookies.get(holder.cookie):
            holder.seated(request, room_id, token)
