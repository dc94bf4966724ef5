"""Acceptance (issue 14): a crowd of viewers costs little. Through real sockets (a Uvicorn
server in a thread, so the test can count the app's statements):

- an event reaches every open stream of the process without any stream reading the
  database (the in-process notice carries the event, on SQLite as on PostgreSQL);
- streams are capped per client address and in total, past which a new one is answered
  429 or 503 with `Retry-After`, not cut;
- an idle stream gets a keep-alive comment every LIVE_KEEPALIVE_SECONDS.
"""

from __future__ import annotations

import asyncio
import json
import queue
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from sqlalchemy import event

from app.core.clock import ManualClock
from app.core.db import Database
from app.core.settings import Settings
from app.main import create_app
from app.rooms.events import Notice
from app.rooms.live import coalesce
from tests.web.servers import serve_app

pytestmark = pytest.mark.xdist_group("live")


@dataclass
class Stream:
    """One SSE stream read in a thread: every line with its arrival time."""

    url: str
    local_address: str = "127.0.0.1"
    headers: dict[str, str] = field(default_factory=dict)
    lines: queue.Queue[tuple[str, float]] = field(default_factory=queue.Queue)
    status: int | None = None
    answer: dict[str, Any] | None = None
    retry_after: str | None = None

    def __post_init__(self) -> None:
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        assert self._ready.wait(10), "the stream did not open"

    def _run(self) -> None:
        transport = httpx.HTTPTransport(local_address=self.local_address)
        try:
            with (
                httpx.Client(transport=transport, timeout=httpx.Timeout(5, read=None)) as client,
                client.stream(
                    "GET", self.url, headers={"Accept": "text/event-stream", **self.headers}
                ) as response,
            ):
                self.status = response.status_code
                if response.status_code != 200:
                    self.retry_after = response.headers.get("retry-after")
                    self.answer = response.read() and response.json()
                    return
                self._ready.set()
                for line in response.iter_lines():
                    self.lines.put((line, time.monotonic()))
                    if self._stop.is_set():
                        return
        except httpx.HTTPError:
            pass
        finally:
            self._ready.set()

    def event_ids(self, count: int, timeout: float = 5) -> list[int]:
        found: list[int] = []
        deadline = time.monotonic() + timeout
        while len(found) < count:
            line, _ = self.lines.get(timeout=max(deadline - time.monotonic(), 0.01))
            if line.startswith("id: "):
                found.append(int(line[4:]))
        return found

    def close(self) -> None:
        self._stop.set()

    def ended(self, timeout: float) -> bool:
        """Whether the server closed the stream within `timeout` seconds."""
        self._thread.join(timeout)
        return not self._thread.is_alive()


@pytest.fixture
def live(database: Database, clock: ManualClock, settings: Settings) -> Iterator[Any]:
    """`live(**settings)`: the app served through a real socket; yields its base URL."""
    servers: list[Any] = []

    def start(**changes: Any) -> str:
        app = create_app(settings.model_copy(update=changes), clock=clock, database=database)
        server = serve_app(app)
        servers.append(server)
        return server.__enter__()

    yield start
    for server in servers:
        server.__exit__(None, None, None)


def _post(client: httpx.Client, url: str, token: str | None = None, **body: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = client.post(url, json=body or None, headers=headers)
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


def test_an_event_is_fanned_out_without_a_read_per_viewer(live: Any, database: Database) -> None:
    base = live()
    with httpx.Client(base_url=base, timeout=10) as api:
        created = _post(api, "/api/rooms", rule_set="english")
        room, drums = created["room_id"], created["token"]
        tires = _post(api, f"/api/rooms/{room}/join")["token"]
        viewers = [Stream(f"{base}/api/rooms/{room}/events") for _ in range(20)]
        for viewer in viewers:
            assert viewer.event_ids(2) == [1, 2]

        reads: list[str] = []

        def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            if "FROM events" in statement:
                reads.append(statement)

        event.listen(database.engine, "before_cursor_execute", count)
        try:
            for ply, (token, move) in enumerate([(drums, "11-15"), (tires, "22-18")]):
                _post(api, f"/api/rooms/{room}/moves", token, move=move, expected_ply=ply)
                for viewer in viewers:
                    assert viewer.event_ids(1) == [3 + ply]
        finally:
            event.remove(database.engine, "before_cursor_execute", count)
        assert reads == [], f"{len(reads)} reads of the event record for 2 events to 20 viewers"
        for viewer in viewers:
            viewer.close()


def test_streams_are_capped_per_client_and_in_total(live: Any) -> None:
    base = live(live_streams_per_client=2, live_streams_max=3, retry_after_seconds=7)
    with httpx.Client(base_url=base, timeout=10) as api:
        room = _post(api, "/api/rooms", rule_set="english")["room_id"]
    url = f"{base}/api/rooms/{room}/events"
    mine = [Stream(url) for _ in range(2)]
    assert [s.status for s in mine] == [200, 200]
    over = Stream(url)
    assert (over.status, over.retry_after) == (429, "7")
    assert over.answer is not None and over.answer["code"] == "too_many_streams"
    other = Stream(url, local_address="127.0.0.2")
    assert other.status == 200
    full = Stream(url, local_address="127.0.0.3")
    assert (full.status, full.retry_after) == (503, "7")
    assert full.answer is not None and full.answer["code"] == "streams_full"
    # Closing a stream frees its place.
    mine[0].close()
    with httpx.Client(base_url=base, timeout=10) as api:
        _post(api, f"/api/rooms/{room}/join")  # an event wakes the reader, which hangs up
    deadline = time.monotonic() + 5
    while True:
        again = Stream(url, local_address="127.0.0.3")
        if again.status == 200 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert again.status == 200
    for stream in (*mine, other, again):
        stream.close()


def test_an_ipv6_client_holds_its_streams_by_its_64(live: Any) -> None:
    """Behind the trusted proxy, viewers from one IPv6 /64 share one client's streams."""
    base = live(live_streams_per_client=2, trusted_proxies="127.0.0.1")
    with httpx.Client(base_url=base, timeout=10) as api:
        room = _post(api, "/api/rooms", rule_set="english")["room_id"]
    url = f"{base}/api/rooms/{room}/events"

    def stream(address: str) -> Stream:
        return Stream(url, headers={"X-Forwarded-For": address})

    mine = [stream("2001:db8:7:8::1"), stream("2001:db8:7:8:aaaa::2")]
    assert [s.status for s in mine] == [200, 200]
    over = stream("2001:db8:7:8:ffff:ffff:ffff:fffe")
    assert over.status == 429 and over.answer is not None
    assert over.answer["code"] == "too_many_streams"
    other = stream("2001:db8:7:9::1")
    assert other.status == 200
    for each in (*mine, other):
        each.close()


def test_an_idle_stream_gets_keep_alive_comments(live: Any) -> None:
    base = live(live_keepalive_seconds=0.3)
    with httpx.Client(base_url=base, timeout=10) as api:
        room = _post(api, "/api/rooms", rule_set="english")["room_id"]
    stream = Stream(f"{base}/api/rooms/{room}/events?after=1")
    started = time.monotonic()
    comments = []
    while len(comments) < 3 and time.monotonic() - started < 3:
        line, at = stream.lines.get(timeout=3)
        if line.startswith(":"):
            comments.append(at)
    assert len(comments) == 3, "no keep-alive comment on an idle stream"
    assert comments[-1] - started < 2.0
    stream.close()


def test_a_stream_ends_after_its_time_and_a_burst_leaves_the_switch_interval(live: Any) -> None:
    """The hub's one ticker ends a stream after LIVE_STREAM_SECONDS (the client resumes),
    and a fan-out's shorter switch interval is given back once the event is out."""
    before = sys.getswitchinterval()
    base = live(live_stream_seconds=0.8)
    with httpx.Client(base_url=base, timeout=10) as api:
        created = _post(api, "/api/rooms", rule_set="english")
        room = created["room_id"]
        _post(api, f"/api/rooms/{room}/join")
        started = time.monotonic()
        viewer = Stream(f"{base}/api/rooms/{room}/events?after=1")
        _post(api, f"/api/rooms/{room}/moves", created["token"], move="11-15", expected_ply=0)
        assert viewer.event_ids(2) == [2, 3]
        assert viewer.ended(timeout=5), "the stream outlived LIVE_STREAM_SECONDS"
        assert 0.8 <= time.monotonic() - started < 3.0
    assert sys.getswitchinterval() == before


class AsgiViewer:
    """A live stream called on the app as a server would, in the test's event loop; its
    `send` can be held, as a server's is while a client's socket is full."""

    def __init__(self, app: Any, room: str, address: str) -> None:
        self.frames: list[bytes] = []
        self.held = asyncio.Event()
        self.held.set()
        self.arrived = asyncio.Event()
        self._gone = asyncio.Event()
        self._asked = False  # the (empty) request body has been received
        self.in_flight = self.most_in_flight = 0  # writes begun and not yet through
        scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": f"/api/rooms/{room}/events",
            "raw_path": f"/api/rooms/{room}/events".encode(),
            "query_string": b"after=0",
            "root_path": "",
            "headers": [(b"host", b"127.0.0.1"), (b"accept", b"text/event-stream")],
            "client": (address, 40000),
            "server": ("127.0.0.1", 80),
        }
        self.task = asyncio.create_task(app(scope, self._receive, self._send))

    async def _receive(self) -> dict[str, Any]:
        if not self._asked:
            self._asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await self._gone.wait()
        return {"type": "http.disconnect"}

    async def _send(self, message: dict[str, Any]) -> None:
        if message["type"] == "http.response.body" and message.get("body"):
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
            await self.held.wait()
            self.in_flight -= 1
            self.frames.append(message["body"])
            self.arrived.set()

    def ids(self) -> list[int]:
        return [
            int(line[4:])
            for frame in self.frames
            for line in frame.decode().splitlines()
            if line.startswith("id: ")
        ]

    async def until(self, count: int) -> list[int]:
        async with asyncio.timeout(5):
            while len(self.ids()) < count:
                self.arrived.clear()
                await self.arrived.wait()
        return self.ids()

    async def close(self) -> None:
        self._gone.set()
        await asyncio.wait_for(self.task, 5)


def test_a_viewer_whose_socket_is_full_holds_up_no_one(
    database: Database, clock: ManualClock, settings: Settings
) -> None:
    """The fan-out writes each event to every parked stream itself; a write that has to
    wait (the client's socket is full) goes on in the background, the other viewers get
    the next events meanwhile, and the held viewer gets every event, in order, once its
    socket drains."""
    app = create_app(settings, clock=clock, database=database)
    moves = ["11-15", "22-18", "15x22", "25x18", "12-16", "18-14"]

    async def play() -> None:
        transport = httpx.ASGITransport(app=app)
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as api,
        ):
            created = (await api.post("/api/rooms", json={"rule_set": "english"})).json()
            room = created["room_id"]
            joined = (await api.post(f"/api/rooms/{room}/join")).json()
            tokens = [created["token"], joined["token"]]
            fast = AsgiViewer(app, room, "127.0.0.2")
            slow = AsgiViewer(app, room, "127.0.0.3")
            assert await fast.until(2) == [1, 2]
            assert await slow.until(2) == [1, 2]
            slow.held.clear()  # its socket is full from now on

            for ply, move in enumerate(moves):
                answer = await api.post(
                    f"/api/rooms/{room}/moves",
                    json={"move": move, "expected_ply": ply},
                    headers={"Authorization": f"Bearer {tokens[ply % 2]}"},
                )
                assert answer.status_code == 200, answer.text
                assert await fast.until(3 + ply) == list(range(1, 4 + ply))
            assert slow.ids() == [1, 2], "a held viewer got frames past its full socket"
            assert slow.most_in_flight == 1, "writes piled up on a full socket"

            slow.held.set()  # the socket drains
            assert await slow.until(2 + len(moves)) == list(range(1, 3 + len(moves)))
            await fast.close()
            await slow.close()

    asyncio.run(play())


def _events_of(frame: bytes) -> list[dict[str, Any]]:
    return [
        json.loads(line[6:]) for line in frame.decode().splitlines() if line.startswith("data: ")
    ]


def test_a_rename_storm_reaches_viewers_coalesced(
    database: Database, clock: ManualClock, settings: Settings
) -> None:
    """870 renames once reached 500 viewers as 432,500 frames. A viewer gets a room's
    renames in at most one write per LIVE_COALESCE_SECONDS, with each seat's latest name
    only, in order with the room's other events and without reading the record (which
    keeps every rename)."""
    interval, renames = 0.3, 40
    app = create_app(
        settings.model_copy(update={"live_coalesce_seconds": interval}),
        clock=clock,
        database=database,
    )
    reads: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if "FROM events" in statement:
            reads.append(statement)

    async def play() -> None:
        loop = asyncio.get_running_loop()
        transport = httpx.ASGITransport(app=app)
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as api,
        ):
            created = (await api.post("/api/rooms", json={"rule_set": "english"})).json()
            room = created["room_id"]
            joined = (await api.post(f"/api/rooms/{room}/join")).json()
            seats = [("drums", created["token"]), ("tires", joined["token"])]
            if not database.is_sqlite:
                # The hub's LISTEN comes up with its first stream, and the streams open then
                # re-read the record once: that read is not one the renames cost.
                first = AsgiViewer(app, room, "127.0.0.9")
                await first.until(2)
                await asyncio.wait_for(app.state.rooms.hub.listening.wait(), 5)
                await first.close()
                await asyncio.sleep(0.2)
            viewers = [AsgiViewer(app, room, f"127.0.0.{n}") for n in (2, 3, 4)]
            for viewer in viewers:
                assert await viewer.until(2) == [1, 2]
            event.listen(database.engine, "before_cursor_execute", count)
            started = loop.time()
            for n in range(renames):
                side, token = seats[n % 2]
                answer = await api.post(
                    f"/api/rooms/{room}/name",
                    json={"name": f"{side} {n}"},
                    headers={"Authorization": f"Bearer {token}"},
                )
                assert answer.status_code == 200, answer.text
            storm = loop.time() - started
            answer = await api.post(
                f"/api/rooms/{room}/moves",
                json={"move": "11-15", "expected_ply": 0},
                headers={"Authorization": f"Bearer {created['token']}"},
            )
            assert answer.status_code == 200, answer.text
            last = 3 + renames  # the move's version
            for viewer in viewers:
                async with asyncio.timeout(5):
                    while last not in viewer.ids():
                        viewer.arrived.clear()
                        await viewer.arrived.wait()
            event.remove(database.engine, "before_cursor_execute", count)
            for viewer in viewers:
                ids = viewer.ids()
                assert ids == sorted(set(ids)) and ids[:2] == [1, 2] and ids[-1] == last
                writes = [_events_of(frame) for frame in viewer.frames[2:]]
                renamed = [w for w in writes if any(e["kind"] == "renamed" for e in w)]
                assert len(renamed) <= storm / interval + 2, (len(renamed), storm)
                assert len(renamed) < renames / 4
                for write in renamed:  # each seat at most once a write
                    seats_named = [e["data"]["seat"] for e in write]
                    assert len(seats_named) == len(set(seats_named))
                names = {e["data"]["seat"]: e["data"]["name"] for w in renamed for e in w}
                assert names == {
                    "creator": f"drums {renames - 2}",
                    "joiner": f"tires {renames - 1}",
                }
                assert writes[-1][-1]["kind"] == "move"
            record = (await api.get(f"/api/rooms/{room}/events", params={"limit": 500})).json()
            kinds = [e["kind"] for e in record["events"]]
            assert kinds.count("renamed") == renames and len(kinds) == last
            for viewer in viewers:
                await viewer.close()

    asyncio.run(play())
    assert reads == [], f"{len(reads)} reads of the event record by the streams"


def test_held_renames_merge_only_across_consecutive_versions() -> None:
    """A version missing from what is held may be any event: a merged notice never
    stands for it, so a viewer that lacks it reads the record instead of skipping it."""

    def renamed(version: int, seat: str) -> Notice:
        data = {"seat": seat, "name": f"{seat} {version}"}
        return Notice("r", version, {"version": version, "kind": "renamed", "data": data})

    held = [
        renamed(4, "creator"),
        renamed(3, "creator"),
        renamed(5, "joiner"),
        renamed(7, "joiner"),
    ]
    first, second = coalesce(held)
    assert (first.since, first.version) == (3, 5)
    assert [e["version"] for e in first.kept] == [4, 5]  # the creator's 3 is stale
    assert first.frame.count(b"id: ") == 2
    assert (second.since, second.version, second.kept) == (7, 7, ())
