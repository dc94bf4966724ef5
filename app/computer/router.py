"""HTTP routes of the computer: games against it, and its review of finished games."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request, Response, status
from fastapi.params import Depends as DependsParam
from pydantic import BaseModel, Field

from app.core.deps import BaseUrlDep, ClientDep, ContextDep, SessionDep, get_token
from app.core.ids import id_path
from app.core.openapi import refusals
from app.core.responses import PDN_ANSWER, ModelResponse, PdnResponse, no_store
from app.rooms import service as rooms
from app.rooms.pdn import export_game
from app.rooms.routes import GameNumber, RoomId, pdn_answer
from app.rooms.schemas import ErrorOut, MoveForms, SeatGrant
from app.rooms.view import grant_view, move_forms, share_url
from checkers_engine import Side

from . import review, service
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


def _forms(rule_set: str, notation: str | None) -> tuple[MoveForms | None, list[int] | None]:
    if notation is None:
        return None, None
    path = [int(s) for s in notation.replace("x", "-").split("-")]
    return MoveForms(**move_forms(rule_set, path, "x" in notation)), path


def review_out(review: Review) -> ReviewOut:
    moves = []
    for j in judged(review):
        played, _ = _forms(review.rule_set, j.move)
        best, path = _forms(review.rule_set, j.best)
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
_REVIEW_ANSWERS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (404, 409, 422)
}


# A review waits in the computer's queue of reviews: refused while this client holds its
# share of it (429), or while it is full (503).
_QUEUED = refusals(
    429,
    503,
    s429="Too many requests from this client, or it has its share of the computer's "
    "reviews waiting (`computer_quota`); retry after `Retry-After`",
    s503="The computer's queue of reviews is full (`computer_busy`), or the database is "
    "unavailable; retry after `Retry-After`",
)


def _started(review: Review, new: bool, runner: ComputerRunner) -> Response:
    if new:
        runner.kick(review.key, review.requested_by)
    answer = ModelResponse(review_out(review))
    answer.status_code = status.HTTP_202_ACCEPTED if new else status.HTTP_200_OK
    return answer


@router.post(
    "/rooms/{room_id}/games/{number}/review",
    response_model=ReviewOut,
    status_code=status.HTTP_202_ACCEPTED,
    responses={
        200: {"model": ReviewOut, "description": "Already reviewed or under review"},
        **_REVIEW_ANSWERS,
        **_QUEUED,
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
    return _started(found, new, runner)


@router.get(
    "/rooms/{room_id}/games/{number}/review",
    response_model=ReviewOut,
    responses=_REVIEW_ANSWERS,
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
    responses={**_REVIEW_ANSWERS, 200: PDN_ANSWER},
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
            best, _ = _forms(found.rule_set, j.best)
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
        **_REVIEW_ANSWERS,
        **_QUEUED,
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
    return _started(found, new, runner)


@router.get(
    "/imported-games/{imported_id}/review",
    response_model=ReviewOut,
    responses=_REVIEW_ANSWERS,
    summary="The computer's review of an imported game, as far as it has got",
)
def imported_game_review(
    session: SessionDep, imported_id: str = id_path("The imported game's id.")
) -> Response:
    """The review of an imported game as far as it has got."""
    return ModelResponse(review_out(review.read_for_import(session, imported_id=imported_id)))


# --- a player's own lines ---------------------------------------------------------------

LineId = Path(ge=1, le=2**31 - 1, description="A kept analysis line's id.")
_LINE_REVIEW_ANSWERS = {
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
            **_LINE_REVIEW_ANSWERS,
            **_QUEUED,
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
        return no_store(_started(found, new, runner))

    @router.get(
        path,
        response_model=ReviewOut,
        responses=_LINE_REVIEW_ANSWERS,
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


add_line_review_routes(router, room_path="/rooms/{room_id}", token_from=get_token)
