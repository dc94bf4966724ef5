"""Acceptance: PostgreSQL becomes unreachable while clients play (cut through a proxy the
test controls). Requests fail fast with 503 and Retry-After, none hangs past a few
seconds, the service recovers by itself when the database returns, nothing is corrupt."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy.engine import make_url

from app.core.migrate import upgrade

from .harness import Instance, Proxy, Retries, Table, check_stored, open_table, play_one

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

ROOMS = 4
FAST = 5.0  # seconds: no request may take longer while the database is away


def _timed_get(client: httpx.Client, path: str) -> tuple[httpx.Response, float]:
    started = time.monotonic()
    answer = client.get(path)
    return answer, time.monotonic() - started


def test_database_outage_fails_fast_and_recovers(postgres, tmp_path: Path) -> None:
    url = postgres.create("checkers_outage")
    upgrade(url)
    real = make_url(url)
    proxy = Proxy(real.host or "127.0.0.1", real.port or 5432)
    via_proxy = real.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    server = Instance(
        via_proxy,
        tmp_path / "server.log",
        DB_CONNECT_TIMEOUT="2",
        DB_POOL_TIMEOUT="2",
        DB_STATEMENT_TIMEOUT_MS="3000",
        RETRY_AFTER_SECONDS="3",
    )
    server.start()
    retries = Retries()
    failures: list[BaseException] = []
    stop = threading.Event()
    tables: list[Table] = []
    try:
        with httpx.Client(base_url=server.base, timeout=30) as client:
            tables = [open_table(client) for _ in range(ROOMS)]

            def player(index: int, table: Table) -> None:
                rng = random.Random(index)
                try:
                    with httpx.Client(base_url=server.base, timeout=30) as own:
                        while table.playing and not stop.is_set():
                            play_one(own, table, rng, retries, time.monotonic() + 60)
                except BaseException as exc:
                    failures.append(exc)

            threads = [threading.Thread(target=player, args=(i, t)) for i, t in enumerate(tables)]
            for thread in threads:
                thread.start()
            time.sleep(1.0)

            for cut in (proxy.cut, proxy.blackhole):
                cut()
                time.sleep(0.5)
                for path in ("/healthz", f"/api/rooms/{tables[0].room_id}"):
                    answer, took = _timed_get(client, path)
                    assert answer.status_code == 503, (cut.__name__, path, answer.text)
                    assert answer.headers["retry-after"] == "3"
                    assert answer.json()["code"] == "database_unavailable"
                    assert answer.headers["x-content-type-options"] == "nosniff"
                    assert took < FAST, (cut.__name__, path, took)
                started = time.monotonic()
                created = client.post("/api/rooms", json={"rule_set": "english"})
                assert created.status_code == 503
                assert time.monotonic() - started < FAST
                time.sleep(2.0)  # players keep submitting into the outage

            proxy.resume()
            started = time.monotonic()
            while client.get("/healthz").status_code != 200:
                assert time.monotonic() - started < 10, "no recovery after the database came back"
                time.sleep(0.2)
            recovered_in = time.monotonic() - started
            time.sleep(1.0)
            stop.set()
            for thread in threads:
                thread.join(60)
            assert not failures, failures
            # The service answers normally again: a new room works end to end.
            fresh = open_table(client)
            assert fresh.view["game"]["status"] == "playing"
    finally:
        stop.set()
        server.stop()
        proxy.close()

    assert retries.failures.get("503"), "players should have met the outage"
    assert retries.retry_after == {"3"}
    assert retries.longest < FAST, f"a submission hung for {retries.longest:.1f} s"
    counts = check_stored(url, tables)
    print(
        f"outage: recovered {recovered_in:.2f} s after the database returned; "
        f"longest request {retries.longest:.2f} s; retried {retries.failures}; {counts}"
    )
    postgres.drop(url)
