"""Do other requests stay fast while the computer thinks?

Starts the service (uvicorn, a scratch SQLite database), opens two games against
Executive and keeps both searches busy (the person answers each computer move at once),
while a client reads a room (`GET /api/rooms/{id}`) over and over. Prints the latency
percentiles of those reads and whether p99 is under 100 ms.

    python bench/computer_load.py --seconds 20
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def keep_thinking(base: str, room_id: str, token: str, stop: threading.Event, count: list[int]):
    """Answer every computer move at once, so a search is (nearly) always running."""
    with httpx.Client(base_url=base, timeout=30) as client:
        while not stop.is_set():
            view: dict[str, Any] = client.get(f"/api/rooms/{room_id}").json()
            game = view["game"]
            if view["status"] != "playing":
                return
            if game["turn"] != "drums":
                time.sleep(0.02)
                continue
            move = game["legal_moves"][0]["engine_notation"]
            r = client.post(
                f"/api/rooms/{room_id}/moves",
                json={"move": move, "expected_ply": game["ply"]},
                headers={"Authorization": f"Bearer {token}"},
            )
            if r.status_code == 200:
                count[0] += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--time", type=float, default=2.0, help="Executive's seconds a move")
    parser.add_argument("--games", type=int, default=2, help="searches kept running")
    args = parser.parse_args(argv)

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{tmp}/load.sqlite3",
            "COMPUTER_TIME_LIMIT": str(args.time),
            "COMPUTER_WORKERS": str(args.games),
            "LOG_LEVEL": "WARNING",
        }
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "app.main:create_app",
                "--factory",
                "--port",
                str(port),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
        )
        try:
            return run(base, args)
        finally:
            server.terminate()
            server.wait(timeout=10)


def run(base: str, args: argparse.Namespace) -> int:
    with httpx.Client(base_url=base, timeout=30) as client:
        for _ in range(200):
            try:
                if client.get("/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        else:
            print("the service did not start", file=sys.stderr)
            return 1
        games = []
        for _ in range(args.games):
            r = client.post("/api/computer-games", json={"level": "executive"})
            r.raise_for_status()
            games.append((r.json()["room_id"], r.json()["token"]))
        watched = client.post("/api/rooms", json={"rule_set": "english"}).json()["room_id"]

        stop = threading.Event()
        replies = [[0] for _ in games]
        threads = [
            threading.Thread(target=keep_thinking, args=(base, rid, tok, stop, n), daemon=True)
            for (rid, tok), n in zip(games, replies, strict=True)
        ]
        for t in threads:
            t.start()
        time.sleep(0.5)  # let both searches begin
        latencies: list[float] = []
        end = time.perf_counter() + args.seconds
        while time.perf_counter() < end:
            for room_id in (watched, games[0][0]):
                started = time.perf_counter()
                r = client.get(f"/api/rooms/{room_id}")
                latencies.append((time.perf_counter() - started) * 1000)
                assert r.status_code == 200
            time.sleep(0.005)
        stop.set()
        for t in threads:
            t.join(timeout=args.time * 3)

    latencies.sort()

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))]

    moves = sum(n[0] for n in replies)
    print(
        f"{len(latencies)} GET room requests in {args.seconds:g} s while {args.games} "
        f"Executive searches ran ({args.time:g} s a move; {moves} person moves answered)"
    )
    print(
        f"p50 {pct(50):.1f} ms  p95 {pct(95):.1f} ms  p99 {pct(99):.1f} ms  "
        f"max {latencies[-1]:.1f} ms  mean {statistics.mean(latencies):.1f} ms"
    )
    ok = pct(99) < 100
    print(f"p99 under 100 ms: {'yes' if ok else 'NO'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
