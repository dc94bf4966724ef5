"""The endgame tables built on first use (EGDB_BUILD_ON_USE), in an empty tables directory."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.computer.tables import TableBuilds
from app.core.clock import ManualClock
from app.core.db import Database
from app.core.settings import Settings
from app.main import create_app
from checkers_engine import Board
from checkers_engine.ai import egdb
from tests.computer.test_computer_games import auth, runner, start, wait_for


@pytest.fixture
def tables_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty tables directory, the default one of this process and its children."""
    where = tmp_path / "egdb"
    monkeypatch.setenv("CHECKERS_EGDB_DIR", str(where))
    egdb.forget()
    yield where
    egdb.forget()


def wait_for_file(path: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert time.monotonic() < deadline, f"{path.name} was not built"
        time.sleep(0.05)


def test_the_first_executive_game_builds_its_tables_once(
    settings: Settings, clock: ManualClock, database: Database, tables_dir: Path
) -> None:
    on = settings.model_copy(
        update={
            "computer_workers": 1,
            "computer_time_limit": 0.05,
            "egdb_build_on_use": True,
            "egdb_pieces": 2,
        }
    )
    assert not tables_dir.exists()
    with TestClient(create_app(on, clock=clock, database=database)) as client:
        room_id, token = start(client, "executive", "russian")
        board = Board("russian")
        for ply in (0, 2):
            move = board.legal_moves[0].notation()
            r = client.post(
                f"/api/rooms/{room_id}/moves",
                json={"move": move, "expected_ply": ply},
                headers=auth(token),
            )
            assert r.status_code == 200, r.text
            v = wait_for(client, room_id, lambda v, ply=ply: v["game"]["ply"] == ply + 2)
            board.push_text(move)
            board.push_text(v["game"]["moves"][-1]["engine_notation"])
            wait_for_file(tables_dir / "russian-2.egdb")
        builds = runner(client).tables
        assert builds is not None
        # Two replies owed, one build: the second found the file there.
        assert builds.started == {"russian": 1}
    assert sorted(p.name for p in tables_dir.iterdir()) == [egdb.LOCK_NAME, "russian-2.egdb"]
    found = egdb.available("russian")
    assert found is not None and found.pieces == 2
    # The table the Executive reads holds every 2-piece position of the rule set.
    assert found.probe(Board("russian", fen="W:WK1:BK32")) is not None


def test_no_build_starts_while_another_holds_the_lock(tables_dir: Path) -> None:
    builds = TableBuilds(2, tables_dir)
    with egdb.build_lock(tables_dir) as held:
        assert held
        assert not builds.want("english")  # another process or instance is building
        assert not egdb.build_unless_busy("english", 2, tables_dir)  # a racing build gives way
        assert builds.started == {}
    assert not egdb.built("english", 2, tables_dir)
    # The lock is free again: the next request starts the build, and only one.
    assert builds.want("english")
    assert not builds.want("english")
    wait_for_file(tables_dir / "english-2.egdb")
    assert not builds.want("english")
    assert builds.started == {"english": 1}
    builds.stop()


def children() -> dict[int, str]:
    """This process's children by pid: their state (`Z`: ended, not reaped) and command."""
    found: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:  # ended meanwhile
            continue
        state, ppid = stat.rsplit(")", 1)[1].split()[:2]
        if int(ppid) == os.getpid():
            found[int(entry.name)] = f"{state} {command}"
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_finished_build_is_reaped(tables_dir: Path) -> None:
    builds = TableBuilds(2, tables_dir)
    before = set(children())
    assert builds.want("english")
    started = [
        pid
        for pid, what in children().items()
        if pid not in before and "resource_tracker" not in what
    ]
    assert len(started) == 1, children()
    build = started[0]
    wait_for_file(tables_dir / "english-2.egdb")
    # Nothing more is asked of the builds: the ended child must still not linger as a
    # zombie.
    deadline = time.monotonic() + 20
    while build in children():
        assert time.monotonic() < deadline, f"the build's process: {children().get(build)}"
        time.sleep(0.05)
    builds.stop()


def test_the_setting_off_starts_no_build(
    settings: Settings, clock: ManualClock, database: Database, tables_dir: Path
) -> None:
    off = settings.model_copy(update={"computer_workers": 1, "computer_time_limit": 0.05})
    assert not off.egdb_build_on_use  # the suite's shared settings
    with TestClient(create_app(off, clock=clock, database=database)) as client:
        assert runner(client).tables is None
        room_id, token = start(client, "executive", "english")
        r = client.post(
            f"/api/rooms/{room_id}/moves",
            json={"move": "11-15", "expected_ply": 0},
            headers=auth(token),
        )
        assert r.status_code == 200, r.text
        wait_for(client, room_id, lambda v: v["game"]["ply"] == 2)
    assert not tables_dir.exists()


def test_the_command_waits_for_a_build_already_running(tables_dir: Path) -> None:
    from app.cli import main

    done: list[int] = []
    command = ["egdb", "build", "english", "--pieces", "2", "--dir", str(tables_dir), "--quiet"]
    with egdb.build_lock(tables_dir) as held:
        assert held
        worker = threading.Thread(target=lambda: done.append(main(command)))
        worker.start()
        worker.join(1.0)
        assert worker.is_alive() and not done  # waiting for the lock
        assert not egdb.built("english", 2, tables_dir)
    worker.join(30)
    assert done == [0]
    assert egdb.built("english", 2, tables_dir)
