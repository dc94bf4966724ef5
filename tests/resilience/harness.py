"""Helpers of the resilience tests: app instances in subprocesses (killable, restartable
on the same port), a TCP proxy that can cut PostgreSQL, players that retry, and the
checks that a stored game is whole."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text

from checkers_engine import Board

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Instance:
    """`uvicorn app.main:create_app` on a fixed loopback port; can be SIGKILLed and
    started again on the same port."""

    def __init__(self, database_url: str, log: Path, **env: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "SCHEDULER_ENABLED": "false",
            "MIGRATE_ON_START": "false",
            "RATE_LIMIT_ENABLED": "false",
            "LOG_LEVEL": "INFO",
            **env,
        }
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 30.0) -> None:
        command = [
            sys.executable, "-m", "uvicorn", "--factory", "app.main:create_app",
            "--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warning",
            "--timeout-graceful-shutdown", "1",
        ]  # fmt: skip
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=out, stderr=out)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"server did not start: {self.log.read_text()[-3000:]}")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no shutdown hook runs, in-flight transactions die with the process."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@contextmanager
def running(instance: Instance) -> Iterator[Instance]:
    instance.start()
    try:
        yield instance
    finally:
        instance.stop()


class Proxy:
    """A TCP proxy on a loopback port in front of PostgreSQL, run on its own event loop.

    `cut()` drops every open connection and answers new ones by closing them (the
    database went away); `blackhole()` drops open connections and accepts new ones but
    never answers (an unreachable host: only timeouts end the wait); `resume()` forwards
    again."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = free_port()
        self.mode = "up"
        self._loop = asyncio.new_event_loop()
        self._writers: set[asyncio.StreamWriter] = set()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self._ready.wait(5)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._serve())
        self._loop.run_forever()

    async def _serve(self) -> None:
        self._server = await asyncio.start_server(self._client, "127.0.0.1", self.port)
        self._ready.set()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.mode == "down":
            writer.close()
            return
        self._writers.add(writer)
        if self.mode == "blackhole":
            await reader.read()  # hold the connection, say nothing
            self._drop(writer)
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            self._drop(writer)
            return
        self._writers.add(up_writer)

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (OSError, asyncio.CancelledError):
                pass
            finally:
                self._drop(dst)

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def _drop(self, writer: asyncio.StreamWriter) -> None:
        self._writers.discard(writer)
        transport = writer.transport
        if not transport.is_closing():
            transport.abort()  # RST, like a server that died

    def _set(self, mode: str) -> None:
        def apply() -> None:
            self.mode = mode
            if mode != "up":
                for writer in list(self._writers):
                    self._drop(writer)

        done = threading.Event()
        self._loop.call_soon_threadsafe(lambda: (apply(), done.set()))
        done.wait(5)

    def cut(self) -> None:
        self._set("down")

    def blackhole(self) -> None:
        self._set("blackhole")

    def resume(self) -> None:
        self._set("up")

    def close(self) -> None:
        self._set("down")
        self._loop.call_soon_threadsafe(self._server.close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)


# --- players -----------------------------------------------------------------------------


@dataclass
class Table:
    """One room as its two players know it: tokens by side and every acknowledged move."""

    room_id: str
    tokens: dict[str, str]
    view: dict[str, Any]
    acked: dict[int, list[str]] = field(default_factory=dict)  # game number -> moves
    replies: dict[int, list[int]] = field(default_factory=dict)  # game -> conditional plies

    @property
    def playing(self) -> bool:
        return bool(self.view["game"]["status"] == "playing")


def open_table(client: httpx.Client, rule_set: str = "english") -> Table:
    created = client.post("/api/rooms", json={"rule_set": rule_set})
    assert created.status_code == 201, created.text
    joined = client.post(f"/api/rooms/{created.json()['room_id']}/join")
    assert joined.status_code == 200, joined.text
    a, b = created.json(), joined.json()
    return Table(a["room_id"], {a["side"]: a["token"], b["side"]: b["token"]}, b["room"])


@dataclass
class Retries:
    """What retrying cost: failed attempts by kind and the longest single attempt."""

    failures: dict[str, int] = field(default_factory=dict)
    retry_after: set[str] = field(default_factory=set)
    longest: float = 0.0

    def note(self, kind: str) -> None:
        self.failures[kind] = self.failures.get(kind, 0) + 1


def submit(
    client: httpx.Client, path: str, body: Any, token: str, retries: Retries, deadline: float
) -> httpx.Response:
    """POST the same submission until the service answers it with 200 (connection
    failures and 503s are retried: the server may be down or restarting)."""
    headers = {"Authorization": f"Bearer {token}"}
    while True:
        if time.monotonic() > deadline:
            raise AssertionError(f"{path}: no answer before the deadline")
        started = time.monotonic()
        try:
            answer = client.post(path, json=body, headers=headers)
        except httpx.HTTPError as exc:
            retries.note(type(exc).__name__)
            time.sleep(0.05)
            continue
        finally:
            retries.longest = max(retries.longest, time.monotonic() - started)
        if answer.status_code == 200:
            return answer
        assert answer.status_code == 503, (answer.status_code, answer.text)
        retries.note("503")
        retries.retry_after.add(answer.headers.get("retry-after", ""))
        time.sleep(0.1)  # the test does not wait the full Retry-After


def plan_replies(
    client: httpx.Client, table: Table, rng: random.Random, retries: Retries, deadline: float
) -> dict[str, str]:
    """The waiting side stores a random reply to every move the side to move can play
    (none where that move ends the game); returns them by the mover's move."""
    game = table.view["game"]
    board = Board(table.view["rule_set"]["key"], fen=game["start_fen"])
    for played in game["moves"]:  # the history too: repetition ends a game
        board.push_text(played["engine_notation"])
    replies: dict[str, str] = {}
    for move in board.legal_moves:
        board.push(move)
        if board.legal_moves and board.outcome() is None:
            replies[move.notation()] = rng.choice(board.legal_moves).notation()
        board.pop()
    if replies:
        waiting = "tires" if game["turn"] == "drums" else "drums"
        lines = [{"their_move": theirs, "reply": mine} for theirs, mine in replies.items()]
        path = f"/api/rooms/{table.room_id}/conditional"
        submit(client, path, {"lines": lines}, table.tokens[waiting], retries, deadline)
    return replies


def play_one(
    client: httpx.Client,
    table: Table,
    rng: random.Random,
    retries: Retries,
    deadline: float,
    replies: dict[str, str] | None = None,
) -> None:
    """The side to move plays a random legal move, resending the same submission (same
    move, same expected ply) until the service answers it: a resend of a move that was
    applied before a failure is recognised and not played twice. With `replies` stored by
    the waiting side, the answer must show the stored reply played after the move."""
    game = table.view["game"]
    move = rng.choice(game["legal_moves"])["engine_notation"]
    body = {"move": move, "expected_ply": game["ply"]}
    path = f"/api/rooms/{table.room_id}/moves"
    answer = submit(client, path, body, table.tokens[game["turn"]], retries, deadline)
    played = table.acked.setdefault(game["number"], [])
    played.append(move)
    table.view = answer.json()
    after = table.view["game"]
    reply = (replies or {}).get(move)
    if reply is None or after["number"] != game["number"]:
        assert (after["number"], after["ply"]) == (game["number"], game["ply"] + 1)
        return
    assert after["ply"] == game["ply"] + 2, (table.room_id, after["ply"], game["ply"])
    last = after["moves"][-1]
    assert (last["engine_notation"], last["conditional"]) == (reply, True)
    played.append(reply)
    table.replies.setdefault(game["number"], []).append(after["ply"])


# --- checks ------------------------------------------------------------------------------


def check_stored(database_url: str, tables: list[Table]) -> dict[str, int]:
    """Every acknowledged move stored once, in order; every game's position equal to the
    replay of its moves; event versions without gaps. Returns counts for reports."""
    engine = create_engine(database_url)
    moves_checked = 0
    try:
        with engine.connect() as conn:
            for table in tables:
                rule_set, version = conn.execute(
                    text("SELECT rule_set, version FROM rooms WHERE id = :r"),
                    {"r": table.room_id},
                ).one()
                games = conn.execute(
                    text("SELECT id, number, fen, ply, start_fen, status FROM games "
                         "WHERE room_id = :r ORDER BY number"),
                    {"r": table.room_id},
                ).all()  # fmt: skip
                for game_id, number, fen, ply, start_fen, _status in games:
                    stored = conn.execute(
                        text("SELECT ply, notation, fen_after, conditional FROM moves "
                             "WHERE game_id = :g ORDER BY ply"),
                        {"g": game_id},
                    ).all()  # fmt: skip
                    assert [row.ply for row in stored] == list(range(1, ply + 1))
                    notations = [row.notation for row in stored]
                    assert notations == table.acked.get(number, []), (table.room_id, number)
                    replies = [row.ply for row in stored if row.conditional]
                    assert replies == table.replies.get(number, []), (table.room_id, number)
                    board = Board(rule_set, fen=start_fen)
                    for row in stored:
                        board.push_text(row.notation)
                        assert board.fen() == row.fen_after
                    assert board.fen() == fen
                    moves_checked += len(stored)
                versions = conn.execute(
                    text("SELECT version FROM events WHERE room_id = :r ORDER BY version"),
                    {"r": table.room_id},
                ).scalars().all()  # fmt: skip
                assert list(versions) == list(range(1, version + 1))
    finally:
        engine.dispose()
    return {"rooms": len(tables), "moves": moves_checked}


def assert_no_tokens(logs: list[Path], tables: list[Table]) -> int:
    """No seat token in the servers' logs (structured lines at INFO); returns the lines."""
    text_ = "\n".join(log.read_text() for log in logs)
    for table in tables:
        for token in table.tokens.values():
            assert token not in text_, f"a seat token of room {table.room_id} was logged"
    return text_.count("\n")
