"""Reasons stored as English before revision 0014 become facts, and back (issue 59, point 3).

Games are written at revision 0013 through the schema reflected there, with every English
reason the service wrote; after the upgrade each holds its code and parameters, the API
says the same English `reason` as before and the moves are all still there (the games
table is altered in place, never rebuilt); the downgrade writes the same English back.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import MetaData, create_engine, func, insert, select

from app.core.db import Database
from app.core.migrate import downgrade, upgrade
from app.core.settings import Settings
from app.main import create_app
from app.rooms.seats import hash_token
from checkers_engine import Board

from .conftest import DIALECTS, migrated_to, played_row

# termination, winner, the English stored, the facts it becomes
STORED: list[tuple[str, str | None, str, str, dict[str, Any]]] = [
    ("resignation", "tires", "drums resigned", "resigned", {"side": "drums"}),
    ("forfeit", "drums", "forfeit: no move for 2 days", "forfeit", {"seconds": 172800}),
    ("expired", None, "nobody joined within 7 days", "nobody_joined", {"seconds": 604800}),
    ("expired", None, "expired: no move for 36 hours", "expired", {"seconds": 129600}),
    ("agreement", None, "agreed by both players", "agreed", {}),
    ("no_pieces", "drums", "tires have no pieces left", "no_pieces", {"side": "tires"}),
    ("no_moves", "tires", "drums have no legal move", "no_moves", {"side": "drums"}),
    (
        "king_moves",
        None,
        "20 king moves without a capture or a man's move",
        "king_moves",
        {},
    ),
    ("repetition", None, "threefold repetition", "repetition", {}),
    ("move_limit", None, "the 300-ply limit was reached", "move_limit", {"plies": 300}),
]
NOTES = [
    ("Dropped: a draw was offered.", "draw_offered", {}),
    (
        "Dropped: your opponent played 24-20, which no line expected.",
        "unexpected_move",
        {"move": "24-20"},
    ),
]
PLIES = 4


@pytest.fixture(params=DIALECTS)
def database_at_0013(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    """An empty database migrated to revision 0013 only."""
    with migrated_to(request, tmp_path, "0013") as url:
        yield url


def _store(url: str) -> None:
    """A finished English game per stored reason (PLIES moves each), and a playing game
    per plan note."""
    engine = create_engine(url)
    meta = MetaData()
    meta.reflect(engine)
    rooms, seats, games, moves, lines = (
        meta.tables[t] for t in ("rooms", "seats", "games", "moves", "conditional_lines")
    )
    at = datetime(2026, 12, 8, 12, 0, tzinfo=UTC)
    if engine.dialect.name == "sqlite":
        at = at.replace(tzinfo=None)
    board = Board("english")
    rows = [played_row(board, board.legal_moves[0], ply, at) for ply in range(1, PLIES + 1)]
    cases: list[tuple[str, str | None, str | None, str | None]] = [
        (termination, winner, reason, None) for termination, winner, reason, _, _ in STORED
    ]
    cases += [(None, None, None, note) for note, _, _ in NOTES]
    with engine.begin() as conn:
        for number, (termination, winner, reason, note) in enumerate(cases):
            room_id, done = f"old-{number}", termination is not None
            conn.execute(
                insert(rooms).values(
                    id=room_id,
                    rule_set="english",
                    status=30 if done else 20,
                    current_game_number=1,
                    version=0,
                    created_at=at,
                    last_active_at=at,
                    next_check_at=None,
                )
            )
            seat_ids = [
                conn.execute(
                    insert(seats)
                    .values(room_id=room_id, role=role, token_hash=hash_token(f"{room_id}-{role}"))
                    .values(joined_at=at, planned=note is not None)
                    .returning(seats.c.id)
                ).scalar_one()
                for role in ("creator", "joiner")
            ]
            game_id = conn.execute(
                insert(games)
                .values(
                    room_id=room_id,
                    number=1,
                    drums_seat="creator",
                    status=30 if done else 20,
                    fen=board.fen(),
                    ply=PLIES,
                    turn=board.turn.value,
                    winner=winner,
                    termination=termination,
                    reason=reason,
                    created_at=at,
                    started_at=None if reason and reason.startswith("nobody") else at,
                    turn_started_at=at,
                    claim_notified=False,
                    ended_at=at if done else None,
                )
                .returning(games.c.id)
            ).scalar_one()
            conn.execute(insert(moves), [{"game_id": game_id, **row} for row in rows])
            if note is not None:
                conn.execute(
                    insert(lines).values(
                        game_id=game_id, seat_id=seat_ids[0], tree=[], note=note, updated_at=at
                    )
                )
    engine.dispose()


def _read(url: str, *columns: str) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], int]:
    """The games' and plan notes' columns named, by room, and the count of moves."""
    engine = create_engine(url)
    meta = MetaData()
    meta.reflect(engine)
    games, lines, moves = (meta.tables[t] for t in ("games", "conditional_lines", "moves"))
    with engine.connect() as conn:
        found = conn.execute(
            select(*(games.c[c] for c in columns if c in games.c)).order_by(games.c.id)
        ).all()
        notes = conn.execute(
            select(*(lines.c[c] for c in columns if c in lines.c)).order_by(lines.c.id)
        ).all()
        count = conn.execute(select(func.count()).select_from(moves)).scalar_one()
    engine.dispose()
    return [tuple(row) for row in found], [tuple(row) for row in notes], count


def test_stored_reasons_become_facts_and_back(database_at_0013: str) -> None:
    url = database_at_0013
    _store(url)
    games_before, notes_before, moves_before = _read(url, "reason", "note")
    upgrade(url)

    games_after, notes_after, moves_after = _read(
        url, "reason_code", "reason_params", "note", "note_params"
    )
    assert moves_after == moves_before == (len(STORED) + len(NOTES)) * PLIES
    facts = [(code, params) for *_, code, params in STORED]
    assert games_after[: len(STORED)] == facts
    assert games_after[len(STORED) :] == [(None, None)] * len(NOTES)
    assert notes_after == [(code, params) for _, code, params in NOTES]

    database = Database(url)
    settings = Settings(
        database_url=url,
        scheduler_enabled=False,
        migrate_on_start=False,
        rate_limit_enabled=False,
        log_level="WARNING",
    )
    with TestClient(create_app(settings, database=database)) as client:
        for number, (_, winner, english, _, _) in enumerate(STORED):
            result = client.get(f"/api/rooms/old-{number}").json()["game"]["result"]
            assert (result["reason"], result["winner"]) == (english, winner)
        note = client.get(
            f"/api/rooms/old-{len(STORED) + 1}",
            headers={"Authorization": f"Bearer old-{len(STORED) + 1}-creator"},
        ).json()["you"]["conditional"]["note"]
        assert note == NOTES[1][0]
    database.dispose()

    downgrade(url, "0013")
    games_back, notes_back, moves_back = _read(url, "reason", "note")
    assert (games_back, notes_back, moves_back) == (games_before, notes_before, moves_before)
