"""The players' chat on the live stream (issue 62, points 1 and 6), against real server
processes: a `chat` event reaches the two seats' streams at once and never a spectator's,
which passes over its version without a gap or a re-read; on PostgreSQL across two
instances, through LISTEN/NOTIFY."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import PostgresServer
from tests.web.servers import serve
from tests.web.test_live import Listener, _post

pytestmark = pytest.mark.xdist_group("live")


def _talk(a: str, b: str) -> None:
    """Players act through instance `a`; viewers watch through `b`."""
    with httpx.Client(base_url=a, timeout=10) as api:
        created = _post(api, "/api/rooms", rule_set="russian")
        room, creator = created["room_id"], created["token"]
        joiner = _post(api, f"/api/rooms/{room}/join")["token"]
        stream = f"{b}/api/rooms/{room}/events?after=2"
        spectator = Listener(stream)
        drums = Listener(stream, headers={"Authorization": f"Bearer {creator}"})
        tires = Listener(stream, headers={"Authorization": f"Bearer {joiner}"})
        made = time.monotonic()
        _post(api, f"/api/rooms/{room}/chat", creator, text="<i>good luck</i>")
        for seat in (drums, tires):
            ((version, event, arrived),) = seat.take(1)
            assert (version, event["kind"], event["data"]["text"]) == (
                3,
                "chat",
                "<i>good luck</i>",
            )
            assert arrived - made < 1.0
        with pytest.raises(queue.Empty):
            spectator.events.get(timeout=0.5)
        # The next public event reaches everyone, the spectator straight after version 2.
        _post(api, f"/api/rooms/{room}/moves", creator, move="c3-d4", expected_ply=0)
        ((version, event, _),) = spectator.take(1)
        assert (version, event["kind"]) == (4, "move")
        assert [v for v, _, _ in drums.take(1)] == [4]
        # Resuming after version 2: the seat gets the chat again, the spectator only the move.
        again = Listener(f"{b}/api/rooms/{room}/events", headers={"Last-Event-ID": "2"})
        assert [(v, e["kind"]) for v, e, _ in again.take(1)] == [(4, "move")]
        seated = Listener(
            f"{b}/api/rooms/{room}/events?after=2", headers={"Authorization": f"Bearer {joiner}"}
        )
        assert [(v, e["kind"]) for v, e, _ in seated.take(2)] == [(3, "chat"), (4, "move")]
        for listener in (spectator, drums, tires, again, seated):
            listener.close()


def test_chat_reaches_the_seats_streams_alone_on_sqlite(tmp_path: Path) -> None:
    with serve(f"sqlite:///{tmp_path}/chat.sqlite3", log=tmp_path / "s.log") as base:
        _talk(base, base)


@pytest.fixture
def pg_instances(postgres: PostgresServer, tmp_path: Path) -> Iterator[tuple[str, str]]:
    url = postgres.create("checkers_chat")
    try:
        with (
            serve(url, log=tmp_path / "a.log") as a,
            serve(url, log=tmp_path / "b.log", migrate=False) as b,
        ):
            yield a, b
    finally:
        postgres.drop(url)


@pytest.mark.postgres
def test_chat_reaches_the_seats_streams_alone_across_instances(
    pg_instances: tuple[str, str],
) -> None:
    _talk(*pg_instances)
