"""Two sweeper processes against one PostgreSQL database never act twice on a room."""

from __future__ import annotations

import subprocess
import sys
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from app.core.db import Database
from app.core.settings import Settings
from app.rooms.models import Event, Game, GameStatus, Room, RoomStatus, Seat
from app.rooms.policy import next_check
from app.rooms.seats import hash_token
from checkers_engine import Board

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
NOW = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)
SWEEPER = """
import sys, time
from datetime import datetime
from app.core.clock import ManualClock
from app.core.db import Database
from app.core.settings import Settings
from app.rooms.jobs import sweep
url, now, start = sys.argv[1], datetime.fromisoformat(sys.argv[2]), float(sys.argv[3])
database = Database(url)
database.ping()
time.sleep(max(0.0, start - time.time()))  # both processes begin together
print(sweep(database, ManualClock(now), Settings(database_url=url, sweep_batch_size=20)))
"""


def _seed(database: Database, settings: Settings, waiting: int, playing: int) -> None:
    """`waiting` rooms created 8 days ago and `playing` rooms whose turn began 49 h ago."""
    fen = Board("english").fen()
    with database.session() as session, session.begin():
        for i in range(waiting + playing):
            is_waiting = i < waiting
            began = NOW - (timedelta(days=8) if is_waiting else timedelta(hours=49))
            room = Room(
                id=f"sweep-{i:04d}",
                rule_set="english",
                status=RoomStatus.WAITING if is_waiting else RoomStatus.PLAYING,
                current_game_number=1,
                version=0,
                created_at=began,
                last_active_at=began,
            )
            game = Game(
                room_id=room.id,
                number=1,
                drums_seat="creator",
                status=GameStatus.WAITING if is_waiting else GameStatus.PLAYING,
                fen=fen,
                ply=0,
                turn="drums",
                created_at=began,
                started_at=None if is_waiting else began,
                turn_started_at=None if is_waiting else began,
                claim_notified=False,
            )
            room.seats = [Seat(role="creator", token_hash=hash_token(f"t{i}"), joined_at=began)]
            if not is_waiting:
                room.seats.append(
                    Seat(role="joiner", token_hash=hash_token(f"u{i}"), joined_at=began)
                )
            room.next_check_at = next_check(room, game, settings)
            session.add(room)
            session.flush()
            session.add(game)


def test_two_sweepers_act_once_on_each_of_500_due_rooms(pg_database: Database) -> None:
    settings = Settings(database_url=pg_database.url)
    _seed(pg_database, settings, waiting=250, playing=250)
    start = time.time() + 4
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", SWEEPER, pg_database.url, NOW.isoformat(), str(start)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outputs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err for _, err in outputs]
    handled = [int(out.strip().splitlines()[-1]) for out, _ in outputs]
    print("handled by each sweeper:", handled)
    assert sum(handled) == 500
    with pg_database.session() as session:
        counts = Counter(
            (room_id, kind) for room_id, kind in session.execute(select(Event.room_id, Event.kind))
        )
        statuses = Counter(session.scalars(select(Room.status)))
    for i in range(500):
        room_id = f"sweep-{i:04d}"
        if i < 250:
            assert counts[(room_id, "expired")] == 1, room_id
        else:
            assert counts[(room_id, "claim_open")] == 1, room_id
            assert counts[(room_id, "expired")] == 0, room_id
    assert statuses == {RoomStatus.EXPIRED: 250, RoomStatus.PLAYING: 250}
