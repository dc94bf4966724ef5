"""Nothing silently changes for stored games (issue 15, point 7).

Moves are stored in the engine's own notation, which the notation work did not change:
a database holding games in all six rule sets at revision 0003 (rows written as that
schema stood) is upgraded to head by Alembic, and every game still reads, shows each
rule set's notation, exports PDN that replays, and goes on being played.

The rows are written through the schema reflected at 0003, not through today's models.
The first moves and their tradition's forms are worked out by hand from the traditions'
layouts (README): engine 11-15 is c3-d4 (Russian and Brazilian 22-18), Italian's 21-17
is engine 9-13 (b3-a4 on its mirrored board), Spanish 12-16; Thai's h2-g3 is engine 5-9.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import MetaData, create_engine, insert, select

from app.core.db import Database
from app.core.migrate import upgrade
from app.core.settings import Settings
from app.main import create_app
from app.rooms.seats import hash_token
from checkers_engine import Board, pdn

from .conftest import DIALECTS, migrated_to, played_row

FIRST = {  # engine notation, then the tradition's numeric and algebraic forms
    "english": ("11-15", "11-15", "c3-d4"),
    "brazilian": ("11-15", "22-18", "c3-d4"),
    "russian": ("11-15", "22-18", "c3-d4"),
    "spanish": ("9-13", "12-16", "b3-a4"),
    "italian": ("9-13", "21-17", "b3-a4"),
    "thai": ("5-9", "28-24", "h2-g3"),
}
PLIES = 12


@pytest.fixture(params=DIALECTS)
def old_database(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    """An empty database migrated to revision 0003 only."""
    with migrated_to(request, tmp_path, "0003") as url:
        yield url


def _store_at_0003(url: str) -> dict[str, tuple[str, list[str]]]:
    """A room per rule set with a game of PLIES moves in progress, and an English game
    the tires won by resignation; returns each room's creator token and its moves."""
    engine = create_engine(url)
    meta = MetaData()
    meta.reflect(engine)
    rooms, seats, games, moves = (meta.tables[t] for t in ("rooms", "seats", "games", "moves"))
    at = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    if engine.dialect.name == "sqlite":
        at = at.replace(tzinfo=None)  # as the app's UTC columns store it there
    stored: dict[str, tuple[str, list[str]]] = {}
    with engine.begin() as conn:
        for key in [*FIRST, "finished"]:
            rule_set = "english" if key == "finished" else key
            board = Board(rule_set)
            rows = []
            for ply in range(1, PLIES + 1):
                legal = board.legal_moves
                move = board.parse_move(FIRST[rule_set][0]) if ply == 1 else legal[ply % len(legal)]
                rows.append(played_row(board, move, ply, at))
            room_id, token = f"old-{key}", f"token-of-{key}"
            done = key == "finished"
            conn.execute(
                insert(rooms).values(
                    id=room_id,
                    rule_set=rule_set,
                    status=30 if done else 20,
                    current_game_number=1,
                    version=0,
                    created_at=at,
                    last_active_at=at,
                    next_check_at=None,
                )
            )
            for role, secret in (("creator", token), ("joiner", f"{token}-2")):
                conn.execute(
                    insert(seats).values(
                        room_id=room_id, role=role, token_hash=hash_token(secret), joined_at=at
                    )
                )
            game_id = conn.execute(
                insert(games)
                .values(
                    room_id=room_id,
                    number=1,
                    drums_seat="creator",
                    status=30 if done else 20,
                    start_fen=None,
                    fen=board.fen(),
                    ply=PLIES,
                    turn=board.turn.value,
                    winner="tires" if done else None,
                    termination="resignation" if done else None,
                    reason="drums resigned" if done else None,
                    created_at=at,
                    started_at=at,
                    turn_started_at=at,
                    claim_notified=False,
                    ended_at=at if done else None,
                )
                .returning(games.c.id)
            ).scalar_one()
            conn.execute(insert(moves), [{"game_id": game_id, **row} for row in rows])
            stored[room_id] = (token, [row["notation"] for row in rows])
    engine.dispose()
    return stored


def test_games_stored_at_0003_read_and_play_on_after_the_upgrade(old_database: str) -> None:
    stored = _store_at_0003(old_database)
    upgrade(old_database)  # to head: 0004i and whatever follows
    engine = create_engine(old_database)
    with engine.connect() as conn:
        meta = MetaData()
        meta.reflect(conn)
        counters = conn.execute(
            select(
                meta.tables["games"].c.start_half_move_clock,
                meta.tables["games"].c.start_move_number,
            )
        ).all()
        assert counters and all(row == (None, None) for row in counters)
    engine.dispose()

    database = Database(old_database)
    settings = Settings(
        database_url=old_database,
        scheduler_enabled=False,
        migrate_on_start=False,
        rate_limit_enabled=False,
        log_level="WARNING",
    )
    with TestClient(create_app(settings, database=database)) as client:
        for room_id, (token, notations) in stored.items():
            view = client.get(f"/api/rooms/{room_id}").json()
            rule_set = view["rule_set"]["key"]
            moves = view["game"]["moves"]
            assert [m["engine_notation"] for m in moves] == notations
            first = moves[0]
            assert (first["engine_notation"], first["numeric"], first["algebraic"]) == FIRST[
                rule_set
            ]
            style = view["rule_set"]["notation"]["style"]
            assert first["text"] == first[style]
            assert [m["number"] for m in moves[:3]] == [1, 1, 2]

            record = client.get(f"/api/rooms/{room_id}/games/1").json()
            assert [m["engine_notation"] for m in record["moves"]] == notations
            (report,) = pdn.read_pdn(client.get(f"/api/rooms/{room_id}/games/1.pdn").text)
            assert report.ok and report.rule_set == rule_set
            assert [m.notation() for m in report.moves] == notations

            if view["status"] == "finished":
                assert report.result == "0-1" and view["game"]["result"]["winner"] == "tires"
                continue
            assert report.result == "*"
            mover = token if view["game"]["turn"] == "drums" else f"{token}-2"
            legal = view["game"]["legal_moves"]
            assert legal
            played = client.post(
                f"/api/rooms/{room_id}/moves",
                json={"move": legal[0]["engine_notation"], "expected_ply": PLIES},
                headers={"Authorization": f"Bearer {mover}"},
            )
            assert played.status_code == 200, played.text
            assert len(played.json()["game"]["moves"]) == PLIES + 1
    database.dispose()
