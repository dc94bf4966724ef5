"""The database being unreachable is not the client's fault: answer 503 with Retry-After.

A lost or refused connection, a connect or pool timeout, or a statement cancelled by its
time limit all surface as SQLAlchemy `OperationalError`, `InterfaceError` or pool
`TimeoutError`. The transaction that hit it was rolled back, so nothing half-done is kept
and the client may retry the same request (moves are idempotent by `expected_ply`).
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy import exc as sa_exc

log = logging.getLogger("checkers.app")

UNAVAILABLE_ERRORS: tuple[type[Exception], ...] = (
    sa_exc.OperationalError,
    sa_exc.InterfaceError,
    sa_exc.TimeoutError,
)


def unavailable_response(retry_after: int) -> JSONResponse:
    """503 telling the client when to try again."""
    return JSONResponse(
        {
            "detail": "database unavailable",
            "code": "database_unavailable",
        },
        503,
        headers={"Retry-After": str(retry_after)},
    )


def install_unavailable_handler(app: FastAPI) -> None:
    """Map database outages to 503 + Retry-After (`RETRY_AFTER_SECONDS`)."""

    async def on_unavailable(request: Request, exc: Exception) -> JSONResponse:
        log.warning("database unavailable: %s", type(exc).__name__)
        return unavailable_response(request.app.state.settings.retry_after_seconds)

    for error in UNAVAILABLE_ERRORS:
        app.add_exception_handler(error, on_unavailable)
