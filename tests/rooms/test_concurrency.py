"""One writer per room: concurrent submissions to one room apply exactly one move."""

from __future__ import annotations

import threading
from collections import Counter
from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select

from app.core.context import Context
from app.core.db import Database
from app.core.settings import Settings
from app.rooms import errors, service
from app.rooms.models import Event, Move

OPENINGS = ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
NOW = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)


def _room(database: Database, settings: Settings) -> tuple[str, str]:
    with database.session() as session:
        granted = service.create_room(session, rule_set="english", ctx=Context(NOW, settings))
    with database.session() as session:
        service.join_room(session, room_id=granted.room_id, ctx=Context(NOW, settings))
    return granted.room_id, granted.token


def _submit_all(
    database: Database, settings: Settings, room_id: str, token: str, moves: list[str]
) -> Counter[str]:
    barrier = threading.Barrier(len(moves))
    outcomes: Counter[str] = Counter()
    lock = threading.Lock()

    def submit(text: str) -> None:
        barrier.wait()
        try:
            with database.session() as session:
                service.play_move(
                    session,
                    room_id=room_id,
                    token=token,
                    move=text,
                    expected_ply=0,
                    ctx=Context(NOW, settings),
                )
            outcome = "ok"
        except errors.RoomError as exc:
            outcome = exc.code
        with lock:
            outcomes[outcome] += 1

    threads = [threading.Thread(target=submit, args=(m,)) for m in moves]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


@pytest.mark.parametrize("same", [True, False], ids=["same-move", "different-moves"])
def test_twenty_concurrent_submissions_apply_exactly_one(
    database: Database, settings: Settings, same: bool
) -> None:
    room_id, token = _room(database, settings)
    moves = ["11-15"] * 20 if same else [OPENINGS[i % 7] for i in range(20)]
    outcomes = _submit_all(database, settings, room_id, token, moves)
    with database.session() as session:
        rows = session.scalars(select(Move)).all()
        move_events = session.scalar(
            select(func.count()).select_from(Event).where(Event.kind == "move")
        )
    assert len(rows) == 1 and rows[0].ply == 1
    assert move_events == 1
    if same:
        # The winner applied it; every other submission is a retry of the same move.
        assert outcomes == Counter({"ok": 20})
    else:
        applied = rows[0].notation
        retries = moves.count(applied) - 1
        assert outcomes == Counter({"ok": 1 + retries, "stale_ply": 20 - 1 - retries})
