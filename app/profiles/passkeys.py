"""The WebAuthn ceremonies of profiles (py_webauthn): making a profile with its first
passkey, adding a passkey, and signing in with one.

Passkeys are discoverable credentials (the authenticator keeps the user handle, so
signing in asks for no name), with user verification preferred. The relying party is the
host of PUBLIC_URL (the request's host when it is unset: `localhost` in development),
and only that origin's signatures count. A ceremony's challenge is stored for a few
minutes under a random id the page sends back; it is spent by its first answer, good or
bad. The authenticator's signature counter must go up from one use to the next (the
library checks it against the stored one), else the key is taken for a clone.

No refusal tells whether a passkey or a profile exists: an unknown credential and a bad
signature get the same answer.
"""

from __future__ import annotations

import json
import logging
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from fastapi import Request
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes
from webauthn.helpers.exceptions import (
    InvalidAuthenticationResponse,
    InvalidCBORData,
    InvalidJSONStructure,
    InvalidRegistrationResponse,
)
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from app.core.context import Context
from app.core.errors import Conflict, Forbidden, TooManyRequests
from app.core.ids import new_id
from app.notify.outbox import GROUPS

from . import sessions
from .models import Challenge, Passkey, Profile

log = logging.getLogger("checkers.profiles")
CEREMONY_SECONDS = 300
MAX_PASSKEYS = 10
PASSKEYS_PER_HOUR = 5
RP_NAME = "Checkers at your own pace"
_VERIFIED = (
    InvalidAuthenticationResponse,
    InvalidRegistrationResponse,
    InvalidJSONStructure,
    InvalidCBORData,
    ValueError,
    KeyError,
    TypeError,
    AttributeError,
)


class PasskeyRefused(Forbidden):
    """The passkey's answer was not accepted (an unknown key, a bad signature, another
    site's, a ceremony expired or already used): the same answer for each."""

    code = "passkey_refused"


class PasskeyLimit(TooManyRequests):
    """The profile holds as many passkeys as it may, or added too many in the last hour."""

    code = "passkey_limit"


class LastPasskey(Conflict):
    """A profile's last passkey is not removed while no address can sign it in."""

    code = "last_passkey"


def _refused(exc: Exception) -> PasskeyRefused:
    """The one refusal of a passkey's answer; why it failed goes to the log only."""
    log.warning("passkey_refused", extra={"fields": {"reason": str(exc)[:200]}})
    return PasskeyRefused("this passkey was not accepted")


@dataclass(frozen=True)
class RelyingParty:
    """Who the passkeys are for: the site's host name, and the one origin it serves."""

    id: str
    origin: str


def relying_party(request: Request) -> RelyingParty:
    public = request.app.state.settings.public_url
    if public:
        parts = urlsplit(public)
        return RelyingParty(parts.hostname or "localhost", f"{parts.scheme}://{parts.netloc}")
    url = request.base_url
    return RelyingParty(url.hostname or "localhost", f"{url.scheme}://{url.netloc}")


@dataclass(frozen=True)
class Ceremony:
    """A ceremony begun: its id (sent back with the answer) and the browser's options."""

    id: str
    options: dict[str, Any]


def _challenge(session: Session, ctx: Context, **fields: Any) -> tuple[str, Challenge]:
    ceremony = new_id()
    row = Challenge(
        handle=sessions.digest(ceremony),
        expires_at=ctx.now + timedelta(seconds=CEREMONY_SECONDS),
        **fields,
    )
    session.add(row)
    return ceremony, row


def _selection() -> AuthenticatorSelectionCriteria:
    return AuthenticatorSelectionCriteria(
        resident_key=ResidentKeyRequirement.REQUIRED,
        user_verification=UserVerificationRequirement.PREFERRED,
    )


def begin_profile(session: Session, *, name: str, rp: RelyingParty, ctx: Context) -> Ceremony:
    """The options that make a new profile's first passkey; the profile is made only when
    the passkey is."""
    handle = secrets.token_bytes(32)
    options = generate_registration_options(
        rp_id=rp.id,
        rp_name=RP_NAME,
        user_id=handle,
        user_name=name,
        user_display_name=name,
        authenticator_selection=_selection(),
        timeout=CEREMONY_SECONDS * 1000,
    )
    with session.begin():
        ceremony, _ = _challenge(
            session,
            ctx,
            purpose="register",
            challenge=options.challenge,
            name=name,
            user_handle=handle,
        )
    return Ceremony(ceremony, json.loads(options_to_json(options)))


def begin_passkey(session: Session, *, profile_id: int, rp: RelyingParty, ctx: Context) -> Ceremony:
    """The options that add a passkey to a signed-in profile (its keys excluded, so an
    authenticator holding one already says so)."""
    with session.begin():
        profile = session.get_one(Profile, profile_id)
        _within_passkey_limits(session, profile_id, ctx)
        keys = session.scalars(
            select(Passkey.credential_id).where(Passkey.profile_id == profile_id)
        )
        options = generate_registration_options(
            rp_id=rp.id,
            rp_name=RP_NAME,
            user_id=profile.user_handle,
            user_name=profile.name,
            user_display_name=profile.name,
            authenticator_selection=_selection(),
            exclude_credentials=[PublicKeyCredentialDescriptor(id=key) for key in keys],
            timeout=CEREMONY_SECONDS * 1000,
        )
        ceremony, _ = _challenge(
            session, ctx, purpose="register", challenge=options.challenge, profile_id=profile_id
        )
    return Ceremony(ceremony, json.loads(options_to_json(options)))


def _within_passkey_limits(session: Session, profile_id: int, ctx: Context) -> None:
    total, recent = session.execute(
        select(
            func.count(Passkey.id),
            func.count(Passkey.id).filter(Passkey.created_at > ctx.now - timedelta(hours=1)),
        ).where(Passkey.profile_id == profile_id)
    ).one()
    if total >= MAX_PASSKEYS:
        raise PasskeyLimit(f"a profile holds at most {MAX_PASSKEYS} passkeys", retry_after=3600)
    if recent >= PASSKEYS_PER_HOUR:
        raise PasskeyLimit(f"at most {PASSKEYS_PER_HOUR} passkeys an hour", retry_after=3600)


def _spend(session: Session, ceremony: str, purpose: str, ctx: Context) -> Challenge:
    """The ceremony's challenge, spent (deleted) whatever the answer."""
    row = session.scalar(
        select(Challenge).where(Challenge.handle == sessions.digest(ceremony)).with_for_update()
    )
    if row is None or row.purpose != purpose or ctx.now >= row.expires_at:
        raise PasskeyRefused("this passkey was not accepted")
    session.delete(row)
    return row


@dataclass(frozen=True)
class Registered:
    profile_id: int
    secret: str | None  # a new profile's first session (None when a passkey was added)


def finish_registration(
    session: Session,
    *,
    ceremony: str,
    credential: dict[str, Any],
    rp: RelyingParty,
    device: str,
    signed_in: int | None,
    ctx: Context,
) -> Registered:
    """Check the authenticator's new passkey and keep it: for a new profile (made now,
    and signed in on this device), or for the signed-in profile that began the ceremony."""
    with session.begin():
        row = _spend(session, ceremony, "register", ctx)
        challenge, profile_id, name, handle = (
            row.challenge,
            row.profile_id,
            row.name,
            row.user_handle,
        )
        session.flush()
    # The spent challenge is committed first: a refused answer cannot be tried again.
    if profile_id is not None and profile_id != signed_in:
        raise PasskeyRefused("this passkey was not accepted")
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=rp.id,
            expected_origin=rp.origin,
            require_user_verification=False,
        )
    except _VERIFIED as exc:
        raise _refused(exc) from exc
    with session.begin():
        taken = session.scalar(
            select(Passkey.id).where(Passkey.credential_id == verified.credential_id)
        )
        if taken is not None:
            raise PasskeyRefused("this passkey was not accepted")
        secret = None
        if profile_id is None:
            assert name is not None and handle is not None
            profile = Profile(
                public_id=new_id(),
                user_handle=handle,
                name=name,
                notify=sorted(GROUPS),
                public=False,
                language=ctx.language,
                created_at=ctx.now,
            )
            session.add(profile)
            session.flush()
            profile_id = profile.id
            secret = sessions.open_session(
                session, profile_id=profile_id, method="passkey", device=device, ctx=ctx
            )
        else:
            _within_passkey_limits(session, profile_id, ctx)
        session.add(
            Passkey(
                profile_id=profile_id,
                credential_id=verified.credential_id,
                public_key=verified.credential_public_key,
                sign_count=verified.sign_count,
                name=device[:40],
                created_at=ctx.now,
            )
        )
    return Registered(profile_id, secret)


def begin_sign_in(session: Session, *, rp: RelyingParty, ctx: Context) -> Ceremony:
    """The options of a sign-in with any of this site's passkeys (none named: the
    authenticator offers the ones it holds)."""
    options = generate_authentication_options(
        rp_id=rp.id,
        user_verification=UserVerificationRequirement.PREFERRED,
        timeout=CEREMONY_SECONDS * 1000,
    )
    with session.begin():
        ceremony, _ = _challenge(session, ctx, purpose="sign_in", challenge=options.challenge)
    return Ceremony(ceremony, json.loads(options_to_json(options)))


def finish_sign_in(
    session: Session,
    *,
    ceremony: str,
    credential: dict[str, Any],
    rp: RelyingParty,
    device: str,
    ctx: Context,
) -> tuple[int, str]:
    """Check the passkey's signature (origin, relying party, challenge, counter) and sign
    this device in; returns the profile's id and the new session's secret."""
    with session.begin():
        challenge = _spend(session, ceremony, "sign_in", ctx).challenge
    try:
        raw_id = base64url_to_bytes(str(credential["rawId"]))
    except _VERIFIED as exc:
        raise _refused(exc) from exc
    with session.begin():
        key = session.scalar(
            select(Passkey).where(Passkey.credential_id == raw_id).with_for_update()
        )
        if key is None:
            raise PasskeyRefused("this passkey was not accepted")
        profile = session.get_one(Profile, key.profile_id)
        response = credential.get("response")
        handle = response.get("userHandle") if isinstance(response, dict) else None
        try:
            if handle and base64url_to_bytes(str(handle)) != profile.user_handle:
                raise PasskeyRefused("this passkey was not accepted")
            verified = verify_authentication_response(
                credential=credential,
                expected_challenge=challenge,
                expected_rp_id=rp.id,
                expected_origin=rp.origin,
                credential_public_key=key.public_key,
                credential_current_sign_count=key.sign_count,
                require_user_verification=False,
            )
        except _VERIFIED as exc:
            raise _refused(exc) from exc
        key.sign_count = verified.new_sign_count
        key.last_used_at = ctx.now
        secret = sessions.open_session(
            session, profile_id=profile.id, method="passkey", device=device, ctx=ctx
        )
        return profile.id, secret


def passkeys_of(session: Session, profile_id: int) -> list[Passkey]:
    return list(
        session.scalars(
            select(Passkey).where(Passkey.profile_id == profile_id).order_by(Passkey.id)
        )
    )


def rename_passkey(session: Session, profile_id: int, passkey_id: int, name: str) -> bool:
    key = session.scalar(
        select(Passkey).where(Passkey.profile_id == profile_id, Passkey.id == passkey_id)
    )
    if key is None:
        return False
    key.name = name
    return True


def remove_passkey(session: Session, profile_id: int, passkey_id: int) -> bool:
    """Forget one of the profile's passkeys; the last one stays unless the profile has a
    confirmed address to sign in with."""
    keys = session.scalars(
        select(Passkey.id).where(Passkey.profile_id == profile_id).with_for_update()
    ).all()
    if passkey_id not in keys:
        return False
    profile = session.get_one(Profile, profile_id)
    if len(keys) == 1 and profile.email is None:
        raise LastPasskey("the last passkey stays while no confirmed address can sign you in")
    session.execute(delete(Passkey).where(Passkey.id == passkey_id))
    return True


def forget_ceremonies(session: Session, ctx: Context) -> int:
    """Delete the ceremonies never finished (the sweep)."""
    with session.begin():
        done = session.execute(delete(Challenge).where(Challenge.expires_at <= ctx.now))
        return int(getattr(done, "rowcount", 0) or 0)
