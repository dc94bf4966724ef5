"""Player profiles: an optional identity with passkeys, so that a player's seats, name
and record follow them to every device they sign in on. Playing needs none.

The package owns its tables, routes, pages and rules; the rooms and the pages know of it
only through the seat holder it registers (`app.web.security.SeatHolder`).
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request

from app.core.context import Context
from app.core.errors import ServiceError
from app.i18n.context import current_tag
from app.notify import outbox
from app.web.security import SeatHolder, register_holder

from . import service, sessions


def _signed(request: Request) -> sessions.Signed | None:
    settings = request.app.state.settings
    with request.app.state.database.session() as session:
        return sessions.find(
            session,
            request.cookies.get(sessions.COOKIE),
            request.app.state.clock.now(),
            settings.profile_session_days,
        )


def _find(request: Request, room_id: str) -> str | None:
    signed = _signed(request)
    if signed is None:
        return None
    with request.app.state.database.session() as session:
        return service.held_seat(session, signed.profile_id, room_id)


def _seated(request: Request, room_id: str, token: str) -> None:
    """A seat taken while signed in joins the profile by itself, with its settings."""
    signed = _signed(request)
    if signed is None:
        return
    ctx = Context(request.app.state.clock.now(), request.app.state.settings, language=current_tag())
    with request.app.state.database.session() as session:
        try:
            service.adopt(
                session,
                profile_id=signed.profile_id,
                room_id=room_id,
                token=token,
                base_url=request.app.state.settings.public_url or str(request.base_url),
                ctx=ctx,
            )
        except ServiceError:
            return  # the seat stays this browser's; the player may attach it later


HOLDER = SeatHolder(cookie=sessions.COOKIE, find=_find, seated=_seated)


def install(app: FastAPI) -> None:
    """The profiles' routes and pages (their templates beside the pages' own), and their
    seat holder for the pages."""
    from jinja2 import ChoiceLoader, FileSystemLoader

    from app.web.router import templates

    from .routes import router

    own = str(Path(__file__).parent / "templates")
    loader = templates.env.loader
    if not (isinstance(loader, ChoiceLoader) and own in str(loader.loaders[-1].searchpath)):  # type: ignore[attr-defined]
        assert loader is not None
        templates.env.loader = ChoiceLoader([loader, FileSystemLoader(own)])
    register_holder(HOLDER)
    outbox.register_choices(service.choices_of)
    app.include_router(router)
