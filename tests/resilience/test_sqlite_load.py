"""Acceptance (issue 14): the default set-up under load. `checkers serve` on a SQLite
file, as `make run` gives every new user, with 50 clients playing at once (each its own
room, reading the room between moves, some watching it live): no answer is a 5xx, the
server never logs "database is locked", and every acknowledged move is stored once, in
order, each position equal to the replay of its moves.

The run lasts SQLITE_LOAD_SECONDS (20 by default).
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections import Counter
from pathlib import Path

import httpx
import pytest

from tests.web.servers import serve_cli

from .harness import Table, assert_no_tokens, check_stored

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("served")]

SECONDS = float(os.environ.get("SQLITE_LOAD_SECONDS", "20"))
CLIENTS = 50


async def _client(
    base: str, index: int, stop: float, statuses: Counter[int], tables: list[Table]
) -> None:
    rng = random.Random(index)
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:

        async def call(method: str, url: str, token: str | None = None, **body: object) -> dict:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            answer = await client.request(method, url, json=body or None, headers=headers)
            statuses[answer.status_code] += 1
            assert answer.status_code in (200, 201), (url, answer.status_code, answer.text)
            return dict(answer.json())

        created = await call("POST", "/api/rooms", rule_set="english")
        joined = await call("POST", f"/api/rooms/{created['room_id']}/join")
        table = Table(
            created["room_id"],
            {created["side"]: created["token"], joined["side"]: joined["token"]},
            joined["room"],
        )
        tables.append(table)
        watcher = None
        if index % 5 == 0:  # every fifth room is also watched live
            watcher = asyncio.create_task(_watch(client, table.room_id))
        while time.monotonic() < stop:
            game = table.view["game"]
            if game["status"] == "playing":
                notation = rng.choice(game["legal_moves"])["engine_notation"]
                table.view = await call(
                    "POST",
                    f"/api/rooms/{table.room_id}/moves",
                    table.tokens[game["turn"]],
                    move=notation,
                    expected_ply=game["ply"],
                )
                table.acked.setdefault(game["number"], []).append(notation)
            else:
                drums, tires = table.tokens["drums"], table.tokens["tires"]
                await call("POST", f"/api/rooms/{table.room_id}/rematch", drums, action="offer")
                table.view = await call(
                    "POST", f"/api/rooms/{table.room_id}/rematch", tires, action="accept"
                )
                table.tokens = {"drums": tires, "tires": drums}
            assert (await call("GET", f"/api/rooms/{table.room_id}"))["version"] >= 1
            await asyncio.sleep(rng.uniform(0, 0.3))
        if watcher is not None:
            watcher.cancel()


async def _watch(client: httpx.AsyncClient, room_id: str) -> None:
    headers = {"Accept": "text/event-stream"}
    async with client.stream("GET", f"/api/rooms/{room_id}/events", headers=headers) as answer:
        assert answer.status_code == 200
        async for _ in answer.aiter_lines():
            pass


async def _load(base: str, statuses: Counter[int], tables: list[Table]) -> None:
    stop = time.monotonic() + SECONDS
    await asyncio.gather(*(_client(base, i, stop, statuses, tables) for i in range(CLIENTS)))


def test_fifty_clients_on_the_default_sqlite_set_up(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/load.sqlite3"
    log = tmp_path / "server.log"
    statuses: Counter[int] = Counter()
    tables: list[Table] = []
    with serve_cli(url, log=log, LOG_LEVEL="INFO", RATE_LIMIT_ENABLED="false") as base:
        asyncio.run(_load(base, statuses, tables))
    server_log = log.read_text()
    assert "database is locked" not in server_log
    assert not [code for code in statuses if code >= 500], statuses
    counts = check_stored(url, tables)  # every acknowledged move once; replays equal
    assert len(tables) == CLIENTS and counts["moves"] > CLIENTS * 5
    assert_no_tokens([log], tables)
    print(f"sqlite load {SECONDS:.0f} s, {CLIENTS} clients: {counts}, answers {dict(statuses)}")
