"""Sending the outbox: due notifications, claimed by one sender at a time, sent once.

A sender claims a batch in a short transaction: the rows are locked with `FOR UPDATE SKIP
LOCKED` on PostgreSQL (SQLite's write lock serialises claims), and each is leased by
moving its `due_at` a lease ahead, so no other sender (instance, restart) takes it while
it is being sent. The push or mail goes out with no transaction open, and the outcome is
recorded: sent; retried later with a doubling delay; dropped when the push service says
the subscription is gone (404/410) or the address was unsubscribed; failed after the last
attempt. A sender that dies mid-send leaves its lease to run out, after which the row is
sent again: the Topic header and the notification's tag let the device show it once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from apscheduler.schedulers.base import BaseScheduler
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.core.clock import Clock
from app.core.context import Context
from app.core.db import Database
from app.core.jobs import add_periodic
from app.core.logging import log_fields
from app.core.settings import Settings
from app.i18n import DEFAULT, translator
from app.rooms import subscriptions
from app.rooms.models import Channel, Delivery, Notification, PushSubscription, SeatEmail

from . import push
from .mail import MailError, send_mail

log = logging.getLogger("checkers.notify")

DELIVERY_JOB_ID = "notify-deliver"
BATCH = 50


@dataclass(frozen=True)
class Claimed:
    """A notification taken for sending, with what its channel needs."""

    id: int
    room_id: str
    channel: Channel
    attempts: int
    payload: dict[str, Any]
    subscription_id: int | None
    subscription: dict[str, Any] | None  # endpoint and keys, for push
    email_id: int | None
    address: str | None
    base_url: str | None


def lease(settings: Settings) -> timedelta:
    """How long a claimed notification is a sender's: well past one send's time limit."""
    return timedelta(seconds=max(60.0, 3 * settings.notify_timeout_seconds))


def claim(session: Session, ctx: Context, limit: int = BATCH) -> list[Claimed]:
    """Take up to `limit` due notifications for this sender (one short transaction)."""
    with session.begin():
        rows = session.execute(
            select(Notification, PushSubscription, SeatEmail)
            .outerjoin(PushSubscription, PushSubscription.id == Notification.subscription_id)
            .outerjoin(
                SeatEmail,
                (SeatEmail.seat_id == Notification.seat_id)
                & (Notification.channel == Channel.EMAIL),
            )
            .where(Notification.state == Delivery.PENDING, Notification.due_at <= ctx.now)
            .order_by(Notification.due_at)
            .limit(limit)
            .with_for_update(skip_locked=True, of=Notification)
        ).all()
        claimed = []
        for note, sub, email in rows:
            note.attempts += 1
            note.due_at = ctx.now + lease(ctx.settings)
            claimed.append(
                Claimed(
                    id=note.id,
                    room_id=note.room_id,
                    channel=note.channel,
                    attempts=note.attempts,
                    payload=dict(note.payload),
                    subscription_id=note.subscription_id,
                    subscription=(
                        {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}}
                        if sub is not None
                        else None
                    ),
                    email_id=email.id if email is not None and email.confirmed_at else None,
                    address=email.address if email is not None and email.confirmed_at else None,
                    base_url=email.base_url if email is not None else None,
                )
            )
        return claimed


def _finish(
    session: Session, note_id: int, ctx: Context, state: Delivery, error: str | None = None
) -> None:
    with session.begin():
        session.execute(
            update(Notification)
            .where(Notification.id == note_id, Notification.state == Delivery.PENDING)
            .values(state=state, finished_at=ctx.now, last_error=error)
        )


def _retry(session: Session, item: Claimed, ctx: Context, error: str) -> None:
    settings = ctx.settings
    if item.attempts >= settings.notify_max_attempts:
        _finish(session, item.id, ctx, Delivery.FAILED, error)
        return
    delay = settings.notify_retry_seconds * 2 ** (item.attempts - 1)
    with session.begin():
        session.execute(
            update(Notification)
            .where(Notification.id == item.id, Notification.state == Delivery.PENDING)
            .values(due_at=ctx.now + timedelta(seconds=delay), last_error=error[:200])
        )


def _mail_text(session: Session, item: Claimed, ctx: Context) -> tuple[str, str]:
    assert item.base_url is not None and item.email_id is not None
    payload = item.payload
    stop = subscriptions.unsubscribe_signature(session, email_id=item.email_id, ctx=ctx)
    unsubscribe = f"{item.base_url}/mail/unsubscribe?e={item.email_id}&t={stop}"
    tr = translator(str(payload.get("lang", DEFAULT)))  # the address's language
    text = "".join(
        (
            f"{payload['body']}\n\n",
            tr._("Open the room: {url}", url=f"{item.base_url}{payload['url']}"),
            "\n\n",
            tr._("You get this mail because you asked to be told about this game."),
            "\n",
            tr._("Stop these mails: {url}", url=unsubscribe),
            "\n",
        )
    )
    return text, unsubscribe


def deliver(session: Session, item: Claimed, ctx: Context) -> Delivery | None:
    """Send one claimed notification and record the outcome (None: to be retried)."""
    settings = ctx.settings
    if item.channel == Channel.PUSH:
        if item.subscription is None:  # the subscription went away meanwhile
            _finish(session, item.id, ctx, Delivery.DROPPED)
            return Delivery.DROPPED
        keys = push.vapid_keys(session, ctx)
        outcome, error = push.send(
            keys,
            item.subscription,
            item.payload,
            subject=settings.vapid_subject,
            timeout=settings.notify_timeout_seconds,
        )
        if outcome is push.Outcome.SENT:
            _finish(session, item.id, ctx, Delivery.SENT)
            return Delivery.SENT
        if outcome is push.Outcome.GONE:
            assert item.subscription_id is not None
            _finish(session, item.id, ctx, Delivery.DROPPED, error)
            subscriptions.drop_push(
                session, subscription_id=item.subscription_id, room_id=item.room_id, ctx=ctx
            )
            return Delivery.DROPPED
        if outcome is push.Outcome.REFUSED:
            _finish(session, item.id, ctx, Delivery.FAILED, error)
            return Delivery.FAILED
        _retry(session, item, ctx, error or "push failed")
        return None
    if item.address is None:  # unsubscribed or replaced meanwhile
        _finish(session, item.id, ctx, Delivery.DROPPED)
        return Delivery.DROPPED
    text, unsubscribe = _mail_text(session, item, ctx)
    try:
        send_mail(
            settings,
            to=item.address,
            subject=str(item.payload["title"]),
            text=text,
            unsubscribe=unsubscribe,
            message_id=f"<notification-{item.id}@checkers>",
        )
    except MailError as exc:
        _retry(session, item, ctx, str(exc))
        return None
    _finish(session, item.id, ctx, Delivery.SENT)
    return Delivery.SENT


def deliver_due(database: Database, clock: Clock, settings: Settings) -> int:
    """Send every notification due now, batch by batch; returns how many were handled."""
    total = 0
    while True:
        ctx = Context(clock.now(), settings)
        with database.session() as session:
            batch = claim(session, ctx)
            for item in batch:
                outcome = deliver(session, item, ctx)
                log_fields(
                    log,
                    "notification",
                    room=item.room_id,
                    channel=item.channel,
                    attempt=item.attempts,
                    outcome=outcome.value if outcome else "retry",
                )
        total += len(batch)
        if len(batch) < BATCH:
            return total


def add_delivery_job(
    scheduler: BaseScheduler, database: Database, clock: Clock, settings: Settings
) -> None:
    """Send due notifications every `NOTIFY_INTERVAL_SECONDS`."""
    add_periodic(
        scheduler,
        DELIVERY_JOB_ID,
        settings.notify_interval_seconds,
        deliver_due,
        database,
        clock,
        settings,
    )
