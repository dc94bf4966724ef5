"""Request bodies of the notifications' routes (they are part of the OpenAPI schema)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, EmailStr, Field


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


# A push endpoint is a URL: printable ASCII without spaces (anything else, a NUL byte
# say, is refused before the service or the database sees it).
Endpoint = Annotated[str, Field(min_length=10, max_length=1024, pattern=r"^[!-~]+$")]


class PushKeysIn(_In):
    p256dh: str = Field(min_length=80, max_length=100, description="base64url P-256 point")
    auth: str = Field(min_length=20, max_length=30, description="base64url 16-byte secret")


class PushIn(_In):
    """A browser's PushSubscription (its `toJSON()`, without expirationTime)."""

    endpoint: Endpoint
    keys: PushKeysIn
    expirationTime: int | None = None
    time_zone: str | None = Field(
        default=None,
        max_length=64,
        description="The browser's IANA time zone (`Europe/Moscow`): the instants in its "
        "messages are written in it. The messages' language is the request's.",
    )


class PushOffIn(_In):
    endpoint: Endpoint


class EmailIn(_In):
    address: EmailStr = Field(description="Where to mail this seat's notifications.")
    time_zone: str | None = Field(
        default=None,
        max_length=64,
        description="The reader's IANA time zone, for the instants in the mails; their "
        "language is the request's.",
    )
