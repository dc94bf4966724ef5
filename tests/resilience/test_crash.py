"""Acceptance: the server is SIGKILLed while clients play; after a restart every
acknowledged move is stored, none twice, every stored position equals the replay of its
moves, and the clients finish their games by resending their submissions. On PostgreSQL
and on the default set-up, a SQLite file (issue 14)."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.core.migrate import upgrade

from .harness import (
    Instance,
    Retries,
    Table,
    assert_no_tokens,
    check_stored,
    open_table,
    plan_replies,
    play_one,
)

pytestmark = [pytest.mark.slow]

ROOMS = 6


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def crash_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A migrated database for the crash: a SQLite file, or a scratch PostgreSQL one."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path}/crash.sqlite3"
        upgrade(url)
        yield url
        return
    postgres = request.getfixturevalue("postgres")
    url = postgres.create("checkers_crash")
    upgrade(url)
    yield url
    postgres.drop(url)


def test_sigkill_while_playing_loses_and_doubles_nothing(crash_url: str, tmp_path: Path) -> None:
    url = crash_url
    server = Instance(url, tmp_path / "server.log")
    server.start()
    retries = Retries()
    failures: list[BaseException] = []
    tables: list[Table] = []
    acked = threading.Semaphore(0)
    try:
        with httpx.Client(base_url=server.base, timeout=10) as client:
            tables = [open_table(client) for _ in range(ROOMS)]

        def player(index: int, table: Table) -> None:
            rng = random.Random(index)
            deadline = time.monotonic() + 90
            try:
                with httpx.Client(base_url=server.base, timeout=10) as client:
                    while table.playing:
                        play_one(client, table, rng, retries, deadline)
                        acked.release()
            except BaseException as exc:  # reported by the main thread
                failures.append(exc)

        threads = [threading.Thread(target=player, args=(i, t)) for i, t in enumerate(tables)]
        for thread in threads:
            thread.start()
        for _ in range(8 * ROOMS):  # let every client get going
            assert acked.acquire(timeout=30)
        server.kill()
        before_restart = sum(len(moves) for t in tables for moves in t.acked.values())
        time.sleep(0.5)  # clients keep resending against a closed port
        server.start()
        for thread in threads:
            thread.join(120)
        assert not failures, failures
        assert all(not thread.is_alive() for thread in threads)
    finally:
        server.stop()

    assert all(not table.playing for table in tables)
    assert retries.failures, "the kill should have interrupted some submissions"
    counts = check_stored(url, tables)
    assert counts["moves"] > before_restart
    assert assert_no_tokens([server.log], tables) > counts["moves"]
    print(f"crash ({url.split(':')[0]}): {counts} ; failed attempts retried: {retries.failures}")


def test_sigkill_loses_and_doubles_no_conditional_reply(crash_url: str, tmp_path: Path) -> None:
    """Issue 16: every move is met by a reply its opponent stored in advance; after a
    SIGKILL and a restart, every acknowledged reply is stored once, flagged as conditional,
    right after the move it answered, and none was played that was not acknowledged."""
    url = crash_url
    server = Instance(url, tmp_path / "server.log")
    server.start()
    retries = Retries()
    failures: list[BaseException] = []
    tables: list[Table] = []
    acked = threading.Semaphore(0)
    try:
        with httpx.Client(base_url=server.base, timeout=10) as client:
            tables = [open_table(client) for _ in range(ROOMS)]

        def player(index: int, table: Table) -> None:
            rng = random.Random(1000 + index)
            deadline = time.monotonic() + 120
            try:
                with httpx.Client(base_url=server.base, timeout=10) as client:
                    while table.playing:
                        replies = plan_replies(client, table, rng, retries, deadline)
                        play_one(client, table, rng, retries, deadline, replies)
                        acked.release()
            except BaseException as exc:  # reported by the main thread
                failures.append(exc)

        threads = [threading.Thread(target=player, args=(i, t)) for i, t in enumerate(tables)]
        for thread in threads:
            thread.start()
        for _ in range(4 * ROOMS):
            assert acked.acquire(timeout=30)
        server.kill()
        time.sleep(0.5)
        server.start()
        for thread in threads:
            thread.join(150)
        assert not failures, failures
        assert all(not thread.is_alive() for thread in threads)
    finally:
        server.stop()

    assert retries.failures, "the kill should have interrupted some submissions"
    counts = check_stored(url, tables)
    replies = sum(len(plies) for t in tables for plies in t.replies.values())
    assert replies > 0 and counts["moves"] >= 2 * replies - len(tables)
    print(f"conditional crash ({url.split(':')[0]}): {counts}, replies {replies}")
