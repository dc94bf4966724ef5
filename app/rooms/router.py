"""HTTP routes of the rooms API: thin translations between HTTP and the service.

The five seat actions (move, draw, rematch, resign, claim) are declared once, by
`add_action_routes`, for the bearer-token API here and for the page endpoints of
`app.web`, which take the seat from its cookie.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Depends, Header, Path, Query, Request, Response, status
from fastapi.params import Depends as DependsParam
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from app.core.context import Context
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
from checkers_engine import RULE_SETS, Board, EngineError

from . import errors, planning, service, subscriptions
from .events import MAX_VERSION, SSE_EVENT_EXAMPLE, SSE_EVENT_SCHEMA
from .live import LiveResponse
from .pdn import export_game
from .runtime import RoomsRuntime, RuntimeDep
from .schemas import (
    RULE_SET_KEYS,
    ActionIn,
    ConditionalIn,
    CreateRoomIn,
    EventsOut,
    GameRecordOut,
    JoinIn,
    MoveIn,
    NameIn,
    PositionMovesOut,
    PushIn,
    PushOffIn,
    RoomView,
    RuleSetOut,
    SeatGrant,
)
from .state import GameState
from .view import (
    build_view,
    game_record_out,
    grant_view,
    position_moves_out,
    rule_set_out,
    share_url,
)

router = APIRouter(prefix="/api", tags=["rooms"])

RoomId = id_path("The room's id from its share URL.")
GameNumber = Path(ge=1, le=1_000_000)  # a game of the room, 1 for the first

# A seat action: a token is needed (401) and must open a seat (403); the room must exist
# (404) and be in a state that allows the action (409); its content may be refused (422).
_ACTION_REFUSALS = refusals(401, 403, 404, 409, 422)
# Reading a room with an optional token: a wrong one is refused.
_VIEW_REFUSALS = refusals(403, 404, 422)
# Reading a game: no token is read.
_GAME_REFUSALS = refusals(404, 422, s404="No such room, or no such game in it")


@dataclass(frozen=True, slots=True)
class Acting:
    """What a seat action's route works with: the session, the seat's token, the
    request's context, the base of share links, the app's rooms runtime and the client's
    address."""

    session: Session
    token: str | None
    ctx: Context
    base_url: str
    runtime: RoomsRuntime
    client: str

    def admit(self, state: GameState) -> None:
        """The app's hooks may refuse the action before it is taken (the computer's queue)."""
        self.runtime.admit(state, self.client)

    def answer(self, state: GameState) -> Response:
        """The room as the acting seat now sees it; the app's hooks (the computer player)
        hear of the action first."""
        self.runtime.acted(state, self.client)
        return ModelResponse(build_view(state, ctx=self.ctx, base_url=self.base_url))


def acting(token_from: Callable[..., Any]) -> Any:
    """The dependency giving a seat action its `Acting`, the token found by `token_from`."""

    async def dependency(
        session: SessionDep,
        ctx: ContextDep,
        base: BaseUrlDep,
        runtime: RuntimeDep,
        client: ClientDep,
        token: str | None = Depends(token_from),
    ) -> Acting:
        return Acting(session, token, ctx, base, runtime, client)

    return Depends(dependency)


def action_options(dependencies: Sequence[DependsParam], include_in_schema: bool) -> dict[str, Any]:
    """What every seat action's route declares: it answers the room view, or a refusal."""
    return {
        "response_model": RoomView,
        "responses": _ACTION_REFUSALS,
        "dependencies": list(dependencies),
        "include_in_schema": include_in_schema,
    }


def add_action_routes(
    router: APIRouter,
    *,
    room_path: str,
    token_from: Callable[..., Any],
    dependencies: Sequence[DependsParam] = (),
    include_in_schema: bool = True,
) -> None:
    """Declare the seat actions on `router` under `room_path` (a path with `{room_id}`);
    `token_from` is the dependency that finds the seat's token in the request."""
    act_on = acting(token_from)
    options = action_options(dependencies, include_in_schema)
    # Actions the computer answers are refused while its queue holds this client's share.
    queued = {
        **options,
        "responses": {
            **options["responses"],
            **refusals(
                429,
                s429="Too many requests from this client, or the computer owes it too many "
                "replies (`computer_quota`); retry after `Retry-After`",
            ),
        },
    }

    @router.post(
        f"{room_path}/moves",
        summary="Play a move (expected_ply guards against stale moves; a resend is a no-op)",
        **queued,
    )
    def play_move(body: MoveIn, act: Acting = act_on, room_id: str = RoomId) -> Response:
        """Play a move for the token's seat. `expected_ply` is the game's ply the move was
        chosen at: if the game has moved on, the move is refused (409 `stale_ply` with
        `current_ply`), and a resend of the move just played answers the room unchanged. An
        illegal move is refused with 422 `illegal_move` and `legal_moves`; an ambiguous
        short form with `ambiguous_move` and `candidates`. Answers the room as the mover now
        sees it."""
        state = service.play_move(
            act.session,
            room_id=room_id,
            token=act.token,
            move=body.move.strip(),
            expected_ply=body.expected_ply,
            ctx=act.ctx,
            in_tradition=body.notation == "tradition",
            admit=act.admit,
        )
        return act.answer(state)

    @router.post(
        f"{room_path}/draw",
        summary="Offer a draw, or accept or decline the opponent's offer",
        **queued,
    )
    def draw(body: ActionIn, act: Acting = act_on, room_id: str = RoomId) -> Response:
        """`offer` a draw (3 per player per game), or `accept` or `decline` the opponent's
        offer. Answers the room view."""
        return act.answer(
            service.draw_action(
                act.session,
                room_id=room_id,
                token=act.token,
                action=body.action,
                ctx=act.ctx,
                admit=act.admit,
            )
        )

    @router.post(
        f"{room_path}/rematch",
        summary="Offer a rematch after a game, or accept or decline the opponent's offer",
        **queued,
    )
    def rematch(body: ActionIn, act: Acting = act_on, room_id: str = RoomId) -> Response:
        """After a game: `offer` a rematch, or `accept` it (a new game, sides swapped) or
        `decline` it. Answers the room view."""
        return act.answer(
            service.rematch_action(
                act.session,
                room_id=room_id,
                token=act.token,
                action=body.action,
                ctx=act.ctx,
                admit=act.admit,
            )
        )

    @router.post(f"{room_path}/resign", summary="Resign the game in progress", **options)
    def resign(act: Acting = act_on, room_id: str = RoomId) -> Response:
        """The token's seat gives up the game in progress; the opponent wins. Answers the room
        view."""
        return act.answer(
            service.resign(act.session, room_id=room_id, token=act.token, ctx=act.ctx)
        )

    @router.post(
        f"{room_path}/claim-forfeit",
        summary="Claim the win when the player to move let the claim window open",
        **options,
    )
    def claim_forfeit(act: Acting = act_on, room_id: str = RoomId) -> Response:
        """The waiting player wins once the player to move has let the claim window pass
        (`claim_opens_at`); earlier it is refused with 409 `claim_not_open` and `opens_at`."""
        return act.answer(
            service.claim_forfeit(act.session, room_id=room_id, token=act.token, ctx=act.ctx)
        )

    @router.post(f"{room_path}/name", summary="Rename your seat", **options)
    def rename(body: NameIn, act: Acting = act_on, room_id: str = RoomId) -> Response:
        """Change the display name of the token's seat (null or blank: the default by colour)."""
        return act.answer(
            service.rename_seat(
                act.session, room_id=room_id, token=act.token, name=body.name, ctx=act.ctx
            )
        )

    @router.post(
        f"{room_path}/push",
        summary="Send this seat's notifications to a browser's push subscription",
        **options,
    )
    def push_on(body: PushIn, act: Acting = act_on, room_id: str = RoomId) -> Response:
        """Send this seat's notifications (your turn, offers, the end) to a browser's Web Push
        subscription, as `PushSubscription.toJSON()` gives it. 422 `push_service_refused`
        when its endpoint is not on a push service the server sends to (`PUSH_SERVICES`).
        A seat keeps its newest `PUSH_DEVICES_PER_SEAT` subscriptions."""
        return act.answer(
            subscriptions.add_push(
                act.session,
                room_id=room_id,
                token=act.token,
                endpoint=body.endpoint,
                p256dh=body.keys.p256dh,
                auth=body.keys.auth,
                time_zone=body.time_zone,
                ctx=act.ctx,
            )
        )

    @router.post(
        f"{room_path}/push/off", summary="Stop notifications to a push subscription", **options
    )
    def push_off(body: PushOffIn, act: Acting = act_on, room_id: str = RoomId) -> Response:
        """Stop the notifications to one push subscription of this seat."""
        return act.answer(
            subscriptions.remove_push(
                act.session, room_id=room_id, token=act.token, endpoint=body.endpoint, ctx=act.ctx
            )
        )

    @router.post(
        f"{room_path}/conditional",
        summary="Store your replies to your opponent's possible moves (conditional moves)",
        **options,
    )
    def plan(body: ConditionalIn, act: Acting = act_on, room_id: str = RoomId) -> Response:
        """Store replies to the opponent's possible next moves; each line is checked by the
        rules in the position it would be played in, and a stored reply is played for you in
        the opponent's move's transaction. Replaces the lines stored before."""
        return act.answer(
            planning.store_plan(
                act.session, room_id=room_id, token=act.token, lines=body.lines, ctx=act.ctx
            )
        )

    @router.post(
        f"{room_path}/conditional/clear", summary="Forget your conditional moves", **options
    )
    def unplan(act: Acting = act_on, room_id: str = RoomId) -> Response:
        """Forget this seat's conditional moves in the current game."""
        return act.answer(
            planning.clear_plan(act.session, room_id=room_id, token=act.token, ctx=act.ctx)
        )

    @router.post(f"{room_path}/email/off", summary="Stop mails to this seat's address", **options)
    def email_off(act: Acting = act_on, room_id: str = RoomId) -> Response:
        """Stop mailing this seat's notifications."""
        return act.answer(
            subscriptions.stop_email(act.session, room_id=room_id, token=act.token, ctx=act.ctx)
        )


@router.get("/rule-sets", response_model=list[RuleSetOut], summary="The six rule sets")
def list_rule_sets() -> list[RuleSetOut]:
    """The six rule sets with their rules (men per side, backward captures, flying kings,
    majority capture), PDN game type and notation."""
    return [rule_set_out(rule_set) for rule_set in RULE_SETS.values()]


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
    responses=_VIEW_REFUSALS,
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


@router.get(
    "/rooms/{room_id}/games/{number}.pdn",
    response_class=PdnResponse,
    responses={**_GAME_REFUSALS, 200: PDN_ANSWER},
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


def pdn_answer(text: str, room_id: str, number: int) -> PdnResponse:
    """A game's PDN, as a download."""
    return PdnResponse(
        text,
        headers={"Content-Disposition": f'attachment; filename="{room_id}-{number}.pdn"'},
    )


@router.get(
    "/rooms/{room_id}/games/{number}",
    response_model=GameRecordOut,
    responses=_GAME_REFUSALS,
    summary="A game of the room in full: its moves and result (the room view lists summaries)",
)
def game_record(session: SessionDep, room_id: str = RoomId, number: int = GameNumber) -> Response:
    """One game of the room in full: its moves in every form and its result (the room view
    carries only a summary of games other than the current one)."""
    room, game, moves = service.read_game(session, room_id=room_id, number=number)
    return ModelResponse(game_record_out(room, game, moves))


def _resume_point(after: int, last_event_id: str | None) -> int:
    """`Last-Event-ID` (a reconnecting EventSource) wins over `after`. Only ASCII digits
    make a version: `str.isdigit` also accepts superscripts and other scripts' digits."""
    if last_event_id is None or not last_event_id.strip():
        return after
    value = last_event_id.strip()
    if not (value.isascii() and value.isdigit()) or int(value) > MAX_VERSION:
        raise errors.InvalidInput(
            f"Last-Event-ID must be the version of an event (a whole number up to {MAX_VERSION})"
        )
    return int(value)


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
        **_VIEW_REFUSALS,
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
    right). Events carry no secrets."""
    start = _resume_point(after, last_event_id)

    def check() -> None:
        with database.session() as session:
            service.check_viewer(session, room_id=room_id, token=token)

    await run_in_threadpool(check)
    if "text/event-stream" not in request.headers.get("accept", ""):

        def page() -> EventsOut:
            with database.session() as session:
                return service.read_events(session, room_id=room_id, after=start, limit=limit)

        return await run_in_threadpool(page)
    release = runtime.hub.reserve(client, ctx.settings)
    return LiveResponse(runtime.hub, room_id, start, settings=ctx.settings, release=release)
