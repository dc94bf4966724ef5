"""Every refusal and failure as one JSON shape: `{"detail": ..., "code": ..., ...}`.

A service refuses with a `ServiceError` of one of seven categories; `STATUS_OF` maps the
categories to HTTP statuses, the one place that does. `code` is machine-readable, the
message is for people, `extra` carries structured details (legal moves, current ply, ...).

The database being unreachable is not the client's fault: a lost or refused connection,
a connect or pool timeout, or a statement cancelled by its time limit (SQLAlchemy
`OperationalError`, `InterfaceError`, pool `TimeoutError`) answer 503 with Retry-After.
The transaction that hit it was rolled back, so nothing half-done is kept and the client
may retry the same request (moves are idempotent by `expected_ply`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, ClassVar

from fastapi import FastAPI, Request, status
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy import exc as sa_exc
from starlette.exceptions import HTTPException as StarletteHTTPException

log = logging.getLogger("checkers.app")


class ServiceError(Exception):
    """Base of every refusal; nothing has changed when one is raised."""

    code: ClassVar[str] = "error"

    def __init__(self, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra


# Categories: one HTTP status each.
class NotFound(ServiceError):
    code = "not_found"


class Unauthenticated(ServiceError):
    code = "unauthenticated"


class Forbidden(ServiceError):
    code = "forbidden"


class Conflict(ServiceError):
    code = "conflict"


class InvalidInput(ServiceError):
    code = "invalid_input"


class TooManyRequests(ServiceError):
    """This client asks for more than its share; `retry_after` (seconds) says when to ask
    again."""

    code = "too_many_requests"


class Unavailable(ServiceError):
    """The service, or something it relies on (a mail server), cannot do it now;
    `retry_after` says when to ask again."""

    code = "unavailable"


STATUS_OF: dict[type[ServiceError], int] = {
    NotFound: status.HTTP_404_NOT_FOUND,
    Unauthenticated: status.HTTP_401_UNAUTHORIZED,
    Forbidden: status.HTTP_403_FORBIDDEN,
    Conflict: status.HTTP_409_CONFLICT,
    InvalidInput: status.HTTP_422_UNPROCESSABLE_CONTENT,
    TooManyRequests: status.HTTP_429_TOO_MANY_REQUESTS,
    Unavailable: status.HTTP_503_SERVICE_UNAVAILABLE,
}


def status_of(exc: ServiceError) -> int:
    for cls in type(exc).__mro__:
        if cls in STATUS_OF:
            return STATUS_OF[cls]
    return status.HTTP_400_BAD_REQUEST


def install_error_handlers(app: FastAPI) -> None:
    """Refusals, malformed requests, HTTP errors and database outages, all as JSON."""

    async def on_refusal(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ServiceError)
        code = status_of(exc)
        headers = {"WWW-Authenticate": "Bearer"} if code == 401 else {}
        if "retry_after" in exc.extra:
            headers["Retry-After"] = str(exc.extra["retry_after"])
        return JSONResponse(
            {"detail": exc.message, "code": exc.code, **exc.extra}, code, headers=headers
        )

    async def on_validation(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        problems = [
            {
                "loc": list(err.get("loc", ())),
                "msg": str(err.get("msg", "")),
                "type": str(err.get("type", "")),
            }
            for err in exc.errors()
        ]
        summary = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in problems)
        return JSONResponse(
            {
                "detail": f"invalid request: {summary}",
                "code": "validation_error",
                "errors": problems,
            },
            status.HTTP_422_UNPROCESSABLE_CONTENT,
        )

    async def on_http(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        return JSONResponse(
            {"detail": str(exc.detail), "code": "http_error"},
            exc.status_code,
            headers=getattr(exc, "headers", None),
        )

    async def on_unavailable(request: Request, exc: Exception) -> JSONResponse:
        log.warning("database unavailable: %s", type(exc).__name__)
        return unavailable_response(request.app.state.settings.retry_after_seconds)

    app.add_exception_handler(ServiceError, on_refusal)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
    for error in UNAVAILABLE_ERRORS:
        app.add_exception_handler(error, on_unavailable)


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
