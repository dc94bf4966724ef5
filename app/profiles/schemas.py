"""What the profile endpoints take and answer."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, EmailStr, Field, field_validator

from app.rooms.schemas import Named


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ProfileNameIn(Named):
    """A profile's name: a seat's rules, and never blank."""

    @field_validator("name")
    @classmethod
    def _given(cls, value: str | None) -> str | None:
        if value is None:
            raise ValueError("a profile needs a name")
        return value


class CeremonyOut(BaseModel):
    """A passkey ceremony begun: send `ceremony` back with the authenticator's answer;
    `options` are WebAuthn's (binary fields in base64url), for
    `PublicKeyCredential.parseCreationOptionsFromJSON` / `parseRequestOptionsFromJSON`."""

    ceremony: str
    options: dict[str, Any]


class CredentialIn(_In):
    ceremony: str = Field(min_length=10, max_length=64)
    # The authenticator's answer as `PublicKeyCredential.toJSON()` gives it.
    credential: dict[str, Any]


class PasskeyNameIn(_In):
    name: str = Field(min_length=1, max_length=40)

    @field_validator("name")
    @classmethod
    def _stripped(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("a passkey's name cannot be blank")
        return value


class AddressIn(_In):
    address: EmailStr = Field(max_length=254)


NotifyGroup = Literal["moves", "offers", "deadlines", "results"]


class NotifyIn(_In):
    """The groups of notifications the profile's seats are told of (none: silence)."""

    groups: list[NotifyGroup] = Field(max_length=4)


class LinkIn(_In):
    secret: str = Field(min_length=20, max_length=100)


class PasskeyOut(BaseModel):
    id: int
    name: str
    created_at: datetime
    last_used_at: datetime | None


class DeviceOut(BaseModel):
    id: int
    device: str
    method: str
    created_at: datetime
    last_seen_at: datetime
    current: bool


class ProfileOut(BaseModel):
    name: str
    public_id: str
    public: bool
    email: str | None
    email_pending: str | None
    notify: list[str]
    passkeys: list[PasskeyOut]
    devices: list[DeviceOut]


class GamesOut(BaseModel):
    """The rooms where the profile holds a seat (none when this device is not signed in)."""

    signed_in: bool
    rooms: list[str]


class SentOut(BaseModel):
    """What asking for a link answers, whether or not a mail goes."""

    sent: bool = True


class PublicIn(_In):
    public: bool


class TallyOut(BaseModel):
    rule_set: str | None  # None: every rule set together
    played: int
    won: int
    drawn: int
    lost: int
    # The share of its games in which the player moved in time (0 to 1; None: no game).
    in_time: float | None


class RecordOut(BaseModel):
    """A player's record: the finished games of their profile."""

    name: str
    url: str
    total: TallyOut
    rule_sets: list[TallyOut]


class DeleteIn(_In):
    """Deleting a profile is said twice: the page asks before it sends `confirm`."""

    confirm: Literal[True]
