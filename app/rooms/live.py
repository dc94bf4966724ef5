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

A storm of renames reaches the viewers as at most one write per room every
`LIVE_COALESCE_SECONDS`: the first goes at once, those after it within the interval are
held and go together, each seat's latest name alone, as one notice standing for all their
versions (`Notice.first`). Anything else of the room sends what is held first, so the
order stays the record's. The record itself keeps every rename.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import threading
from collections import Counter, deque
from collections.abc import Callable

from app.core.db import Database
from app.core.settings import Settings

from . import errors
from .events import CHANNEL, Answering, Notice, answering, decode, local_notices
from .models import EventKind

log = logging.getLogger("checkers.live")

RETRY_MS = 2000
QUEUE_LIMIT = 64  # notices a slow stream may fall behind before it re-reads instead
PAGE = 500
FANOUT_SLICE = 20  # streams written per turn of the event loop
BURST_SWITCH = 0.0005  # seconds: the interpreter's switch interval during a fan-out
SERVER_SEND = "checkers.server_send"  # the scope's key of the server's own `send`

# Writes one frame to a client now: None once written, else what to await for the rest.
Outlet = Callable[[bytes], asyncio.Future[None] | None]

# Events that only restate a seat's setting: a later one of the same seat makes an earlier
# one stale, so a viewer need not see each of a storm of them.
RESTATED: frozenset[str] = frozenset({EventKind.RENAMED.value})


def _restated(notice: Notice) -> tuple[str, object] | None:
    """What a later notice must restate for this one to be stale; None: never stale."""
    event = notice.event
    if event is None or notice.first is not None or event.get("kind") not in RESTATED:
        return None
    return str(event["kind"]), event.get("data", {}).get("seat")


def coalesce(notices: list[Notice]) -> list[Notice]:
    """Held notices of one room as few notices: each run of consecutive versions becomes
    one, keeping the latest event of each seat (a run stops at a gap, since a version
    missing here may be anything)."""
    runs: list[list[Notice]] = []
    for notice in sorted(notices, key=lambda n: n.version):
        if runs and notice.version == runs[-1][-1].version + 1:
            runs[-1].append(notice)
        else:
            runs.append([notice])
    merged = []
    for run in runs:
        if len(run) == 1:
            merged.append(run[0])
            continue
        latest = {_restated(notice): notice for notice in run}
        kept = tuple(n.event for n in run if latest[_restated(n)] is n and n.event is not None)
        last = run[-1]
        merged.append(Notice(last.room_id, last.version, last.event, run[0].version, kept))
    return merged


class _SwitchSooner:
    """While a crowd's writes keep the event loop busy, a request thread waiting for the
    interpreter (each database call gives it up and takes it back) would wait Python's
    whole switch interval, 5 ms, at every turn: a health check or a move queued behind a
    burst took tens of milliseconds. During a burst the interval is BURST_SWITCH; outside
    one it stays as it was, since switching sooner costs every thread a little."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._depth = 0
        self._saved = 0.0

    def __enter__(self) -> None:
        with self._lock:
            if self._depth == 0:
                self._saved = sys.getswitchinterval()
                sys.setswitchinterval(min(self._saved, BURST_SWITCH))
            self._depth += 1

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._depth -= 1
            if self._depth == 0:
                sys.setswitchinterval(self._saved)


_threads_switch_sooner = _SwitchSooner()


class Subscription:
    """One stream's inbox of notices for one room, and its place in the hub's fan-out.

    While its stream is parked with nothing left to write, the subscription holds the
    stream's `outlet` and the fan-out writes each next event straight to the client
    (`deliver`): a thousand viewers then cost a thousand socket writes per event, not a
    thousand tasks woken. Anything else (an event out of order or without its body, a
    keep-alive, the end, a write the client's socket cannot take now) goes to the inbox
    and wakes the stream, which takes the outlet back until it has caught up.

    Its clock (a keep-alive comment after `keepalive` seconds of silence, the end at
    `ends`) is kept by the hub's one ticker: a timer per wait would cost each of a
    thousand viewers more than its write."""

    def __init__(
        self, room_id: str, *, now: float, ends: float, keepalive: float, seat: str | None = None
    ) -> None:
        self.room_id = room_id
        self.seat = seat  # the viewer's seat (None: a spectator): who sees a private event
        self.notices: deque[Notice] = deque()
        self.resync = False  # read the record from the database on the next wake-up
        self.wake = asyncio.Event()
        self.ends = ends
        self.keepalive = keepalive
        self.quiet_since = now  # when the stream last wrote
        self.ping = False  # silent for `keepalive`: a comment is due
        self.expired = False
        self.last = 0  # the version of the last event written to the client
        self.outlet: Outlet | None = None  # set while the fan-out may write directly
        self.pending: asyncio.Future[None] | None = None  # a direct write still under way

    def deliver(self, notice: Notice, now: float) -> None:
        """The fan-out's hand-over: written now if it is the next event and the stream is
        parked, else queued for the stream."""
        outlet = self.outlet
        if outlet is not None and not notice.seen_by(self.seat) and notice.since == self.last + 1:
            self.last = notice.version  # another's private event: passed over unseen
        elif outlet is not None and notice.event is not None and notice.since == self.last + 1:
            self.last = notice.version
            self.wrote(now)
            self.pending = outlet(notice.frame)
            if self.pending is not None:  # the client's socket is full: the stream waits
                self._rouse()
        elif outlet is None or notice.version > self.last:
            self.push(notice)

    def push(self, notice: Notice) -> None:
        if len(self.notices) >= QUEUE_LIMIT:
            self.notices.clear()
            self.resync = True
        else:
            self.notices.append(notice)
        self._rouse()

    def mark_resync(self) -> None:
        self.resync = True
        self._rouse()

    def tick(self, now: float) -> None:
        if now >= self.ends:
            self.expired = True
            self._rouse()
        elif now - self.quiet_since >= self.keepalive:
            self.ping = True
            self._rouse()

    def _rouse(self) -> None:
        """Wake the stream and take the outlet back from the fan-out: an event written
        directly now would overtake what the stream has to write first."""
        self.outlet = None
        self.wake.set()

    async def park(self, outlet: Outlet) -> None:
        """Hand `outlet` to the fan-out and wait until the stream has something to do;
        then the stream writes alone again, once a direct write under way is through."""
        if not self.wake.is_set():
            self.outlet = outlet
            await self.wake.wait()
        self.outlet = None
        self.wake.clear()
        pending, self.pending = self.pending, None
        if pending is not None:
            await pending

    def take(self) -> tuple[list[Notice], bool]:
        notices, resync = list(self.notices), self.resync
        self.notices.clear()
        self.resync = False
        return notices, resync

    def wrote(self, now: float) -> None:
        self.quiet_since = now
        self.ping = False

    def close(self) -> None:
        """The stream is over: no direct write from now on; one under way is dropped."""
        self.outlet = None
        pending, self.pending = self.pending, None
        if pending is None:
            return
        if not pending.done():
            pending.cancel()
        elif not pending.cancelled():
            pending.exception()  # retrieved: the stream is ending anyway


class Hub:
    """The process's fan-out of room events to its open streams."""

    def __init__(self, database: Database, *, coalesce_seconds: float = 0.0) -> None:
        self.database = database
        self.coalesce_seconds = coalesce_seconds
        self._held: dict[str, list[Notice]] = {}  # renames waiting for their room's turn
        self._quiet_until: dict[str, float] = {}  # when a room may have its next rename out
        self._flushes: dict[str, asyncio.TimerHandle] = {}
        self._rooms: dict[str, set[Subscription]] = {}
        self._streams: Counter[str] = Counter()  # open streams per client address
        self._outbox: deque[Notice] = deque()
        self._fanout: asyncio.Task[None] | None = None
        self._ticker: asyncio.Task[None] | None = None
        self._tick_every = 1.0  # seconds; shorter for shorter keep-alives (tests)
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

    def subscribe(
        self, room_id: str, *, seconds: float, keepalive: float, seat: str | None = None
    ) -> Subscription:
        """A stream's inbox for `room_id`, ending after `seconds`, with a keep-alive
        comment due after `keepalive` seconds of silence; `seat` is the viewer's seat
        (None: a spectator), which decides the private events it is sent."""
        self._start()
        now = asyncio.get_running_loop().time()
        sub = Subscription(room_id, now=now, ends=now + seconds, keepalive=keepalive, seat=seat)
        self._rooms.setdefault(room_id, set()).add(sub)
        self._tick_every = min(self._tick_every, keepalive / 3, seconds / 3)
        if self._ticker is None or self._ticker.done():
            self._ticker = asyncio.get_running_loop().create_task(self._tick())
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        sub.close()
        subs = self._rooms.get(sub.room_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._rooms[sub.room_id]
                self._release(sub.room_id)
                self._quiet_until.pop(sub.room_id, None)

    def dispatch(self, notice: Notice) -> None:
        """Hand `notice` to the streams of its room (on the hub's event loop), in order;
        a rename may wait for its room's turn (`LIVE_COALESCE_SECONDS`)."""
        room = notice.room_id
        if self.coalesce_seconds > 0 and room in self._rooms and _restated(notice):
            now = asyncio.get_running_loop().time()
            held = self._held.get(room)
            if held is None and now >= self._quiet_until.get(room, 0.0):
                self._quiet_until[room] = now + self.coalesce_seconds
                self._send(notice)
            elif held is None:
                self._held[room] = [notice]
                self._flushes[room] = asyncio.get_running_loop().call_at(
                    self._quiet_until[room], self._flush, room
                )
            else:
                held.append(notice)
            return
        self._release(room)  # what is held is older: it goes first
        self._send(notice)

    def _flush(self, room: str) -> None:
        """The room's turn: what it holds goes out, and the next rename waits again."""
        self._flushes.pop(room, None)
        if self._held.get(room):
            self._quiet_until[room] = asyncio.get_running_loop().time() + self.coalesce_seconds
        self._release(room)

    def _release(self, room: str) -> None:
        handle = self._flushes.pop(room, None)
        if handle is not None:
            handle.cancel()
        for notice in coalesce(self._held.pop(room, [])):
            self._send(notice)

    def _send(self, notice: Notice) -> None:
        """Fan `notice` out, a slice of streams per turn of the loop: the answer to the
        move that made the event, and every other request, go out between the slices
        instead of after a thousand viewers."""
        self._outbox.append(notice)
        if self._fanout is None or self._fanout.done():
            self._fanout = asyncio.get_running_loop().create_task(self._fan_out())

    async def _fan_out(self) -> None:
        loop = asyncio.get_running_loop()
        with _threads_switch_sooner:
            while self._outbox:
                notice = self._outbox.popleft()
                subs = list(self._rooms.get(notice.room_id, ()))
                for start in range(0, len(subs), FANOUT_SLICE):
                    if start:
                        await asyncio.sleep(0)
                    now = loop.time()
                    for sub in subs[start : start + FANOUT_SLICE]:
                        sub.deliver(notice, now)

    async def _tick(self) -> None:
        """Wake the streams whose keep-alive or end is due; stops when none is open."""
        loop = asyncio.get_running_loop()
        while self._rooms:
            await asyncio.sleep(self._tick_every)
            now = loop.time()
            for subs in list(self._rooms.values()):
                for sub in list(subs):
                    sub.tick(now)

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

        delay = 0.5
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.database.libpq_url, autocommit=True
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
        for handle in self._flushes.values():
            handle.cancel()
        self._flushes.clear()
        self._held.clear()
        self._quiet_until.clear()
        for task in (self._fanout, self._ticker):
            if task is not None:
                task.cancel()
        self._fanout = self._ticker = None
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
