"""Routes of notifications: the key browsers subscribe with, and asking for mails."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from fastapi import APIRouter, Response
from fastapi.params import Depends as DependsParam
from pydantic import BaseModel, Field

from app.core.deps import ContextDep, SessionDep, get_token
from app.rooms.router import Acting, RoomId, acting, action_options
from app.rooms.schemas import EmailIn

from . import push
from .mail import start_mails

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

    @router.post(
        f"{room_path}/email",
        summary="Mail this seat's notifications to an address, once it is confirmed",
        **action_options(dependencies, include_in_schema),
    )
    def email_on(body: EmailIn, act: Acting = act_on, room_id: str = RoomId) -> Response:
        """Mail this seat's notifications to an address: a confirmation link is mailed first,
        and mails start once it is followed. 503 `mail_unavailable` when the mail server
        cannot take it now; 409 `email_unavailable` when the service sends no mail."""
        return act.answer(
            start_mails(
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
