"""Routes of the players' own things in a room: their chat. Declared once for the
bearer-token API and the pages' cookie endpoints (`add_private_routes`), as the seat
actions are (`routes.add_action_routes`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from fastapi import APIRouter, Path, Response
from fastapi.params import Depends as DependsParam

from app.core.openapi import refusals
from app.core.responses import PDN_ANSWER, ModelResponse, PdnResponse, no_store

from . import analysis, chat, exports, notes
from .models import AnalysisLine, ChatMessage, Seat, SeatNote
from .private_schemas import (
    AnalysisIn,
    AnalysisLineOut,
    AnalysisOut,
    ChatIn,
    ChatMessageOut,
    ChatOut,
    ChatSwitchIn,
    SeatNoteIn,
    SeatNoteOut,
    SeatNotesOut,
)
from .routes import ACTION_REFUSALS, Acting, GameNumber, RoomId, acting, pdn_answer
from .schemas import RoomView
from .view import share_url

_NO_SEAT = "No seat's token (`players_only`: spectators never see it), or a wrong one"
# The players' own things: a spectator is refused.
PLAYER_REFUSALS = refusals(403, 404, 409, 422, s403=_NO_SEAT)
CHAT_REFUSALS = refusals(
    403,
    404,
    409,
    422,
    429,
    s403=_NO_SEAT,
    s409="No chat against the computer (`no_chat`), not before the second player joins, "
    "or switched off (`chat_off`, `chat_off_opponent`)",
    s429="Too many messages from this client (`rate_limited`)",
)


def chat_out(seat: Seat, opponent_off: bool, messages: list[ChatMessage]) -> Response:
    body = ChatOut(
        seat=seat.role,
        off=seat.chat_off,
        opponent_off=opponent_off,
        messages=[
            ChatMessageOut(id=m.id, seat=m.seat, text=m.text, created_at=m.created_at)
            for m in messages
        ],
    )
    return no_store(ModelResponse(body))


def notes_out(number: int, found: list[SeatNote]) -> Response:
    body = SeatNotesOut(
        game=number,
        notes=[SeatNoteOut(ply=n.ply, text=n.text, updated_at=n.updated_at) for n in found],
    )
    return no_store(ModelResponse(body))


def analysis_out(number: int, lines: list[AnalysisLine]) -> Response:
    body = AnalysisOut(
        game=number,
        lines=[
            AnalysisLineOut(
                id=line.id,
                from_ply=line.from_ply,
                moves=list(line.moves),
                created_at=line.created_at,
                updated_at=line.updated_at,
            )
            for line in lines
        ],
    )
    return no_store(ModelResponse(body))


LineId = Path(ge=1, le=2**31 - 1, description="A kept line's id.")


def add_private_routes(
    router: APIRouter,
    *,
    room_path: str,
    token_from: Callable[..., Any],
    dependencies: Sequence[DependsParam] = (),
    include_in_schema: bool = True,
) -> None:
    """Declare the chat's routes on `router` under `room_path` (a path with `{room_id}`);
    `token_from` finds the seat's token in the request."""
    act_on = acting(token_from)
    options: dict[str, Any] = {
        "response_model": ChatOut,
        "responses": CHAT_REFUSALS,
        "dependencies": list(dependencies),
        "include_in_schema": include_in_schema,
    }

    def answer(act: Acting, room_id: str) -> Response:
        seat, opponent_off, messages = chat.read_chat(act.session, room_id=room_id, token=act.token)
        return chat_out(seat, opponent_off, messages)

    reading = {**options, "responses": {k: v for k, v in CHAT_REFUSALS.items() if k != 429}}

    @router.get(f"{room_path}/chat", summary="Read the chat with your opponent", **reading)
    def read_chat(act: Acting = act_on, room_id: str = RoomId) -> Response:
        """The latest messages between the two players, oldest first. Only the two seats
        read it: without a seat's token, 403 `players_only`. A seat that switched the chat
        off is shown no message."""
        return answer(act, room_id)

    @router.post(f"{room_path}/chat", summary="Write to your opponent", **options)
    def write_chat(body: ChatIn, act: Acting = act_on, room_id: str = RoomId) -> Response:
        """Send a plain-text message (up to 500 characters) to the other player: it is
        kept, sent live on the two seats' streams (a `chat` event no spectator gets) and
        notified to the other player as they chose. Answers the chat."""
        chat.send_message(
            act.session, room_id=room_id, token=act.token, text=body.text, ctx=act.ctx
        )
        return answer(act, room_id)

    @router.post(
        f"{room_path}/chat/switch", summary="Switch the chat off (or on again) for you", **options
    )
    def switch_chat(body: ChatSwitchIn, act: Acting = act_on, room_id: str = RoomId) -> Response:
        """`on: false`: nothing more of the chat is shown or told to you, and no message
        can be sent until you switch it on again. Answers the chat."""
        chat.switch_chat(act.session, room_id=room_id, token=act.token, on=body.on, ctx=act.ctx)
        return answer(act, room_id)

    own: dict[str, Any] = {
        "responses": PLAYER_REFUSALS,
        "dependencies": list(dependencies),
        "include_in_schema": include_in_schema,
    }
    notes_path = f"{room_path}/games/{{number}}/notes"

    @router.get(notes_path, response_model=SeatNotesOut, summary="Read your notes on a game", **own)
    def read_notes(
        act: Acting = act_on, room_id: str = RoomId, number: int = GameNumber
    ) -> Response:
        """Your private notes on game `number`, by ply (0: on the game as a whole). Only
        your seat reads them: not your opponent, not spectators, not the public PDN."""
        found = notes.read_notes(act.session, room_id=room_id, token=act.token, number=number)
        return notes_out(number, found)

    @router.post(
        notes_path, response_model=SeatNotesOut, summary="Keep (or forget) a note on a game", **own
    )
    def write_note(
        body: SeatNoteIn, act: Acting = act_on, room_id: str = RoomId, number: int = GameNumber
    ) -> Response:
        """Keep your note on the position after `ply` of game `number` (0: the game as a
        whole), replacing the one there; blank `text` forgets it. Answers your notes."""
        notes.save_note(
            act.session,
            room_id=room_id,
            token=act.token,
            number=number,
            ply=body.ply,
            text=body.text,
            ctx=act.ctx,
        )
        found = notes.read_notes(act.session, room_id=room_id, token=act.token, number=number)
        return notes_out(number, found)

    analysis_path = f"{room_path}/games/{{number}}/analysis"
    lines_options = {"response_model": AnalysisOut, **own}

    def lines_answer(act: Acting, room_id: str, number: int) -> Response:
        _, found = analysis.read_lines(act.session, room_id=room_id, token=act.token, number=number)
        return analysis_out(number, found)

    def keep_line(
        act: Acting, room_id: str, number: int, body: AnalysisIn, line_id: int | None
    ) -> Response:
        """Keep a new line (`line_id` None) or replace one's moves; answer the seat's lines."""
        analysis.keep_line(
            act.session,
            room_id=room_id,
            token=act.token,
            number=number,
            from_ply=body.from_ply,
            moves=body.moves,
            line_id=line_id,
            ctx=act.ctx,
        )
        return lines_answer(act, room_id, number)

    @router.get(analysis_path, summary="Read your analysis lines of a game", **lines_options)
    def read_analysis(
        act: Acting = act_on, room_id: str = RoomId, number: int = GameNumber
    ) -> Response:
        """The lines you played on the analysis board for game `number`, oldest first: kept
        for your seat alone, on every device. No evaluation comes with them."""
        return lines_answer(act, room_id, number)

    @router.post(analysis_path, summary="Keep a new analysis line", **lines_options)
    def add_analysis(
        body: AnalysisIn, act: Acting = act_on, room_id: str = RoomId, number: int = GameNumber
    ) -> Response:
        """Keep a line of moves for both sides from the position after `from_ply` of game
        `number`; each move is checked by the rules (422 `conditional_refused` names the
        first that cannot be played, with the legal moves there). Answers your lines."""
        return keep_line(act, room_id, number, body, None)

    @router.post(
        f"{analysis_path}/{{line_id}}", summary="Replace an analysis line's moves", **lines_options
    )
    def change_analysis(
        body: AnalysisIn,
        act: Acting = act_on,
        room_id: str = RoomId,
        number: int = GameNumber,
        line_id: int = LineId,
    ) -> Response:
        """Replace the moves of your line `line_id` (it keeps its start). Answers your lines."""
        return keep_line(act, room_id, number, body, line_id)

    @router.post(
        f"{analysis_path}/{{line_id}}/forget", summary="Forget an analysis line", **lines_options
    )
    def forget_analysis(
        act: Acting = act_on, room_id: str = RoomId, number: int = GameNumber, line_id: int = LineId
    ) -> Response:
        """Forget your line `line_id`. Answers your lines."""
        analysis.forget_line(
            act.session,
            room_id=room_id,
            token=act.token,
            number=number,
            line_id=line_id,
            ctx=act.ctx,
        )
        return lines_answer(act, room_id, number)

    @router.post(
        f"{analysis_path}/{{line_id}}/conditional",
        summary="Turn an analysis line into conditional moves",
        response_model=RoomView,
        responses=ACTION_REFUSALS,
        dependencies=list(dependencies),
        include_in_schema=include_in_schema,
    )
    def plan_analysis(
        act: Acting = act_on, room_id: str = RoomId, number: int = GameNumber, line_id: int = LineId
    ) -> Response:
        """Your line `line_id`, from the current position of the game in progress and
        starting with your opponent's move, is added to your conditional moves (their move,
        your reply, in turn; a last move of theirs without a reply is left out). 409
        `line_not_plannable` for a line from another position, `conditional_not_now` when
        it is your move. Answers the room view, with your conditional moves."""
        return act.answer(
            analysis.plan_from_line(
                act.session,
                room_id=room_id,
                token=act.token,
                number=number,
                line_id=line_id,
                ctx=act.ctx,
            )
        )

    @router.get(
        f"{room_path}/games/{{number}}/own.pdn",
        response_class=PdnResponse,
        responses={**own["responses"], 200: PDN_ANSWER},
        summary="Your own copy of a finished game as PDN, with your notes and lines",
        dependencies=list(dependencies),
        include_in_schema=include_in_schema,
    )
    def own_pdn(act: Acting = act_on, room_id: str = RoomId, number: int = GameNumber) -> Response:
        """Game `number` as PDN 3.0 with your notes as comments (on the game before the first
        move, on a move after it) and your analysis lines as variations (a line from the last
        position is told in the comment before the result). Only once the game is over (409
        `game_not_over`); only for your seat. The public PDN never carries them."""
        text = exports.own_pdn(
            act.session,
            room_id=room_id,
            token=act.token,
            number=number,
            site=share_url(act.base_url, room_id),
        )
        return no_store(pdn_answer(text, room_id, number))
