"""What one move costs the server, in CPU, measured in process: an A/B between checkouts.

`bench/load.py` measures latency under load, which the machine's own speed and whatever
else it runs move from day to day by more than most code changes do. This bench takes
the load away: one process drives the app over ASGI (no sockets, no other clients),
plays random legal moves in `--rooms` rooms on a scratch PostgreSQL database (or SQLite
with `--database sqlite`), and prints the process's CPU time (every thread, so the
database driver and the thread pool are counted) and the wall time per move and per
floor request (`POST /bench/floor/{room}`), for `--rounds` rounds after a warm-up.

It imports `app` from the interpreter's environment, so the same file measures an older
checkout with that checkout's virtualenv:

    .venv/bin/python bench/move_cost.py
    cd OTHER_CHECKOUT && .venv/bin/python THIS_CHECKOUT/bench/move_cost.py
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from load import scratch_database  # bench/ is the script's own directory

DEFAULT_ADMIN_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def scratch(database: str, admin_url: str) -> tuple[str, Any]:
    """A fresh database's URL and what drops it."""
    if database == "sqlite":
        folder = Path(tempfile.mkdtemp(prefix="checkers-cost-"))
        return f"sqlite:///{folder / 'cost.sqlite3'}", lambda: None
    return scratch_database(admin_url)


class Player:
    """Rooms of two seats playing random legal moves through the API."""

    def __init__(self, client: httpx.AsyncClient, rooms: int, seed: int) -> None:
        self.client = client
        self.count = rooms
        self.rng = random.Random(seed)
        self.rooms: list[tuple[str, dict[str, str], dict[str, Any]]] = []

    async def open(self) -> tuple[str, dict[str, str], dict[str, Any]]:
        made = (await self.client.post("/api/rooms", json={"rule_set": "english"})).json()
        joined = (await self.client.post(f"/api/rooms/{made['room_id']}/join")).json()
        tokens = {made["side"]: made["token"], joined["side"]: joined["token"]}
        return made["room_id"], tokens, joined["room"]

    async def moves(self, n: int) -> tuple[float, float]:
        """CPU and wall milliseconds per move over `n` moves (new rooms replace ended games,
        outside the count)."""
        if not self.rooms:
            self.rooms = [await self.open() for _ in range(self.count)]
        cpu = wall = 0.0
        done = 0
        while done < n:
            for i, (room, tokens, view) in enumerate(self.rooms):
                game = view["game"]
                if game["status"] != "playing":
                    self.rooms[i] = await self.open()
                    continue
                choice = self.rng.choice(game["legal_moves"])
                body = {"move": choice["engine_notation"], "expected_ply": game["ply"]}
                headers = {"Authorization": f"Bearer {tokens[game['turn']]}"}
                c0, w0 = time.process_time(), time.perf_counter()
                answer = await self.client.post(
                    f"/api/rooms/{room}/moves", json=body, headers=headers
                )
                cpu += time.process_time() - c0
                wall += time.perf_counter() - w0
                if answer.status_code != 200:
                    raise RuntimeError(f"move refused: {answer.status_code} {answer.text}")
                self.rooms[i] = (room, tokens, answer.json())
                done += 1
        return cpu / n * 1000, wall / n * 1000

    async def floor(self, n: int) -> tuple[float, float]:
        room = self.rooms[0][0]
        c0, w0 = time.process_time(), time.perf_counter()
        for _ in range(n):
            answer = await self.client.post(f"/bench/floor/{room}")
            if answer.status_code != 200:
                raise RuntimeError(f"floor refused: {answer.status_code}")
        return (time.process_time() - c0) / n * 1000, (time.perf_counter() - w0) / n * 1000


async def run(args: argparse.Namespace) -> None:
    from app.main import create_app  # after the environment names the database

    # As a served worker builds it: what start-up made is frozen out of the collector's
    # scans, so a collection costs what requests left, not the size of the imports.
    app = create_app(freeze_gc=True)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            player = Player(client, args.rooms, args.seed)
            await player.moves(args.moves // 4)  # warm-up: caches, statement cache, pool
            await player.floor(args.moves // 4)
            rows = []
            for _ in range(args.rounds):
                rows.append((*await player.moves(args.moves), *await player.floor(args.moves)))
                m_cpu, m_wall, f_cpu, f_wall = rows[-1]
                print(
                    f"move cpu {m_cpu:6.2f} ms  wall {m_wall:6.2f} ms  |  "
                    f"floor cpu {f_cpu:6.2f} ms  wall {f_wall:6.2f} ms",
                    flush=True,
                )
    medians = [statistics.median(column) for column in zip(*rows, strict=True)]
    print(
        f"median of {args.rounds}: move cpu {medians[0]:.2f} ms, wall {medians[1]:.2f} ms; "
        f"floor cpu {medians[2]:.2f} ms, wall {medians[3]:.2f} ms; "
        f"{args.moves} moves a round, {args.database}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=("postgresql", "sqlite"), default="postgresql")
    parser.add_argument(
        "--admin-url",
        default=os.environ.get("TEST_DATABASE_URL", DEFAULT_ADMIN_URL),
        help="PostgreSQL server to make the scratch database on",
    )
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--moves", type=int, default=800, help="moves (and floors) a round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    url, drop = scratch(args.database, args.admin_url)
    os.environ.update(
        DATABASE_URL=url,
        BENCH_ENDPOINTS="true",
        RATE_LIMIT_ENABLED="false",
        LOG_LEVEL=os.environ.get("LOG_LEVEL", "WARNING"),
        MIGRATE_ON_START="true",
        SCHEDULER_ENABLED="false",
    )
    try:
        asyncio.run(run(args))
    finally:
        drop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
