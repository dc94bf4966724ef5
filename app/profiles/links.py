"""Mailed links of profiles: a sign-in link (a device without the passkey signs in by the
profile's confirmed address) and the link that confirms an address.

A link is one use and works PROFILE_LINK_SECONDS; only the SHA-256 of its secret is kept,
and the secret rides in the link's fragment, which browsers send to no server. A profile
is mailed at most PROFILE_LINKS_PER_HOUR links. Asking for a sign-in link answers the
same whether or not the address belongs to a profile, and the mail leaves after the
answer, so neither the answer nor its time tells.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from app.core.context import Context
from app.core.errors import Forbidden
from app.core.settings import Settings
from app.i18n import translator
from app.notify import confirmations
from app.notify.mail import MailError, send_mail

from . import sessions
from .models import Profile, SignInLink

log = logging.getLogger("checkers.profiles")
SIGN_IN = "sign_in"
CONFIRM = "confirm"


class LinkRefused(Forbidden):
    """The link is unknown, used or expired."""

    code = "link_refused"


@dataclass(frozen=True)
class LinkMail:
    """A link to mail once the request is answered: the secret exists only here and in
    the mail."""

    purpose: str
    address: str
    link: str
    expires_at: datetime
    language: str


def normal(address: str) -> str:
    """An address as profiles keep and compare it."""
    return address.strip().lower()


def _within(session: Session, profile_id: int, ctx: Context) -> bool:
    hour_ago = ctx.now - timedelta(hours=1)
    sent = session.scalar(
        select(func.count(SignInLink.id)).where(
            SignInLink.profile_id == profile_id, SignInLink.created_at > hour_ago
        )
    )
    return int(sent or 0) < ctx.settings.profile_links_per_hour


def _new_link(
    session: Session,
    profile: Profile,
    *,
    purpose: str,
    address: str,
    base_url: str,
    ctx: Context,
) -> LinkMail:
    secret = secrets.token_urlsafe(32)
    expires = ctx.now + timedelta(seconds=ctx.settings.profile_link_seconds)
    session.add(
        SignInLink(
            profile_id=profile.id,
            purpose=purpose,
            address=address,
            secret_hash=sessions.digest(secret),
            created_at=ctx.now,
            expires_at=expires,
        )
    )
    key = "c" if purpose == CONFIRM else "t"
    return LinkMail(
        purpose,
        address,
        f"{base_url.rstrip('/')}/profile/link#{key}={secret}",
        expires,
        profile.language,
    )


def ask_sign_in(session: Session, *, address: str, base_url: str, ctx: Context) -> LinkMail | None:
    """The sign-in link to mail to `address` when it is a profile's confirmed address and
    the profile has links left this hour; None otherwise (the caller answers the same)."""
    if not ctx.settings.email_enabled:
        return None
    with session.begin():
        profile = session.scalar(
            select(Profile).where(Profile.email == normal(address)).with_for_update()
        )
        if profile is None or not _within(session, profile.id, ctx):
            return None
        return _new_link(
            session,
            profile,
            purpose=SIGN_IN,
            address=profile.email or "",
            base_url=base_url,
            ctx=ctx,
        )


def ask_confirmation(
    session: Session, *, profile_id: int, address: str, base_url: str, ctx: Context
) -> LinkMail | None:
    """Keep `address` as the profile's pending address and the link that confirms it;
    None past the hour's links (the pending address is kept: a later link confirms it).
    The mail counts against the address's daily share of confirmations, the seats' and
    the profiles' together (`app.notify.confirmations`; 429 `mail_limit` past it)."""
    if ctx.settings.email_enabled:
        confirmations.count_for_address(session, address=normal(address), ctx=ctx)
    with session.begin():
        profile = session.get_one(Profile, profile_id, with_for_update=True)
        profile.email_pending = normal(address)
        if not ctx.settings.email_enabled or not _within(session, profile_id, ctx):
            return None
        return _new_link(
            session,
            profile,
            purpose=CONFIRM,
            address=normal(address),
            base_url=base_url,
            ctx=ctx,
        )


@dataclass(frozen=True)
class Followed:
    purpose: str
    profile_id: int
    session_secret: str | None  # a sign-in's new session


def follow(session: Session, *, secret: str, device: str, ctx: Context) -> Followed:
    """Spend a link: a sign-in link signs this device in; a confirmation link makes its
    address the profile's (if it is still the one pending)."""
    with session.begin():
        link = session.scalar(
            select(SignInLink)
            .where(SignInLink.secret_hash == sessions.digest(secret))
            .with_for_update()
        )
        if link is None or link.used_at is not None or ctx.now >= link.expires_at:
            raise LinkRefused("this link is unknown, used or expired")
        link.used_at = ctx.now
        profile = session.get_one(Profile, link.profile_id)
        if link.purpose == CONFIRM:
            if profile.email_pending != link.address:
                raise LinkRefused("this link is unknown, used or expired")
            # An address signs one profile in: the mailbox that proved itself last owns it.
            session.execute(
                update(Profile)
                .where(Profile.email == link.address, Profile.id != profile.id)
                .values(email=None)
            )
            profile.email, profile.email_pending = link.address, None
            return Followed(CONFIRM, profile.id, None)
        if profile.email != link.address:
            raise LinkRefused("this link is unknown, used or expired")
        secret_out = sessions.open_session(
            session, profile_id=profile.id, method="link", device=device, ctx=ctx
        )
        return Followed(SIGN_IN, profile.id, secret_out)


def send(settings: Settings, mail: LinkMail, now: datetime) -> None:
    """Mail the link, in the profile's language, after the answer; a failure is logged
    (the player may ask again)."""
    tr = translator(mail.language)
    minutes = max(1, round((mail.expires_at - now).total_seconds() / 60))
    within = tr.ngettext("{n} minute", "{n} minutes", minutes)
    if mail.purpose == CONFIRM:
        subject = tr._("Confirm your address")
        lead = tr._("Someone, probably you, gave this address to a checkers profile.")
        action = tr._("Confirm it within {within}: {link}", within=within, link=mail.link)
    else:
        subject = tr._("Sign in to your checkers profile")
        lead = tr._("Someone, probably you, asked to sign in to your checkers profile.")
        action = tr._("Sign in within {within}: {link}", within=within, link=mail.link)
    text = "".join(
        (
            lead,
            "\n\n",
            action,
            "\n\n",
            tr._("If it was not you, ignore this mail: the link works once and then expires."),
            "\n",
        )
    )
    try:
        send_mail(settings, to=mail.address, subject=subject, text=text)
    except MailError as exc:
        log.warning(
            "profile_link_unsent", extra={"fields": {"purpose": mail.purpose, "error": str(exc)}}
        )
