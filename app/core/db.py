"""Database engine and sessions.

PostgreSQL serialises writers per room with `SELECT ... FOR UPDATE`. SQLite has no row
locks, so a SQLite transaction that may write starts with `BEGIN IMMEDIATE`, which takes
the database write lock up front: two actions can never interleave their read-check-write
steps. A transaction declared read-only (`read_transaction`, `Database.ping`) begins
DEFERRED instead: in WAL mode it reads a consistent snapshot without any lock, so viewers,
live streams and `/healthz` never wait for a writer, and writers never wait for them.
Writing is the default: a forgotten declaration costs speed, never correctness.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

import orjson
from sqlalchemy import DateTime, Engine, MetaData, SmallInteger, String, create_engine, event, text
from sqlalchemy.engine import Dialect, make_url
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker
from sqlalchemy.types import TypeDecorator, TypeEngine


class Base(DeclarativeBase):
    """Declarative base of every table; constraint names are fixed so migrations can
    name them on every backend."""

    metadata = MetaData(
        naming_convention={
            "ix": "ix_%(table_name)s_%(column_0_N_name)s",
            "uq": "uq_%(table_name)s_%(column_0_N_name)s",
            "ck": "ck_%(table_name)s_%(constraint_name)s",
            "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
            "pk": "pk_%(table_name)s",
        }
    )


class UTCDateTime(TypeDecorator[datetime]):
    """An aware UTC datetime on every backend (SQLite stores it naive, in UTC)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


E = TypeVar("E", bound=enum.Enum)


class EnumValue(TypeDecorator[E], Generic[E]):
    """An enum column stored as its members' values: text (`String(length)`) for text
    values, `SMALLINT` for integer ones. The stored values are the enum's, so typing a
    column with it changes nothing in the database."""

    impl: TypeEngine[Any] | type[TypeEngine[Any]] = String
    cache_ok = True

    def __init__(self, enum_type: type[E], length: int | None = None) -> None:
        super().__init__()
        self.impl = SmallInteger() if issubclass(enum_type, int) else String(length)
        self.enum_type = enum_type
        self.length = length  # with `enum_type`, the statement cache's key of the type
        self._members = {member.value: member for member in enum_type}

    def process_bind_param(self, value: E | Any | None, dialect: Dialect) -> Any:
        if value is None:
            return None
        return self.enum_type(value).value

    def process_result_value(self, value: Any | None, dialect: Dialect) -> E | None:
        if value is None:
            return None
        return self._members[value]

    @property
    def python_type(self) -> type[E]:
        return self.enum_type


# Execution option of a connection whose transaction only reads (see the module docstring).
READ_ONLY = "checkers_read_only"


@contextmanager
def read_transaction(session: Session) -> Iterator[Session]:
    """A transaction of `session` that only reads (on SQLite: no write lock)."""
    with session.begin():
        session.connection(execution_options={READ_ONLY: True})
        yield session


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def _json_text(value: Any) -> str:
    return orjson.dumps(value).decode()


def make_engine(url: str, **kwargs: Any) -> Engine:
    """An engine for `url`; SQLite gets foreign keys, WAL, and `BEGIN IMMEDIATE` for
    every transaction not declared read-only.

    JSON columns go through orjson: a view reads every move's path and captures.
    """
    kwargs.setdefault("json_serializer", _json_text)
    kwargs.setdefault("json_deserializer", orjson.loads)
    if not is_sqlite(url):
        kwargs.setdefault("pool_pre_ping", True)
        return create_engine(url, **kwargs)
    connect_args = kwargs.pop("connect_args", {})
    connect_args.setdefault("check_same_thread", False)
    connect_args.setdefault("timeout", 30)
    engine = create_engine(url, connect_args=connect_args, **kwargs)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the driver, decide when a transaction begins.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        if ":memory:" not in url and url.rstrip("/") != "sqlite:":
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        read_only = conn.get_execution_options().get(READ_ONLY, False)
        conn.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")

    return engine


def engine_options(settings: Any) -> dict[str, Any]:
    """Pool and timeout options from the settings, so that an unreachable or stuck
    PostgreSQL fails a request within seconds (answered 503) instead of hanging it: a
    bounded connect, a bounded wait for a pooled connection, a statement time limit."""
    if is_sqlite(settings.database_url):
        return {}
    options = f"-c statement_timeout={settings.db_statement_timeout_ms}"
    return {
        "pool_size": settings.db_pool_size,
        "max_overflow": settings.db_max_overflow,
        "pool_timeout": settings.db_pool_timeout,
        "connect_args": {"connect_timeout": settings.db_connect_timeout, "options": options},
    }


class Database:
    """An engine and its session factory."""

    def __init__(self, url: str, **engine_kwargs: Any) -> None:
        self.url = url
        self.engine = make_engine(url, **engine_kwargs)
        self.sessionmaker = sessionmaker(self.engine, expire_on_commit=False)

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    @property
    def libpq_url(self) -> str:
        """PostgreSQL: the URL as psycopg's own connections take it (no SQLAlchemy driver
        name), for the connections that live outside the pool."""
        return make_url(self.url).set(drivername="postgresql").render_as_string(hide_password=False)

    @contextmanager
    def session(self) -> Iterator[Session]:
        with self.sessionmaker() as session:
            yield session

    def ping(self) -> None:
        """Raise if the database cannot answer a trivial query."""
        with self.engine.connect() as conn:
            conn.execution_options(**{READ_ONLY: True})
            conn.execute(text("SELECT 1"))

    def dispose(self) -> None:
        self.engine.dispose()
