"""Routes of notifications: the key browsers subscribe with, and a seat asking to be told
(push, mail) or to stop (`routes.add_notify_routes`)."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.core.deps import ContextDep, SessionDep, get_token

from . import push
from .routes import NOTIFY_TAGS, add_notify_routes

router = APIRouter(prefix="/api")


class PushKeyOut(BaseModel):
    public_key: str = Field(
        description="The VAPID public key (base64url), the `applicationServerKey` of "
        "`PushManager.subscribe`."
    )


@router.get(
    "/push-key", response_model=PushKeyOut, summary="The Web Push public key", tags=NOTIFY_TAGS
)
def push_key(session: SessionDep, ctx: ContextDep) -> PushKeyOut:
    """The service's VAPID public key (base64url), the `applicationServerKey` a browser
    subscribes with before `subscribePush`."""
    return PushKeyOut(public_key=push.vapid_keys(session, ctx).public_key)


add_notify_routes(router, room_path="/rooms/{room_id}", token_from=get_token)
