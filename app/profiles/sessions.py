"""Signed-in devices: a session is a 256-bit secret in an HttpOnly cookie, kept by the
service only as its SHA-256. It lasts PROFILE_SESSION_DAYS after the device's last
visit, and the player may end any of them (or all) from any other.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from fastapi import Request, Response
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from app.core.context import Context
from app.core.errors import TooManyRequests

from .models import ProfileSession

COOKIE = "profile"
# A session's expiry moves with its visits, written at most this often.
TOUCH_EVERY = timedelta(hours=1)


class SignInLimit(TooManyRequests):
    """This profile has signed in too often in the last hour; retry after `retry_after`."""

    code = "sign_in_limit"


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Signed:
    """The signed-in device of a request: its profile and its session's row id."""

    profile_id: int
    session_id: int


def device_of(user_agent: str) -> str:
    """What the devices' list says of a browser: its product and its system, read from
    the User-Agent (nothing else is kept of it)."""
    agent = user_agent.lower()
    browser = next(
        (
            name
            for key, name in (
                ("edg/", "Edge"),
                ("firefox/", "Firefox"),
                ("chromium/", "Chromium"),
                ("chrome/", "Chrome"),
                ("safari/", "Safari"),
            )
            if key in agent
        ),
        "Browser",
    )
    system = next(
        (
            name
            for key, name in (
                ("android", "Android"),
                ("iphone", "iOS"),
                ("ipad", "iPadOS"),
                ("windows", "Windows"),
                ("mac os", "macOS"),
                ("cros", "ChromeOS"),
                ("linux", "Linux"),
            )
            if key in agent
        ),
        None,
    )
    return f"{browser} · {system}" if system else browser


def within_sign_in_limit(session: Session, profile_id: int, ctx: Context) -> None:
    """Refuse a sign-in past the profile's share (PROFILE_SIGN_INS_PER_HOUR, every device
    and method together), whoever asks: a stolen device cannot mint sessions without end."""
    hour_ago = ctx.now - timedelta(hours=1)
    times = session.scalars(
        select(ProfileSession.created_at)
        .where(ProfileSession.profile_id == profile_id, ProfileSession.created_at > hour_ago)
        .order_by(ProfileSession.created_at)
    ).all()
    most = ctx.settings.profile_sign_ins_per_hour
    if len(times) >= most:
        wait = times[-most] + timedelta(hours=1) - ctx.now
        raise SignInLimit(
            "this profile has signed in too often in the last hour",
            retry_after=max(1, int(wait.total_seconds()) + 1),
        )


def open_session(
    session: Session, *, profile_id: int, method: str, device: str, ctx: Context
) -> str:
    """A new signed-in device for the profile, in the caller's transaction; returns the
    cookie's secret (kept nowhere else)."""
    within_sign_in_limit(session, profile_id, ctx)
    secret = secrets.token_urlsafe(32)
    session.add(
        ProfileSession(
            profile_id=profile_id,
            token_hash=digest(secret),
            device=device[:80],
            method=method,
            created_at=ctx.now,
            last_seen_at=ctx.now,
            expires_at=ctx.now + timedelta(days=ctx.settings.profile_session_days),
        )
    )
    return secret


def find(session: Session, secret: str | None, now: datetime, days: int) -> Signed | None:
    """The live session of a cookie's secret (None for none, an unknown or an expired
    one); a visit pushes its expiry on. Its own transaction."""
    if not secret or len(secret) > 100:
        return None
    with session.begin():
        row = session.scalar(
            select(ProfileSession).where(ProfileSession.token_hash == digest(secret))
        )
        if row is None or now >= row.expires_at:
            return None
        if now - row.last_seen_at >= TOUCH_EVERY:
            row.last_seen_at = now
            row.expires_at = now + timedelta(days=days)
        return Signed(row.profile_id, row.id)


def sessions_of(session: Session, profile_id: int, now: datetime) -> list[ProfileSession]:
    """The profile's live sessions, the latest seen first."""
    return list(
        session.scalars(
            select(ProfileSession)
            .where(ProfileSession.profile_id == profile_id, ProfileSession.expires_at > now)
            .order_by(ProfileSession.last_seen_at.desc(), ProfileSession.id.desc())
        )
    )


def end_session(session: Session, profile_id: int, session_id: int) -> bool:
    """Sign one device of the profile out; False when it has no such session."""
    done = session.execute(
        delete(ProfileSession).where(
            ProfileSession.profile_id == profile_id, ProfileSession.id == session_id
        )
    )
    return bool(getattr(done, "rowcount", 0))


def end_all(session: Session, profile_id: int) -> int:
    """Sign every device of the profile out (this one too); returns how many."""
    done = session.execute(delete(ProfileSession).where(ProfileSession.profile_id == profile_id))
    return int(getattr(done, "rowcount", 0) or 0)


def forget_expired(session: Session, now: datetime) -> int:
    """Delete the sessions past their expiry (the sweep); returns how many."""
    with session.begin():
        done = session.execute(delete(ProfileSession).where(ProfileSession.expires_at <= now))
        return int(getattr(done, "rowcount", 0) or 0)


def secure(request: Request) -> bool:
    """Cookies are Secure when the public URL (or this request) is HTTPS."""
    public = request.app.state.settings.public_url or ""
    return request.url.scheme == "https" or public.startswith("https://")


def set_cookie(request: Request, response: Response, secret: str) -> None:
    """The session's secret in an HttpOnly, SameSite=Lax cookie for the whole site; it
    lives as long as a session may (the server ends it sooner when told)."""
    days = request.app.state.settings.profile_session_days
    response.set_cookie(
        COOKIE,
        secret,
        max_age=days * 86400,
        path="/",
        httponly=True,
        samesite="lax",
        secure=secure(request),
    )


def clear_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=secure(request))
