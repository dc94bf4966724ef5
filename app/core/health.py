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
from sqlalchemy.engine import make_url

from app import __version__
from app.build import build_info

from .db import Database
from .deps import DatabaseDep
from .errors import unavailable_response

log = logging.getLogger("checkers.app")

router = APIRouter(tags=["health"])


class HealthProbe:
    """The health check's ping. SQLite reads the file's header on the loop
    (`Database.ping_here`); PostgreSQL is asked `SELECT 1` over a connection of the
    probe's own, asynchronously, outside the pool (so a busy pool never delays it).

    Health checks that arrive while a ping is in flight share its answer; a ping that
    fails or takes longer than `timeout` drops the connection, and the next one opens a
    new one.
    """

    def __init__(self, *, timeout: float) -> None:
        self.timeout = timeout
        self._database: Database | None = None  # the one `_connection` is to
        self._connection: Any = None  # psycopg.AsyncConnection, opened on first use
        self._flight: asyncio.Future[None] | None = None
        self._closing: set[asyncio.Task[None]] = set()

    async def ping(self, database: Database) -> None:
        """Return if `database` answers; raise if it does not."""
        if database.is_sqlite:
            database.ping_here()
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

    async def _ping_postgres(self, database: Database) -> None:
        import psycopg

        if database is not self._database:
            self._drop()
            self._database = database
        try:
            if self._connection is None or self._connection.closed:
                conninfo = make_url(database.url).set(drivername="postgresql")
                self._connection = await asyncio.wait_for(
                    psycopg.AsyncConnection.connect(
                        conninfo.render_as_string(hide_password=False),
                        autocommit=True,
                        connect_timeout=max(2, round(self.timeout)),
                    ),
                    self.timeout,
                )
            await asyncio.wait_for(self._connection.execute("SELECT 1"), self.timeout)
        except BaseException:
            self._drop()
            raise

    def _drop(self) -> None:
        """Forget the connection; it is closed in the background (closing a connection
        whose server went silent would hold up the answer)."""
        connection, self._connection = self._connection, None
        if connection is None:
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
