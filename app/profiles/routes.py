"""The profile's page and its endpoints.

Every endpoint acts with the profile's session cookie (HttpOnly, SameSite=Lax) or begins
a session; every one that changes anything first passes the cross-site check
(`app.web.security.require_same_origin`). The passkey ceremonies and the links are
limited per client (`RATE_LIMIT_PROFILES`) and per profile.
"""

from __future__ import annotations

from typing import Annotated, Any

import orjson
from fastapi import APIRouter, BackgroundTasks, Depends, Path, Request, Response, status
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse
from fastapi.security import APIKeyCookie
from sqlalchemy.orm import Session

from app.core.context import Context
from app.core.db import Database
from app.core.deps import BaseUrlDep, ContextDep, SessionDep
from app.core.errors import NotFound, Unauthenticated
from app.core.ids import is_id
from app.core.openapi import refusals
from app.core.responses import ModelResponse, PdnResponse, no_store
from app.i18n.context import current
from app.rooms import errors as room_errors
from app.rooms.routes import RoomId
from app.rooms.view import rule_set_out
from app.web.router import templates
from app.web.security import SEAT_COOKIE, require_same_origin
from checkers_engine import RULE_SETS

from . import leaving, links, passkeys, record, service, sessions
from .schemas import (
    AddressIn,
    CeremonyOut,
    CredentialIn,
    DeleteIn,
    DeviceOut,
    GamesOut,
    LinkIn,
    NotifyIn,
    PasskeyNameIn,
    PasskeyOut,
    ProfileNameIn,
    ProfileOut,
    PublicIn,
    RecordOut,
    SentOut,
    TallyOut,
)

router = APIRouter(tags=["profiles"])
SameOrigin = Depends(require_same_origin)
_cookie = APIKeyCookie(
    name=sessions.COOKIE,
    auto_error=False,
    description="A signed-in device's session (set by signing in with a passkey or a link).",
)


class NotSignedIn(Unauthenticated):
    """The request needs a signed-in device (the profile's session cookie)."""

    code = "not_signed_in"


class NoSuchEntry(NotFound):
    """The profile has no passkey or device of that id."""

    code = "no_such_entry"


def _find(database: Database, secret: str | None, request: Request) -> sessions.Signed | None:
    settings = request.app.state.settings
    with database.session() as session:
        return sessions.find(
            session, secret, request.app.state.clock.now(), settings.profile_session_days
        )


async def signed_in(
    request: Request, secret: Annotated[str | None, Depends(_cookie)]
) -> sessions.Signed | None:
    """The signed-in device of the request, if any (its own short transaction)."""
    if not secret:
        return None
    return await run_in_threadpool(_find, request.app.state.database, secret, request)


async def require_signed_in(
    signed: Annotated[sessions.Signed | None, Depends(signed_in)],
) -> sessions.Signed:
    if signed is None:
        raise NotSignedIn("sign in to your profile first")
    return signed


SignedDep = Annotated[sessions.Signed, Depends(require_signed_in)]
MaybeSignedDep = Annotated[sessions.Signed | None, Depends(signed_in)]
WRITE = refusals(401, 403, 422)
PasskeyId = Path(ge=1, le=2**62, description="The id of one of the profile's passkeys.")
DeviceId = Path(ge=1, le=2**62, description="The id of one of the profile's devices.")


def _device(request: Request) -> str:
    return sessions.device_of(request.headers.get("user-agent", ""))


def _signed_response(request: Request, body: ProfileOut | SentOut, secret: str) -> Response:
    response = ModelResponse(body)
    sessions.set_cookie(request, response, secret)
    return no_store(response)


def profile_out(session: Session, signed: sessions.Signed, ctx: Context) -> ProfileOut:
    with session.begin():
        profile = service.profile_of(session, signed.profile_id)
        return ProfileOut(
            name=profile.name,
            public_id=profile.public_id,
            public=profile.public,
            email=profile.email,
            email_pending=profile.email_pending,
            notify=list(profile.notify or []),
            passkeys=[
                PasskeyOut(
                    id=key.id,
                    name=key.name,
                    created_at=key.created_at,
                    last_used_at=key.last_used_at,
                )
                for key in passkeys.passkeys_of(session, signed.profile_id)
            ],
            devices=[
                DeviceOut(
                    id=row.id,
                    device=row.device,
                    method=row.method,
                    created_at=row.created_at,
                    last_seen_at=row.last_seen_at,
                    current=row.id == signed.session_id,
                )
                for row in sessions.sessions_of(session, signed.profile_id, ctx.now)
            ],
        )


# --- the page ----------------------------------------------------------------------------


@router.get("/profile", response_class=HTMLResponse, include_in_schema=False)
def profile_page(
    request: Request, session: SessionDep, ctx: ContextDep, signed: MaybeSignedDep
) -> HTMLResponse:
    """Signed in: the profile, its passkeys and devices. Else: sign in or make one."""
    data = profile_out(session, signed, ctx).model_dump(mode="json") if signed else None
    response = templates.TemplateResponse(
        request,
        "profile.html",
        {
            "profile": data,
            "mail": ctx.settings.email_enabled,
            "title": current()._("Your profile"),
        },
    )
    response.headers["Cache-Control"] = "no-store"
    response.headers["Content-Language"] = current().tag
    response.headers["Vary"] = "Accept-Language, Cookie"
    return response


@router.get("/profile/link", response_class=HTMLResponse, include_in_schema=False)
def link_page(request: Request) -> HTMLResponse:
    """A mailed link's page: its secret is in the fragment, and a button spends it (a mail
    scanner that follows the link spends nothing)."""
    response = templates.TemplateResponse(
        request, "profile_link.html", {"title": current()._("Your profile")}
    )
    response.headers["Content-Language"] = current().tag
    return response


# --- passkeys ------------------------------------------------------------------------------


@router.post(
    "/profile/register/options",
    dependencies=[SameOrigin],
    response_model=CeremonyOut,
    responses=refusals(403, 422),
    summary="Begin making a profile: the options of its first passkey",
)
def register_options(
    body: ProfileNameIn, request: Request, session: SessionDep, ctx: ContextDep
) -> Response:
    """Check the name and begin the ceremony of the new profile's first passkey (a
    discoverable credential, user verification preferred). Nothing is stored but the
    challenge, for a few minutes."""
    assert body.name is not None
    ceremony = passkeys.begin_profile(
        session, name=body.name, rp=passkeys.relying_party(request), ctx=ctx
    )
    return no_store(ModelResponse(CeremonyOut(ceremony=ceremony.id, options=ceremony.options)))


@router.post(
    "/profile/register",
    dependencies=[SameOrigin],
    status_code=status.HTTP_201_CREATED,
    response_model=ProfileOut,
    responses=refusals(403, 422),
    summary="Make the profile with its first passkey, and sign this device in",
)
def register(
    body: CredentialIn, request: Request, session: SessionDep, ctx: ContextDep
) -> Response:
    """Check the authenticator's answer (challenge, origin, relying party) and make the
    profile with this passkey; this device is signed in (the session cookie is set)."""
    made = passkeys.finish_registration(
        session,
        ceremony=body.ceremony,
        credential=body.credential,
        rp=passkeys.relying_party(request),
        device=_device(request),
        signed_in=None,
        ctx=ctx,
    )
    assert made.secret is not None
    signed = _signed_after(session, made.secret, ctx)
    response = _signed_response(request, profile_out(session, signed, ctx), made.secret)
    response.status_code = status.HTTP_201_CREATED
    return response


def _signed_after(session: Session, secret: str, ctx: Context) -> sessions.Signed:
    found = sessions.find(session, secret, ctx.now, ctx.settings.profile_session_days)
    assert found is not None
    return found


@router.post(
    "/profile/sign-in/options",
    dependencies=[SameOrigin],
    response_model=CeremonyOut,
    responses=refusals(403),
    summary="Begin signing in with a passkey",
)
def sign_in_options(request: Request, session: SessionDep, ctx: ContextDep) -> Response:
    """Begin a sign-in: the options name no passkey, so the authenticator offers the ones
    it holds for this site."""
    ceremony = passkeys.begin_sign_in(session, rp=passkeys.relying_party(request), ctx=ctx)
    return no_store(ModelResponse(CeremonyOut(ceremony=ceremony.id, options=ceremony.options)))


@router.post(
    "/profile/sign-in",
    dependencies=[SameOrigin],
    response_model=ProfileOut,
    responses=refusals(403, 422, 429),
    summary="Sign this device in with a passkey's answer",
)
def sign_in(body: CredentialIn, request: Request, session: SessionDep, ctx: ContextDep) -> Response:
    """Check the passkey's signature, origin and counter and sign this device in (the
    session cookie is set). Every refusal is the same 403 `passkey_refused`, whether or
    not the passkey is known."""
    _, secret = passkeys.finish_sign_in(
        session,
        ceremony=body.ceremony,
        credential=body.credential,
        rp=passkeys.relying_party(request),
        device=_device(request),
        ctx=ctx,
    )
    signed = _signed_after(session, secret, ctx)
    return _signed_response(request, profile_out(session, signed, ctx), secret)


@router.post(
    "/profile/passkeys/options",
    dependencies=[SameOrigin],
    response_model=CeremonyOut,
    responses=refusals(401, 403, 429),
    summary="Begin adding a passkey (this device's) to the signed-in profile",
)
def passkey_options(
    request: Request, session: SessionDep, ctx: ContextDep, signed: SignedDep
) -> Response:
    """Begin adding a passkey to the signed-in profile (its passkeys are excluded)."""
    ceremony = passkeys.begin_passkey(
        session, profile_id=signed.profile_id, rp=passkeys.relying_party(request), ctx=ctx
    )
    return no_store(ModelResponse(CeremonyOut(ceremony=ceremony.id, options=ceremony.options)))


@router.post(
    "/profile/passkeys",
    dependencies=[SameOrigin],
    response_model=ProfileOut,
    responses=refusals(401, 403, 422, 429),
    summary="Add the new passkey to the signed-in profile",
)
def add_passkey(
    body: CredentialIn, request: Request, session: SessionDep, ctx: ContextDep, signed: SignedDep
) -> Response:
    """Check the new passkey and add it to the signed-in profile."""
    passkeys.finish_registration(
        session,
        ceremony=body.ceremony,
        credential=body.credential,
        rp=passkeys.relying_party(request),
        device=_device(request),
        signed_in=signed.profile_id,
        ctx=ctx,
    )
    return no_store(ModelResponse(profile_out(session, signed, ctx)))


@router.post(
    "/profile/passkeys/{passkey_id}/name",
    dependencies=[SameOrigin],
    response_model=ProfileOut,
    responses=refusals(401, 403, 404, 422),
    summary="Name one of the profile's passkeys",
)
def name_passkey(
    body: PasskeyNameIn,
    session: SessionDep,
    ctx: ContextDep,
    signed: SignedDep,
    passkey_id: int = PasskeyId,
) -> Response:
    """Give one of the profile's passkeys a name of its owner's choosing."""
    with session.begin():
        if not passkeys.rename_passkey(session, signed.profile_id, passkey_id, body.name):
            raise NoSuchEntry("the profile has no such passkey")
    return no_store(ModelResponse(profile_out(session, signed, ctx)))


@router.post(
    "/profile/passkeys/{passkey_id}/remove",
    dependencies=[SameOrigin],
    response_model=ProfileOut,
    responses=refusals(401, 403, 404, 409, 422),
    summary="Remove one of the profile's passkeys",
)
def remove_passkey(
    session: SessionDep, ctx: ContextDep, signed: SignedDep, passkey_id: int = PasskeyId
) -> Response:
    """Remove one of the profile's passkeys: it signs nobody in any more. The last one
    stays (409 `last_passkey`) while the profile has no confirmed address."""
    with session.begin():
        if not passkeys.remove_passkey(session, signed.profile_id, passkey_id):
            raise NoSuchEntry("the profile has no such passkey")
    return no_store(ModelResponse(profile_out(session, signed, ctx)))


# --- the profile and its devices -----------------------------------------------------------


@router.get(
    "/profile/me",
    response_model=ProfileOut,
    responses=refusals(401),
    summary="The signed-in profile: its name, address, passkeys and devices",
)
def get_profile(session: SessionDep, ctx: ContextDep, signed: SignedDep) -> Response:
    """The signed-in profile: its name, its record's link and visibility, its address, its
    passkeys and its signed-in devices (`current`: this one)."""
    return no_store(ModelResponse(profile_out(session, signed, ctx)))


@router.post(
    "/profile/name",
    dependencies=[SameOrigin],
    response_model=ProfileOut,
    responses=WRITE,
    summary="Rename the profile, and the player in its games still in progress",
)
def rename_profile(
    body: ProfileNameIn, session: SessionDep, ctx: ContextDep, signed: SignedDep
) -> Response:
    """Rename the profile, and the player in every room of its still waiting or playing;
    finished games keep the name they were played under."""
    assert body.name is not None
    service.rename(session, profile_id=signed.profile_id, name=body.name, ctx=ctx)
    return no_store(ModelResponse(profile_out(session, signed, ctx)))


@router.post(
    "/profile/notify",
    dependencies=[SameOrigin],
    response_model=ProfileOut,
    responses=WRITE,
    summary="Choose which notifications the profile's seats get",
)
def choose_notifications(
    body: NotifyIn, session: SessionDep, ctx: ContextDep, signed: SignedDep
) -> Response:
    """The groups of events (`moves`, `offers`, `deadlines`, `results`) that notify the
    profile's seats, by push and by mail alike; the devices that get pushes are still each
    device's own choice."""
    service.choose_notifications(session, signed.profile_id, list(body.groups))
    return no_store(ModelResponse(profile_out(session, signed, ctx)))


@router.post(
    "/profile/devices/{device_id}/sign-out",
    dependencies=[SameOrigin],
    response_model=ProfileOut,
    responses=refusals(401, 403, 404, 422),
    summary="Sign one of the profile's devices out",
)
def end_device(
    request: Request,
    session: SessionDep,
    ctx: ContextDep,
    signed: SignedDep,
    device_id: int = DeviceId,
) -> Response:
    """Sign one of the profile's devices out (its session ends at once). Signing this
    device out answers 204 and clears the cookie."""
    with session.begin():
        if not sessions.end_session(session, signed.profile_id, device_id):
            raise NoSuchEntry("the profile has no such device")
    if device_id == signed.session_id:
        response = no_store(Response(status_code=status.HTTP_204_NO_CONTENT))
        sessions.clear_cookie(request, response)
        return response
    return no_store(ModelResponse(profile_out(session, signed, ctx)))


@router.post(
    "/profile/sign-out",
    dependencies=[SameOrigin],
    status_code=status.HTTP_204_NO_CONTENT,
    responses=refusals(401, 403),
    summary="Sign this device out",
)
def sign_out(request: Request, session: SessionDep, signed: SignedDep) -> Response:
    """End this device's session and clear its cookie."""
    with session.begin():
        sessions.end_session(session, signed.profile_id, signed.session_id)
    response = no_store(Response(status_code=status.HTTP_204_NO_CONTENT))
    sessions.clear_cookie(request, response)
    return response


@router.post(
    "/profile/sign-out-everywhere",
    dependencies=[SameOrigin],
    status_code=status.HTTP_204_NO_CONTENT,
    responses=refusals(401, 403),
    summary="Sign every device of the profile out, this one too",
)
def sign_out_everywhere(request: Request, session: SessionDep, signed: SignedDep) -> Response:
    """End every session of the profile, this device's too."""
    with session.begin():
        sessions.end_all(session, signed.profile_id)
    response = no_store(Response(status_code=status.HTTP_204_NO_CONTENT))
    sessions.clear_cookie(request, response)
    return response


# --- links by mail -------------------------------------------------------------------------


@router.post(
    "/profile/link",
    dependencies=[SameOrigin],
    status_code=status.HTTP_202_ACCEPTED,
    response_model=SentOut,
    responses=refusals(403, 422),
    summary="Mail a sign-in link to a profile's confirmed address",
)
def ask_link(
    body: AddressIn,
    tasks: BackgroundTasks,
    session: SessionDep,
    ctx: ContextDep,
    base: BaseUrlDep,
) -> Response:
    """Answers the same whether or not the address is a profile's: the mail, when there
    is one, leaves after the answer."""
    mail = links.ask_sign_in(session, address=str(body.address), base_url=base, ctx=ctx)
    if mail is not None:
        tasks.add_task(links.send, ctx.settings, mail, ctx.now)
    response = ModelResponse(SentOut(), status_code=status.HTTP_202_ACCEPTED, background=tasks)
    return no_store(response)


@router.post(
    "/profile/link/redeem",
    dependencies=[SameOrigin],
    response_model=SentOut,
    responses=refusals(403, 422, 429),
    summary="Follow a mailed link: sign this device in, or confirm the address",
)
def follow_link(body: LinkIn, request: Request, session: SessionDep, ctx: ContextDep) -> Response:
    """Spend a mailed link's secret (from the link's fragment): a sign-in link signs this
    device in, a confirmation link makes its address the profile's. A link works once
    and expires."""
    followed = links.follow(session, secret=body.secret, device=_device(request), ctx=ctx)
    if followed.session_secret is None:
        return no_store(ModelResponse(SentOut()))
    return _signed_response(request, SentOut(), followed.session_secret)


@router.post(
    "/profile/email",
    dependencies=[SameOrigin],
    status_code=status.HTTP_202_ACCEPTED,
    response_model=ProfileOut,
    responses=refusals(
        401, 403, 422, 429, s429="The address has had its confirmation mails for the day"
    ),
    summary="Give the profile an address: a link that confirms it is mailed there",
)
def set_email(
    body: AddressIn,
    tasks: BackgroundTasks,
    session: SessionDep,
    ctx: ContextDep,
    base: BaseUrlDep,
    signed: SignedDep,
) -> Response:
    """Keep the address as pending and mail a link that confirms it (at most
    PROFILE_LINKS_PER_HOUR links an hour for a profile)."""
    mail = links.ask_confirmation(
        session, profile_id=signed.profile_id, address=str(body.address), base_url=base, ctx=ctx
    )
    if mail is not None:
        tasks.add_task(links.send, ctx.settings, mail, ctx.now)
    out = profile_out(session, signed, ctx)
    return no_store(ModelResponse(out, status_code=status.HTTP_202_ACCEPTED, background=tasks))


# --- the games ------------------------------------------------------------------------------


@router.get(
    "/profile/games",
    response_model=GamesOut,
    summary="The rooms where the signed-in profile holds a seat (none when signed out)",
)
def profile_games(session: SessionDep, signed: MaybeSignedDep) -> Response:
    """The rooms where the signed-in profile holds a seat, the latest attached first; each
    is read (and played) through the pages' room endpoints, which act for the profile's
    seat."""
    if signed is None:
        return no_store(ModelResponse(GamesOut(signed_in=False, rooms=[])))
    rooms = service.room_ids(session, signed.profile_id)
    return no_store(ModelResponse(GamesOut(signed_in=True, rooms=rooms)))


@router.post(
    "/r/{room_id}/attach",
    dependencies=[SameOrigin],
    response_model=GamesOut,
    responses=refusals(401, 403, 404, 409, 422),
    summary="Attach this browser's seat in the room (its cookie) to the signed-in profile",
)
def attach_seat(
    request: Request,
    session: SessionDep,
    ctx: ContextDep,
    signed: SignedDep,
    room_id: str = RoomId,
) -> Response:
    """Only the seat's own cookie attaches it; its token stays where it is."""
    token = request.cookies.get(SEAT_COOKIE)
    if not token:
        raise room_errors.TokenRequired("this browser holds no seat in this room")
    service.attach(session, profile_id=signed.profile_id, room_id=room_id, token=token, ctx=ctx)
    rooms = service.room_ids(session, signed.profile_id)
    return no_store(ModelResponse(GamesOut(signed_in=True, rooms=rooms)))


# --- the record ------------------------------------------------------------------------------


class NoRecord(NotFound):
    """No public record at this link (or none shown for this room's creator)."""

    code = "no_record"


def _tally(rule_set: str | None, tally: record.Tally) -> TallyOut:
    share = tally.in_time / tally.played if tally.played else None
    return TallyOut(
        rule_set=rule_set,
        played=tally.played,
        won=tally.won,
        drawn=tally.drawn,
        lost=tally.lost,
        in_time=share,
    )


def record_out(found: record.Record, base: str) -> RecordOut:
    return RecordOut(
        name=found.name,
        url=f"{base.rstrip('/')}/p/{found.public_id}",
        total=_tally(None, found.total),
        rule_sets=[_tally(key, tally) for key, tally in sorted(found.by_rule_set.items())],
    )


@router.post(
    "/profile/public",
    dependencies=[SameOrigin],
    response_model=ProfileOut,
    responses=WRITE,
    summary="Show the profile's record to anyone with its link, or to no one",
)
def choose_public(
    body: PublicIn, session: SessionDep, ctx: ContextDep, signed: SignedDep
) -> Response:
    """A public record is shown at its link (`/p/{public_id}`) and to the players the
    profile invites; a private one only to the player."""
    with session.begin():
        service.profile_of(session, signed.profile_id).public = body.public
    return no_store(ModelResponse(profile_out(session, signed, ctx)))


@router.get(
    "/profile/record",
    response_model=RecordOut,
    responses=refusals(401),
    summary="The signed-in profile's record",
)
def own_record(session: SessionDep, base: BaseUrlDep, signed: SignedDep) -> Response:
    """Games played, won, drawn and lost per rule set, and the share moved in time."""
    with session.begin():
        found = record.record_of(session, service.profile_of(session, signed.profile_id))
    return no_store(ModelResponse(record_out(found, base)))


@router.get(
    "/r/{room_id}/creator-record",
    response_model=RecordOut,
    responses=refusals(404, 422),
    summary="The record of the room's creator, if their profile shows it",
)
def creator_record(session: SessionDep, base: BaseUrlDep, room_id: str = RoomId) -> Response:
    """What an invited player sees of who invites them before accepting: only a record
    its player made public (404 `no_record` otherwise, whether or not there is a
    profile)."""
    with session.begin():
        profile = record.creator_of(session, room_id)
        if profile is None:
            raise NoRecord("no public record for this room's creator")
        found = record.record_of(session, profile)
    return ModelResponse(record_out(found, base))


@router.get("/p/{public_id}", response_class=HTMLResponse, include_in_schema=False)
def record_page(
    request: Request,
    session: SessionDep,
    base: BaseUrlDep,
    signed: MaybeSignedDep,
    public_id: str = Path(max_length=32),
) -> HTMLResponse:
    """A record's page: anyone sees a public one; a private one only its player (anyone
    else gets the page a link to nothing gets)."""
    with session.begin():
        profile = record.find_public(session, public_id) if is_id(public_id) else None
        if profile is None and signed is not None:
            own = service.profile_of(session, signed.profile_id)
            profile = own if own.public_id == public_id else None
        found = record.record_of(session, profile) if profile is not None else None
    tr = current()
    context: dict[str, Any] = {"title": tr._("Record"), "record": None, "names": {}}
    if found is not None:
        context["record"] = record_out(found, base).model_dump(mode="json")
        context["title"] = found.name
        context["names"] = {key: rule_set_out(rule, tr.tag).name for key, rule in RULE_SETS.items()}
    response = templates.TemplateResponse(
        request,
        "record.html",
        context,
        status_code=status.HTTP_200_OK if found else status.HTTP_404_NOT_FOUND,
    )
    response.headers["Cache-Control"] = "no-store"
    response.headers["Content-Language"] = tr.tag
    return response


# --- leaving ------------------------------------------------------------------------------


@router.get(
    "/profile/export",
    responses=refusals(401),
    summary="Download everything the service holds about the profile (JSON)",
    response_description="The profile, its passkeys and devices, and its games with their PDN",
)
def export(session: SessionDep, ctx: ContextDep, base: BaseUrlDep, signed: SignedDep) -> Response:
    """The profile (name, address, choices), its passkeys and devices as its player sees
    them (no key, no secret), and every game of its seats with its PDN, as a download."""
    data = leaving.everything(session, signed.profile_id, base, ctx.now)
    response = Response(
        orjson.dumps(data, option=orjson.OPT_INDENT_2),
        media_type="application/json",
        headers={"Content-Disposition": 'attachment; filename="checkers-profile.json"'},
    )
    return no_store(response)


@router.get(
    "/profile/export.pdn",
    response_class=PdnResponse,
    responses=refusals(401),
    summary="Download the profile's games as one PDN file",
)
def export_pdn(
    session: SessionDep, ctx: ContextDep, base: BaseUrlDep, signed: SignedDep
) -> Response:
    """Every game of the profile's seats, in its rule set's own notation."""
    data = leaving.everything(session, signed.profile_id, base, ctx.now)
    response = PdnResponse(
        leaving.pdn_of(data),
        headers={"Content-Disposition": 'attachment; filename="checkers-games.pdn"'},
    )
    return no_store(response)


@router.post(
    "/profile/delete",
    dependencies=[SameOrigin],
    status_code=status.HTTP_204_NO_CONTENT,
    responses=refusals(401, 403, 422),
    summary="Delete the profile",
)
def delete_profile(
    body: DeleteIn, request: Request, session: SessionDep, ctx: ContextDep, signed: SignedDep
) -> Response:
    """Erase the profile's name, address, passkeys, sessions and links; its finished games
    stay, under "Former player"; its games in play stay with the browsers that hold their
    seats. Every device is signed out."""
    leaving.delete_profile(session, signed.profile_id, ctx)
    response = no_store(Response(status_code=status.HTTP_204_NO_CONTENT))
    sessions.clear_cookie(request, response)
    return response
