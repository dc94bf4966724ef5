"""Shared fixtures: databases (SQLite and PostgreSQL), a manual clock, the app client.

PostgreSQL comes from TEST_DATABASE_URL (default: the local `test` database). Each test
process creates its own scratch databases next to it, so xdist workers never collide.
When PostgreSQL is unreachable its tests skip, except under CI=true where they fail.
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from app.core.clock import ManualClock
from app.core.db import Base, Database
from app.core.settings import Settings
from app.imports import models as _imported  # noqa: F401  (registers the tables)
from app.profiles import models as _profiles  # noqa: F401
from app.rooms import models as _rooms  # noqa: F401
from tests import environment

# In-process test clients ask for the host `testserver`; every app the tests build (and
# the servers they start, which inherit the environment) answers to it as well.
os.environ.setdefault("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
# No endgame table is built behind a test's back (servers the tests start inherit this);
# tests/computer/test_egdb_on_use.py turns it on where it is tested.
os.environ.setdefault("EGDB_BUILD_ON_USE", "false")
# Nor is one read from the user's cache: the Executive plays the same in a test whatever
# tables this machine has built (the tests that use tables build their own).
os.environ["CHECKERS_EGDB_DIR"] = tempfile.mkdtemp(prefix="checkers-test-egdb-")
atexit.register(shutil.rmtree, os.environ["CHECKERS_EGDB_DIR"], True)

TABLES = (
    "chat_messages",
    "seat_notes",
    "analysis_lines",
    "profile_seats",
    "webauthn_challenges",
    "profile_links",
    "profile_sessions",
    "passkeys",
    "profiles",
    "review_positions",
    "reviews",
    "conditional_lines",
    "imported_games",
    "notifications",
    "confirmation_mails",
    "push_subscriptions",
    "seat_emails",
    "seat_transfers",
    "events",
    "moves",
    "offers",
    "seats",
    "games",
    "rooms",
    "service_keys",
)


def pytest_report_header(config: pytest.Config) -> list[str]:
    """Say at the top of the run what this machine lacks and which tests skip for it, so
    no skip (or, under CI=true, failure) is a surprise."""
    return environment.report()


class PostgresServer:
    """Creates and drops scratch databases on the test server."""

    def __init__(self, admin_url: str) -> None:
        self.admin_url = admin_url
        self._engine = create_engine(admin_url, isolation_level="AUTOCOMMIT", pool_size=1)
        self.created: list[str] = []

    def ping(self) -> None:
        with self._engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    def create(self, prefix: str = "checkers_t") -> str:
        """A new empty database; returns its URL."""
        name = f"{prefix}_{os.getpid()}_{uuid.uuid4().hex[:8]}"
        with self._engine.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        self.created.append(name)
        return make_url(self.admin_url).set(database=name).render_as_string(hide_password=False)

    def drop(self, url: str) -> None:
        name = make_url(url).database
        with self._engine.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        if name in self.created:
            self.created.remove(name)

    def close(self) -> None:
        for name in list(self.created):
            with self._engine.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        self._engine.dispose()


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """The PostgreSQL server of TEST_DATABASE_URL (skip, or fail under CI, if down)."""
    reason = environment.missing_postgres()
    if reason:
        environment.unavailable(reason)
    server = PostgresServer(environment.database_url())
    yield server
    server.close()


@pytest.fixture(scope="session")
def pg_url(postgres: PostgresServer) -> str:
    """One migrated scratch database for this test process."""
    from app.core.migrate import upgrade

    url = postgres.create()
    upgrade(url)
    return url


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database(request: pytest.FixtureRequest, tmp_path: os.PathLike[str]) -> Iterator[Database]:
    """An empty database: a fresh SQLite file, or this process's PostgreSQL database."""
    if request.param == "sqlite":
        path = f"{tmp_path}/checkers.sqlite3"
        shutil.copyfile(sqlite_template(), path)
        db = Database(f"sqlite:///{path}")
    else:
        db = Database(request.getfixturevalue("pg_url"), pool_size=25, max_overflow=5)
        empty(db)
    yield db
    db.dispose()


@functools.cache
def sqlite_template() -> str:
    """An empty SQLite database with every table, made once per process: a test's own is
    a copy of it (a copy costs a twentieth of creating the tables)."""
    folder = tempfile.mkdtemp(prefix="checkers-test-template-")
    atexit.register(shutil.rmtree, folder, True)
    template = Database(f"sqlite:///{folder}/empty.sqlite3")
    Base.metadata.create_all(template.engine)
    template.dispose()
    return f"{folder}/empty.sqlite3"


# Emptying by DELETE, children first, and restarting every sequence: a few milliseconds
# where TRUNCATE takes a fifth of a second or more (it makes new files for each table).
_EMPTY = text(
    "; ".join(f"DELETE FROM {table}" for table in TABLES)
    + "; SELECT setval(oid, 1, false) FROM pg_class WHERE relkind = 'S'"
)


def empty(db: Database) -> None:
    """Remove every row from a PostgreSQL test database; ids start again from 1."""
    with db.engine.begin() as conn:
        conn.execute(_EMPTY)


@pytest.fixture
def pg_database(pg_url: str) -> Iterator[Database]:
    """This process's PostgreSQL database, emptied."""
    db = Database(pg_url, pool_size=25, max_overflow=5)
    empty(db)
    yield db
    db.dispose()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(datetime(2024, 3, 1, 12, 0, tzinfo=UTC))


@pytest.fixture
def settings(database: Database) -> Settings:
    return Settings(
        database_url=database.url,
        scheduler_enabled=False,
        migrate_on_start=False,
        public_url="http://checkers.test",
        rate_limit_enabled=False,  # tests/security checks the limits with their own apps
        remind_before_seconds=0,  # tests/notify turns the reminder on where it is tested
        egdb_build_on_use=False,  # no endgame table built unless a test asks for it
    )
