"""HTTP routes of PDN imports: thin translations between HTTP and the import service."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fastapi import APIRouter, Query, Request, Response, status
from fastapi.exceptions import RequestValidationError
from fastapi.responses import StreamingResponse
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from app.core.deps import ClientDep, ContextDep, DatabaseDep, SessionDep
from app.core.errors import InvalidInput
from app.core.ids import id_path
from app.core.responses import PDN_ANSWER, ModelResponse, PdnResponse
from app.rooms.schemas import RULE_SET_KEYS, ErrorOut

from . import service
from .runner import ImportRunner
from .schemas import ImportedGameOut, ImportedReportOut, ImportIn, ImportOut
from .view import import_summary, imported_game_out

router = APIRouter(prefix="/api", tags=["imports"])

_REFUSALS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorOut} for code in (404, 422)}
GameId = id_path("The imported game's id.")
TEXT_TYPES = ("text/plain", "application/x-pdn", "application/octet-stream")

_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": ImportIn.model_json_schema()},
            "text/plain": {"schema": {"type": "string", "description": "The PDN text itself."}},
            "application/octet-stream": {
                "schema": {"type": "string", "format": "binary", "description": "The PDN file."}
            },
        },
    }
}


@router.post(
    "/imports",
    status_code=status.HTTP_201_CREATED,
    response_model=ImportOut,
    responses={
        422: {
            "model": ErrorOut,
            "description": "The body does not fit, holds no game (`no_games`), more games "
            "than one import takes (`too_many_games`, with `max_games`) or more moves in "
            "all (`too_many_plies_in_all`, with `max_total_plies`)",
        },
        429: {
            "model": ErrorOut,
            "description": "Too many imports from this client, or its last import is still "
            "being replayed (`import_quota`); `Retry-After` says when to retry",
        },
        503: {
            "model": ErrorOut,
            "description": "The service is replaying as many imports as it takes "
            "(`import_busy`); `Retry-After` says when to retry",
        },
    },
    openapi_extra=_BODY,
    summary="Import the recorded games of a PDN text (JSON, or the text itself or its file)",
)
async def create_import(
    request: Request,
    database: DatabaseDep,
    ctx: ContextDep,
    client: ClientDep,
    rule_set: str = Query(
        default="english",
        max_length=32,
        description="With a text/plain body: the rule set of games without a GameType tag.",
        json_schema_extra=RULE_SET_KEYS,
    ),
) -> Response:
    """Every game is replayed through the engine; each that replays in full is stored,
    with a replay page and its own PDN. A game that fails is reported (game, line, column,
    ply, move, reason, legal moves) and the games after it still import; a game longer
    than `IMPORT_MAX_PLIES` plies fails so (`too_many_plies`). The body may be up to
    `IMPORT_MAX_BYTES`; a text of more than `IMPORT_MAX_GAMES` games, or whose games hold
    more than `IMPORT_MAX_TOTAL_PLIES` moves in all, is refused whole. A report quotes at
    most 60 characters of the text it read. A client has one import replayed at a time;
    the answer is streamed, a few games at a time."""
    raw = await request.body()
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind == "application/json":
        try:
            body = ImportIn.model_validate_json(raw)
        except ValidationError as exc:
            raise RequestValidationError(
                [{**e, "loc": ("body", *e["loc"])} for e in exc.errors()]
            ) from None
        text, encoding, default = body.pdn, "utf-8", body.rule_set
    elif kind in TEXT_TYPES or not kind:
        text, encoding = service.decode(raw)
        default = rule_set
    else:
        raise InvalidInput(f'send the PDN as text/plain, or as JSON {{"pdn": ...}}, not as {kind}')

    service.check_rule_set(default)
    runner: ImportRunner = request.app.state.imports
    replayed = await runner.replay(text, default_rule_set=default, client=client)
    service.refuse(replayed)

    def store() -> list[ImportedReportOut]:
        with database.session() as session:
            return service.store(session, replayed, ctx=ctx)

    reports = await run_in_threadpool(store)
    return StreamingResponse(
        streamed(import_summary(reports, encoding)),
        status_code=status.HTTP_201_CREATED,
        media_type="application/json",
    )


def streamed(answer: ImportOut, games_per_chunk: int = 50) -> Iterator[bytes]:
    """The answer's JSON a few games at a time, so an answer of a thousand games is never
    held as one string. Its fields are the model's; only their order differs."""
    head = answer.model_dump_json(exclude={"games"})
    yield head[:-1].encode() + b',"games":['
    games = answer.games
    for start in range(0, len(games), games_per_chunk):
        chunk = ",".join(g.model_dump_json() for g in games[start : start + games_per_chunk])
        yield (b"," if start else b"") + chunk.encode()
    yield b"]}"


@router.get(
    "/imported-games/{game_id}.pdn",
    response_class=PdnResponse,
    responses={**_REFUSALS, 200: PDN_ANSWER},
    summary="An imported game as PDN, in its rule set's tradition",
)
def imported_game_pdn(session: SessionDep, game_id: str = GameId) -> PdnResponse:
    """An imported game as PDN, written by this service in the game's rule set's notation."""
    game = service.read_imported(session, game_id=game_id)
    return PdnResponse(
        service.export_imported(game),
        headers={"Content-Disposition": f'attachment; filename="imported-{game.number}.pdn"'},
    )


@router.get(
    "/imported-games/{game_id}",
    response_model=ImportedGameOut,
    responses=_REFUSALS,
    summary="An imported game in full: its tags, moves, result and the reader's notes",
)
def imported_game(session: SessionDep, game_id: str = GameId) -> Response:
    """An imported game in full: its tags in the record's order, every move in every form, the
    result and the reader's notes, for its replay."""
    game = service.read_imported(session, game_id=game_id)
    return ModelResponse(imported_game_out(game))
