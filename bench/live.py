"""Live benchmark: a crowd of viewers on real HTTP streams while moves are played.

Starts `checkers serve` on a fresh SQLite file (one process, the default set-up) or on a
scratch PostgreSQL database (`--workers`, 2 by default), then:

1. without viewers: `--moves` moves are played in the watched rooms, one every
   `--interval` seconds, while `/healthz` is polled; their latencies are the baseline;
2. `--viewers` Server-Sent Events streams are opened over `--rooms` rooms, each from its
   own loopback address (127.x.y.z, so the per-client stream cap holds as for real
   viewers), by `--viewer-processes` client processes;
3. the same moves are played again with every viewer watching: move and `/healthz`
   latencies again, and the delivery latency of every move event to every viewer,
   measured from the event's instant (the server's clock when the move request began,
   so it is an upper bound of commit-to-viewer; the clients share the machine's clock).

Targets (1,000 viewers of one room): delivery p99 < 1 s; move p99 with viewers at most
2x without; `/healthz` unaffected. A phase plays 300 moves, so that a move p99 is not
the second-worst of a handful (one pause of the garbage collector would decide it). The
viewer processes read with plain asyncio protocols (the cheapest reader at hand) and run
at `--viewer-nice` (10): real viewers sit on other machines, and these share the
server's cores.

    .venv/bin/python bench/live.py                          # SQLite, 1,000 viewers, 1 room
    .venv/bin/python bench/live.py --database postgresql
    .venv/bin/python bench/live.py --viewers 2000 --rooms 20
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import multiprocessing
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
from load import free_port, scratch_database  # bench/ is the script's own directory

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_ADMIN_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
VIEWER_NET = ipaddress.ip_network("127.64.0.0/10")  # loopback addresses for the viewers


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def summary(values: list[float]) -> str:
    return (
        f"n {len(values):>6}  p50 {percentile(values, 0.5):7.1f} ms  "
        f"p95 {percentile(values, 0.95):7.1f} ms  p99 {percentile(values, 0.99):7.1f} ms  "
        f"max {max(values, default=float('nan')) * 1000:7.1f} ms"
    )


def raise_file_limit() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


# --- the server ------------------------------------------------------------------------


def start_server(url: str, workers: int, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "RATE_LIMIT_ENABLED": "false",  # the mover plays both seats of every room
        "LOG_LEVEL": "WARNING",
        "SCHEDULER_ENABLED": "false",
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


# --- the viewers (client processes) ------------------------------------------------------


class ViewerProtocol(asyncio.Protocol):
    """One SSE stream, read raw: notes when each event id arrives (no JSON parsing)."""

    def __init__(
        self, room: str, request: bytes, arrivals: dict[tuple[str, int], list[float]], ready: Any
    ) -> None:
        self.room = room
        self.request = request
        self.arrivals = arrivals
        self.ready = ready
        self.tail = b""
        self.status_seen = False
        self.closed = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        now = time.time()
        buf = self.tail + data
        if not self.status_seen and b"\r\n" in buf:
            self.status_seen = True
            self.ready(buf.startswith(b"HTTP/1.1 200"))
        start = 0
        while True:
            found = buf.find(b"\nid: ", start)
            if found < 0:
                break
            end = buf.find(b"\n", found + 5)
            if end < 0:
                break
            self.arrivals.setdefault((self.room, int(buf[found + 5 : end])), []).append(now)
            start = end
        self.tail = buf[max(start, len(buf) - 64) :]

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(None)


async def _viewers(
    port: int, streams: list[tuple[str, int, str]], connected: Any, stop: Any
) -> tuple[dict[tuple[str, int], list[float]], int, int]:
    loop = asyncio.get_running_loop()
    arrivals: dict[tuple[str, int], list[float]] = {}
    ok = failed = 0
    gate = asyncio.Semaphore(100)

    def ready(good: bool) -> None:
        nonlocal ok, failed
        if good:
            ok += 1
        else:
            failed += 1

    async def one(room: str, after: int, address: str) -> None:
        request = (
            f"GET /api/rooms/{room}/events?after={after} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Accept: text/event-stream\r\n\r\n"
        ).encode()
        async with gate:
            try:
                await loop.create_connection(
                    lambda: ViewerProtocol(room, request, arrivals, ready),
                    "127.0.0.1",
                    port,
                    local_addr=(address, 0),
                )
            except OSError:
                ready(False)

    await asyncio.gather(*(one(*stream) for stream in streams))
    while ok + failed < len(streams):
        await asyncio.sleep(0.05)
    connected.put((ok, failed))
    while not stop.is_set():
        await asyncio.sleep(0.1)
    return arrivals, ok, failed


def viewer_main(
    port: int, streams: list[tuple[str, int, str]], nice: int, connected: Any, stop: Any, out: Any
) -> None:
    raise_file_limit()
    if nice:
        os.nice(nice)
    out.put(asyncio.run(_viewers(port, streams, connected, stop)))


# --- the mover and the /healthz poller ---------------------------------------------------


class Rooms:
    """The watched rooms, played by both their seats through the API."""

    def __init__(self, client: httpx.AsyncClient, rng: random.Random) -> None:
        self.client = client
        self.rng = rng
        self.rooms: list[dict[str, Any]] = []
        self.instants: dict[tuple[str, int], float] = {}  # (room, version) -> event instant

    async def open(self, count: int) -> None:
        for _ in range(count):
            created = (await self.client.post("/api/rooms", json={"rule_set": "english"})).json()
            joined = (await self.client.post(f"/api/rooms/{created['room_id']}/join")).json()
            tokens = {created["side"]: created["token"], joined["side"]: joined["token"]}
            self.rooms.append({"id": created["room_id"], "tokens": tokens, "view": joined["room"]})

    async def play(self, moves: int, interval: float, latencies: list[float]) -> int:
        errors = 0
        for n in range(moves):
            room = self.rooms[n % len(self.rooms)]
            game = room["view"]["game"]
            if game["status"] != "playing":
                await self._rematch(room)
                game = room["view"]["game"]
            body = {
                "move": self.rng.choice(game["legal_moves"])["engine_notation"],
                "expected_ply": game["ply"],
            }
            headers = {"Authorization": f"Bearer {room['tokens'][game['turn']]}"}
            started = time.perf_counter()
            answer = await self.client.post(
                f"/api/rooms/{room['id']}/moves", json=body, headers=headers
            )
            latencies.append(time.perf_counter() - started)
            if answer.status_code != 200:
                errors += 1
                continue
            room["view"] = view = answer.json()
            instant = datetime.fromisoformat(view["game"]["moves"][-1]["played_at"]).timestamp()
            version = view["version"] if view["game"]["status"] == "playing" else None
            if version is not None:  # a game's last move is followed by its game_over event
                self.instants[(room["id"], version)] = instant
            await asyncio.sleep(interval)
        return errors

    async def _rematch(self, room: dict[str, Any]) -> None:
        drums, tires = room["tokens"]["drums"], room["tokens"]["tires"]
        url = f"/api/rooms/{room['id']}/rematch"
        await self.client.post(
            url, json={"action": "offer"}, headers={"Authorization": f"Bearer {drums}"}
        )
        answer = await self.client.post(
            url, json={"action": "accept"}, headers={"Authorization": f"Bearer {tires}"}
        )
        room["view"] = answer.json()
        room["tokens"] = {"drums": tires, "tires": drums}


async def poll_health(client: httpx.AsyncClient, stop: asyncio.Event, out: list[float]) -> None:
    while not stop.is_set():
        started = time.perf_counter()
        answer = await client.get("/healthz")
        if answer.status_code == 200:
            out.append(time.perf_counter() - started)
        await asyncio.sleep(0.05)


async def phase(
    rooms: Rooms, base: str, moves: int, interval: float
) -> tuple[list[float], list[float], int]:
    moved: list[float] = []
    health: list[float] = []
    stop = asyncio.Event()
    async with httpx.AsyncClient(base_url=base, timeout=30) as poller:
        polling = asyncio.create_task(poll_health(poller, stop, health))
        errors = await rooms.play(moves, interval, moved)
        stop.set()
        await polling
    return moved, health, errors


def run(args: argparse.Namespace, base: str, port: int) -> None:
    rng = random.Random(args.seed)

    async def prepare() -> Rooms:
        client = httpx.AsyncClient(base_url=base, timeout=30)
        rooms = Rooms(client, rng)
        await rooms.open(args.rooms)
        return rooms

    loop = asyncio.new_event_loop()
    rooms = loop.run_until_complete(prepare())
    before = loop.run_until_complete(phase(rooms, base, args.moves, args.interval))

    # The viewers: spread over the rooms, each from its own loopback address.
    addresses = VIEWER_NET.hosts()
    streams = [
        (room["id"], room["view"]["version"], str(next(addresses)))
        for i in range(args.viewers)
        for room in [rooms.rooms[i % len(rooms.rooms)]]
    ]
    context = multiprocessing.get_context("spawn")
    connected, stop, out = context.Queue(), context.Event(), context.Queue()
    shares = [streams[i :: args.viewer_processes] for i in range(args.viewer_processes)]
    procs = [
        context.Process(
            target=viewer_main, args=(port, share, args.viewer_nice, connected, stop, out)
        )
        for share in shares
    ]
    opened = time.perf_counter()
    for proc in procs:
        proc.start()
    ok = failed = 0
    for _ in procs:
        good, bad = connected.get(timeout=300)
        ok, failed = ok + good, failed + bad
    print(
        f"viewers connected: {ok} of {args.viewers} in {time.perf_counter() - opened:.1f} s"
        f" ({failed} refused or failed)",
        flush=True,
    )
    time.sleep(1.0)
    during = loop.run_until_complete(phase(rooms, base, args.moves, args.interval))
    time.sleep(2.0)  # the last events reach everyone
    stop.set()
    reports = [out.get(timeout=120) for _ in procs]
    for proc in procs:
        proc.join()
    loop.run_until_complete(rooms.client.aclose())
    loop.close()

    delivery: list[float] = []
    watchers = {room["id"]: 0 for room in rooms.rooms}
    since = {room["id"]: 0 for room in rooms.rooms}
    for room_id, after, _ in streams:
        watchers[room_id] += 1
        since[room_id] = max(since[room_id], after)
    arrivals: dict[tuple[str, int], list[float]] = {}
    for report in reports:
        for key, times in report[0].items():
            arrivals.setdefault(key, []).extend(times)
    expected = 0
    for (room_id, version), instant in rooms.instants.items():
        if version <= since[room_id]:
            continue  # played before the viewers came
        expected += watchers[room_id]
        delivery.extend(t - instant for t in arrivals.get((room_id, version), []))
    missing = expected - len(delivery)

    moved_before, health_before, errors_before = before
    moved_during, health_during, errors_during = during
    print()
    print(
        f"database {args.database}, server workers {args.workers}, rooms {args.rooms}, "
        f"viewers {args.viewers} ({args.viewer_processes} processes at nice {args.viewer_nice})"
    )
    print(f"moves {args.moves} per phase, one every {args.interval} s")
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()}")
    print(f"move without viewers:    {summary(moved_before)}  errors {errors_before}")
    print(f"move with viewers:       {summary(moved_during)}  errors {errors_during}")
    print(f"/healthz without:        {summary(health_before)}")
    print(f"/healthz with viewers:   {summary(health_during)}")
    print(f"delivery commit->viewer: {summary(delivery)}  missing {missing} of {expected}")
    p99_before, p99_during = percentile(moved_before, 0.99), percentile(moved_during, 0.99)
    verdicts = {
        "delivery p99 < 1 s": percentile(delivery, 0.99) < 1000 and missing == 0,
        "move p99 <= 2x": p99_during <= 2 * p99_before,
        "/healthz p99 <= 2x": percentile(health_during, 0.99)
        <= 2 * max(percentile(health_before, 0.99), 1.0),
        "every viewer connected": ok == args.viewers,
    }
    print(f"move p99 ratio with/without: {p99_during / p99_before:.2f}")
    print("targets: " + ", ".join(f"{k}: {'met' if v else 'MISSED'}" for k, v in verdicts.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--viewers", type=int, default=1000, help="SSE streams (1000)")
    parser.add_argument("--rooms", type=int, default=1, help="rooms the viewers watch (1)")
    parser.add_argument("--moves", type=int, default=300, help="moves per phase (300)")
    parser.add_argument("--interval", type=float, default=0.4, help="seconds between moves (0.4)")
    parser.add_argument(
        "--workers", type=int, default=None, help="server processes (SQLite 1, PostgreSQL 2)"
    )
    parser.add_argument("--viewer-processes", type=int, default=2, help="client processes (2)")
    parser.add_argument("--viewer-nice", type=int, default=10, help="their niceness (10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--admin-url",
        default=os.environ.get("TEST_DATABASE_URL", DEFAULT_ADMIN_URL),
        help="PostgreSQL where a scratch database is made (TEST_DATABASE_URL)",
    )
    args = parser.parse_args()
    args.workers = args.workers or (1 if args.database == "sqlite" else 2)
    limit = raise_file_limit()
    if limit < args.viewers * 2 + 256:
        raise SystemExit(f"open-file limit {limit} is too low for {args.viewers} viewers")
    scratch = Path(tempfile.mkdtemp(prefix="checkers-live-"))
    if args.database == "sqlite":
        url, drop = f"sqlite:///{scratch}/live.sqlite3", lambda: None
    else:
        url, drop = scratch_database(
            args.admin_url.replace("postgresql://", "postgresql+psycopg://", 1)
        )
    log = scratch / "server.log"
    print(f"server log: {log}", flush=True)
    proc, base = start_server(url, args.workers, log)
    try:
        run(args, base, int(base.rsplit(":", 1)[1]))
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
