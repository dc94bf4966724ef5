"""HTTP route of games against the computer."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response, status
from pydantic import Field

from app.ai import Level
from app.core.deps import BaseUrlDep, ContextDep, SessionDep
from app.core.responses import no_store
from app.rooms.runtime import RuntimeDep
from app.rooms.schemas import ErrorOut, FromPosition, SeatGrant
from app.rooms.view import grant_view

from . import service

router = APIRouter(prefix="/api", tags=["computer"])

LEVELS = ", ".join(f"{level.title} ({level.difficulty})" for level in Level)


class ComputerGameIn(FromPosition):
    level: Level = Field(description=f"Weakest first: {LEVELS}.")


_REFUSALS: dict[int | str, dict[str, Any]] = {422: {"model": ErrorOut}}


@router.post(
    "/computer-games",
    status_code=status.HTTP_201_CREATED,
    response_model=SeatGrant,
    responses=_REFUSALS,
    summary="Play the computer: you hold the drums (and move first from the standard start)",
)
def create_computer_game(
    body: ComputerGameIn,
    response: Response,
    session: SessionDep,
    ctx: ContextDep,
    base: BaseUrlDep,
    runtime: RuntimeDep,
) -> SeatGrant:
    granted = service.create_computer_game(
        session, rule_set=body.rule_set, level=body.level, name=body.name, fen=body.fen, ctx=ctx
    )
    no_store(response)
    runtime.acted(granted.state)  # from a position with the tires to move, it moves first
    return grant_view(granted, ctx=ctx, base_url=base)
