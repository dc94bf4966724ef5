"""Live updates: a room's event record as a stream of Server-Sent Events.

Each event's SSE id is its version, so a reconnect with `Last-Event-ID` (browsers send it
by themselves) resumes after the last event received, without gaps or repeats.

Fan-out: one `Hub` per process. On PostgreSQL the hub holds a single LISTEN connection
(not one per viewer) and hands each NOTIFY to the streams of that room, so an event made
through any instance reaches viewers on every instance. On SQLite events are handed over
in-process after their commit. Either way the notice carries the event, encoded once as
its SSE frame: a crowd of viewers costs one write each, no database read. A stream reads
the record only when a notice comes without its event or out of order (a lost or
reordered notice can delay an event, never drop it), and on (re)connecting.

The hub also counts the open streams, per client address and in all, so that a crowd
(or one client opening streams in a loop) meets a clear 429 or 503 with `Retry-After`
instead of exhausting the process's connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable
from typing import Any

from sqlalchemy.engine import make_url
from starlette.concurrency import run_in_threadpool
from starlette.responses import StreamingResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.db import Database
from app.core.settings import Settings

from . import errors
from .events import CHANNEL, Answering, Notice, answering, decode, local_notices, sse_frame
from .service import read_events

log = logging.getLogger("checkers.live")

RETRY_MS = 2000
QUEUE_LIMIT = 64  # notices a slow stream may fall behind before it re-reads instead
PAGE = 500
FANOUT_SLICE = 50  # streams woken per turn of the event loop


class Subscription:
    """One stream's inbox of notices for one room."""

    def __init__(self, room_id: str) -> None:
        self.room_id = room_id
        self.notices: deque[Notice] = deque()
        self.resync = False  # read the record from the database on the next wake-up
        self.wake = asyncio.Event()

    def push(self, notice: Notice) -> None:
        if len(self.notices) >= QUEUE_LIMIT:
            self.notices.clear()
            self.resync = True
        else:
            self.notices.append(notice)
        self.wake.set()

    def mark_resync(self) -> None:
        self.resync = True
        self.wake.set()

    async def wait(self, timeout: float) -> bool:
        """Whether something arrived within `timeout` seconds (no task is made per wait:
        a thousand viewers wake for each event)."""
        if not self.wake.is_set():
            try:
                async with asyncio.timeout(timeout):
                    await self.wake.wait()
            except TimeoutError:
                return False
        self.wake.clear()
        return True

    def take(self) -> tuple[list[Notice], bool]:
        notices, resync = list(self.notices), self.resync
        self.notices.clear()
        self.resync = False
        return notices, resync


class Hub:
    """The process's fan-out of room events to its open streams."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self._rooms: dict[str, set[Subscription]] = {}
        self._streams: Counter[str] = Counter()  # open streams per client address
        self._outbox: deque[Notice] = deque()
        self._fanout: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None
        self._handle: int | None = None
        self.listening = asyncio.Event()  # the PostgreSQL LISTEN is in place

    @property
    def open_streams(self) -> int:
        return sum(self._streams.values())

    def reserve(self, client: str, settings: Settings) -> Callable[[], None]:
        """A place for one more stream of `client`, or TooManyStreams (429, this client
        holds LIVE_STREAMS_PER_CLIENT) or StreamsFull (503, the process holds
        LIVE_STREAMS_MAX); returns what gives the place back (once)."""
        retry = settings.retry_after_seconds
        if self._streams[client] >= settings.live_streams_per_client:
            raise errors.TooManyStreams(
                f"at most {settings.live_streams_per_client} live streams per client",
                retry_after=retry,
            )
        if self.open_streams >= settings.live_streams_max:
            raise errors.StreamsFull("too many live streams here: retry later", retry_after=retry)
        self._streams[client] += 1
        released = False

        def release() -> None:
            nonlocal released
            if not released:
                released = True
                self._streams[client] -= 1
                if self._streams[client] <= 0:
                    del self._streams[client]

        return release

    def subscribe(self, room_id: str) -> Subscription:
        self._start()
        sub = Subscription(room_id)
        self._rooms.setdefault(room_id, set()).add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        subs = self._rooms.get(sub.room_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._rooms[sub.room_id]

    def dispatch(self, notice: Notice) -> None:
        """Hand `notice` to the streams of its room (on the hub's event loop), in order,
        a slice of streams per turn of the loop: the answer to the move that made the
        event, and every other request, go out between the slices instead of after a
        thousand viewers."""
        self._outbox.append(notice)
        if self._fanout is None or self._fanout.done():
            self._fanout = asyncio.get_running_loop().create_task(self._fan_out())

    async def _fan_out(self) -> None:
        while self._outbox:
            notice = self._outbox.popleft()
            subs = list(self._rooms.get(notice.room_id, ()))
            for start in range(0, len(subs), FANOUT_SLICE):
                if start:
                    await asyncio.sleep(0)
                for sub in subs[start : start + FANOUT_SLICE]:
                    sub.push(notice)

    def _resync_all(self) -> None:
        for subs in self._rooms.values():
            for sub in subs:
                sub.mark_resync()

    def _start(self) -> None:
        """Start listening on first use, on the running loop."""
        if self._loop is not None:
            return
        loop = asyncio.get_running_loop()
        self._loop = loop
        if self.database.is_sqlite:

            def from_thread(notice: Notice) -> None:
                holder = answering.get()
                if holder is not None and holder.hold(notice):
                    return  # sent out once the request that made it has its answer
                with contextlib.suppress(RuntimeError):  # the loop has closed
                    loop.call_soon_threadsafe(self.dispatch, notice)

            self._handle = local_notices(self.database.sessionmaker).add(from_thread)
        else:
            self._task = loop.create_task(self._listen(), name="room-events-listener")

    async def _listen(self) -> None:
        """Hold one LISTEN connection; reconnect on failure. Every (re)connection makes
        the open streams re-read, which covers anything sent while nobody listened."""
        import psycopg

        conninfo = make_url(self.database.url).set(drivername="postgresql")
        delay = 0.5
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    conninfo.render_as_string(hide_password=False), autocommit=True
                ) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    self._resync_all()
                    delay = 0.5
                    async for item in conn.notifies():
                        notice = decode(item.payload)
                        if notice is not None and not Answering.claim(notice):
                            self.dispatch(notice)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("event listener lost its connection: %s", type(exc).__name__)
            self.listening.clear()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 10.0)

    async def stop(self) -> None:
        if self._fanout is not None:
            self._fanout.cancel()
            self._fanout = None
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        if self._handle is not None:
            local_notices(self.database.sessionmaker).remove(self._handle)
            self._handle = None
        self._loop = None
        self.listening.clear()


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


# --- reading the record ---------------------------------------------------------------


def events_after(database: Database, room_id: str, after: int) -> list[dict[str, Any]]:
    """Every event with a version above `after`, oldest first."""
    found: list[dict[str, Any]] = []
    while True:
        with database.session() as session:
            page = read_events(session, room_id=room_id, after=after, limit=PAGE)
        found.extend(e.model_dump(mode="json") for e in page.events)
        if len(page.events) < PAGE:
            return found
        after = page.events[-1].version


async def stream(hub: Hub, room_id: str, after: int, *, settings: Settings) -> AsyncIterator[bytes]:
    """The room's events after version `after`, then each new one as it is committed;
    a comment every `live_keepalive_seconds` of silence keeps proxies from dropping the
    stream, which ends after `live_stream_seconds` (the client resumes with Last-Event-ID,
    which also moves long-lived viewers between instances as deployments change)."""
    sub = hub.subscribe(room_id)  # before the first read: nothing falls in between
    database = hub.database
    loop = asyncio.get_running_loop()
    ends = loop.time() + settings.live_stream_seconds
    keepalive = settings.live_keepalive_seconds
    last = after

    async def missed() -> list[dict[str, Any]]:
        try:
            return await run_in_threadpool(events_after, database, room_id, last)
        except errors.RoomNotFound:  # deleted (retention): the stream ends
            raise _RoomGone from None

    try:
        yield f"retry: {RETRY_MS}\n\n".encode()
        for event in await missed():
            last = event["version"]
            yield sse_frame(event)
        while loop.time() < ends:
            if not await sub.wait(min(keepalive, max(ends - loop.time(), 0.01))):
                yield b": keep-alive\n\n"
                continue
            notices, resync = sub.take()
            for notice in sorted(notices, key=lambda n: n.version):
                if resync or notice.version <= last:
                    continue
                if notice.event is not None and notice.version == last + 1:
                    last = notice.version
                    yield notice.frame
                else:
                    resync = True
            if resync:
                for event in await missed():
                    last = event["version"]
                    yield sse_frame(event)
    except _RoomGone:
        return
    finally:
        hub.unsubscribe(sub)


class _RoomGone(Exception):
    pass


class LiveResponse(StreamingResponse):
    """The SSE answer; gives its stream's place back however it ends (the client hangs
    up, the stream ends, the server stops), even before it began."""

    def __init__(self, body: AsyncIterator[bytes], release: Callable[[], None]) -> None:
        super().__init__(
            body,
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
        self.release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.release()
