"""The pages (home and room) and the page endpoints that act with the seat cookie.

The page endpoints live under `/r/{room_id}/`, the path the seat cookie is scoped to, so
the browser sends a room's cookie there and nowhere else; page scripts never see a token.
They translate between the page and the same rooms service the bearer API uses, and every
state-changing one first passes the cross-site check.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path as FsPath
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Depends, FastAPI, Path, Request, Response, status
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.orm import Session

from app.core.clock import Clock
from app.core.deps import BaseUrlDep, ClockDep, SessionDep, SettingsDep
from app.core.responses import ModelResponse
from app.core.settings import Settings
from app.engine import RULE_SETS
from app.rooms import errors, service, transfers
from app.rooms.router import answer_action
from app.rooms.schemas import ActionIn, CreateRoomIn, MoveIn, RoomView
from app.rooms.view import mover_view, read_room, rule_set_out

from .security import (
    SEAT_COOKIE,
    require_same_origin,
    seat_cookie_path,
    seat_token,
    set_seat_cookie,
)

HERE = FsPath(__file__).parent
STATIC = HERE / "static"
templates = Jinja2Templates(directory=str(HERE / "templates"))

COMPUTER_GAMES_PATH = "/api/computer-games"
COMPUTER_LEVELS = (
    ("tamer", "Tamer", "very easy"),
    ("driver", "Driver", "easy"),
    ("warden", "Warden", "medium"),
    ("executive", "Executive", "hard"),
)

T = TypeVar("T")


def _asset_version() -> str:
    """A digest of the static files: changes whenever one does (cache busting)."""
    digest = hashlib.sha256()
    for path in sorted(STATIC.rglob("*")):
        if path.is_file():
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


ASSET_VERSION = _asset_version()
templates.env.globals["asset"] = lambda name: f"/static/{name}?v={ASSET_VERSION}"

router = APIRouter(include_in_schema=False)
SameOrigin = Depends(require_same_origin)
RoomId = Path(min_length=1, max_length=64)
TokenFromCookie = Annotated[str | None, Depends(seat_token)]


class ContinueIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    secret: str = Field(min_length=20, max_length=100)


class ComputerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    level: Literal["tamer", "driver", "warden", "executive"]
    rule_set: str = Field(default="english", max_length=32)


class DeviceLinkOut(BaseModel):
    url: str
    expires_at: datetime


def computer_games_available(app: FastAPI) -> bool:
    """Whether the service offers games against the computer (a separate feature), as
    its OpenAPI document says (built once per app, then cached by FastAPI)."""
    paths = app.openapi().get("paths", {})
    return "post" in paths.get(COMPUTER_GAMES_PATH, {})


def _room_view(
    session: Session,
    room_id: str,
    token: str | None,
    clock: Clock,
    settings: Settings,
    base: str,
) -> tuple[RoomView, bool]:
    """The view for this browser; a cookie whose seat has moved elsewhere (or a stale
    one) makes it a spectator, and the second value says to forget that cookie."""
    try:
        return read_room(
            session,
            room_id=room_id,
            token=token,
            now=clock.now(),
            settings=settings,
            base_url=base,
        ), False
    except errors.WrongToken:
        return read_room(
            session,
            room_id=room_id,
            token=None,
            now=clock.now(),
            settings=settings,
            base_url=base,
        ), True


# --- pages ----------------------------------------------------------------------------


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(
        request,
        "home.html",
        {
            "rule_sets": [rule_set_out(r).model_dump() for r in RULE_SETS.values()],
            "computer": computer_games_available(request.app),
            "levels": COMPUTER_LEVELS,
        },
    )


@router.get("/r/{room_id}", response_class=HTMLResponse)
def room_page(
    request: Request,
    session: SessionDep,
    clock: ClockDep,
    settings: SettingsDep,
    base: BaseUrlDep,
    token: TokenFromCookie,
    room_id: str = RoomId,
) -> HTMLResponse:
    try:
        view, forget = _room_view(session, room_id, token, clock, settings, base)
    except errors.RoomNotFound:
        return templates.TemplateResponse(
            request, "missing.html", {}, status_code=status.HTTP_404_NOT_FOUND
        )
    response = templates.TemplateResponse(
        request,
        "room.html",
        {
            "view": view,
            "view_data": view.model_dump(mode="json"),
        },
    )
    response.headers["Cache-Control"] = "no-store"
    if forget:
        response.delete_cookie(SEAT_COOKIE, path=seat_cookie_path(room_id))
    return response


# --- page endpoints (seat cookie) -----------------------------------------------------


@router.get("/r/{room_id}/state")
def room_state(
    session: SessionDep,
    clock: ClockDep,
    settings: SettingsDep,
    base: BaseUrlDep,
    token: TokenFromCookie,
    room_id: str = RoomId,
) -> Response:
    view, forget = _room_view(session, room_id, token, clock, settings, base)
    response = ModelResponse(view)
    response.headers["Cache-Control"] = "no-store"
    if forget:
        response.delete_cookie(SEAT_COOKIE, path=seat_cookie_path(room_id))
    return response


@router.post("/r", status_code=status.HTTP_201_CREATED, dependencies=[SameOrigin])
def create_room(
    body: CreateRoomIn,
    request: Request,
    session: SessionDep,
    clock: ClockDep,
    settings: SettingsDep,
) -> Response:
    granted = service.create_room(
        session, rule_set=body.rule_set, now=clock.now(), settings=settings
    )
    response = JSONResponse({"room_id": granted.room_id, "url": f"/r/{granted.room_id}"}, 201)
    set_seat_cookie(request, response, granted.room_id, granted.token)
    return response


@router.post("/r/{room_id}/join", dependencies=[SameOrigin])
def join_room(
    request: Request,
    session: SessionDep,
    clock: ClockDep,
    settings: SettingsDep,
    base: BaseUrlDep,
    room_id: str = RoomId,
) -> Response:
    granted = service.join_room(session, room_id=room_id, now=clock.now(), settings=settings)
    view = read_room(
        session,
        room_id=room_id,
        token=granted.token,
        now=clock.now(),
        settings=settings,
        base_url=base,
    )
    response = ModelResponse(view)
    set_seat_cookie(request, response, room_id, granted.token)
    return response


def _act(
    request: Request,
    session: Session,
    room_id: str,
    token: str | None,
    clock: Clock,
    settings: Settings,
    base: str,
    do: Callable[..., Any],
    **kwargs: Any,
) -> Response:
    do(session, room_id=room_id, token=token, now=clock.now(), settings=settings, **kwargs)
    view = read_room(
        session,
        room_id=room_id,
        token=token,
        now=clock.now(),
        settings=settings,
        base_url=base,
    )
    return answer_action(request, view)


@router.post("/r/{room_id}/moves", dependencies=[SameOrigin])
def play_move(
    request: Request,
    body: MoveIn,
    session: SessionDep,
    clock: ClockDep,
    settings: SettingsDep,
    base: BaseUrlDep,
    token: TokenFromCookie,
    room_id: str = RoomId,
) -> Response:
    view = service.play_move(
        session,
        room_id=room_id,
        token=token,
        text=body.move.strip(),
        expected_ply=body.expected_ply,
        now=clock.now(),
        settings=settings,
        answer=mover_view(settings=settings, base_url=base),
    )
    assert view is not None  # `answer` was given
    return answer_action(request, view)


@router.post("/r/{room_id}/draw", dependencies=[SameOrigin])
def draw(
    request: Request,
    body: ActionIn,
    session: SessionDep,
    clock: ClockDep,
    settings: SettingsDep,
    base: BaseUrlDep,
    token: TokenFromCookie,
    room_id: str = RoomId,
) -> Response:
    return _act(
        request,
        session,
        room_id,
        token,
        clock,
        settings,
        base,
        service.draw_action,
        action=body.action,
    )


@router.post("/r/{room_id}/rematch", dependencies=[SameOrigin])
def rematch(
    request: Request,
    body: ActionIn,
    session: SessionDep,
    clock: ClockDep,
    settings: SettingsDep,
    base: BaseUrlDep,
    token: TokenFromCookie,
    room_id: str = RoomId,
) -> Response:
    return _act(
        request,
        session,
        room_id,
        token,
        clock,
        settings,
        base,
        service.rematch_action,
        action=body.action,
    )


@router.post("/r/{room_id}/resign", dependencies=[SameOrigin])
def resign(
    request: Request,
    session: SessionDep,
    clock: ClockDep,
    settings: SettingsDep,
    base: BaseUrlDep,
    token: TokenFromCookie,
    room_id: str = RoomId,
) -> Response:
    return _act(request, session, room_id, token, clock, settings, base, service.resign)


@router.post("/r/{room_id}/claim-forfeit", dependencies=[SameOrigin])
def claim_forfeit(
    request: Request,
    session: SessionDep,
    clock: ClockDep,
    settings: SettingsDep,
    base: BaseUrlDep,
    token: TokenFromCookie,
    room_id: str = RoomId,
) -> Response:
    return _act(request, session, room_id, token, clock, settings, base, service.claim_forfeit)


@router.post("/r/{room_id}/device-link", dependencies=[SameOrigin])
def device_link(
    session: SessionDep,
    clock: ClockDep,
    base: BaseUrlDep,
    token: TokenFromCookie,
    room_id: str = RoomId,
) -> DeviceLinkOut:
    """A private one-time link that moves this seat to another browser. The secret rides
    in the URL fragment, which browsers never send to a server or in a Referer."""
    secret, expires = transfers.create_transfer(
        session, room_id=room_id, token=token, now=clock.now()
    )
    return DeviceLinkOut(
        url=f"{base.rstrip('/')}/r/{room_id}#continue={secret}", expires_at=expires
    )


@router.post("/r/{room_id}/continue", dependencies=[SameOrigin])
def continue_here(
    body: ContinueIn,
    request: Request,
    session: SessionDep,
    clock: ClockDep,
    settings: SettingsDep,
    base: BaseUrlDep,
    room_id: str = RoomId,
) -> Response:
    granted = transfers.redeem_transfer(
        session, room_id=room_id, secret=body.secret, now=clock.now()
    )
    view = read_room(
        session,
        room_id=room_id,
        token=granted.token,
        now=clock.now(),
        settings=settings,
        base_url=base,
    )
    response = ModelResponse(view)
    set_seat_cookie(request, response, room_id, granted.token)
    return response


@router.post("/computer", status_code=status.HTTP_201_CREATED, dependencies=[SameOrigin])
async def play_computer(body: ComputerIn, request: Request) -> Response:
    """Start a game against the computer through the API's own route, keeping the seat
    token it returns in the room's cookie (never handing it to the page)."""
    if not computer_games_available(request.app):
        raise errors.Conflict("games against the computer are not available yet")
    status_code, answer = await _internal_post(request, COMPUTER_GAMES_PATH, body.model_dump())
    if status_code >= 400 or not isinstance(answer, dict):
        return JSONResponse(answer, status_code=status_code)
    room_id, token = answer.get("room_id"), answer.get("token")
    if not isinstance(room_id, str) or not isinstance(token, str):
        raise errors.Conflict("the computer game could not be started")
    response = JSONResponse({"room_id": room_id, "url": f"/r/{room_id}"}, 201)
    set_seat_cookie(request, response, room_id, token)
    return response


async def _internal_post(request: Request, path: str, payload: dict[str, Any]) -> tuple[int, Any]:
    """POST `payload` as JSON to this app's own `path`, in process."""
    body = json.dumps(payload).encode()
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": request.url.scheme,
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [
            (b"host", request.headers.get("host", "localhost").encode()),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ],
        "client": request.scope.get("client"),
        "server": request.scope.get("server"),
        "app": request.app,
        "state": dict(request.scope.get("state") or {}),
    }
    sent = False
    chunks: list[bytes] = []
    result = {"status": 500}

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            result["status"] = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await request.app(scope, receive, send)
    raw = b"".join(chunks)
    try:
        return result["status"], json.loads(raw) if raw else None
    except ValueError:
        return result["status"], {"detail": raw.decode(errors="replace"), "code": "error"}


class _Static(StaticFiles):
    """Static files revalidated on each use (ETag, 304): modules import each other by
    plain relative URLs, so no URL carries a version to make them immutable."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "no-cache"
        return response


def mount_static(app: FastAPI) -> None:
    app.mount("/static", _Static(directory=str(STATIC)), name="static")
