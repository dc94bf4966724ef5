"""Benchmark of the deadline sweep on PostgreSQL: 1,000,000 rooms, 1,000 of them due.

Builds a scratch database next to BENCH_DATABASE_URL (default: TEST_DATABASE_URL or the
local `test` database), fills it with SQL, then prints the due-rooms query plan and the
time of one whole sweep (target: under 1 s). The scratch database is dropped afterwards
unless --keep is given.

    python bench/sweep.py
    python bench/sweep.py --rooms 200000 --due 1000
"""

from __future__ import annotations

import argparse
import os
import time
from datetime import UTC, datetime

from sqlalchemy import create_engine, text
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import make_url

from app.core.clock import ManualClock
from app.core.db import Database
from app.core.migrate import upgrade
from app.core.settings import Settings
from app.rooms.jobs import due_query, sweep
from checkers_engine import Board

NOW = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)

# Rooms 1..due are due: odd ones wait for an opponent since 8 days (they expire), even
# ones have had the same player to move for 49 hours (a claim opens). Every other room is
# in play with a move in the last 40 hours, so its next check lies in the future.
FILL = """
INSERT INTO rooms (id, rule_set, status, current_game_number, version, created_at,
                   last_active_at, next_check_at)
SELECT 'bench-' || g, 'english',
       CASE WHEN g <= :due AND g % 2 = 1 THEN 10 ELSE 20 END, 1, 2,
       ts - interval '10 days', act,
       CASE WHEN g <= :due AND g % 2 = 1 THEN act + interval '7 days'
            ELSE act + interval '48 hours' END
FROM (
  SELECT g, CAST(:now AS timestamptz) AS ts,
         CASE WHEN g <= :due AND g % 2 = 1 THEN CAST(:now AS timestamptz) - interval '8 days'
              WHEN g <= :due THEN CAST(:now AS timestamptz) - interval '49 hours'
              ELSE CAST(:now AS timestamptz) - (g % 40) * interval '1 hour' - interval '1 minute'
         END AS act
  FROM generate_series(1, :rooms) AS g
) AS s;

INSERT INTO games (room_id, number, drums_seat, status, start_fen, fen, ply, turn,
                   created_at, started_at, turn_started_at, claim_notified)
SELECT id, 1, 'creator', CASE WHEN status = 10 THEN 10 ELSE 20 END, NULL, :fen, 0, 'drums',
       created_at, CASE WHEN status = 10 THEN NULL ELSE last_active_at END,
       CASE WHEN status = 10 THEN NULL ELSE last_active_at END, false
FROM rooms;

INSERT INTO seats (room_id, role, token_hash, joined_at)
SELECT id, 'creator', md5(id) || md5(id), created_at FROM rooms;
INSERT INTO seats (room_id, role, token_hash, joined_at)
SELECT id, 'joiner', md5(id || 'j') || md5(id || 'j'), created_at FROM rooms WHERE status = 20;
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=1_000_000)
    parser.add_argument("--due", type=int, default=1_000)
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = parser.parse_args()

    admin_url = Settings(
        database_url=os.environ.get(
            "BENCH_DATABASE_URL",
            os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test"),
        )
    ).database_url
    name = f"checkers_bench_{os.getpid()}"
    url = make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        upgrade(url)
        database = Database(url)
        started = time.perf_counter()
        params = {"rooms": args.rooms, "due": args.due, "now": NOW, "fen": Board().fen()}
        with database.engine.begin() as conn:
            for statement in filter(str.strip, FILL.split(";")):
                conn.execute(text(statement), params)
        with database.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
            c.execute(text("VACUUM ANALYZE"))
            # Write out the bulk load now, so the timing below is the sweep's, not the
            # checkpoint's.
            c.execute(text("CHECKPOINT"))
        print(
            f"filled {args.rooms:,} rooms ({args.due:,} due) in "
            f"{time.perf_counter() - started:.1f} s"
        )

        settings = Settings(database_url=url)
        query = due_query(NOW, settings.sweep_batch_size).compile(
            dialect=postgresql.dialect(), compile_kwargs={"literal_binds": True}
        )
        with database.engine.connect() as conn:
            plan = conn.execute(text(f"EXPLAIN (ANALYZE, BUFFERS) {query}")).scalars().all()
            conn.rollback()
        print("\nquery plan of one batch:\n  " + "\n  ".join(plan) + "\n")

        started = time.perf_counter()
        handled = sweep(database, ManualClock(NOW), settings)
        elapsed = time.perf_counter() - started
        print(
            f"sweep: {handled:,} due rooms handled in {elapsed:.3f} s "
            f"(target < 1 s: {'met' if elapsed < 1 else 'MISSED'})"
        )
        started = time.perf_counter()
        again = sweep(database, ManualClock(NOW), settings)
        print(f"second sweep (nothing due): {again} rooms in {time.perf_counter() - started:.3f} s")
        database.dispose()
    finally:
        if not args.keep:
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
