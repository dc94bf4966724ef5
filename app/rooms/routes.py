"""The rooms' route building blocks, shared by every router that declares seat actions:
the bearer-token API (`router`) and the pages' endpoints (`app.web`), which take the seat
from its cookie. No router imports another; they all import from here.

A seat action's route translates HTTP to the service and back: the service itself asks
and tells the app's hooks (the computer's admission and wake-up, through the `Context`),
so a route cannot forget them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Depends, Path, Response
from fastapi.params import Depends as DependsParam
from sqlalchemy.orm import Session

from app.core.context import Context
from app.core.deps import BaseUrlDep, ContextDep, SessionDep
from app.core.ids import id_path
from app.core.openapi import refusals
from app.core.responses import ModelResponse, PdnResponse

from . import planning, service
from .schemas import ActionIn, ConditionalIn, MoveIn, NameIn, RoomView
from .state import GameState
from .view import build_view

RoomId = id_path("The room's id from its share URL.")
GameNumber = Path(ge=1, le=1_000_000)  # a game of the room, 1 for the first

# A seat action: a token is needed (401) and must open a seat (403); the room must exist
# (404) and be in a state that allows the action (409); its content may be refused (422).
ACTION_REFUSALS = refusals(401, 403, 404, 409, 422)
# Reading a room with an optional token: a wrong one is refused.
VIEW_REFUSALS = refusals(403, 404, 422)
# Reading a game: no token is read.
GAME_REFUSALS = refusals(404, 422, s404="No such room, or no such game in it")


@dataclass(frozen=True, slots=True)
class Acting:
    """What a seat action's route works with: the session, the seat's token, the
    request's context (with the app's hooks and the client's address) and the base of
    share links."""

    session: Session
    token: str | None
    ctx: Context
    base_url: str

    def answer(self, state: GameState) -> Response:
        """The room as the acting seat now sees it."""
        return ModelResponse(build_view(state, ctx=self.ctx, base_url=self.base_url))


def acting(token_from: Callable[..., Any]) -> Any:
    """The dependency giving a seat action its `Acting`, the token found by `token_from`."""

    async def dependency(
        session: SessionDep,
        ctx: ContextDep,
        base: BaseUrlDep,
        token: str | None = Depends(token_from),
    ) -> Acting:
        return Acting(session, token, ctx, base)

    return Depends(dependency)


def action_options(dependencies: Sequence[DependsParam], include_in_schema: bool) -> dict[str, Any]:
    """What every seat action's route declares: it answers the room view, or a refusal."""
    return {
        "response_model": RoomView,
        "responses": ACTION_REFUSALS,
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

    @router.post(
        f"{room_path}/more-time",
        summary="Give the player to move one more day (you wait for their move)",
        **options,
    )
    def more_time(act: Acting = act_on, room_id: str = RoomId) -> Response:
        """The waiting player gives the opponent one more day for the current move: the
        forfeit claim and the room's expiry come a day later (`claim_opens_at`,
        `expires_at`), at most `game.extra_time.max_days` days a game. Refused with 409
        `not_waiting` when it is your move, `time_limit` when the game has had its days,
        `no_time_to_give` against the computer. The record keeps a `time_given` event."""
        return act.answer(
            service.give_time(act.session, room_id=room_id, token=act.token, ctx=act.ctx)
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


def pdn_answer(text: str, room_id: str, number: int) -> PdnResponse:
    """A game's PDN, as a download."""
    return PdnResponse(
        text,
        headers={"Content-Disposition": f'attachment; filename="{room_id}-{number}.pdn"'},
    )
