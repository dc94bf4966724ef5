"""The notifications' seat actions, declared for every router that takes a seat: the
bearer-token API (`router`) and the pages' endpoints (`app.web`, the seat's cookie)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from fastapi import APIRouter, Response
from fastapi.params import Depends as DependsParam

from app.core.openapi import refusals
from app.rooms.routes import Acting, RoomId, acting, action_options

from . import confirmations, subscriptions
from .schemas import EmailIn, PushIn, PushOffIn

# The tags the API documents them under (as before they moved here).
ROOM_TAGS: list[str | Any] = ["rooms"]
NOTIFY_TAGS: list[str | Any] = ["notifications"]


def add_notify_routes(
    router: APIRouter,
    *,
    room_path: str,
    token_from: Callable[..., Any],
    dependencies: Sequence[DependsParam] = (),
    include_in_schema: bool = True,
) -> None:
    """Declare asking to be told (push, mail) and stopping it as seat actions on `router`
    under `room_path` (see `app.rooms.routes.add_action_routes`)."""
    act_on = acting(token_from)
    options = action_options(dependencies, include_in_schema)
    mail_options = {
        **options,
        "responses": {
            **options["responses"],
            **refusals(
                429,
                s429="Too many requests from this client (`rate_limited`), a link mailed to "
                "this address a moment ago (`confirmation_pending`), or the day's "
                "confirmation mails of this address or seat sent (`mail_limit`); retry "
                "after `Retry-After`",
            ),
        },
    }

    @router.post(
        f"{room_path}/push",
        summary="Send this seat's notifications to a browser's push subscription",
        tags=ROOM_TAGS,
        **options,
    )
    def push_on(body: PushIn, act: Acting = act_on, room_id: str = RoomId) -> Response:
        """Send this seat's notifications (your turn, offers, the end) to a browser's Web Push
        subscription, as `PushSubscription.toJSON()` gives it. 422 `push_service_refused`
        when its endpoint is not on a push service the server sends to (`PUSH_SERVICES`).
        A seat keeps its newest `PUSH_DEVICES_PER_SEAT` subscriptions."""
        return act.answer(
            subscriptions.add_push(
                act.session,
                room_id=room_id,
                token=act.token,
                endpoint=body.endpoint,
                p256dh=body.keys.p256dh,
                auth=body.keys.auth,
                time_zone=body.time_zone,
                ctx=act.ctx,
            )
        )

    @router.post(
        f"{room_path}/push/off",
        summary="Stop notifications to a push subscription",
        tags=ROOM_TAGS,
        **options,
    )
    def push_off(body: PushOffIn, act: Acting = act_on, room_id: str = RoomId) -> Response:
        """Stop the notifications to one push subscription of this seat."""
        return act.answer(
            subscriptions.remove_push(
                act.session, room_id=room_id, token=act.token, endpoint=body.endpoint, ctx=act.ctx
            )
        )

    @router.post(
        f"{room_path}/email",
        summary="Mail this seat's notifications to an address, once it is confirmed",
        tags=NOTIFY_TAGS,
        **mail_options,
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

    @router.post(
        f"{room_path}/email/off",
        summary="Stop mails to this seat's address",
        tags=ROOM_TAGS,
        **options,
    )
    def email_off(act: Acting = act_on, room_id: str = RoomId) -> Response:
        """Stop mailing this seat's notifications."""
        return act.answer(
            subscriptions.stop_email(act.session, room_id=room_id, token=act.token, ctx=act.ctx)
        )
