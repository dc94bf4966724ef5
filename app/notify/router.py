"""Routes of notifications: the key browsers subscribe with, and asking for mails."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from fastapi import APIRouter, Response
from fastapi.params import Depends as DependsParam
from pydantic import BaseModel, Field

from app.core.deps import ContextDep, SessionDep, get_token
from app.core.openapi import refusals
from app.rooms import confirmations
from app.rooms.router import Acting, RoomId, acting, action_options
from app.rooms.schemas import EmailIn

from . import push

router = APIRouter(prefix="/api", tags=["notifications"])


class PushKeyOut(BaseModel):
    public_key: str = Field(
        description="The VAPID public key (base64url), the `applicationServerKey` of "
        "`PushManager.subscribe`."
    )


@router.get("/push-key", response_model=PushKeyOut, summary="The Web Push public key")
def push_key(session: SessionDep, ctx: ContextDep) -> PushKeyOut:
    """The service's VAPID public key (base64url), the `applicationServerKey` a browser
    subscribes with before `subscribePush`."""
    return PushKeyOut(public_key=push.vapid_keys(session, ctx).public_key)


def add_mail_routes(
    router: APIRouter,
    *,
    room_path: str,
    token_from: Callable[..., Any],
    dependencies: Sequence[DependsParam] = (),
    include_in_schema: bool = True,
) -> None:
    """Asking for mails, as a seat action (see `app.rooms.router.add_action_routes`)."""
    act_on = acting(token_from)
    options = action_options(dependencies, include_in_schema)
    options["responses"] = {
        **options["responses"],
        **refusals(
            429,
            s429="Too many requests from this client (`rate_limited`), a link mailed to this "
            "address a moment ago (`confirmation_pending`), or the day's confirmation mails "
            "of this address or seat sent (`mail_limit`); retry after `Retry-After`",
        ),
    }

    @router.post(
        f"{room_path}/email",
        summary="Mail this seat's notifications to an address, once it is confirmed",
        **options,
    )
    def email_on(body: EmailIn, act: Acting = act_on, room_id: str = RoomId) -> Response:
        """Mail this seat's notifications to an address: a confirmation link is mailed first
        (within seconds, by the service's sender), and mails start once it is followed. A
        seat has a link mailed to the same address again after `EMAIL_CONFIRM_RESEND_SECONDS`
        (429 `confirmation_pending`), `EMAIL_CONFIRMS_PER_SEAT` a day, and an address is
        sent `EMAIL_CONFIRMS_PER_ADDRESS` a day across the service (429 `mail_limit`); 409
        `email_unavailable` when the service sends no mail."""
        return act.answer(
            confirmations.request_email(
                act.session,
                room_id=room_id,
                token=act.token,
                address=str(body.address),
                base_url=act.base_url,
                time_zone=body.time_zone,
                ctx=act.ctx,
            )
        )


add_mail_routes(router, room_path="/rooms/{room_id}", token_from=get_token)
