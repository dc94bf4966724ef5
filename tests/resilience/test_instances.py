"""Acceptance: two app instances, each with its own deadline scheduler, share one
PostgreSQL under load. No move is stored twice, no room expires twice, no claim opens
twice, and every event of a room reaches its viewers on both instances.

The run lasts MULTI_INSTANCE_SECONDS (15 by default; 60 for the full benchmark run):
players of busy rooms alternate instances move by move and start rematches; every second
a waiting room and an abandoned game are added, which the sweeps of both instances then
find due (claim after 3 s, expiry after 8 s). When the load stops, every room is left to
expire; then the record is checked against what the players and viewers saw.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, text

from app.core.migrate import upgrade

from .harness import Instance, Table, assert_no_tokens, check_stored

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

SECONDS = float(os.environ.get("MULTI_INSTANCE_SECONDS", "15"))
BUSY_ROOMS = 8
CLAIM_AFTER, EXPIRE_AFTER = 3, 8  # a busy room must never idle that long, even on a slow machine
EXPIRED = 40  # RoomStatus.EXPIRED


@dataclass
class Viewer:
    """A spectator's live stream of one room on one instance (resumes by Last-Event-ID)."""

    room_id: str
    base: str
    events: list[tuple[int, str]] = field(default_factory=list)
    reconnects: int = 0

    async def watch(self, client: httpx.AsyncClient) -> None:
        while True:
            headers = {"Accept": "text/event-stream"}
            if self.events:
                headers["Last-Event-ID"] = str(self.events[-1][0])
            try:
                url = f"{self.base}/api/rooms/{self.room_id}/events"
                async with client.stream("GET", url, headers=headers, timeout=None) as answer:
                    assert answer.status_code == 200
                    async for line in answer.aiter_lines():
                        if line.startswith("data: "):
                            event = json.loads(line[6:])
                            self.events.append((event["version"], event["kind"]))
            except httpx.HTTPError:
                pass
            self.reconnects += 1
            await asyncio.sleep(0.2)


async def post(client: httpx.AsyncClient, url: str, token: str | None = None, **body: object):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = await client.post(url, json=body or None, headers=headers)
    assert answer.status_code in (200, 201), (url, answer.status_code, answer.text)
    return answer.json()


async def open_room(client: httpx.AsyncClient, bases: tuple[str, str], *, join: bool) -> Table:
    created = await post(client, f"{bases[0]}/api/rooms", rule_set="english")
    tokens = {created["side"]: created["token"]}
    view = created["room"]
    if join:
        joined = await post(client, f"{bases[1]}/api/rooms/{created['room_id']}/join")
        tokens[joined["side"]] = joined["token"]
        view = joined["room"]
    return Table(created["room_id"], tokens, view)


async def move(client: httpx.AsyncClient, base: str, table: Table, rng: random.Random) -> None:
    game = table.view["game"]
    notation = rng.choice(game["legal_moves"])["engine_notation"]
    table.view = await post(
        client,
        f"{base}/api/rooms/{table.room_id}/moves",
        table.tokens[game["turn"]],
        move=notation,
        expected_ply=game["ply"],
    )
    table.acked.setdefault(game["number"], []).append(notation)


async def run_load(bases: tuple[str, str], seconds: float) -> tuple[list[Table], list[Viewer]]:
    tables: list[Table] = []
    viewers: list[Viewer] = []
    limits = httpx.Limits(max_connections=400, max_keepalive_connections=100)
    async with httpx.AsyncClient(timeout=30, limits=limits) as client:
        watching: list[asyncio.Task[None]] = []

        def watch(table: Table) -> None:
            tables.append(table)
            for base in bases:
                viewer = Viewer(table.room_id, base)
                viewers.append(viewer)
                watching.append(asyncio.create_task(viewer.watch(client)))

        stop = time.monotonic() + seconds

        async def busy(index: int) -> None:
            rng = random.Random(index)
            table = await open_room(client, bases if index % 2 else bases[::-1], join=True)
            watch(table)
            by_side = {"drums": bases[0], "tires": bases[1]}  # moves alternate instances
            while time.monotonic() < stop:
                if table.view["game"]["status"] == "playing":
                    await move(client, by_side[table.view["game"]["turn"]], table, rng)
                else:
                    seats = list(table.tokens.values())
                    url = f"/api/rooms/{table.room_id}/rematch"
                    await post(client, bases[0] + url, seats[0], action="offer")
                    table.view = await post(client, bases[1] + url, seats[1], action="accept")
                    table.tokens = {"drums": table.tokens["tires"], "tires": table.tokens["drums"]}
                await asyncio.sleep(rng.uniform(0, 0.2))

        async def abandoned() -> None:
            rng = random.Random(-1)
            turn = 0
            while time.monotonic() < stop:
                order = bases if turn % 2 else bases[::-1]
                watch(await open_room(client, order, join=False))
                table = await open_room(client, order, join=True)
                watch(table)
                await move(client, order[0], table, rng)
                turn += 1
                await asyncio.sleep(1.0)

        await asyncio.gather(*(busy(i) for i in range(BUSY_ROOMS)), abandoned())
        # Every room now idles: its claim opens, then it expires, by the sweeps.
        await asyncio.sleep(EXPIRE_AFTER + 3.0)
        for task in watching:
            task.cancel()
        await asyncio.gather(*watching, return_exceptions=True)
    return tables, viewers


def test_two_instances_share_one_database(postgres, tmp_path: Path) -> None:
    url = postgres.create("checkers_multi")
    upgrade(url)
    env = {
        "SCHEDULER_ENABLED": "true",
        "SWEEP_INTERVAL_SECONDS": "0.5",
        "CLAIM_AFTER_SECONDS": str(CLAIM_AFTER),
        "EXPIRE_AFTER_SECONDS": str(EXPIRE_AFTER),
        "REMATCH_WINDOW_SECONDS": str(EXPIRE_AFTER),
        "LIVE_STREAMS_PER_CLIENT": "10000",  # every viewer here comes from 127.0.0.1
    }
    a = Instance(url, tmp_path / "a.log", **env)
    b = Instance(url, tmp_path / "b.log", **env)
    with ExitStack() as stack:
        for instance in (a, b):
            instance.start()
            stack.callback(instance.stop)
        tables, viewers = asyncio.run(run_load((a.base, b.base), SECONDS))

    counts = check_stored(url, tables)  # no move twice; positions equal their replays
    assert_no_tokens([a.log, b.log], tables)
    engine = create_engine(url)
    with engine.connect() as conn:
        statuses = dict(conn.execute(text("SELECT id, status FROM rooms")).all())
        expired = dict(
            conn.execute(
                text("SELECT room_id, count(*) FROM events WHERE kind = 'expired' GROUP BY 1")
            ).all()
        )
        claims = conn.execute(
            text(
                "SELECT room_id, data->>'game', data->>'ply', count(*) FROM events "
                "WHERE kind = 'claim_open' GROUP BY 1, 2, 3"
            )
        ).all()
        recorded = {
            room_id: [(v, k) for _, v, k in rows]
            for room_id, rows in _group(
                conn.execute(
                    text("SELECT room_id, version, kind FROM events ORDER BY room_id, version")
                ).all()
            ).items()
        }
    engine.dispose()

    assert len(statuses) == len(tables)
    assert all(status == EXPIRED for status in statuses.values()), statuses
    assert expired == dict.fromkeys(statuses, 1), "each room expires exactly once"
    assert claims and all(row[3] == 1 for row in claims), "each claim opens once"
    for viewer in viewers:
        assert viewer.events == recorded[viewer.room_id], (viewer.room_id, viewer.base)
    sweeps = [
        sum(json.loads(line).get("rooms", 0) for line in log.read_text().splitlines()
            if line.startswith("{") and '"msg":"sweep"' in line)
        for log in (a.log, b.log)
    ]  # fmt: skip
    print(
        f"multi-instance {SECONDS:.0f} s: {counts}, events {sum(map(len, recorded.values()))}, "
        f"viewers {len(viewers)} (reconnects {sum(v.reconnects for v in viewers)}), "
        f"claims {len(claims)}, rooms handled by the sweeps of A/B: {sweeps}"
    )
    postgres.drop(url)


def _group(rows: list) -> dict[str, list]:
    grouped: dict[str, list] = {}
    for row in rows:
        grouped.setdefault(row[0], []).append(row)
    return grouped
