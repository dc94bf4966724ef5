"""Load benchmark: many rooms played at once through the HTTP API, against the floor.

Starts `checkers serve --workers 2` on a scratch PostgreSQL database (or, with
`--database sqlite`, `checkers serve` on a fresh SQLite file: the default set-up, one
process), then in one run:

1. floor: `--rooms` clients call `POST /bench/floor/{room}` (lock the room row, write it,
   commit: the least a room action costs on this stack) as fast as they can for
   `--floor-seconds`;
2. capacity: the same number of rooms play with no pause between moves for
   `--capacity-seconds` (a finished game is followed by a rematch); moves/s here divided
   by the floor's requests/s is the ratio (target >= 0.5);
3. play: `--rooms` fresh rooms (target 200) of two simulated players each play random
   legal moves until their games end, each player thinking `--think` seconds on average
   (uniform 0..2x, default 2 s) before moving; prints moves/s, p50/p95/p99 latency
   (target p99 < 100 ms) and errors (target 0).

A player chooses among the legal moves of the room view: the view answered to the
previous move (what the live event would make it fetch). Every non-2xx answer or
transport failure counts as an error. The rooms are shared among `--clients` processes
(one Python process cannot drive hundreds of connections without becoming the
bottleneck); they run on the same machine as the server, so they take CPU from it, and
they use aiohttp, the least costly Python HTTP client at hand, to take as little as they
can.

    .venv/bin/python bench/load.py                 # 200 rooms, 2 workers
    .venv/bin/python bench/load.py --rooms 50 --think 0.5 --floor-seconds 5
    .venv/bin/python bench/load.py --database sqlite   # 50 rooms, 1 process

Targets: PostgreSQL ratio >= 0.5 and p99 < 100 ms at 200 rooms; SQLite p99 < 250 ms at
50 rooms; 0 errors and every game played to the end on both.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import httpx
import orjson
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_ADMIN_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@dataclass
class Stats:
    """Latencies (seconds) of successful requests and the count of failed ones."""

    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)
    started: float = 0.0
    ended: float = 0.0

    def fail(self, kind: str) -> None:
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1

    @property
    def rate(self) -> float:
        return len(self.latencies) / max(self.ended - self.started, 1e-9)

    def percentile(self, q: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    def line(self, label: str, unit: str) -> str:
        return (
            f"{label:<9} {len(self.latencies):>7} {unit:<5} {self.rate:>8.1f}/s  "
            f"p50 {self.percentile(0.50):6.1f} ms  p95 {self.percentile(0.95):6.1f} ms  "
            f"p99 {self.percentile(0.99):6.1f} ms  errors {self.errors}"
            + (f" {self.error_kinds}" if self.error_kinds else "")
        )


# --- the server ------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def scratch_database(admin_url: str) -> tuple[str, Any]:
    """A new empty database next to `admin_url`; returns its URL and a dropper."""
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    name = f"checkers_load_{uuid.uuid4().hex[:8]}"
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))

    def drop() -> None:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()

    return make_url(admin_url).set(database=name).render_as_string(hide_password=False), drop


def start_server(database_url: str, workers: int, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "BENCH_ENDPOINTS": "true",
        "RATE_LIMIT_ENABLED": "false",  # every simulated client shares one address
        "LOG_LEVEL": os.environ.get("LOG_LEVEL", "INFO"),
    }
    command = [sys.executable, "-m", "app.cli", "serve", "--port", str(port)]
    if workers > 1:
        command += ["--workers", str(workers)]
    with log.open("ab") as out:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        if proc.poll() is not None:
            raise SystemExit(f"server exited with {proc.returncode}; see {log}")
        try:
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            proc.kill()
            raise SystemExit(f"server did not start; see {log}")
        time.sleep(0.2)


# --- the clients -----------------------------------------------------------------------


@dataclass
class Room:
    id: str
    tokens: dict[str, str]  # side -> token of the seat playing it in the current game
    view: dict[str, Any]


class Client:
    """POSTs to the service over kept-alive connections; answers are (status, JSON body)."""

    TRANSPORT_ERRORS = (aiohttp.ClientError, asyncio.TimeoutError)

    def __init__(self, base: str, connections: int) -> None:
        # Idle connections are dropped before Uvicorn's 5 s keep-alive timeout would close
        # them under a request in flight (a race that is the client's, not the service's).
        connector = aiohttp.TCPConnector(limit=connections, keepalive_timeout=3.0)
        self.session = aiohttp.ClientSession(
            base_url=base, connector=connector, timeout=aiohttp.ClientTimeout(total=30)
        )

    async def post(
        self, path: str, body: dict[str, Any] | None = None, token: str | None = None
    ) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = orjson.dumps(body) if body is not None else None
        async with self.session.post(path, data=data, headers=headers) as answer:
            raw = await answer.read()
            return answer.status, orjson.loads(raw) if raw else None

    async def close(self) -> None:
        await self.session.close()


async def open_room(client: Client, rule_set: str) -> Room:
    status, body = await client.post("/api/rooms", {"rule_set": rule_set})
    if status // 100 != 2:
        raise SystemExit(f"creating a room: {status} {body}")
    status, other = await client.post(f"/api/rooms/{body['room_id']}/join")
    if status // 100 != 2:
        raise SystemExit(f"joining a room: {status} {other}")
    tokens = {body["side"]: body["token"], other["side"]: other["token"]}
    return Room(body["room_id"], tokens, other["room"])


async def open_rooms(client: Client, count: int, rule_set: str) -> list[Room]:
    gate = asyncio.Semaphore(20)

    async def one() -> Room:
        async with gate:
            return await open_room(client, rule_set)

    return list(await asyncio.gather(*(one() for _ in range(count))))


async def move(client: Client, room: Room, rng: random.Random, stats: Stats) -> bool:
    """The side to move plays a random legal move; whether the game goes on."""
    game = room.view["game"]
    choice = rng.choice(game["legal_moves"])
    token = room.tokens[game["turn"]]
    started = time.perf_counter()
    try:
        status, body = await client.post(
            f"/api/rooms/{room.id}/moves",
            {"move": choice["engine_notation"], "expected_ply": game["ply"]},
            token,
        )
    except Client.TRANSPORT_ERRORS as exc:
        stats.fail(type(exc).__name__)
        return False
    elapsed = time.perf_counter() - started
    if status != 200:
        stats.fail(str(status))
        return False
    stats.latencies.append(elapsed)
    room.view = body
    return bool(body["game"]["status"] == "playing")


async def rematch(client: Client, room: Room) -> None:
    """Both seats agree to another game; the seats swap sides."""
    first, second = list(room.tokens.values())
    for token, action in ((first, "offer"), (second, "accept")):
        status, body = await client.post(f"/api/rooms/{room.id}/rematch", {"action": action}, token)
        if status != 200:
            raise SystemExit(f"rematch {action}: {status} {body}")
    room.view = body
    room.tokens = {"drums": room.tokens["tires"], "tires": room.tokens["drums"]}


async def floor_phase(client: Client, rooms: list[Room], seconds: float) -> Stats:
    stats = Stats(started=time.perf_counter())
    stop = stats.started + seconds

    async def loop(room: Room) -> None:
        while time.perf_counter() < stop:
            started = time.perf_counter()
            try:
                status, _ = await client.post(f"/bench/floor/{room.id}")
            except Client.TRANSPORT_ERRORS as exc:
                stats.fail(type(exc).__name__)
                continue
            if status == 200:
                stats.latencies.append(time.perf_counter() - started)
            else:
                stats.fail(str(status))

    await asyncio.gather(*(loop(room) for room in rooms))
    stats.ended = time.perf_counter()
    return stats


async def capacity_phase(client: Client, rooms: list[Room], seconds: float, seed: int) -> Stats:
    stats = Stats(started=time.perf_counter())
    stop = stats.started + seconds

    async def loop(index: int, room: Room) -> None:
        rng = random.Random(seed * 100_003 + index)
        while time.perf_counter() < stop:
            if not await move(client, room, rng, stats):
                if room.view["game"]["status"] == "playing":
                    return  # an error: counted; this room stops
                await rematch(client, room)

    await asyncio.gather(*(loop(i, room) for i, room in enumerate(rooms)))
    stats.ended = time.perf_counter()
    return stats


async def play_phase(
    client: Client, rooms: list[Room], think: float, seed: int
) -> tuple[Stats, int]:
    """Every room plays its game to the end; returns the stats and the games finished."""
    stats = Stats(started=time.perf_counter())
    finished = 0

    async def loop(index: int, room: Room) -> None:
        nonlocal finished
        rng = random.Random(seed * 7919 + index)
        await asyncio.sleep(rng.uniform(0, 2 * think))  # players arrive at different times
        while True:
            if not await move(client, room, rng, stats):
                if room.view["game"]["status"] != "playing":
                    finished += 1
                return
            await asyncio.sleep(rng.uniform(0, 2 * think))

    await asyncio.gather(*(loop(i, room) for i, room in enumerate(rooms)))
    stats.ended = time.perf_counter()
    return stats, finished


# --- the client processes ----------------------------------------------------------------
#
# One Python process cannot drive hundreds of concurrent HTTP clients without becoming
# the bottleneck itself, so the rooms are shared among `--clients` processes. They meet
# at a barrier before each phase, so the phases do not overlap.

PHASES = ("floor", "capacity", "play")


async def _client_run(
    args: argparse.Namespace, base: str, rooms: int, index: int, barrier: Any
) -> dict[str, Stats]:
    wait = asyncio.get_running_loop().run_in_executor
    results: dict[str, Stats] = {}
    client = Client(base, rooms * 2)
    try:
        warm = await open_rooms(client, rooms, args.rule_set)
        fresh = await open_rooms(client, rooms, args.rule_set)
        await wait(None, barrier.wait)
        results["floor"] = await floor_phase(client, warm, args.floor_seconds)
        await wait(None, barrier.wait)
        results["capacity"] = await capacity_phase(
            client, warm, args.capacity_seconds, args.seed * 1000 + index
        )
        await wait(None, barrier.wait)
        played, finished = await play_phase(client, fresh, args.think, args.seed * 1000 + index)
        played.error_kinds["unfinished"] = rooms - finished
        results["play"] = played
    finally:
        await client.close()
    return results


def _client_main(
    args: argparse.Namespace, base: str, rooms: int, index: int, barrier: Any, out: Any
) -> None:
    out.put(asyncio.run(_client_run(args, base, rooms, index, barrier)))


def merge(parts: list[Stats]) -> Stats:
    merged = Stats(started=min(p.started for p in parts), ended=max(p.ended for p in parts))
    for part in parts:
        merged.latencies += part.latencies
        merged.errors += part.errors
        for kind, count in part.error_kinds.items():
            if count:
                merged.error_kinds[kind] = merged.error_kinds.get(kind, 0) + count
    return merged


def run(args: argparse.Namespace, base: str) -> None:
    context = multiprocessing.get_context("spawn")
    clients = max(1, min(args.clients, args.rooms))
    shares = [args.rooms // clients + (i < args.rooms % clients) for i in range(clients)]
    barrier = context.Barrier(clients)
    out = context.Queue()
    procs = [
        context.Process(target=_client_main, args=(args, base, share, i, barrier, out))
        for i, share in enumerate(shares)
    ]
    for proc in procs:
        proc.start()
    reports = [out.get() for _ in procs]
    for proc in procs:
        proc.join()
    floor, capacity, played = (merge([r[phase] for r in reports]) for phase in PHASES)
    unfinished = played.error_kinds.pop("unfinished", 0)
    finished = args.rooms - unfinished
    print(floor.line("floor", "txns"))
    print(capacity.line("capacity", "moves"))
    print(played.line("play", "moves"))
    ratio = capacity.rate / max(floor.rate, 1e-9)
    errors = floor.errors + capacity.errors + played.errors
    print()
    print(f"rooms {args.rooms}, server workers {args.workers}, client processes {clients}")
    print(f"machine: {os.cpu_count()} cores, load average now {os.getloadavg()[0]:.1f}")
    print(f"rule set {args.rule_set}; games played to the end: {finished} of {args.rooms}")
    print(f"moves/s (play, think {args.think} s): {played.rate:.1f}")
    print(
        f"latency of a move (play): p50 {played.percentile(0.5):.1f} ms, "
        f"p95 {played.percentile(0.95):.1f} ms, p99 {played.percentile(0.99):.1f} ms"
    )
    print(f"errors: {errors}")
    print(
        f"ratio (capacity moves/s {capacity.rate:.1f} / floor txns/s {floor.rate:.1f}): {ratio:.2f}"
    )
    print(f"database {args.database}")
    if args.database == "sqlite":
        verdicts = {"p99 < 250 ms": played.percentile(0.99) < 250}
    else:
        verdicts = {
            "ratio >= 0.5": ratio >= 0.5,
            "p99 < 100 ms": played.percentile(0.99) < 100,
        }
    verdicts |= {"0 errors": errors == 0, "every game ended": finished == args.rooms}
    marks = (f"{name}: {'met' if ok else 'MISSED'}" for name, ok in verdicts.items())
    print("targets: " + ", ".join(marks))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database",
        choices=("postgresql", "sqlite"),
        default="postgresql",
        help="PostgreSQL scratch database, or a fresh SQLite file (one server process)",
    )
    parser.add_argument(
        "--rooms", type=int, default=None, help="concurrent rooms (200; SQLite: 50)"
    )
    parser.add_argument("--workers", type=int, default=None, help="Uvicorn workers (2; SQLite: 1)")
    parser.add_argument("--rule-set", default="english", help="rule set of every room")
    parser.add_argument("--think", type=float, default=2.0, help="mean think time, s (2.0)")
    parser.add_argument("--floor-seconds", type=float, default=15.0, help="floor phase (15)")
    parser.add_argument("--capacity-seconds", type=float, default=15.0, help="capacity (15)")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the players")
    parser.add_argument(
        "--clients", type=int, default=8, help="client processes sharing the rooms (8)"
    )
    parser.add_argument(
        "--admin-url",
        default=os.environ.get("TEST_DATABASE_URL", DEFAULT_ADMIN_URL),
        help="PostgreSQL where a scratch database is made (TEST_DATABASE_URL)",
    )
    args = parser.parse_args()
    sqlite = args.database == "sqlite"
    args.rooms = args.rooms or (50 if sqlite else 200)
    args.workers = args.workers or (1 if sqlite else 2)
    scratch = Path(tempfile.mkdtemp(prefix="checkers-load-"))
    if sqlite:
        database_url, drop = f"sqlite:///{scratch}/load.sqlite3", lambda: None
    else:
        admin_url = args.admin_url.replace("postgresql://", "postgresql+psycopg://", 1)
        database_url, drop = scratch_database(admin_url)
    log = scratch / "server.log"
    print(f"server log: {log}", flush=True)
    proc, base = start_server(database_url, args.workers, log)
    try:
        run(args, base)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        drop()


if __name__ == "__main__":
    main()
