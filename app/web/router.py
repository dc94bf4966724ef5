"""The pages (home and room) and the page endpoints that act with the seat cookie.

The page endpoints live under `/r/{room_id}/`, the path the seat cookie is scoped to, so
the browser sends a room's cookie there and nowhere else; page scripts never see a token.
They translate between the page and the same rooms service the bearer API uses, and every
state-changing one first passes the cross-site check.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from pathlib import Path as FsPath
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Path, Request, Response, status
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.orm import Session

from app.ai import Level
from app.computer import service as computer
from app.computer.router import ComputerGameIn
from app.core.context import Context
from app.core.deps import BaseUrlDep, ContextDep, SessionDep
from app.core.responses import ModelResponse, no_store
from app.engine import RULE_SETS
from app.rooms import errors, service, transfers
from app.rooms.router import add_action_routes
from app.rooms.schemas import CreateRoomIn
from app.rooms.service import Granted
from app.rooms.state import GameState
from app.rooms.view import build_view, rule_set_out

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


class DeviceLinkOut(BaseModel):
    url: str
    expires_at: datetime


def _seen_here(
    session: Session, room_id: str, token: str | None, ctx: Context
) -> tuple[GameState, bool]:
    """The room for this browser; a cookie whose seat has moved elsewhere (or a stale
    one) makes it a spectator, and the second value says to forget that cookie."""
    try:
        return service.read_room(session, room_id=room_id, token=token, ctx=ctx), False
    except errors.WrongToken:
        return service.read_room(session, room_id=room_id, token=None, ctx=ctx), True


def _seated(request: Request, response: Response, granted: Granted) -> Response:
    """`response` with the granted seat's token kept in the room's cookie (never handed to
    the page)."""
    set_seat_cookie(request, response, granted.room_id, granted.token)
    return no_store(response)


def _created(request: Request, granted: Granted) -> Response:
    url = f"/r/{granted.room_id}"
    return _seated(request, JSONResponse({"room_id": granted.room_id, "url": url}, 201), granted)


def _joined(request: Request, granted: Granted, ctx: Context, base: str) -> Response:
    view = build_view(granted.state, settings=ctx.settings, base_url=base)
    return _seated(request, ModelResponse(view), granted)


# --- pages ----------------------------------------------------------------------------


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(
        request,
        "home.html",
        {
            "rule_sets": [rule_set_out(r).model_dump() for r in RULE_SETS.values()],
            "levels": list(Level),
        },
    )


@router.get("/r/{room_id}", response_class=HTMLResponse)
def room_page(
    request: Request,
    session: SessionDep,
    ctx: ContextDep,
    base: BaseUrlDep,
    token: TokenFromCookie,
    room_id: str = RoomId,
) -> HTMLResponse:
    try:
        state, forget = _seen_here(session, room_id, token, ctx)
    except errors.RoomNotFound:
        return templates.TemplateResponse(
            request, "missing.html", {}, status_code=status.HTTP_404_NOT_FOUND
        )
    view = build_view(state, settings=ctx.settings, base_url=base)
    response = templates.TemplateResponse(
        request, "room.html", {"view": view, "view_data": view.model_dump(mode="json")}
    )
    response.headers["Cache-Control"] = "no-store"
    if forget:
        response.delete_cookie(SEAT_COOKIE, path=seat_cookie_path(room_id))
    return response


# --- page endpoints (seat cookie) -----------------------------------------------------


@router.get("/r/{room_id}/state")
def room_state(
    session: SessionDep,
    ctx: ContextDep,
    base: BaseUrlDep,
    token: TokenFromCookie,
    room_id: str = RoomId,
) -> Response:
    state, forget = _seen_here(session, room_id, token, ctx)
    response = ModelResponse(build_view(state, settings=ctx.settings, base_url=base))
    response.headers["Cache-Control"] = "no-store"
    if forget:
        response.delete_cookie(SEAT_COOKIE, path=seat_cookie_path(room_id))
    return response


@router.post("/r", status_code=status.HTTP_201_CREATED, dependencies=[SameOrigin])
def create_room(
    body: CreateRoomIn, request: Request, session: SessionDep, ctx: ContextDep
) -> Response:
    return _created(request, service.create_room(session, rule_set=body.rule_set, ctx=ctx))


@router.post("/computer", status_code=status.HTTP_201_CREATED, dependencies=[SameOrigin])
def play_computer(
    body: ComputerGameIn, request: Request, session: SessionDep, ctx: ContextDep
) -> Response:
    granted = computer.create_computer_game(
        session, rule_set=body.rule_set, level=body.level, ctx=ctx
    )
    return _created(request, granted)


@router.post("/r/{room_id}/join", dependencies=[SameOrigin])
def join_room(
    request: Request,
    session: SessionDep,
    ctx: ContextDep,
    base: BaseUrlDep,
    room_id: str = RoomId,
) -> Response:
    return _joined(request, service.join_room(session, room_id=room_id, ctx=ctx), ctx, base)


add_action_routes(
    router,
    room_path="/r/{room_id}",
    token_from=seat_token,
    dependencies=[SameOrigin],
    include_in_schema=False,
)


@router.post("/r/{room_id}/device-link", dependencies=[SameOrigin], response_model=DeviceLinkOut)
def device_link(
    session: SessionDep,
    ctx: ContextDep,
    base: BaseUrlDep,
    token: TokenFromCookie,
    room_id: str = RoomId,
) -> Response:
    """A private one-time link that moves this seat to another browser. The secret rides
    in the URL fragment, which browsers never send to a server or in a Referer."""
    secret, expires = transfers.create_transfer(session, room_id=room_id, token=token, ctx=ctx)
    link = DeviceLinkOut(
        url=f"{base.rstrip('/')}/r/{room_id}#continue={secret}", expires_at=expires
    )
    return no_store(ModelResponse(link))


@router.post("/r/{room_id}/continue", dependencies=[SameOrigin])
def continue_here(
    body: ContinueIn,
    request: Request,
    session: SessionDep,
    ctx: ContextDep,
    base: BaseUrlDep,
    room_id: str = RoomId,
) -> Response:
    granted = transfers.redeem_transfer(session, room_id=room_id, secret=body.secret, ctx=ctx)
    return _joined(request, granted, ctx, base)


class _Static(StaticFiles):
    """Static files revalidated on each use (ETag, 304): modules import each other by
    plain relative URLs, so no URL carries a version to make them immutable."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "no-cache"
        return response


def mount_static(app: FastAPI) -> None:
    app.mount("/static", _Static(directory=str(STATIC)), name="static")
