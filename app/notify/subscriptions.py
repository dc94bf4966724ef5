"""How a seat asks to be told: Web Push subscriptions and a confirmed email address.

Each change takes the room's lock, like any action, so the seat's `push_on`/`email_on`
flags (which spare an action the lookup when nobody listens) always match the rows.
Addresses are only ever shown to their own seat, and only as "on".
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import ipaddress
import re
import secrets
from dataclasses import dataclass
from urllib.parse import urlsplit

from sqlalchemy import ColumnElement, delete, exists, select, update
from sqlalchemy.orm import Session

from app.core.context import Context
from app.core.errors import Conflict, Forbidden, InvalidInput
from app.core.keys import service_key
from app.core.settings import Settings
from app.i18n import N_, valid_zone
from app.rooms.locking import locked_room
from app.rooms.models import Seat
from app.rooms.seats import hash_token
from app.rooms.state import GameState

from .models import Channel, Delivery, Notification, PushSubscription, SeatEmail


class EmailUnavailable(Conflict):
    """This service sends no mail (no SMTP server configured)."""

    code = "email_unavailable"


class PushServiceRefused(InvalidInput):
    """The push endpoint is not on a push service this server sends to."""

    code = "push_service_refused"


class LinkInvalid(Forbidden):
    """The confirmation link is wrong, used or too old."""

    code = "link_invalid"


# --- Web Push ----------------------------------------------------------------------------


def _b64url(text: str, length: int, what: str) -> None:
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise InvalidInput(f"{what} is not base64url") from None
    if len(raw) != length:
        raise InvalidInput(f"{what} must be {length} bytes")


@dataclass(frozen=True)
class PushEndpoint:
    """A push endpoint as `check_endpoint` read it: the server connects by this reading
    alone, so no other URL parser can find another host in the same text."""

    scheme: str
    host: str  # a lowercase host name, or an address (IPv6 without its brackets)
    port: int
    target: str  # the path and query, as the request line sends them
    origin: str  # scheme://host[:port], the VAPID audience and the Host header's source

    @property
    def netloc(self) -> str:
        return self.origin.split("://", 1)[1]


_URL_TEXT = re.compile(r"[!-~]+")  # printable ASCII, no space
_HOST_NAME = re.compile(r"[a-z0-9-]+(\.[a-z0-9-]+)+")
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def _listed(host: str, services: tuple[str, ...]) -> bool:
    return any(host == name or host.endswith("." + name) for name in services)


def check_endpoint(endpoint: str, settings: Settings) -> PushEndpoint:
    """A push endpoint is an https:// URL on one of the push services browsers use
    (`PUSH_SERVICES`, by host suffix), with no user part: the server posts to it, so a
    client must not be able to point it anywhere else. An address is no push service; one
    on loopback is accepted, on plain HTTP too, only with `PUSH_ALLOW_LOOPBACK_FOR_TESTS`."""
    if not _URL_TEXT.fullmatch(endpoint) or "\\" in endpoint:
        raise InvalidInput("a push endpoint is a plain https:// URL")
    parts = urlsplit(endpoint)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise InvalidInput("a push endpoint is an https:// URL")
    if "@" in parts.netloc:
        raise InvalidInput("a push endpoint has no user part")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise InvalidInput("a push endpoint's port is a number") from None
    host = parts.hostname
    try:
        address: Address | None = ipaddress.ip_address(host)
    except ValueError:
        address = None
    if address is not None:
        if not (settings.push_allow_loopback_for_tests and address.is_loopback):
            raise PushServiceRefused(f"{host} is an address, not a push service")
    elif parts.scheme != "https":
        raise InvalidInput("a push endpoint is an https:// URL")
    elif not _HOST_NAME.fullmatch(host) or not _listed(host, settings.push_service_hosts):
        raise PushServiceRefused(f"{host} is not a push service this server sends to")
    shown = f"[{host}]" if address is not None and address.version == 6 else host
    return PushEndpoint(
        scheme=parts.scheme,
        host=host,
        port=port,
        target=(parts.path or "/") + (f"?{parts.query}" if parts.query else ""),
        origin=f"{parts.scheme}://{shown}" + (f":{parts.port}" if parts.port else ""),
    )


def address_allowed(address: Address, settings: Settings) -> bool:
    """Whether the server may connect to `address` for a push: a global address only
    (loopback too with `PUSH_ALLOW_LOOPBACK_FOR_TESTS`); an IPv4 address written in IPv6
    is judged as itself."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if settings.push_allow_loopback_for_tests and address.is_loopback:
        return True
    return address.is_global and not address.is_multicast


def add_push(
    session: Session,
    *,
    room_id: str,
    token: str | None,
    endpoint: str,
    p256dh: str,
    auth: str,
    ctx: Context,
    time_zone: str | None = None,
) -> GameState:
    """Tell the token's seat of its room's changes through this push subscription, in
    the request's language and `time_zone`, kept from now on for that device."""
    language, zone = ctx.language, valid_zone(time_zone)
    check_endpoint(endpoint, ctx.settings)
    _b64url(p256dh, 65, "keys.p256dh")
    _b64url(auth, 16, "keys.auth")
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        seat = state.require_seat()
        state.require_open()
        found = session.scalar(
            select(PushSubscription).where(
                PushSubscription.seat_id == seat.id, PushSubscription.endpoint == endpoint
            )
        )
        if found is None:
            session.add(
                PushSubscription(
                    seat_id=seat.id,
                    endpoint=endpoint,
                    p256dh=p256dh,
                    auth=auth,
                    created_at=ctx.now,
                    language=language,
                    time_zone=zone,
                )
            )
        else:
            found.p256dh, found.auth = p256dh, auth
            found.language, found.time_zone = language, zone
        session.flush()
        kept = select(PushSubscription.id).where(PushSubscription.seat_id == seat.id)
        newest = kept.order_by(PushSubscription.id.desc()).limit(ctx.settings.push_devices_per_seat)
        session.execute(
            delete(PushSubscription).where(
                PushSubscription.seat_id == seat.id,
                PushSubscription.id.not_in(newest.scalar_subquery()),
            )
        )
        seat.push_on = True
        return state


def remove_push(
    session: Session, *, room_id: str, token: str | None, endpoint: str, ctx: Context
) -> GameState:
    """Stop telling the seat through this subscription (this device)."""
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        seat = state.require_seat()
        session.execute(
            delete(PushSubscription).where(
                PushSubscription.seat_id == seat.id, PushSubscription.endpoint == endpoint
            )
        )
        _refresh_push_flag(session, seat)
        return state


def drop_push(session: Session, *, subscription_id: int) -> None:
    """A push service said the subscription is gone (404/410), or its endpoint is no
    longer accepted: forget it, and its seat's flag with it when it was the seat's last.
    A plain delete in its own short transaction: it changes no room, so it takes no
    room's lock (and applies no deadline)."""
    with session.begin():
        seat_id = session.scalar(
            select(PushSubscription.seat_id).where(PushSubscription.id == subscription_id)
        )
        if seat_id is None:
            return
        # The seat's row first: a subscription being added meanwhile (under the room's
        # lock, which also writes this row) has committed before the flag is counted.
        session.execute(select(Seat.id).where(Seat.id == seat_id).with_for_update())
        session.execute(delete(PushSubscription).where(PushSubscription.id == subscription_id))
        left = exists().where(PushSubscription.seat_id == seat_id)
        session.execute(update(Seat).where(Seat.id == seat_id).values(push_on=left))


def forget_devices(session: Session, seat: Seat) -> None:
    """The seat moved to another device (in that transaction): the old device's push
    subscriptions go."""
    session.execute(delete(PushSubscription).where(PushSubscription.seat_id == seat.id))
    seat.push_on = False


def _refresh_push_flag(session: Session, seat: Seat) -> None:
    session.flush()
    seat.push_on = bool(session.scalar(select(exists().where(PushSubscription.seat_id == seat.id))))


# --- email -----------------------------------------------------------------------------


def confirm_email(session: Session, *, secret: str, ctx: Context) -> str:
    """Confirm the address of the link's secret; the id of its seat's room."""
    digest = hash_token(secret)
    room_id = _room_of_address(session, SeatEmail.confirm_hash == digest)
    if room_id is None:
        raise LinkInvalid(
            N_("this confirmation link is not valid (a newer one may have replaced it)")
        )
    with locked_room(session, room_id=room_id, ctx=ctx) as state:
        found = session.scalar(select(SeatEmail).where(SeatEmail.confirm_hash == digest))
        if found is None:
            raise LinkInvalid(N_("this confirmation link is not valid"))
        if found.confirm_expires_at is None or ctx.now >= found.confirm_expires_at:
            raise LinkInvalid(N_("this confirmation link has expired: ask for a new one"))
        found.confirmed_at = ctx.now
        found.confirm_hash = None
        found.confirm_expires_at = None
        _seat(state, found.seat_id).email_on = True
    return room_id


def _room_of_address(session: Session, which: ColumnElement[bool]) -> str | None:
    """The room of the seat whose address `which` picks (its lock is taken after)."""
    with session.begin():
        return session.scalar(
            select(Seat.room_id).join(SeatEmail, SeatEmail.seat_id == Seat.id).where(which)
        )


def unsubscribe_signature(session: Session, *, email_id: int, ctx: Context) -> str:
    """The signature of the unsubscribe link of an address: a link that needs no seat
    token and no stored secret."""
    key = service_key(session, "mail-links", lambda: secrets.token_urlsafe(32), ctx.now)
    mac = hmac.new(key.encode(), f"unsubscribe:{email_id}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).decode().rstrip("=")


def unsubscribe(session: Session, *, email_id: int, signature: str, ctx: Context) -> None:
    """The one-click unsubscribe (RFC 8058): the address is forgotten, its mails stop."""
    if not hmac.compare_digest(
        unsubscribe_signature(session, email_id=email_id, ctx=ctx), signature
    ):
        raise LinkInvalid(N_("this unsubscribe link is not valid"))
    room_id = _room_of_address(session, SeatEmail.id == email_id)
    if room_id is None:
        return  # already unsubscribed: the link stays harmless
    with locked_room(session, room_id=room_id, ctx=ctx) as state:
        seat_id = session.scalar(select(SeatEmail.seat_id).where(SeatEmail.id == email_id))
        if seat_id is not None:
            _forget_address(session, _seat(state, seat_id), ctx)


def stop_email(session: Session, *, room_id: str, token: str | None, ctx: Context) -> GameState:
    """The seat turns its mails off (its address is forgotten)."""
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        _forget_address(session, state.require_seat(), ctx)
        return state


def _seat(state: GameState, seat_id: int) -> Seat:
    return next(seat for seat in state.room.seats if seat.id == seat_id)


def _forget_address(session: Session, seat: Seat, ctx: Context) -> None:
    seat.email_on = False
    session.execute(delete(SeatEmail).where(SeatEmail.seat_id == seat.id))
    session.execute(
        update(Notification)
        .where(
            Notification.seat_id == seat.id,
            Notification.channel == Channel.EMAIL,
            Notification.state == Delivery.PENDING,
        )
        .values(state=Delivery.DROPPED, finished_at=ctx.now)
    )


def use_confirmed_address(
    session: Session,
    *,
    room_id: str,
    token: str | None,
    address: str,
    base_url: str,
    language: str,
    ctx: Context,
) -> GameState:
    """Mail the seat's notifications to an address its player already confirmed (a
    profile's, confirmed once by the link mailed to it): no new confirmation is sent."""
    if not ctx.settings.email_enabled:
        raise EmailUnavailable("this service sends no email (no SMTP server is configured)")
    with locked_room(session, room_id=room_id, token=token, ctx=ctx) as state:
        seat = state.require_seat()
        state.require_open()
        found = session.scalar(select(SeatEmail).where(SeatEmail.seat_id == seat.id))
        if found is None:
            found = SeatEmail(seat_id=seat.id, created_at=ctx.now)
            session.add(found)
        found.address = address
        found.base_url = (ctx.settings.public_url or base_url).rstrip("/")
        found.language, found.time_zone = language, None
        found.confirm_hash = found.confirm_expires_at = None
        found.confirmed_at = ctx.now
        seat.email_on = True
        return state
