"""Live updates against real server processes: fan-out across two instances on one
PostgreSQL database (LISTEN/NOTIFY), in-process fan-out on SQLite, and resuming with
Last-Event-ID without gaps or repeats."""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import PostgresServer
from tests.web.servers import serve

pytestmark = pytest.mark.xdist_group("live")


@dataclass
class Listener:
    """Reads one SSE stream in a thread; each event lands in `events` with its arrival."""

    url: str
    headers: dict[str, str] = field(default_factory=dict)
    events: queue.Queue[tuple[int, dict[str, Any], float]] = field(default_factory=queue.Queue)
    status: int | None = None

    def __post_init__(self) -> None:
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        assert self._ready.wait(10), "stream did not open"

    def _run(self) -> None:
        try:
            self._read()
        except httpx.HTTPError:
            pass  # the server went away at the end of the test
        finally:
            self._ready.set()

    def _read(self) -> None:
        headers = {"Accept": "text/event-stream", **self.headers}
        with (
            httpx.Client(timeout=httpx.Timeout(5, read=None)) as client,
            client.stream("GET", self.url, headers=headers) as response,
        ):
            self.status = response.status_code
            self._ready.set()
            event_id: int | None = None
            for line in response.iter_lines():
                if self._stop.is_set():
                    return
                if line.startswith("id: "):
                    event_id = int(line[4:])
                elif line.startswith("data: ") and event_id is not None:
                    self.events.put((event_id, json.loads(line[6:]), time.monotonic()))
                    event_id = None

    def take(self, count: int, timeout: float = 5) -> list[tuple[int, dict[str, Any], float]]:
        return [self.events.get(timeout=timeout) for _ in range(count)]

    def close(self) -> None:
        self._stop.set()


def _post(client: httpx.Client, url: str, token: str | None = None, **body: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = client.post(url, json=body or None, headers=headers)
    assert r.status_code in (200, 201), r.text
    return r.json()


@pytest.fixture
def pg_instances(postgres: PostgresServer, tmp_path: Path) -> Iterator[tuple[str, str]]:
    url = postgres.create("checkers_live")
    try:
        with (
            serve(url, log=tmp_path / "a.log") as a,
            serve(url, log=tmp_path / "b.log", migrate=False) as b,
        ):
            yield a, b
    finally:
        postgres.drop(url)


@pytest.mark.postgres
def test_an_event_made_on_one_instance_reaches_a_viewer_on_another_within_a_second(
    pg_instances: tuple[str, str],
) -> None:
    a, b = pg_instances
    with httpx.Client(base_url=a, timeout=10) as api:
        created = _post(api, "/api/rooms", rule_set="english")
        room, creator = created["room_id"], created["token"]
        viewer = Listener(f"{b}/api/rooms/{room}/events")
        assert viewer.status == 200
        ((version, first, _),) = viewer.take(1)
        assert (version, first["kind"]) == (1, "created")

        joiner = _post(api, f"/api/rooms/{room}/join")["token"]
        made = time.monotonic()
        ((version, event, arrived),) = viewer.take(1)
        assert (version, event["kind"]) == (2, "joined")
        assert arrived - made < 1.0

        # Every move made through A arrives on B in order, each within a second.
        for ply, (token, move) in enumerate([(creator, "11-15"), (joiner, "24-20")]):
            made = time.monotonic()
            _post(api, f"/api/rooms/{room}/moves", token, move=move, expected_ply=ply)
            ((version, event, arrived),) = viewer.take(1)
            assert (version, event["kind"], event["data"]["notation"]) == (3 + ply, "move", move)
            assert arrived - made < 1.0, f"{arrived - made:.3f} s"
        viewer.close()
        # An event carried by its notice is the event as the record reads it.
        record = api.get(f"/api/rooms/{room}/events", params={"after": version - 1}).json()
        assert record["events"][0] == event

        # Two moves while nobody watches; a reconnect with Last-Event-ID gets exactly them.
        _post(api, f"/api/rooms/{room}/moves", creator, move="8-11", expected_ply=2)
        _post(api, f"/api/rooms/{room}/moves", joiner, move="28-24", expected_ply=3)
        again = Listener(f"{b}/api/rooms/{room}/events", headers={"Last-Event-ID": "4"})
        got = again.take(2)
        assert [(v, e["data"]["notation"]) for v, e, _ in got] == [(5, "8-11"), (6, "28-24")]
        with pytest.raises(queue.Empty):
            again.events.get(timeout=0.5)  # nothing repeated, nothing extra
        # A seat holder (or a bot) may follow the same stream with its token.
        seated = Listener(
            f"{a}/api/rooms/{room}/events?after=5", headers={"Authorization": f"Bearer {joiner}"}
        )
        assert [v for v, _, _ in seated.take(1)] == [6]
        _post(api, f"/api/rooms/{room}/resign", creator)
        kinds = [(v, e["kind"]) for v, e, _ in again.take(2)]
        assert kinds == [(7, "resigned"), (8, "game_over")]
        assert [e["kind"] for _, e, _ in seated.take(2)] == ["resigned", "game_over"]
        again.close()
        seated.close()


def test_in_process_fan_out_on_sqlite(tmp_path: Path) -> None:
    with (
        serve(f"sqlite:///{tmp_path}/live.sqlite3", log=tmp_path / "s.log") as base,
        httpx.Client(base_url=base, timeout=10) as api,
    ):
        created = _post(api, "/api/rooms", rule_set="thai")
        room, creator = created["room_id"], created["token"]
        viewer = Listener(f"{base}/api/rooms/{room}/events?after=1")
        joiner = _post(api, f"/api/rooms/{room}/join")["token"]
        made = time.monotonic()
        _post(api, f"/api/rooms/{room}/draw", creator, action="offer")
        _post(api, f"/api/rooms/{room}/draw", joiner, action="decline")
        got = viewer.take(3)
        assert [(v, e["kind"]) for v, e, _ in got] == [
            (2, "joined"),
            (3, "draw_offered"),
            (4, "draw_declined"),
        ]
        assert got[-1][2] - made < 1.0
        viewer.close()


def test_stream_refusals(tmp_path: Path) -> None:
    with (
        serve(f"sqlite:///{tmp_path}/refuse.sqlite3", log=tmp_path / "r.log") as base,
        httpx.Client(base_url=base, timeout=10) as api,
    ):
        room = _post(api, "/api/rooms", rule_set="english")["room_id"]
        sse = {"Accept": "text/event-stream"}
        assert api.get("/api/rooms/nope/events", headers=sse).status_code == 404
        wrong = api.get(
            f"/api/rooms/{room}/events", headers={**sse, "Authorization": "Bearer not-a-seat"}
        )
        assert (wrong.status_code, wrong.json()["code"]) == (403, "wrong_token")
        bad = api.get(f"/api/rooms/{room}/events", headers={**sse, "Last-Event-ID": "x1"})
        assert bad.status_code == 422
        # Without the SSE Accept header the same route answers a JSON page of the record.
        page = api.get(f"/api/rooms/{room}/events", headers={"Last-Event-ID": "0"})
        assert page.status_code == 200
        assert [e["kind"] for e in page.json()["events"]] == ["created"]
