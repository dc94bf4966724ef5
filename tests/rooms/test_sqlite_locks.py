"""Acceptance (issue 14): on SQLite, reads don't take the write lock. While another
connection holds the database's write lock, viewers, the event record, exports and
`/healthz` still answer at once; a write waits for the lock and then goes through."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from app.core.clock import ManualClock
from app.core.db import Base, Database
from app.core.settings import Settings
from app.main import create_app


def test_reads_do_not_wait_for_a_writer_and_writes_wait_their_turn(
    tmp_path: Path, clock: ManualClock
) -> None:
    path = tmp_path / "locks.sqlite3"
    database = Database(f"sqlite:///{path}", connect_args={"timeout": 5})
    Base.metadata.create_all(database.engine)
    settings = Settings(
        database_url=database.url,
        scheduler_enabled=False,
        migrate_on_start=False,
        rate_limit_enabled=False,
        public_url="http://checkers.test",
    )
    with TestClient(create_app(settings, clock=clock, database=database)) as client:
        created = client.post("/api/rooms", json={"rule_set": "english"}).json()
        room, drums = created["room_id"], created["token"]
        assert client.post(f"/api/rooms/{room}/join").status_code == 200
        auth = {"Authorization": f"Bearer {drums}"}
        reads = (
            (f"/api/rooms/{room}", {}),
            (f"/api/rooms/{room}", auth),
            (f"/api/rooms/{room}/events", {}),
            (f"/api/rooms/{room}/games/1", {}),
            (f"/api/rooms/{room}/games/1.pdn", {}),
            (f"/r/{room}", {}),
            ("/healthz", {}),
        )
        # Each read once before the writer comes: what is timed below is waiting for the
        # lock, not a first request's template compiling on a busy machine.
        for url, headers in reads:
            assert client.get(url, headers=headers).status_code == 200, url

        writer = sqlite3.connect(path, timeout=0, isolation_level=None)
        writer.execute("BEGIN IMMEDIATE")  # another process's write in progress
        try:
            for url, headers in reads:
                started = time.monotonic()
                answer = client.get(url, headers=headers)
                took = time.monotonic() - started
                assert answer.status_code == 200, (url, answer.status_code, answer.text)
                assert took < 1.0, f"{url} waited {took:.2f} s for the write lock"

            # A move must wait for the writer; it is stored once the lock is free.
            result: dict[str, Any] = {}

            def move() -> None:
                started = time.monotonic()
                result["answer"] = client.post(
                    f"/api/rooms/{room}/moves",
                    json={"move": "11-15", "expected_ply": 0},
                    headers=auth,
                )
                result["took"] = time.monotonic() - started

            thread = threading.Thread(target=move)
            thread.start()
            time.sleep(0.5)
            assert "answer" not in result  # still waiting for the lock
        finally:
            writer.rollback()
            writer.close()
        thread.join(10)
        assert result["answer"].status_code == 200, result["answer"].text
        assert result["took"] >= 0.5
        assert client.get(f"/api/rooms/{room}").json()["game"]["ply"] == 1
    database.dispose()
