"""The building blocks of the computer's review routes: a review as the API answers it,
the computer player the app registered, the refusals of its queue, and the routes of a
player's own lines' review, declared once for the bearer API and the pages' cookie
endpoints (`add_line_review_routes`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request, Response, status
from fastapi.params import Depends as DependsParam
from pydantic import BaseModel, Field

from app.core.deps import ClientDep, ContextDep, SessionDep
from app.core.openapi import refusals
from app.core.responses import ModelResponse, no_store
from app.rooms.routes import GameNumber, RoomId
from app.rooms.schemas import ErrorOut, MoveForms
from app.rooms.view import move_forms
from checkers_engine import Side

from . import review
from .review import (
    BLUNDER,
    CLAMP,
    INACCURACY,
    MISTAKE,
    Judgement,
    Review,
    ReviewStatus,
    drums_view,
    judged,
)
from .runner import ComputerRunner


class ReviewedMoveOut(BaseModel):
    ply: int
    side: Side
    move: MoveForms = Field(description="The move played, in every form.")
    loss: int | None = Field(
        description="What the move gave away by the Executive's scores, in hundredths of a "
        "man (null until both positions are evaluated)."
    )
    judgement: Judgement | None = Field(
        description=f"inaccuracy (a loss of {INACCURACY}+), mistake ({MISTAKE}+) or "
        f"blunder ({BLUNDER}+); null for a good move."
    )
    best: MoveForms | None = Field(description="The Executive's move in the position before.")
    best_path: list[int] | None = Field(description="Its squares (for drawing an arrow).")


class ReviewOut(BaseModel):
    """A game reviewed by the Executive, position by position (partial while it runs)."""

    status: ReviewStatus
    positions: int = Field(description="Positions of the game (its moves and the start).")
    done: int = Field(description="Positions evaluated so far.")
    seconds_per_position: float
    graph: list[int | None] = Field(
        description="Each position's score from the drums' side, in hundredths of a man, "
        f"clamped to ±{CLAMP} (null: not evaluated yet)."
    )
    moves: list[ReviewedMoveOut]


def forms_of(rule_set: str, notation: str | None) -> tuple[MoveForms | None, list[int] | None]:
    if notation is None:
        return None, None
    path = [int(s) for s in notation.replace("x", "-").split("-")]
    return MoveForms(**move_forms(rule_set, path, "x" in notation)), path


def review_out(review: Review) -> ReviewOut:
    moves = []
    for j in judged(review):
        played, _ = forms_of(review.rule_set, j.move)
        best, path = forms_of(review.rule_set, j.best)
        assert played is not None
        moves.append(
            ReviewedMoveOut(
                ply=j.ply,
                side=j.side,
                move=played,
                loss=j.loss,
                judgement=j.judgement,
                best=best,
                best_path=path,
            )
        )
    return ReviewOut(
        status=review.status,
        positions=review.positions,
        done=review.done,
        seconds_per_position=review.seconds_per_position,
        graph=drums_view(review),
        moves=moves,
    )


async def get_runner(request: Request) -> ComputerRunner:
    """The app's computer player (registered by the app factory)."""
    runner: ComputerRunner = request.app.state.computer
    return runner


RunnerDep = Annotated[ComputerRunner, Depends(get_runner)]
REVIEW_ANSWERS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (404, 409, 422)
}


# A review waits in the computer's queue of reviews: refused while this client holds its
# share of it (429), or while it is full (503).
QUEUED = refusals(
    429,
    503,
    s429="Too many requests from this client, or it has its share of the computer's "
    "reviews waiting (`computer_quota`); retry after `Retry-After`",
    s503="The computer's queue of reviews is full (`computer_busy`), or the database is "
    "unavailable; retry after `Retry-After`",
)


def started(review: Review, new: bool, runner: ComputerRunner) -> Response:
    if new:
        runner.kick(review.key, review.requested_by)
    answer = ModelResponse(review_out(review))
    answer.status_code = status.HTTP_202_ACCEPTED if new else status.HTTP_200_OK
    return answer


# --- a player's own lines ---------------------------------------------------------------

LineId = Path(ge=1, le=2**31 - 1, description="A kept analysis line's id.")
_LINEREVIEW_ANSWERS = {
    **refusals(
        403,
        404,
        409,
        422,
        s403="No seat's token (`players_only`), or a wrong one",
        s409="The game is still in progress (`game_not_over`): no computer help until it ends",
    ),
}


def add_line_review_routes(
    router: APIRouter,
    *,
    room_path: str,
    token_from: Callable[..., Any],
    dependencies: Sequence[DependsParam] = (),
    include_in_schema: bool = True,
) -> None:
    """Declare the review of a player's own analysis line on `router` (the bearer API and
    the pages' cookie endpoints alike)."""
    path = f"{room_path}/games/{{number}}/analysis/{{line_id}}/review"

    @router.post(
        path,
        response_model=ReviewOut,
        status_code=status.HTTP_202_ACCEPTED,
        responses={
            200: {"model": ReviewOut, "description": "Already reviewed or under review"},
            **_LINEREVIEW_ANSWERS,
            **QUEUED,
        },
        dependencies=list(dependencies),
        include_in_schema=include_in_schema,
        summary="Ask the Executive to review one of your analysis lines (after the game)",
    )
    def review_line(
        session: SessionDep,
        ctx: ContextDep,
        runner: RunnerDep,
        client: ClientDep,
        token: str | None = Depends(token_from),
        room_id: str = RoomId,
        number: int = GameNumber,
        line_id: int = LineId,
    ) -> Response:
        """Once the game is over, the Executive scores every position of your own line and
        marks its inaccuracies, mistakes and blunders, as it reviews a game (never while the
        game is in progress: 409 `game_not_over`). Your seat's token only. A line changed
        since its review is reviewed again."""
        found, new = review.request_for_line(
            session,
            room_id=room_id,
            number=number,
            line_id=line_id,
            token=token,
            ctx=ctx,
            client=client,
            admit=lambda: runner.admit_review(client),
        )
        return no_store(started(found, new, runner))

    @router.get(
        path,
        response_model=ReviewOut,
        responses=_LINEREVIEW_ANSWERS,
        dependencies=list(dependencies),
        include_in_schema=include_in_schema,
        summary="The review of one of your analysis lines, as far as it has got",
    )
    def line_review(
        session: SessionDep,
        token: str | None = Depends(token_from),
        room_id: str = RoomId,
        number: int = GameNumber,
        line_id: int = LineId,
    ) -> Response:
        """The review of your own line as far as it has got (your seat's token only)."""
        found = review.read_for_line(
            session, room_id=room_id, number=number, line_id=line_id, token=token
        )
        return no_store(ModelResponse(review_out(found)))
