"""The database being unreachable is not the client's fault: answer 503 with Retry-After.

A lost or refused connection, a connect or pool timeout, or a statement cancelled by its
time limit all surface as SQLAlchemy `OperationalError`, `InterfaceError` or pool
`TimeoutError`. The transaction that hit it was rolled back, so nothing half-done is kept
and the client may retry the same request (moves are idempotent by `expected_ply`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

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


PROBLEM_SCHEMA: dict[str, Any] = {
    "title": "Problem",
    "type": "object",
    "properties": {"detail": {"type": "string"}, "code": {"type": "string"}},
    "required": ["detail", "code"],
}
RETRY_AFTER = {"Retry-After": {"description": "Seconds to wait", "schema": {"type": "integer"}}}


def document_common_answers(app: FastAPI, limited: Callable[[str, str], bool]) -> None:
    """Describe in /openapi.json the answers the middleware and handlers give on any
    route: 400 (unreadable body), 413 (body too large), 429 on rate-limited routes, 503
    (database unavailable), and that refusals are JSON on every route.
    `limited(method, path)` says which routes are rate-limited."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = build()
        schema.setdefault("components", {}).setdefault("schemas", {})["Problem"] = PROBLEM_SCHEMA
        problem = {"application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
        for path, operations in schema.get("paths", {}).items():
            for method, operation in operations.items():
                answers = operation.setdefault("responses", {})
                extra: dict[str, dict[str, Any]] = {
                    "503": {"description": "Database unavailable", "headers": RETRY_AFTER}
                }
                if "requestBody" in operation:
                    extra["400"] = {"description": "Unreadable request body"}
                    extra["413"] = {"description": "Request body too large"}
                if limited(method.upper(), path):
                    extra["429"] = {"description": "Too many requests", "headers": RETRY_AFTER}
                for code, answer in extra.items():
                    answers.setdefault(code, {**answer, "content": problem})
                for code, answer in answers.items():
                    # Every refusal is JSON, also on routes whose success is not (PDN).
                    content = answer.get("content")
                    if code[0] in "45" and content and "application/json" not in content:
                        answer["content"] = {"application/json": next(iter(content.values()))}
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
