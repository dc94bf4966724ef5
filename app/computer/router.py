"""HTTP routes of the computer: games against it, and its review of finished games."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response, status

from app.core.deps import BaseUrlDep, ClientDep, ContextDep, SessionDep, get_token
from app.core.ids import id_path
from app.core.responses import PDN_ANSWER, ModelResponse, PdnResponse, no_store
from app.rooms import service as rooms
from app.rooms.pdn import export_game
from app.rooms.routes import GameNumber, RoomId, pdn_answer
from app.rooms.schemas import ErrorOut, SeatGrant
from app.rooms.view import grant_view, share_url

from . import review, service
from .review import (
    Review,
    drums_view,
    judged,
)
from .review_routes import (
    QUEUED,
    REVIEW_ANSWERS,
    ReviewOut,
    RunnerDep,
    add_line_review_routes,
    forms_of,
    review_out,
    started,
)
from .schemas import ComputerGameIn

router = APIRouter(prefix="/api", tags=["computer"])

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
) -> SeatGrant:
    """A room against one of the four computer opponents (`level`), in any rule set and from
    any position. You take the drums seat (its token is in the answer, shown once); the
    computer holds the tires and replies on its own, in the background: follow the room's
    events, or read the room again."""
    granted = service.create_computer_game(
        session, rule_set=body.rule_set, level=body.level, name=body.name, fen=body.fen, ctx=ctx
    )
    no_store(response)
    return grant_view(granted, ctx=ctx, base_url=base)


# --- computer review ----------------------------------------------------------------------


@router.post(
    "/rooms/{room_id}/games/{number}/review",
    response_model=ReviewOut,
    status_code=status.HTTP_202_ACCEPTED,
    responses={
        200: {"model": ReviewOut, "description": "Already reviewed or under review"},
        **REVIEW_ANSWERS,
        **QUEUED,
    },
    summary="Ask the Executive to review a finished game of the room (anyone may)",
)
def review_room_game(
    session: SessionDep,
    ctx: ContextDep,
    runner: RunnerDep,
    client: ClientDep,
    room_id: str = RoomId,
    number: int = GameNumber,
) -> Response:
    """Ask the Executive to score every position of a finished game of the room and mark the
    inaccuracies, mistakes and blunders with the better move. 202 when the review starts,
    200 when it exists or is under way; read it at the same path."""
    found, new = review.request_for_room(
        session,
        room_id=room_id,
        number=number,
        ctx=ctx,
        client=client,
        admit=lambda: runner.admit_review(client),
    )
    return started(found, new, runner)


@router.get(
    "/rooms/{room_id}/games/{number}/review",
    response_model=ReviewOut,
    responses=REVIEW_ANSWERS,
    summary="The computer's review of a game of the room, as far as it has got",
)
def room_game_review(
    session: SessionDep, room_id: str = RoomId, number: int = GameNumber
) -> Response:
    """The review of a game of the room as far as it has got (`status`): each move's score and
    judgement, and the better move where the move gave something away."""
    return ModelResponse(review_out(review.read_for_room(session, room_id=room_id, number=number)))


@router.get(
    "/rooms/{room_id}/games/{number}/review.pdn",
    response_class=PdnResponse,
    responses={**REVIEW_ANSWERS, 200: PDN_ANSWER},
    summary="A game of the room as PDN, the review's evaluation after each move",
)
def reviewed_pdn(
    session: SessionDep,
    base: BaseUrlDep,
    room_id: str = RoomId,
    number: int = GameNumber,
) -> PdnResponse:
    """The game as PDN with the review's evaluation after each move as comments."""
    found = review.read_for_room(session, room_id=room_id, number=number)
    room, game, moves = rooms.read_game(session, room_id=room_id, number=number)
    text = export_game(
        room, game, moves, site=share_url(base, room.id), move_comments=comments(found)
    )
    return pdn_answer(text, room.id, number)


def comments(found: Review) -> list[str | None]:
    """After each move: the score it left (from the drums' side, in men) and what the
    Executive would have played instead, when the move gave something away."""
    graph = drums_view(found)
    out: list[str | None] = []
    for j in judged(found):
        score = graph[j.ply]
        if score is None:
            out.append(None)
            continue
        note = f"eval {score / 100:+.2f}"
        if j.judgement is not None and j.best is not None:
            best, _ = forms_of(found.rule_set, j.best)
            assert best is not None
            note += f"; {j.judgement}, best {best.text}"
        out.append(note)
    return out


@router.post(
    "/imported-games/{imported_id}/review",
    response_model=ReviewOut,
    status_code=status.HTTP_202_ACCEPTED,
    responses={
        200: {"model": ReviewOut, "description": "Already reviewed or under review"},
        **REVIEW_ANSWERS,
        **QUEUED,
    },
    summary="Ask the Executive to review an imported game",
)
def review_imported_game(
    session: SessionDep,
    ctx: ContextDep,
    runner: RunnerDep,
    client: ClientDep,
    imported_id: str = id_path("The imported game's id."),
) -> Response:
    """Ask the Executive to review an imported game, as for a game of a room."""
    found, new = review.request_for_import(
        session,
        imported_id=imported_id,
        ctx=ctx,
        client=client,
        admit=lambda: runner.admit_review(client),
    )
    return started(found, new, runner)


@router.get(
    "/imported-games/{imported_id}/review",
    response_model=ReviewOut,
    responses=REVIEW_ANSWERS,
    summary="The computer's review of an imported game, as far as it has got",
)
def imported_game_review(
    session: SessionDep, imported_id: str = id_path("The imported game's id.")
) -> Response:
    """The review of an imported game as far as it has got."""
    return ModelResponse(review_out(review.read_for_import(session, imported_id=imported_id)))


add_line_review_routes(router, room_path="/rooms/{room_id}", token_from=get_token)
