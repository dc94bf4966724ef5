"""The pages (home and room) and the page endpoints that act with the seat cookie.

The page endpoints live under `/r/{room_id}/`, the path the seat cookie is scoped to, so
the browser sends a room's cookie there and nowhere else; page scripts never see a token.
They translate between the page and the same rooms service the bearer API uses, and every
state-changing one first passes the cross-site check.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path as FsPath
from typing import Annotated, Any

import orjson
from fastapi import (
    APIRouter,
    Depends,
    FastAPI,
    Form,
    Header,
    Path,
    Query,
    Request,
    Response,
    status,
)
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.orm import Session

from app.computer import service as computer
from app.computer.review_routes import add_line_review_routes
from app.computer.schemas import ComputerGameIn
from app.core.context import Context
from app.core.deps import BaseUrlDep, ClientDep, ContextDep, DatabaseDep, SessionDep
from app.core.ids import is_id
from app.core.responses import ModelResponse, no_store
from app.i18n import COOKIE as LANGUAGE_COOKIE
from app.i18n import DEFAULT_RULE_SET, LANGUAGES, N_, Translator, page_catalog
from app.i18n.context import current
from app.imports import service as imports
from app.imports.texts import texts_for
from app.imports.view import imported_game_out
from app.notify import subscriptions
from app.notify.routes import add_notify_routes
from app.rooms import errors, service, transfers
from app.rooms.events import MAX_VERSION
from app.rooms.locking import Granted
from app.rooms.private_routes import add_private_routes
from app.rooms.routes import RoomId, add_action_routes
from app.rooms.runtime import RuntimeDep
from app.rooms.schemas import CreateRoomIn, JoinIn
from app.rooms.state import GameState
from app.rooms.streams import events_answer, resume_point
from app.rooms.texts import LEVEL_DIFFICULTY
from app.rooms.view import build_view, rule_set_out
from checkers_engine import RULE_SETS
from checkers_engine.ai import Level

from .assets import ASSET_VERSION, STATIC, asset, module_imports
from .security import (
    SEAT_COOKIE,
    require_same_origin,
    seat_cookie_path,
    seat_taken,
    seat_token,
    set_seat_cookie,
)

HERE = FsPath(__file__).parent


# The colour scheme a visitor chose, kept in the browser: "auto" follows the system's.
THEME_COOKIE = "theme"
THEMES = ("auto", "light", "dark")
# The switch's label says the scheme shown and the one it goes to.
THEME_LABELS = {
    "auto": N_("Colours follow the system: switch to light"),
    "light": N_("Light colours: switch to dark"),
    "dark": N_("Dark colours: switch to follow the system"),
}


def _theme(tr: Translator, chosen: str) -> dict[str, str]:
    """The page's scheme, the one its switch goes to next, and the switch's label."""
    theme = chosen if chosen in THEMES else "auto"
    following = THEMES[(THEMES.index(theme) + 1) % len(THEMES)]
    return {"theme": theme, "theme_next": following, "theme_label": tr._(THEME_LABELS[theme])}


def _language(request: Request) -> dict[str, Any]:
    """What every page needs of its language: the messages (`_`, `ngettext`), the tag
    for `<html lang>`, the picker's languages and the page scripts' catalog; and its
    colour scheme."""
    tr = current()
    path = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return {
        **_theme(tr, request.cookies.get(THEME_COOKIE, "auto")),
        "_": tr._,
        "ngettext": tr.ngettext,
        "lang": tr.tag,
        "languages": LANGUAGES,
        "here": path,
        "messages_url": f"/i18n/{tr.tag}.json?v={ASSET_VERSION}",
    }


templates = Jinja2Templates(directory=str(HERE / "templates"), context_processors=[_language])


templates.env.globals["asset"] = asset
templates.env.globals["module_imports"] = module_imports

router = APIRouter(include_in_schema=False)
SameOrigin = Depends(require_same_origin)
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
    seat_taken(request, granted.room_id, granted.token)
    return no_store(response)


def _created(request: Request, granted: Granted) -> Response:
    url = f"/r/{granted.room_id}"
    return _seated(request, JSONResponse({"room_id": granted.room_id, "url": url}, 201), granted)


def _joined(request: Request, granted: Granted, ctx: Context, base: str) -> Response:
    view = build_view(granted.state, ctx=ctx, base_url=base)
    return _seated(request, ModelResponse(view), granted)


# --- pages ----------------------------------------------------------------------------


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    tr = current()
    return _page(
        templates.TemplateResponse(
            request,
            "home.html",
            {
                "rule_sets": [
                    rule_set_out(r, current().tag).model_dump() for r in RULE_SETS.values()
                ],
                "default_rule_set": DEFAULT_RULE_SET[tr.tag],
                "pdn_texts": texts_for(tr),
                "levels": [
                    {"value": level.value, "title": level.title, "difficulty": tr._(difficulty)}
                    for level in Level
                    for difficulty in [LEVEL_DIFFICULTY[level.value]]
                ],
            },
        )
    )


@router.get("/r/{room_id}", response_class=HTMLResponse)
def room_page(
    request: Request,
    session: SessionDep,
    ctx: ContextDep,
    base: BaseUrlDep,
    token: TokenFromCookie,
    room_id: str,
) -> HTMLResponse:
    # A page link cut or mangled in copying gets the page that says so, not a refusal.
    try:
        if not is_id(room_id):
            raise errors.RoomNotFound("no room with this id")
        state, forget = _seen_here(session, room_id, token, ctx)
    except errors.RoomNotFound:
        return _page(
            templates.TemplateResponse(
                request, "missing.html", {}, status_code=status.HTTP_404_NOT_FOUND
            )
        )
    view = build_view(state, ctx=ctx, base_url=base)
    response = _page(
        templates.TemplateResponse(
            request, "room.html", {"view": view, "view_data": view.model_dump(mode="json")}
        )
    )
    response.headers["Cache-Control"] = "no-store"
    if forget:
        response.delete_cookie(SEAT_COOKIE, path=seat_cookie_path(room_id))
    return response


@router.get("/import", response_class=HTMLResponse)
def import_page(request: Request) -> HTMLResponse:
    return _page(
        templates.TemplateResponse(
            request,
            "import.html",
            {
                "rule_sets": [
                    rule_set_out(r, current().tag).model_dump() for r in RULE_SETS.values()
                ],
                "pdn_texts": texts_for(current()),
            },
        )
    )


@router.get("/imported/{game_id}", response_class=HTMLResponse)
def imported_page(request: Request, session: SessionDep, game_id: str) -> HTMLResponse:
    """The read-only replay of an imported game."""
    try:
        if not is_id(game_id):
            raise imports.ImportedGameNotFound("no imported game with this id")
        game = imports.read_imported(session, game_id=game_id)
    except imports.ImportedGameNotFound:
        tr = current()
        return _notice(
            request,
            tr._("No such game"),
            tr._("This link does not lead to an imported game. Check that it was copied whole."),
            link={"href": "/import", "text": tr._("Import games")},
            status_code=status.HTTP_404_NOT_FOUND,
        )
    view = imported_game_out(game)
    return _page(
        templates.TemplateResponse(
            request,
            "imported.html",
            {
                "view": view,
                "view_data": view.model_dump(mode="json"),
                "pdn_texts": texts_for(current()),
            },
        )
    )


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
    response = ModelResponse(build_view(state, ctx=ctx, base_url=base))
    response.headers["Cache-Control"] = "no-store"
    if forget:
        response.delete_cookie(SEAT_COOKIE, path=seat_cookie_path(room_id))
    return response


@router.post("/r", status_code=status.HTTP_201_CREATED, dependencies=[SameOrigin])
def create_room(
    body: CreateRoomIn, request: Request, session: SessionDep, ctx: ContextDep
) -> Response:
    granted = service.create_room(
        session, rule_set=body.rule_set, name=body.name, first_fen=body.fen, ctx=ctx
    )
    return _created(request, granted)


@router.post("/computer", status_code=status.HTTP_201_CREATED, dependencies=[SameOrigin])
def play_computer(
    body: ComputerGameIn,
    request: Request,
    session: SessionDep,
    ctx: ContextDep,
) -> Response:
    granted = computer.create_computer_game(
        session, rule_set=body.rule_set, level=body.level, name=body.name, fen=body.fen, ctx=ctx
    )
    return _created(request, granted)


@router.post("/r/{room_id}/join", dependencies=[SameOrigin])
def join_room(
    request: Request,
    session: SessionDep,
    ctx: ContextDep,
    base: BaseUrlDep,
    body: JoinIn | None = None,
    room_id: str = RoomId,
) -> Response:
    name = body.name if body else None
    granted = service.join_room(session, room_id=room_id, name=name, ctx=ctx)
    return _joined(request, granted, ctx, base)


for add_routes in (
    add_action_routes,
    add_private_routes,
    add_notify_routes,
    add_line_review_routes,
):
    add_routes(
        router,
        room_path="/r/{room_id}",
        token_from=seat_token,
        dependencies=[SameOrigin],
        include_in_schema=False,
    )


@router.get("/r/{room_id}/events", include_in_schema=False)
async def room_events(
    request: Request,
    token: TokenFromCookie,
    database: DatabaseDep,
    runtime: RuntimeDep,
    ctx: ContextDep,
    client: ClientDep,
    room_id: str = RoomId,
    after: int = Query(default=0, ge=0, le=MAX_VERSION),
    limit: int = Query(default=100, ge=1, le=500),
    last_event_id: str = Header(default="", max_length=32),
) -> Any:
    """The room's record, or its live stream, as this browser's seat sees it (the chat
    included): the page's EventSource sends the seat's cookie here. A cookie whose seat
    has moved to another device watches as a spectator."""

    async def answer(holder: str | None) -> Any:
        return await events_answer(
            request,
            token=holder,
            database=database,
            runtime=runtime,
            ctx=ctx,
            client=client,
            room_id=room_id,
            after=resume_point(after, last_event_id),
            limit=limit,
        )

    try:
        return await answer(token)
    except errors.WrongToken:
        return await answer(None)


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


# --- mail links and the service worker --------------------------------------------------


def _page(response: HTMLResponse) -> HTMLResponse:
    """A page says its language, and that it depends on the picker's cookie and on
    Accept-Language."""
    response.headers["Content-Language"] = current().tag
    response.headers["Vary"] = "Accept-Language, Cookie"
    return response


def _notice(request: Request, title: str, text: str, **extra: Any) -> HTMLResponse:
    status_code = extra.pop("status_code", status.HTTP_200_OK)
    return _page(
        templates.TemplateResponse(
            request,
            "notice.html",
            {"title": title, "text": text, **extra},
            status_code=status_code,
        )
    )


def _link_refused(request: Request, exc: subscriptions.LinkInvalid) -> HTMLResponse:
    tr = current()
    text = tr._(exc.message)
    return _notice(
        request,
        tr._("This link does not work"),
        text[:1].upper() + text[1:] + ".",
        status_code=403,
    )


@router.get("/mail/confirm", response_class=HTMLResponse)
def mail_confirm_page(request: Request, t: str = Query(max_length=100)) -> HTMLResponse:
    """A page with a button, so that a mail scanner following the link confirms nothing."""
    tr = current()
    return _notice(
        request,
        tr._("Confirm your address"),
        tr._("Confirm that this address may receive the notifications of your game."),
        form={"action": "/mail/confirm", "fields": {"t": t}, "button": tr._("Confirm")},
    )


@router.post("/mail/confirm", response_class=HTMLResponse, dependencies=[SameOrigin])
def mail_confirm(
    request: Request, session: SessionDep, ctx: ContextDep, t: str = Form(max_length=100)
) -> HTMLResponse:
    try:
        room_id = subscriptions.confirm_email(session, secret=t, ctx=ctx)
    except subscriptions.LinkInvalid as exc:
        return _link_refused(request, exc)
    tr = current()
    return _notice(
        request,
        tr._("Address confirmed"),
        tr._("You will get a mail when your game needs you."),
        link={"href": f"/r/{room_id}", "text": tr._("Back to the game")},
    )


@router.get("/mail/unsubscribe", response_class=HTMLResponse)
def mail_unsubscribe_page(
    request: Request, e: int = Query(ge=1, le=2**62), t: str = Query(max_length=100)
) -> HTMLResponse:
    tr = current()
    return _notice(
        request,
        tr._("Stop these mails"),
        tr._("Stop all mails about this game to this address?"),
        form={
            "action": f"/mail/unsubscribe?e={e}&t={t}",
            "fields": {},
            "button": tr._("Stop mails"),
        },
    )


@router.post("/mail/unsubscribe", response_class=HTMLResponse)
def mail_unsubscribe(
    request: Request,
    session: SessionDep,
    ctx: ContextDep,
    e: int = Query(ge=1, le=2**62),
    t: str = Query(max_length=100),
) -> HTMLResponse:
    """The one-click unsubscribe of RFC 8058: mail programs post here themselves (from no
    page of this site, so no same-origin check); the signed link is the authority."""
    try:
        subscriptions.unsubscribe(session, email_id=e, signature=t, ctx=ctx)
    except subscriptions.LinkInvalid as exc:
        return _link_refused(request, exc)
    tr = current()
    return _notice(
        request, tr._("Unsubscribed"), tr._("No more mails will be sent to this address.")
    )


# --- languages --------------------------------------------------------------------------


@router.get("/i18n/{tag}.json")
def page_messages(tag: str = Path(max_length=8)) -> Response:
    """The page scripts' messages in one language (the same catalog as the pages')."""
    if tag not in LANGUAGES:
        return JSONResponse({"detail": "unknown language", "code": "not_found"}, 404)
    response = Response(
        orjson.dumps(page_catalog(tag)), media_type="application/json; charset=utf-8"
    )
    # The URL carries the assets' version (the catalogs ship with them).
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response


@router.post("/lang", dependencies=[SameOrigin])
def choose_language(
    lang: str = Form(max_length=8), back: str = Form(default="/", max_length=2000)
) -> Response:
    """The picker: keep the chosen language in a cookie (a year) and go back to the page
    it was chosen on (a path of this site only); a seat's own cookie is untouched."""
    return _kept(LANGUAGE_COOKIE, lang if lang in LANGUAGES else None, back)


@router.post("/theme", dependencies=[SameOrigin])
def choose_theme(
    theme: str = Form(max_length=8), back: str = Form(default="/", max_length=2000)
) -> Response:
    """The colour switch: keep the chosen scheme in a cookie (a year) and go back to the
    page it was chosen on."""
    return _kept(THEME_COOKIE, theme if theme in THEMES else None, back)


def _kept(cookie: str, value: str | None, back: str) -> Response:
    """Back to `back` (a path of this site only, else home), keeping `value` in `cookie`
    for a year when it is one the site knows."""
    if not back.startswith("/") or back.startswith("//") or "\\" in back:
        back = "/"
    response = RedirectResponse(back, status_code=status.HTTP_303_SEE_OTHER)
    if value is not None:
        response.set_cookie(cookie, value, max_age=365 * 86400, path="/", samesite="lax")
    return response


class _Static(StaticFiles):
    """Static files revalidated on each use (ETag, 304): modules import each other by
    plain relative URLs, so no URL carries a version to make them immutable."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "no-cache"
        return response


def mount_static(app: FastAPI) -> None:
    app.mount("/static", _Static(directory=str(STATIC)), name="static")
