"""A room's live stream as HTTP: the Server-Sent Events response that reads the record on
(re)connecting and then follows the hub's notices (`live.Hub`), and the middleware that
hands a request's events to the hub once its answer is sent.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Generator
from functools import partial
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import StreamingResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.context import Context
from app.core.db import Database
from app.core.settings import Settings

from . import errors, service
from .events import MAX_VERSION, Answering, answering, sse_frame
from .live import PAGE, RETRY_MS, SERVER_SEND, Hub, Outlet
from .models import SeatRole
from .record_schemas import EventsOut
from .runtime import RoomsRuntime
from .service import read_record

# --- answer first ----------------------------------------------------------------------


class AnswerFirstMiddleware:
    """The events a request commits are fanned out in this process once its answer is
    sent. A move watched by a thousand viewers would otherwise wait for their thousand
    writes (its answer leaves the worker thread while they run); the viewers get the
    event a moment later instead. Other processes are not held (PostgreSQL)."""

    def __init__(self, app: ASGIApp, hub: Hub) -> None:
        self.app = app
        self.hub = hub

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        holder = Answering()
        token = answering.set(holder)
        scope[SERVER_SEND] = send

        def release() -> None:
            for notice in holder.release():
                self.hub.dispatch(notice)

        async def send_wrapper(message: Message) -> None:
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body"):
                release()

        try:
            await self.app(scope, receive, send_wrapper)
        finally:
            answering.reset(token)
            release()


# --- the record's route ---------------------------------------------------------------


def resume_point(after: int, last_event_id: str | None) -> int:
    """`Last-Event-ID` (a reconnecting EventSource) wins over `after`. Only ASCII digits
    make a version: `str.isdigit` also accepts superscripts and other scripts' digits."""
    if last_event_id is None or not last_event_id.strip():
        return after
    value = last_event_id.strip()
    if not (value.isascii() and value.isdigit()) or int(value) > MAX_VERSION:
        raise errors.InvalidInput(
            f"Last-Event-ID must be the version of an event (a whole number up to {MAX_VERSION})"
        )
    return int(value)


async def events_answer(
    request: Request,
    *,
    token: str | None,
    database: Database,
    runtime: RoomsRuntime,
    ctx: Context,
    client: str,
    room_id: str,
    after: int,
    limit: int,
) -> Any:
    """The record after `after` as the token's holder sees it (a spectator without one):
    a JSON page, or the live stream when the request accepts `text/event-stream`."""

    def check() -> SeatRole | None:
        with database.session() as session:
            return service.check_viewer(session, room_id=room_id, token=token)

    seat = await run_in_threadpool(check)
    if "text/event-stream" not in request.headers.get("accept", ""):

        def page() -> EventsOut:
            with database.session() as session:
                return service.read_events(
                    session, room_id=room_id, after=after, limit=limit, seat=seat
                )

        return await run_in_threadpool(page)
    release = runtime.hub.reserve(client, ctx.settings)
    return LiveResponse(
        runtime.hub, room_id, after, settings=ctx.settings, release=release, seat=seat
    )


# --- reading the record ---------------------------------------------------------------


def events_after(
    database: Database, room_id: str, after: int, seat: str | None = None
) -> tuple[list[dict[str, Any]], int]:
    """Every event with a version above `after` that `seat` (None: a spectator) sees,
    oldest first, and the last version read (past the events kept from it)."""
    found: list[dict[str, Any]] = []
    while True:
        with database.session() as session:
            events, through, full = read_record(
                session, room_id=room_id, after=after, limit=PAGE, seat=seat
            )
        found.extend(e.model_dump(mode="json") for e in events)
        after = through
        if not full:
            return found, after


async def stream(
    hub: Hub,
    room_id: str,
    after: int,
    *,
    settings: Settings,
    outlet: Outlet,
    seat: str | None = None,
) -> AsyncIterator[bytes]:
    """The room's events after version `after`, then each new one as it is committed;
    a comment every `live_keepalive_seconds` of silence keeps proxies from dropping the
    stream, which ends after `live_stream_seconds` (the client resumes with Last-Event-ID,
    which also moves long-lived viewers between instances as deployments change). A
    private event (the players' chat) goes to the streams of its seats alone: the others
    pass over its version unseen.

    What it yields goes out through the response; while it waits, the fan-out writes the
    next events through `outlet` itself (`Subscription.deliver`)."""
    sub = hub.subscribe(  # before the first read: nothing falls in between
        room_id,
        seconds=settings.live_stream_seconds,
        keepalive=settings.live_keepalive_seconds,
        seat=seat,
    )
    database = hub.database
    loop = asyncio.get_running_loop()
    sub.last = after

    async def missed() -> list[dict[str, Any]]:
        try:
            found, through = await run_in_threadpool(
                events_after, database, room_id, sub.last, seat
            )
        except errors.RoomNotFound:  # deleted (retention): the stream ends
            raise _RoomGone from None
        sub.last = max(sub.last, through)
        return found

    try:
        yield f"retry: {RETRY_MS}\n\n".encode()
        for event in await missed():
            yield sse_frame(event)
        sub.wrote(loop.time())
        while True:
            await sub.park(outlet)
            if sub.expired:
                return
            notices, resync = sub.take()
            sent = sub.last
            for notice in sorted(notices, key=lambda n: n.version):
                if resync or notice.version <= sub.last:
                    continue
                if not notice.seen_by(seat) and notice.since == sub.last + 1:
                    sub.last = notice.version  # another's private event: passed over
                elif notice.event is not None and notice.since == sub.last + 1:
                    sub.last = notice.version
                    yield notice.frame
                else:
                    resync = True
            if resync:
                for event in await missed():
                    yield sse_frame(event)
            if sub.last == sent and sub.ping:
                yield b": keep-alive\n\n"
            elif sub.last == sent:
                continue  # nothing new: the silence goes on
            sub.wrote(loop.time())
    except _RoomGone:
        return
    finally:
        hub.unsubscribe(sub)


class _RoomGone(Exception):
    pass


class LiveResponse(StreamingResponse):
    """The SSE answer of `stream`; gives its stream's place back however it ends (the
    client hangs up, the stream ends, the server stops), even before it began.

    Its start and its end pass through every middleware (headers, access log, answer
    first); the frames between go straight to the server's `send` that
    `AnswerFirstMiddleware` leaves in the scope. No middleware changes a frame of an event
    stream, and a thousand viewers make a thousand sends for each event: the chain's ten
    wrappers would be most of what each one costs.
    """

    def __init__(
        self,
        hub: Hub,
        room_id: str,
        after: int,
        *,
        settings: Settings,
        release: Callable[[], None],
        seat: str | None = None,
    ) -> None:
        super().__init__(
            stream(hub, room_id, after, settings=settings, outlet=self._write_now, seat=seat),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
        self.release = release
        self.frames: Send | None = None  # the server's own send, once the answer has begun

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.frames = scope.get(SERVER_SEND)
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.release()

    def _write_now(self, frame: bytes) -> asyncio.Future[None] | None:
        assert self.frames is not None, "the stream writes once the answer has begun"
        return send_now(self.frames, _body(frame))

    async def stream_response(self, send: Send) -> None:
        await send(
            {"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers}
        )
        self.frames = frames = self.frames or send
        async for chunk in self.body_iterator:
            await frames(_body(chunk))
        await send({"type": "http.response.body", "body": b"", "more_body": False})


def _body(chunk: bytes | str | memoryview) -> Message:
    return {"type": "http.response.body", "body": chunk, "more_body": True}


# --- writing without a task -----------------------------------------------------------


def send_now(send: Send, message: Message) -> asyncio.Future[None] | None:
    """Run `send(message)` in the caller's turn of the event loop, without a task of its
    own. A server's send of a body returns without waiting unless the client's socket is
    full; only then does the rest go on as a task, which is returned to be awaited. None
    means the message is written; a failure is returned as a failed future."""
    steps = send(message).__await__()
    try:
        waiting = steps.send(None)
    except StopIteration:
        return None
    except Exception as exc:
        failed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        failed.set_exception(exc)
        return failed
    return asyncio.ensure_future(_Resumed(steps, waiting).run())


class _Resumed:
    """The rest of an awaitable that has already run up to its first wait: a task runs it
    from there, passing the wait on and the task's wake-ups (or its cancellation) back."""

    def __init__(self, steps: Generator[Any, None, Any], waiting: Any) -> None:
        self.steps = steps
        self.waiting = waiting

    def __await__(self) -> Generator[Any, None, None]:
        steps, waiting = self.steps, self.waiting
        while True:
            try:
                yield waiting
            except BaseException as exc:
                step = partial(steps.throw, exc)
            else:
                step = partial(steps.send, None)
            try:
                waiting = step()
            except StopIteration:
                return

    async def run(self) -> None:
        await self
