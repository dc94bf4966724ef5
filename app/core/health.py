"""Liveness with a database check: `GET /healthz`."""

from __future__ import annotations

import logging
from typing import Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from app.build import build_info, package_version

from .deps import DatabaseDep
from .errors import unavailable_response

log = logging.getLogger("checkers.app")

router = APIRouter(tags=["health"])


class HealthOut(BaseModel):
    status: Literal["ok"]
    database: str
    version: str
    build: str  # "compiled (mypyc)" or "pure Python": which engine and search run


@router.get(
    "/healthz",
    response_model=HealthOut,
    responses={503: {"description": "The database does not answer"}},
)
def healthz(request: Request, db: DatabaseDep) -> HealthOut | JSONResponse:
    try:
        db.ping()
    except Exception as exc:
        log.warning("health check failed: %s", type(exc).__name__)
        return unavailable_response(request.app.state.settings.retry_after_seconds)
    return HealthOut(
        status="ok",
        database=db.engine.dialect.name,
        version=package_version(),
        build=build_info(),
    )
