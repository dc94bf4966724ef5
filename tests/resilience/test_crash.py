"""Acceptance: the server is SIGKILLed while clients play; after a restart every
acknowledged move is stored, none twice, every stored position equals the replay of its
moves, and the clients finish their games by resending their submissions. On PostgreSQL
and on the default set-up, a SQLite file (issue 14)."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
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


def _kill_while_playing(
    url: str,
    tmp_path: Path,
    turn: Callable[[httpx.Client, Table, random.Random], None],
    *,
    seed: int,
    warm_up: int,
) -> tuple[list[Table], int, Path]:
    """ROOMS clients play their rooms to the end, each calling `turn` until its game is
    over; the server is SIGKILLed once `warm_up` turns are acknowledged and started again
    half a second later. Returns the tables, the moves acknowledged before the kill and
    the server's log."""
    server = Instance(url, tmp_path / "server.log")
    server.start()
    failures: list[BaseException] = []
    tables: list[Table] = []
    acked = threading.Semaphore(0)
    try:
        with httpx.Client(base_url=server.base, timeout=10) as client:
            tables = [open_table(client) for _ in range(ROOMS)]

        def player(index: int, table: Table) -> None:
            rng = random.Random(seed + index)
            try:
                with httpx.Client(base_url=server.base, timeout=10) as client:
                    while table.playing:
                        turn(client, table, rng)
                        acked.release()
            except BaseException as exc:  # reported by the main thread
                failures.append(exc)

        threads = [threading.Thread(target=player, args=(i, t)) for i, t in enumerate(tables)]
        for thread in threads:
            thread.start()
        for _ in range(warm_up):  # let every client get going
            assert acked.acquire(timeout=30), failures
        server.kill()
        before_restart = sum(len(moves) for t in tables for moves in t.acked.values())
        time.sleep(0.5)  # clients keep resending against a closed port
        server.start()
        for thread in threads:
            thread.join(150)
        assert not failures, failures
        assert all(not thread.is_alive() for thread in threads)
    finally:
        server.stop()
    assert all(not table.playing for table in tables)
    return tables, before_restart, server.log


def test_sigkill_while_playing_loses_and_doubles_nothing(crash_url: str, tmp_path: Path) -> None:
    retries, deadline = Retries(), time.monotonic() + 90
    tables, before_restart, log = _kill_while_playing(
        crash_url,
        tmp_path,
        lambda client, table, rng: play_one(client, table, rng, retries, deadline),
        seed=0,
        warm_up=8 * ROOMS,
    )
    assert retries.failures, "the kill should have interrupted some submissions"
    counts = check_stored(crash_url, tables)
    assert counts["moves"] > before_restart
    assert assert_no_tokens([log], tables) > counts["moves"]
    print(
        f"crash ({crash_url.split(':')[0]}): {counts} ; failed attempts retried: {retries.failures}"
    )


def test_sigkill_loses_and_doubles_no_conditional_reply(crash_url: str, tmp_path: Path) -> None:
    """Issue 16: every move is met by a reply its opponent stored in advance; after a
    SIGKILL and a restart, every acknowledged reply is stored once, flagged as conditional,
    right after the move it answered, and none was played that was not acknowledged."""
    retries, deadline = Retries(), time.monotonic() + 120

    def turn(client: httpx.Client, table: Table, rng: random.Random) -> None:
        replies = plan_replies(client, table, rng, retries, deadline)
        play_one(client, table, rng, retries, deadline, replies)

    tables, _, _ = _kill_while_playing(crash_url, tmp_path, turn, seed=1000, warm_up=4 * ROOMS)
    assert retries.failures, "the kill should have interrupted some submissions"
    counts = check_stored(crash_url, tables)
    replies = sum(len(plies) for t in tables for plies in t.replies.values())
    assert replies > 0 and counts["moves"] >= 2 * replies - len(tables)
    print(f"conditional crash ({crash_url.split(':')[0]}): {counts}, replies {replies}")
