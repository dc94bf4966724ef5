"""HTTP routes of the rooms API: thin translations between HTTP and the service.

The seat actions (move, draw, rematch, resign, claim, name, conditional moves) are
declared once, by `routes.add_action_routes`, for the bearer-token API here and for the
page endpoints of `app.web`, which take the seat from its cookie.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Header, Path, Query, Request, Response, status

from app.core.deps import (
    BaseUrlDep,
    ClientDep,
    ContextDep,
    DatabaseDep,
    SessionDep,
    TokenDep,
    get_token,
)
from app.core.ids import id_path
from app.core.openapi import refusals
from app.core.responses import PDN_ANSWER, ModelResponse, PdnResponse, no_store
from app.i18n import translator
from checkers_engine import RULE_SETS, Board, EngineError

from . import errors, service
from .events import MAX_VERSION, SSE_EVENT_EXAMPLE, SSE_EVENT_SCHEMA
from .pdn import export_game
from .private_routes import add_private_routes
from .record_schemas import EventsOut
from .routes import (
    GAME_REFUSALS,
    VIEW_REFUSALS,
    GameNumber,
    RoomId,
    add_action_routes,
    pdn_answer,
)
from .runtime import RuntimeDep
from .schemas import (
    RULE_SET_KEYS,
    CreateRoomIn,
    GameRecordOut,
    JoinIn,
    PositionMovesOut,
    RoomView,
    RuleSetOut,
    SeatGrant,
)
from .streams import events_answer, resume_point
from .view import (
    build_view,
    game_record_out,
    grant_view,
    position_moves_out,
    rule_set_out,
    share_url,
)

router = APIRouter(prefix="/api", tags=["rooms"])


@router.get("/rule-sets", response_model=list[RuleSetOut], summary="The six rule sets")
def list_rule_sets(ctx: ContextDep) -> list[RuleSetOut]:
    """The six rule sets with their rules (men per side, backward captures, flying kings,
    majority capture), PDN game type and notation."""
    return [rule_set_out(rule_set, ctx.language) for rule_set in RULE_SETS.values()]


@router.get(
    "/rule-sets/{key}/moves",
    response_model=PositionMovesOut,
    responses=refusals(
        422, s422="An unknown rule set (`unknown_rule_set`), or a position that cannot be read"
    ),
    summary="The legal moves of a position, and the position after each",
)
def position_moves(
    key: str = Path(
        max_length=16,
        description="A rule set's key, e.g. russian.",
        json_schema_extra=RULE_SET_KEYS,
    ),
    fen: str = Query(min_length=3, max_length=200, description="The position (engine FEN)."),
) -> PositionMovesOut:
    """A stateless question to the rules: lets a page try lines out (conditional moves)
    without a game."""
    if key not in RULE_SETS:
        raise errors.UnknownRuleSet(f"unknown rule set {key!r}", rule_sets=sorted(RULE_SETS))
    try:
        board = Board(key, fen=fen)
    except EngineError as exc:
        raise errors.InvalidInput(f"invalid position: {exc}") from exc
    return position_moves_out(key, board)


@router.post(
    "/rooms",
    status_code=status.HTTP_201_CREATED,
    response_model=SeatGrant,
    responses=refusals(
        422,
        s422="The body does not fit, or names an unknown rule set (`unknown_rule_set`) or a "
        "position that cannot be played (`invalid_fen`, `position_decided`)",
    ),
    summary="Create a room, from the standard start or a FEN; the creator plays the drums",
)
def create_room(
    body: CreateRoomIn, response: Response, session: SessionDep, ctx: ContextDep, base: BaseUrlDep
) -> SeatGrant:
    """Make a room in a rule set, from the standard start or a FEN in the rule set's notation.
    The creator takes the drums seat: the answer carries its token, shown this once (`Cache-
    Control: no-store`). Share `share_url` for the second player to join."""
    granted = service.create_room(
        session, rule_set=body.rule_set, name=body.name, first_fen=body.fen, ctx=ctx
    )
    no_store(response)
    return grant_view(granted, ctx=ctx, base_url=base)


@router.get(
    "/rooms/{room_id}",
    response_model=RoomView,
    responses=VIEW_REFUSALS,
    summary="What a viewer sees (with a seat token: which seat you hold)",
)
def get_room(
    session: SessionDep,
    token: TokenDep,
    ctx: ContextDep,
    base: BaseUrlDep,
    room_id: str = RoomId,
) -> Response:
    """The room as anyone with its id sees it: rule set, seats, the current game with its moves
    and legal moves, offers, deadlines and a summary of every game. With a seat's token
    `you` says which seat you hold; a wrong token is refused (403)."""
    state = service.read_room(session, room_id=room_id, token=token, ctx=ctx)
    return ModelResponse(build_view(state, ctx=ctx, base_url=base))


@router.post(
    "/rooms/{room_id}/join",
    response_model=SeatGrant,
    responses=refusals(
        404, 409, 422, s409="Both seats are taken (`room_full`), or the room has expired"
    ),
    summary="Take the open seat (the tires in game 1)",
)
def join_room(
    response: Response,
    session: SessionDep,
    ctx: ContextDep,
    base: BaseUrlDep,
    body: JoinIn | None = None,
    room_id: str = RoomId,
    idempotency_key: str | None = Header(
        default=None,
        min_length=16,
        max_length=128,
        pattern=r"^[\x21-\x7e]+$",
        description="A secret the client picks (a UUID, say): a join whose answer was lost "
        "may be sent again with the same key, within a short window, and gets the same "
        "seat's token once.",
    ),
) -> SeatGrant:
    """Take the open seat (the tires in game 1); the game starts at once. The answer carries
    the seat's token, shown once. With an `Idempotency-Key` a join whose answer was lost may
    be sent again within `JOIN_RETRY_SECONDS` and gets the same token, once."""
    name = body.name if body else None
    granted = service.join_room(
        session, room_id=room_id, name=name, ctx=ctx, retry_key=idempotency_key
    )
    no_store(response)
    return grant_view(granted, ctx=ctx, base_url=base)


add_action_routes(router, room_path="/rooms/{room_id}", token_from=get_token)
add_private_routes(router, room_path="/rooms/{room_id}", token_from=get_token)


@router.get(
    "/rooms/{room_id}/games/{number}.pdn",
    response_class=PdnResponse,
    responses={**GAME_REFUSALS, 200: PDN_ANSWER},
    summary="A game of the room as PDN",
)
def game_pdn(
    session: SessionDep,
    base: BaseUrlDep,
    room_id: str = RoomId,
    number: int = GameNumber,
) -> PdnResponse:
    """A game of the room as Portable Draughts Notation, in the rule set's own notation, with
    `SetUp`/`FEN` tags for a set-up start."""
    room, game, moves = service.read_game(session, room_id=room_id, number=number)
    return pdn_answer(
        export_game(room, game, moves, site=share_url(base, room.id)), room.id, number
    )


@router.get(
    "/rooms/{room_id}/games/{number}",
    response_model=GameRecordOut,
    responses=GAME_REFUSALS,
    summary="A game of the room in full: its moves and result (the room view lists summaries)",
)
def game_record(
    session: SessionDep, ctx: ContextDep, room_id: str = RoomId, number: int = GameNumber
) -> Response:
    """One game of the room in full: its moves in every form and its result (the room view
    carries only a summary of games other than the current one)."""
    room, game, moves = service.read_game(session, room_id=room_id, number=number)
    return ModelResponse(game_record_out(room, game, moves, translator(ctx.language)))


@router.get(
    "/rooms/{room_id}/events",
    response_model=EventsOut,
    responses={
        200: {
            "description": "A JSON page of the record or, with `Accept: text/event-stream`, "
            "the live stream (Server-Sent Events): each event's `id` is its version, its "
            "`data` the event as JSON (an `EventOut`); an idle stream gets a `: keep-alive` "
            "comment now and then. Reconnect with `Last-Event-ID` or `?after=`.",
            "content": {
                "text/event-stream": {
                    "schema": SSE_EVENT_SCHEMA,
                    "example": SSE_EVENT_EXAMPLE,
                }
            },
        },
        **VIEW_REFUSALS,
        **refusals(
            429,
            503,
            s429="This client holds its share of live streams (`too_many_streams`)",
            s503="The database is unavailable, or the streams here are full (`streams_full`)",
        ),
    },
    summary="The room's event record: a JSON page, or live as Server-Sent Events",
)
async def room_events(
    request: Request,
    token: TokenDep,
    database: DatabaseDep,
    runtime: RuntimeDep,
    ctx: ContextDep,
    client: ClientDep,
    room_id: str = id_path("The room's id."),
    after: int = Query(default=0, ge=0, le=MAX_VERSION, description="Start after this version."),
    limit: int = Query(default=100, ge=1, le=500, description="JSON page size."),
    last_event_id: str = Header(
        default="",
        max_length=32,
        description="The version of the last event received (browsers resend it "
        "themselves when they reconnect); wins over `after`.",
    ),
) -> Any:
    """Anyone with the room id may watch; a seat's bearer token is accepted (and must be
    right). Events carry no secrets. The players' chat (`chat`, `chat_switched`) is sent
    only with the token of a seat it is for: a spectator never sees it."""
    return await events_answer(
        request,
        token=token,
        database=database,
        runtime=runtime,
        ctx=ctx,
        client=client,
        room_id=room_id,
        after=resume_point(after, last_event_id),
        limit=limit,
    )
