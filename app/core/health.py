"""Liveness with a database check: `GET /healthz`."""

from __future__ import annotations

import logging
from typing import Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from app import __version__
from app.build import build_info

from .deps import DatabaseDep
from .errors import unavailable_response

log = logging.getLogger("checkers.app")

router = APIRouter(tags=["health"])


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
def healthz(request: Request, db: DatabaseDep) -> HealthOut | JSONResponse:
    """Liveness with a database check: 200 with the database's dialect and the release, or 503
    with `Retry-After` when the database does not answer."""
    try:
        db.ping()
    except Exception as exc:
        log.warning("health check failed: %s", type(exc).__name__)
        return unavailable_response(request.app.state.settings.retry_after_seconds)
    return HealthOut(
        status="ok",
        database=db.engine.dialect.name,
        version=__version__,
        build=build_info(),
    )
