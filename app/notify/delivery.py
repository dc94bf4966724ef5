"""Sending the outbox: due notifications, claimed by one sender at a time, sent once.

A sender claims a batch in a short transaction: the rows are locked with `FOR UPDATE SKIP
LOCKED` on PostgreSQL (SQLite's write lock serialises claims), and each is leased by
moving its `due_at` a lease ahead, so no other sender (instance, restart) takes it while
it is being sent. The pushes and mails of a batch go out together, a bounded number at
once and each within its time limit, with no transaction open, and the outcomes are
recorded: sent; retried later with a doubling delay; dropped when the push service says
the subscription is gone (404/410), its endpoint is no longer accepted, or the address was
unsubscribed; failed when the push service refuses it (another 4xx, a redirect, an
address the server may not reach) or after the last attempt. A sender that dies or stops
mid-send leaves its lease to run out, after which the row is sent again: the Topic header
and the notification's tag let the device show it once.

A row holds its message's facts: the text is rendered here, once the row is claimed, in
the language and time zone of its device or address (`messages`). Each run first forgets
the confirmation mails that no longer count against a limit (a day old).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from apscheduler.schedulers.base import BaseScheduler
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.core.clock import Clock
from app.core.context import Context
from app.core.db import Database
from app.core.errors import InvalidInput
from app.core.jobs import add_periodic
from app.core.logging import log_fields
from app.core.settings import Settings
from app.i18n import DEFAULT, translator

from . import confirmations, messages, push, subscriptions
from .mail import MailError, confirmation_mail, send_mail
from .models import Channel, Delivery, Notification, PushSubscription, SeatEmail

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
    game_number: int
    params: dict[str, Any]  # the facts of its message (see `messages.render`)
    language: str  # its device's or address's
    zone: str | None
    subscription_id: int | None
    subscription: dict[str, Any] | None  # endpoint and keys, for push
    email_id: int | None
    kind: str
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
                    game_number=note.game_number,
                    params=dict(note.params),
                    language=(sub or email).language if (sub or email) else DEFAULT,
                    zone=(sub or email).time_zone if (sub or email) else None,
                    subscription_id=note.subscription_id,
                    subscription=(
                        {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}}
                        if sub is not None
                        else None
                    ),
                    email_id=(
                        email.id
                        if email is not None
                        and (email.confirmed_at or note.kind == confirmations.CONFIRMATION)
                        else None
                    ),
                    kind=note.kind,
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


def payload(item: Claimed) -> dict[str, Any]:
    """The message of `item`, rendered now from its facts in its recipient's language (a
    row recorded before revision 0015 carries its text, sent as it is)."""
    if "rendered" in item.params:
        return dict(item.params["rendered"])
    return messages.payload(
        item.kind,
        item.params,
        room_id=item.room_id,
        game=item.game_number,
        language=item.language,
        zone=item.zone,
    )


def _mail_text(
    session: Session, item: Claimed, payload: dict[str, Any], ctx: Context
) -> tuple[str, str]:
    assert item.base_url is not None and item.email_id is not None
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


Result = tuple[push.Outcome, str | None]
Send = Callable[[], Awaitable[Result]]


def _prepare(
    session: Session, item: Claimed, ctx: Context, network: push.Network
) -> Send | Delivery:
    """What sending `item` takes (read now, in the sender's thread), or, when there is
    nothing to send, the outcome recorded."""
    settings = ctx.settings
    if item.channel == Channel.PUSH:
        if item.subscription is None:  # the subscription went away meanwhile
            _finish(session, item.id, ctx, Delivery.DROPPED)
            return Delivery.DROPPED
        try:
            endpoint = subscriptions.check_endpoint(item.subscription["endpoint"], settings)
        except InvalidInput as exc:  # stored before the rule, or the rule has changed
            assert item.subscription_id is not None
            subscriptions.drop_push(session, subscription_id=item.subscription_id)
            _finish(session, item.id, ctx, Delivery.DROPPED, exc.message)
            return Delivery.DROPPED
        keys, subscription, message = (
            push.vapid_keys(session, ctx),
            item.subscription,
            payload(item),
        )
        return lambda: push.send(
            keys, endpoint, subscription, message, settings=settings, network=network
        )
    if item.kind == confirmations.CONFIRMATION:  # to an address not confirmed yet
        nonce = str(item.params.get("nonce", ""))
        found = confirmations.confirmation_to_send(session, nonce=nonce, ctx=ctx)
        if found is None:  # replaced by a newer request, confirmed, forgotten or expired
            _finish(session, item.id, ctx, Delivery.DROPPED)
            return Delivery.DROPPED
        subject, text = confirmation_mail(found, ctx.now)
        address, unsubscribe = found.address, None
    else:
        if item.address is None:  # unsubscribed or replaced meanwhile
            _finish(session, item.id, ctx, Delivery.DROPPED)
            return Delivery.DROPPED
        message = payload(item)
        text, unsubscribe = _mail_text(session, item, message, ctx)
        subject, address = str(message["title"]), item.address

    def mail() -> None:
        send_mail(
            settings,
            to=address,
            subject=subject,
            text=text,
            unsubscribe=unsubscribe,
            message_id=f"<notification-{item.id}@checkers>",
        )

    async def send() -> Result:
        try:
            await push.in_thread(mail)
        except MailError as exc:
            return push.Outcome.RETRY, str(exc)
        return push.Outcome.SENT, None

    return send


def _record(session: Session, item: Claimed, result: Result, ctx: Context) -> Delivery | None:
    """Keep the outcome of a send (None: to be retried)."""
    outcome, error = result
    if outcome is push.Outcome.SENT:
        _finish(session, item.id, ctx, Delivery.SENT)
        return Delivery.SENT
    if outcome is push.Outcome.GONE:
        assert item.subscription_id is not None
        _finish(session, item.id, ctx, Delivery.DROPPED, error)
        subscriptions.drop_push(session, subscription_id=item.subscription_id)
        return Delivery.DROPPED
    if outcome is push.Outcome.REFUSED:
        _finish(session, item.id, ctx, Delivery.FAILED, error)
        return Delivery.FAILED
    _retry(session, item, ctx, error or "delivery failed")
    return None


class Sender:
    """Sends the due notifications, batch by batch, `NOTIFY_CONCURRENCY` at a time, each
    within `NOTIFY_TIMEOUT_SECONDS` all told: a push service that answers slowly or never
    holds one place of the pool for that long and delays no one else's message.

    `stop()` (from any thread: the server shutting down) ends a run at once. What was
    sent is recorded; a send cut short keeps its lease and goes again once it runs out
    (the device shows a message it may have had already once, by its tag)."""

    def __init__(
        self,
        database: Database,
        clock: Clock,
        settings: Settings,
        network: push.Network | None = None,
    ) -> None:
        self.database, self.clock, self.settings = database, clock, settings
        self.network = network or push.Network()
        self._lock = threading.Lock()
        self._stopped = False
        self._running: tuple[asyncio.AbstractEventLoop, asyncio.Task[None]] | None = None

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            if self._running is not None:
                loop, task = self._running
                with contextlib.suppress(RuntimeError):  # the loop has just closed
                    loop.call_soon_threadsafe(task.cancel)

    def run(self) -> int:
        """Forget the confirmation counts a day old, then send every notification due
        now; returns how many were handled."""
        total = 0
        with self.database.session() as session:
            confirmations.forget_counts(session, Context(self.clock.now(), self.settings))
        while not self._stopped:
            ctx = Context(self.clock.now(), self.settings)
            with self.database.session() as session:
                batch = claim(session, ctx)
                self._send_batch(session, batch, ctx)
            total += len(batch)
            if len(batch) < BATCH:
                break
        return total

    def _send_batch(self, session: Session, batch: list[Claimed], ctx: Context) -> None:
        # One queue per device or address, in the order the notifications fell due: a
        # device gets its messages in turn (the latest of a tag is the one it keeps).
        queues: dict[tuple[Channel, int | None], list[tuple[int, Send]]] = {}
        for item in batch:
            prepared = _prepare(session, item, ctx, self.network)
            if isinstance(prepared, Delivery):
                self._log(item, prepared)
            else:
                to = item.subscription_id if item.channel == Channel.PUSH else item.email_id
                queues.setdefault((item.channel, to), []).append((item.id, prepared))
        results: dict[int, Result] = {}
        if queues:
            self._send_all(list(queues.values()), results)
        for item in batch:
            if item.id in results:
                self._log(item, _record(session, item, results[item.id], ctx))

    def _send_all(self, queues: list[list[tuple[int, Send]]], results: dict[int, Result]) -> None:
        """Run the queues side by side, filling `results` as each send ends."""
        limit = asyncio.Semaphore(self.settings.notify_concurrency)
        timeout = self.settings.notify_timeout_seconds

        async def one(note_id: int, send: Send) -> None:
            async with limit:
                try:
                    async with asyncio.timeout(timeout):
                        results[note_id] = await send()
                except TimeoutError:
                    results[note_id] = (push.Outcome.RETRY, f"no answer within {timeout:g} s")

        async def in_turn(queue: list[tuple[int, Send]]) -> None:
            for note_id, send in queue:
                await one(note_id, send)

        async def all_of_them() -> None:
            await asyncio.gather(*(in_turn(queue) for queue in queues))

        with asyncio.Runner() as runner:
            loop = runner.get_loop()
            task = loop.create_task(all_of_them())
            with self._lock:
                if self._stopped:
                    task.cancel()
                self._running = (loop, task)
            try:
                runner.run(_wait(task))
            finally:
                with self._lock:
                    self._running = None

    @staticmethod
    def _log(item: Claimed, outcome: Delivery | None) -> None:
        log_fields(
            log,
            "notification",
            room=item.room_id,
            channel=item.channel,
            attempt=item.attempts,
            outcome=outcome.value if outcome else "retry",
        )


async def _wait(task: asyncio.Task[None]) -> None:
    with contextlib.suppress(asyncio.CancelledError):
        await task


def deliver_due(
    database: Database, clock: Clock, settings: Settings, network: push.Network | None = None
) -> int:
    """Send every notification due now, batch by batch; returns how many were handled."""
    return Sender(database, clock, settings, network).run()


def add_delivery_job(
    scheduler: BaseScheduler, database: Database, clock: Clock, settings: Settings
) -> Sender:
    """Send due notifications every `NOTIFY_INTERVAL_SECONDS`, by the sender returned
    (stop it before waiting for the scheduler's jobs to end)."""
    sender = Sender(database, clock, settings)
    add_periodic(scheduler, DELIVERY_JOB_ID, settings.notify_interval_seconds, sender.run)
    return sender
