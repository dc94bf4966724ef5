"""Every refusal and failure as one JSON shape: `{"detail": ..., "code": ..., ...}`.

A service refuses with a `ServiceError` of one of seven categories; `STATUS_OF` maps the
categories to HTTP statuses, the one place that does. `code` is machine-readable, the
message is for people, `extra` carries structured details (legal moves, current ply, ...).

The database being unreachable is not the client's fault: a lost or refused connection,
a connect or pool timeout, or a statement cancelled by its time limit (SQLAlchemy
`OperationalError`, `InterfaceError`, pool `TimeoutError`) answer 503 with Retry-After.
The transaction that hit it was rolled back, so nothing half-done is kept and the client
may retry the same request (moves are idempotent by `expected_ply`).

A value the database refuses to take (SQLAlchemy `DataError`: PostgreSQL refuses a NUL
byte in any string) came from the client, since the service makes no such value itself:
422 `unstorable_value`, the transaction rolled back. The requests' validation refuses
such values first; this is the net under it.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any, ClassVar, Literal

from fastapi import FastAPI, Request, status
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
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
    """What the request names does not exist."""

    code = "not_found"


class Unauthenticated(ServiceError):
    """The action needs a seat's token (`Authorization: Bearer <token>`)."""

    code = "unauthenticated"


class Forbidden(ServiceError):
    """The credentials sent do not allow this."""

    code = "forbidden"


class Conflict(ServiceError):
    """The room's state does not allow this now."""

    code = "conflict"


class InvalidInput(ServiceError):
    """The request is well formed but its content is refused."""

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

    async def on_unstorable(_request: Request, exc: Exception) -> JSONResponse:
        log.warning("value refused by the database: %s", type(exc.__cause__ or exc).__name__)
        return JSONResponse(
            {
                "detail": "the request holds a value that cannot be stored",
                "code": "unstorable_value",
            },
            status.HTTP_422_UNPROCESSABLE_CONTENT,
        )

    async def on_unavailable(request: Request, exc: Exception) -> JSONResponse:
        log.warning("database unavailable: %s", type(exc).__name__)
        return unavailable_response(request.app.state.settings.retry_after_seconds)

    app.add_exception_handler(ServiceError, on_refusal)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
    app.add_exception_handler(sa_exc.DataError, on_unstorable)
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


# Codes answered outside any `ServiceError`, by the handlers and middleware.
PLAIN_CODES: dict[str, tuple[int, str]] = {
    "validation_error": (422, "The request does not fit its schema; `errors` says where."),
    "http_error": (404, "Refused by HTTP itself: an unknown path (404), a wrong method (405)."),
    "database_unavailable": (503, "The database does not answer; retry after `Retry-After`."),
    "unstorable_value": (422, "A value the database cannot hold (a NUL byte); nothing changed."),
    "rate_limited": (429, "This client's share of a rate limit is spent; see `retry_after`."),
    "too_large": (413, "The request body is larger than this route accepts."),
    "bad_host": (400, "The Host header names a host this service does not serve."),
    "request_timeout": (408, "The request's headers or body did not arrive in time."),
    "internal_error": (500, "A failure the service did not expect (logged, a bug)."),
}


class ValidationProblem(BaseModel):
    """One place where a request does not fit its schema."""

    loc: list[str | int] = Field(
        description="Where: `body`, `query`, `path` or `header`, then keys."
    )
    msg: str
    type: str


class Error(BaseModel):
    """Every refusal and failure: `detail` for people, `code` for programs, and the extra
    fields some codes carry."""

    detail: str = Field(description="Why the request was refused, for people.")
    code: str = Field(description="Machine-readable reason (the `ErrorCode` values).")
    legal_moves: list[str] | None = Field(
        default=None,
        description="`illegal_move`, `conditional_refused`: the legal moves there, written as "
        "the move was.",
    )
    candidates: list[str] | None = Field(
        default=None, description="`ambiguous_move`: the legal moves the text could mean."
    )
    current_ply: int | None = Field(
        default=None, description="`stale_ply`: the game's ply now; choose the move again."
    )
    opens_at: datetime | None = Field(
        default=None, description="`claim_not_open`: when the forfeit claim opens."
    )
    retry_after: int | None = Field(
        default=None,
        description="429 and 503 refusals: seconds to wait (also the `Retry-After` header).",
    )
    rule_sets: list[str] | None = Field(
        default=None, description="`unknown_rule_set`: the rule sets there are."
    )
    result: str | None = Field(default=None, description="`game_over`: how the game ended.")
    turn: Literal["drums", "tires"] | None = Field(
        default=None, description="`not_your_turn`: the side to move."
    )
    max_games: int | None = Field(
        default=None,
        description="`game_limit`: the most games one room holds; `too_many_games`: the most "
        "games one PDN import takes.",
    )
    max_total_plies: int | None = Field(
        default=None,
        description="`too_many_plies_in_all`: the most moves the games of one PDN import "
        "may hold in all.",
    )
    ply: int | None = Field(
        default=None, description="`conditional_refused`: the ply of the refused move."
    )
    plies: int | None = Field(
        default=None,
        description="`too_many_plies_in_all`: the moves the games of the text hold in all.",
    )
    move: str | None = Field(
        default=None, description="`conditional_refused`: the refused move as sent."
    )
    errors: list[ValidationProblem] | None = Field(
        default=None, description="`validation_error`: each place that does not fit."
    )
    reason: dict[str, Any] | None = Field(
        default=None,
        description="`invalid_fen`: why, as a stable `code` (the engine's FEN message, such "
        "as `fen_square_twice`) and the `params` it names (`square`), for a client that "
        "says it in its own language.",
    )

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "detail": "illegal move: 9-13 is not legal here; legal moves: 15x22",
                    "code": "illegal_move",
                    "legal_moves": ["15x22"],
                }
            ]
        }
    )


def error_codes() -> dict[str, tuple[int, str]]:
    """Every `code` a refusal may carry, with its HTTP status and meaning: each
    `ServiceError` class loaded so far (its docstring's first line) and `PLAIN_CODES`."""
    found: dict[str, tuple[int, str]] = {}
    pending: list[type[ServiceError]] = [ServiceError]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if cls is ServiceError:
            continue
        doc = (cls.__doc__ or "").strip().split("\n\n")[0]
        found[cls.code] = (status_of(cls(doc)), " ".join(doc.split()))
    return {**dict(sorted(found.items())), **PLAIN_CODES}
