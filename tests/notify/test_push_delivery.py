"""Push delivery that one endpoint cannot hold up: sends run side by side in a bounded
pool, each within its time limit; the server stops on SIGTERM within its graceful timeout
while a push service never answers; a seat keeps a bounded number of devices."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select

from app.core.clock import ManualClock
from app.core.db import Database
from app.core.settings import Settings
from app.notify.delivery import deliver_due
from app.notify.models import Delivery, Notification, PushSubscription
from tests.rooms.conftest import Api, Room
from tests.web.servers import ROOT, free_port

from .conftest import subscribe
from .listeners import listener
from .pushservice import PushService


def _tarpit_room(api: Api, port: int, name: str = "tarpit") -> Room:
    """A room whose joiner's device is at an endpoint that never finishes answering."""
    room = api.create()
    assert room.joiner is not None
    keys = PushService("http://unused").device(name).subscription()["keys"]
    subscribe(
        api, room, room.joiner, {"endpoint": f"http://127.0.0.1:{port}/push/{name}", "keys": keys}
    )
    return room


def _states(database: Database) -> dict[str, tuple[Delivery, str | None]]:
    with database.session() as session:
        return {n.room_id: (n.state, n.last_error) for n in session.scalars(select(Notification))}


def test_a_tarpit_does_not_hold_back_another_players_notification(
    api: Api,
    pushes: PushService,
    database: Database,
    clock: ManualClock,
    notify_settings: Settings,
) -> None:
    """The tarpit's notification fell due first; the other player's message arrives at
    once all the same, and the tarpit's send ends at its time limit, to be tried again."""
    settings = notify_settings.model_copy(update={"notify_timeout_seconds": 2.0})
    with listener(trickle=0.2, hold=20) as tarpit:
        slow = _tarpit_room(api, tarpit.port)
        api.play(slow, "11-15")
        clock.advance(timedelta(seconds=1))
        room = api.create()
        assert room.joiner is not None
        subscribe(api, room, room.joiner, pushes.device("phone").subscription())
        api.play(room, "11-15")
        started = time.monotonic()
        ran = threading.Thread(target=deliver_due, args=(database, clock, settings))
        ran.start()
        assert len(pushes.wait("phone", 1, timeout=1.5)) == 1
        arrived = time.monotonic() - started
        ran.join(10)
        finished = time.monotonic() - started
        assert tarpit.connections == 1
    assert arrived < 1.5
    assert not ran.is_alive() and finished < 2.0 + 1.5
    states = _states(database)
    assert states[room.id] == (Delivery.SENT, None)
    assert states[slow.id] == (Delivery.PENDING, "no answer within 2 s")


def test_the_pool_is_bounded(
    api: Api, database: Database, clock: ManualClock, notify_settings: Settings
) -> None:
    settings = notify_settings.model_copy(
        update={"notify_timeout_seconds": 1.0, "notify_concurrency": 2}
    )
    with listener(trickle=0.2, hold=20) as tarpit:
        rooms = [_tarpit_room(api, tarpit.port, f"t{i}") for i in range(5)]
        for room in rooms:
            api.play(room, "11-15")
        started = time.monotonic()
        assert deliver_due(database, clock, settings) == 5
        took = time.monotonic() - started
    assert tarpit.connections == 5
    # Two at a time: each connection waits for one of the two before it to end.
    at = tarpit.accepted_at
    assert all(at[i + 2] - at[i] >= 0.9 for i in range(len(at) - 2)), at
    assert 3.0 <= took < 3.0 + 1.5  # three rounds of the time limit
    assert {state for state, _ in _states(database).values()} == {Delivery.PENDING}


def test_a_devices_messages_keep_their_order(
    api: Api, pushes: PushService, database: Database, clock: ManualClock, notify_settings: Settings
) -> None:
    room = api.create()
    assert room.joiner is not None
    subscribe(api, room, room.joiner, pushes.device("phone").subscription())
    api.action(room, room.creator, "draw", "offer")
    api.play(room, "11-15")
    api.action(room, room.creator, "resign")
    deliver_due(database, clock, notify_settings)
    assert [p["title"] for p in pushes.delivered("phone")] == [
        "Draw offered · English",
        "Your move · English",
        "Game over · English",
    ]


def test_a_seat_keeps_a_bounded_number_of_devices(
    api: Api, pushes: PushService, database: Database, clock: ManualClock, notify_settings: Settings
) -> None:
    """A move fans out to at most `PUSH_DEVICES_PER_SEAT` (3) posts: the newest devices."""
    room = api.create()
    assert room.joiner is not None
    for i in range(5):
        subscribe(api, room, room.joiner, pushes.device(f"d{i}").subscription())
    with database.session() as session:
        kept = session.scalars(select(PushSubscription.endpoint)).all()
    assert sorted(kept) == sorted(pushes.devices[f"d{i}"].endpoint for i in (2, 3, 4))
    api.play(room, "11-15")
    deliver_due(database, clock, notify_settings)
    assert sorted(r.device for r in pushes.received) == ["d2", "d3", "d4"]


@pytest.mark.slow
def test_the_server_stops_within_its_graceful_timeout_while_a_push_hangs(
    tmp_path: Path,
) -> None:
    """`checkers serve` (graceful timeout 5 s) gets SIGTERM while its sender waits on a
    push service that never answers (time limit 60 s): it exits cleanly at once."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path}/checkers.sqlite3",
        "SCHEDULER_ENABLED": "true",
        "NOTIFY_INTERVAL_SECONDS": "0.2",
        "NOTIFY_TIMEOUT_SECONDS": "60",
        "PUSH_ALLOW_LOOPBACK_FOR_TESTS": "true",
        "RATE_LIMIT_ENABLED": "false",
        "LOG_LEVEL": "WARNING",
    }
    env.pop("PUBLIC_URL", None)
    log = tmp_path / "server.log"
    base = f"http://127.0.0.1:{port}"
    with listener(trickle=1.0, hold=60) as tarpit, log.open("ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=out,
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                assert proc.poll() is None, log.read_text()
                try:
                    if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.1)
            with httpx.Client(base_url=base) as client:
                api = Api(client)  # type: ignore[arg-type]
                room = _tarpit_room(api, tarpit.port)
                api.play(room, "11-15")
            deadline = time.monotonic() + 10
            while not tarpit.requests:
                assert time.monotonic() < deadline, "the push never went out"
                time.sleep(0.05)
            stopping = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            code = proc.wait(timeout=20)
            took = time.monotonic() - stopping
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    # Uvicorn exits by the signal it handled, once it has shut down.
    assert code in (0, -signal.SIGTERM), log.read_text()
    assert "Traceback" not in log.read_text()
    assert took < 5.0, f"stopped in {took:.1f} s"
