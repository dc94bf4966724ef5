"""HTTP routes of the rooms API: thin translations between HTTP and the service."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI, Path, Request, Response, status
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.core.deps import BaseUrlDep, ClockDep, SessionDep, SettingsDep, TokenDep
from app.core.responses import ModelResponse
from app.engine import RULE_SETS

from . import errors, service
from .pdn import export_game
from .schemas import (
    ActionIn,
    CreateRoomIn,
    ErrorOut,
    MoveIn,
    RoomView,
    RuleSetOut,
    SeatGrant,
)
from .view import grant_view, load_game, mover_view, read_room, rule_set_out, share_url

router = APIRouter(prefix="/api", tags=["rooms"])


def answer_action(request: Request, view: RoomView) -> ModelResponse:
    """The answer to a room action; tells the computer player, when the app runs one, that
    its room has changed (only rooms with a computer seat: waking it costs a transaction)."""
    computer = getattr(request.app.state, "computer", None)
    if computer is not None and any(seat.computer_level for seat in view.seats):
        computer.kick(view.id)
    return ModelResponse(view)


RoomId = Path(min_length=1, max_length=64, description="The room's id from its share URL.")

_REFUSALS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (401, 403, 404, 409, 422)
}


def _view(
    session: SessionDep,
    room_id: str,
    token: str | None,
    clock: ClockDep,
    settings: SettingsDep,
    base: str,
) -> RoomView:
    return read_room(
        session,
        room_id=room_id,
        token=token,
        now=clock.now(),
        settings=settings,
        base_url=base,
    )


@router.get("/rule-sets", response_model=list[RuleSetOut], summary="The six rule sets")
def list_rule_sets() -> list[RuleSetOut]:
    return [rule_set_out(rule_set) for rule_set in RULE_SETS.values()]


@router.post(
    "/rooms",
    status_code=status.HTTP_201_CREATED,
    response_model=SeatGrant,
    responses=_REFUSALS,
    summary="Create a room; the creator plays the drums",
)
def create_room(
    body: CreateRoomIn,
    session: SessionDep,
    clock: ClockDep,
    settings: SettingsDep,
    base: BaseUrlDep,
) -> SeatGrant:
    granted = service.create_room(
        session, rule_set=body.rule_set, now=clock.now(), settings=settings
    )
    return grant_view(session, granted, settings=settings, base_url=base)


@router.get(
    "/rooms/{room_id}",
    response_model=RoomView,
    responses=_REFUSALS,
    summary="What a viewer sees (with a seat token: which seat you hold)",
)
def get_room(
    session: SessionDep,
    token: TokenDep,
    clock: ClockDep,
    settings: SettingsDep,
    base: BaseUrlDep,
    room_id: str = RoomId,
) -> Response:
    return ModelResponse(_view(session, room_id, token, clock, settings, base))


@router.post(
    "/rooms/{room_id}/join",
    response_model=SeatGrant,
    responses=_REFUSALS,
    summary="Take the open seat (the tires in game 1)",
)
def join_room(
    session: SessionDep,
    clock: ClockDep,
    settings: SettingsDep,
    base: BaseUrlDep,
    room_id: str = RoomId,
) -> SeatGrant:
    granted = service.join_room(session, room_id=room_id, now=clock.now(), settings=settings)
    return grant_view(session, granted, settings=settings, base_url=base)


@router.post(
    "/rooms/{room_id}/moves",
    response_model=RoomView,
    responses=_REFUSALS,
    summary="Play a move (expected_ply guards against stale moves; a resend is a no-op)",
)
def play_move(
    body: MoveIn,
    request: Request,
    session: SessionDep,
    token: TokenDep,
    clock: ClockDep,
    settings: SettingsDep,
    base: BaseUrlDep,
    room_id: str = RoomId,
) -> Response:
    view = service.play_move(
        session,
        room_id=room_id,
        token=token,
        text=body.move.strip(),
        expected_ply=body.expected_ply,
        now=clock.now(),
        settings=settings,
        answer=mover_view(settings=settings, base_url=base),
    )
    assert view is not None  # `answer` was given
    return answer_action(request, view)


@router.post(
    "/rooms/{room_id}/draw",
    response_model=RoomView,
    responses=_REFUSALS,
    summary="Offer a draw, or accept or decline the opponent's offer",
)
def draw(
    body: ActionIn,
    request: Request,
    session: SessionDep,
    token: TokenDep,
    clock: ClockDep,
    settings: SettingsDep,
    base: BaseUrlDep,
    room_id: str = RoomId,
) -> Response:
    service.draw_action(
        session,
        room_id=room_id,
        token=token,
        action=body.action,
        now=clock.now(),
        settings=settings,
    )
    return answer_action(request, _view(session, room_id, token, clock, settings, base))


@router.post(
    "/rooms/{room_id}/resign",
    response_model=RoomView,
    responses=_REFUSALS,
    summary="Resign the game in progress",
)
def resign(
    session: SessionDep,
    token: TokenDep,
    clock: ClockDep,
    settings: SettingsDep,
    base: BaseUrlDep,
    room_id: str = RoomId,
) -> Response:
    service.resign(session, room_id=room_id, token=token, now=clock.now(), settings=settings)
    return ModelResponse(_view(session, room_id, token, clock, settings, base))


@router.post(
    "/rooms/{room_id}/claim-forfeit",
    response_model=RoomView,
    responses=_REFUSALS,
    summary="Claim the win when the player to move let the claim window open",
)
def claim_forfeit(
    session: SessionDep,
    token: TokenDep,
    clock: ClockDep,
    settings: SettingsDep,
    base: BaseUrlDep,
    room_id: str = RoomId,
) -> Response:
    service.claim_forfeit(session, room_id=room_id, token=token, now=clock.now(), settings=settings)
    return ModelResponse(_view(session, room_id, token, clock, settings, base))


@router.post(
    "/rooms/{room_id}/rematch",
    response_model=RoomView,
    responses=_REFUSALS,
    summary="Offer a rematch after a game, or accept or decline the opponent's offer",
)
def rematch(
    body: ActionIn,
    request: Request,
    session: SessionDep,
    token: TokenDep,
    clock: ClockDep,
    settings: SettingsDep,
    base: BaseUrlDep,
    room_id: str = RoomId,
) -> Response:
    service.rematch_action(
        session,
        room_id=room_id,
        token=token,
        action=body.action,
        now=clock.now(),
        settings=settings,
    )
    return answer_action(request, _view(session, room_id, token, clock, settings, base))


@router.get(
    "/rooms/{room_id}/games/{number}.pdn",
    response_class=PlainTextResponse,
    responses={**_REFUSALS, 200: {"content": {"application/x-pdn": {}}}},
    summary="A game of the room as PDN",
)
def game_pdn(
    session: SessionDep,
    base: BaseUrlDep,
    room_id: str = RoomId,
    number: int = Path(ge=1, le=1_000_000),
) -> PlainTextResponse:
    room, game, moves = load_game(session, room_id, number)
    return PlainTextResponse(
        export_game(room, game, moves, site=share_url(base, room.id)),
        media_type="application/x-pdn",
        headers={"Content-Disposition": f'attachment; filename="{room.id}-{number}.pdn"'},
    )


# --- errors: the one place domain refusals become HTTP statuses -----------------------

STATUS_OF: dict[type[errors.RoomError], int] = {
    errors.NotFound: status.HTTP_404_NOT_FOUND,
    errors.Unauthenticated: status.HTTP_401_UNAUTHORIZED,
    errors.Forbidden: status.HTTP_403_FORBIDDEN,
    errors.Conflict: status.HTTP_409_CONFLICT,
    errors.InvalidInput: status.HTTP_422_UNPROCESSABLE_CONTENT,
}


def status_of(exc: errors.RoomError) -> int:
    for cls in type(exc).__mro__:
        if cls in STATUS_OF:
            return STATUS_OF[cls]
    return status.HTTP_400_BAD_REQUEST


def install_error_handlers(app: FastAPI) -> None:
    """Every refusal answers `{"detail": <reason>, "code": <machine code>, ...}`."""

    async def on_room_error(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, errors.RoomError)
        code = status_of(exc)
        headers = {"WWW-Authenticate": "Bearer"} if code == 401 else None
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

    app.add_exception_handler(errors.RoomError, on_room_error)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
