"""Liveness with a database check: `GET /healthz`.

The check runs on the event loop, never in the worker threads: with a crowd of viewers
the loop is busy writing their events, and a health check that waited for a thread (and
for the interpreter's lock in it) answered three times slower than with nobody watching,
which a load balancer reads as an instance in trouble.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from app import __version__
from checkers_engine.build import build_info

from .db import Database
from .deps import DatabaseDep
from .errors import unavailable_response

log = logging.getLogger("checkers.app")

router = APIRouter(tags=["health"])


PROBE_BUSY_SECONDS = 0.25  # how long the SQLite ping waits for a lock: 503 at once


class HealthProbe:
    """The health check's ping, over a connection of the probe's own, outside the pool
    (a busy pool never delays it), on the event loop (no worker thread).

    SQLite reads the database file's header: a reader never waits in WAL mode and the
    header is in the page cache, so it takes microseconds. PostgreSQL is asked `SELECT 1`
    asynchronously; checks that arrive while a ping is in flight share its answer. A ping
    that fails, or takes longer than `timeout`, drops the connection and the next one opens
    a new one; so does a change of the app's database.
    """

    def __init__(self, *, timeout: int) -> None:
        self.timeout = timeout
        self._database: Database | None = None  # the one `_connection` is to
        self._connection: Any = None  # sqlite3 or psycopg.AsyncConnection, opened on use
        self._flight: asyncio.Future[None] | None = None
        self._closing: set[asyncio.Task[None]] = set()

    async def ping(self, database: Database) -> None:
        """Return if `database` answers; raise if it does not."""
        if database is not self._database:
            self._drop()
            self._database = database
        if database.is_sqlite:
            self._ping_sqlite(database)
            return
        if self._flight is None:
            flight = asyncio.ensure_future(self._ping_postgres(database))
            flight.add_done_callback(self._landed)
            self._flight = flight
        await asyncio.shield(self._flight)

    def _landed(self, flight: asyncio.Future[None]) -> None:
        if self._flight is flight:
            self._flight = None
        if not flight.cancelled():
            flight.exception()  # retrieved: a failure is the waiters' to report

    def _ping_sqlite(self, database: Database) -> None:
        try:
            if self._connection is None:
                dialect = database.engine.dialect
                cargs, cparams = dialect.create_connect_args(database.engine.url)
                cparams.update(check_same_thread=False, timeout=PROBE_BUSY_SECONDS)
                self._connection = dialect.loaded_dbapi.connect(*cargs, **cparams)
            # Read to the end: a statement left open would hold a snapshot that keeps
            # checkpoints from recycling the WAL.
            self._connection.execute("PRAGMA schema_version").fetchall()
        except Exception:
            self._drop()
            raise

    async def _ping_postgres(self, database: Database) -> None:
        import psycopg

        try:
            # asyncio.timeout, not wait_for: no task of its own, so no extra turns of a
            # loop that a crowd's fan-out keeps busy.
            async with asyncio.timeout(self.timeout):
                if self._connection is None or self._connection.closed:
                    self._connection = await psycopg.AsyncConnection.connect(
                        database.libpq_url, autocommit=True, connect_timeout=self.timeout
                    )
                await self._connection.execute("SELECT 1")
        except BaseException:
            self._drop()
            raise

    def _drop(self) -> None:
        """Forget the connection. A PostgreSQL one is closed in the background (closing a
        connection whose server went silent would hold up the answer)."""
        connection, self._connection = self._connection, None
        if connection is None:
            return
        if self._database is not None and self._database.is_sqlite:
            connection.close()
            return

        async def close() -> None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(connection.close(), self.timeout)

        task = asyncio.ensure_future(close())
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def close(self) -> None:
        self._drop()
        if self._closing:
            await asyncio.gather(*self._closing, return_exceptions=True)


async def get_probe(request: Request) -> HealthProbe:
    probe: HealthProbe = request.app.state.health_probe
    return probe


ProbeDep = Annotated[HealthProbe, Depends(get_probe)]


class HealthOut(BaseModel):
    status: Literal["ok"]
    database: str = Field(description="The database's dialect: sqlite or postgresql.")
    version: str = Field(description="The service's release (pyproject.toml).")
    build: str = Field(description="Which engine and search run: compiled (mypyc) or pure Python.")


@router.get(
    "/healthz",
    response_model=HealthOut,
    responses={503: {"description": "The database does not answer"}},
)
async def healthz(request: Request, db: DatabaseDep, probe: ProbeDep) -> HealthOut | JSONResponse:
    """Liveness with a database check: 200 with the database's dialect and the release, or 503
    with `Retry-After` when the database does not answer."""
    try:
        await probe.ping(db)
    except Exception as exc:
        log.warning("health check failed: %s", type(exc).__name__)
        return unavailable_response(request.app.state.settings.retry_after_seconds)
    return HealthOut(
        status="ok",
        database=db.engine.dialect.name,
        version=__version__,
        build=build_info(),
    )
