"""What a viewer of a room sees: a pure function of the loaded state."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import cache, lru_cache
from typing import Any, Protocol

from app.core.context import Context
from app.core.settings import Settings
from app.i18n import Translator, translator
from checkers_engine import RULE_SETS, Board, RuleSet, Side, Style, notation, tradition

from . import errors, policy, texts
from .locking import Granted
from .models import (
    ConditionalLines,
    Ending,
    Game,
    GameStatus,
    OfferStatus,
    Room,
    RoomStatus,
    SeatRole,
)
from .names import shown_name
from .positions import start_text
from .private_schemas import ChatStateOut, ExtraTimeOut
from .schemas import (
    ColoursOut,
    ConditionalOut,
    DeclinedOut,
    DrawOffersLeft,
    GameOut,
    GameRecordOut,
    GameSummaryOut,
    LegalMoveOut,
    LineOut,
    NextMoveOut,
    NotationOut,
    NotificationsOut,
    OfferOut,
    PlayedMoveOut,
    PositionMovesOut,
    ResultOut,
    RoomView,
    RuleSetOut,
    ScoreOut,
    SeatGrant,
    SeatOut,
    SquareOut,
    TermsOut,
    YouOut,
)
from .state import GameState


def rule_set_out(rule_set: RuleSet, language: str) -> RuleSetOut:
    """The rule set with its tradition's notation, its name and description in the
    request's language (built once per rule set and language)."""
    return _rule_set_out(rule_set.key, language)


@cache
def _rule_set_out(key: str, language: str) -> RuleSetOut:
    rule_set, trad = RULE_SETS[key], tradition(key)
    tr = translator(language)
    notation_out = NotationOut(
        style=trad.style.value,
        colours=ColoursOut(
            drums=trad.colour(Side.DRUMS).value, tires=trad.colour(Side.TIRES).value
        ),
        first_mover=trad.first_mover.value,
        mirrored=trad.mirrored,
        numbering=trad.numbering,
        squares=[
            SquareOut(
                square=square,
                number=notation.square_number(key, square),
                name=notation.square_name(key, square),
            )
            for square in range(1, 33)
        ],
    )
    return RuleSetOut(
        key=rule_set.key,
        name=texts.rule_set_name(tr, key),
        description=texts.rule_set_description(tr, key),
        men_per_side=rule_set.men_per_side,
        men_capture_backward=rule_set.men_capture_backward,
        flying_kings=rule_set.flying_kings,
        majority_capture=rule_set.majority_capture,
        pdn_gametype=rule_set.pdn_gametype,
        notation=notation_out,
        start_fen=Board(key).fen(),
    )


def move_forms(rule_set: str, path: Sequence[int], capture: bool) -> dict[str, str]:
    """A move's engine notation and its tradition's two forms (the customary one as
    `text`), as the fields of `MoveForms`; stored moves stay in the engine's notation,
    so these are derived here (once per move: a view lists every move of the game)."""
    return _forms(rule_set, tuple(path), capture)


@lru_cache(maxsize=16384)
def _forms(rule_set: str, path: tuple[int, ...], capture: bool) -> dict[str, str]:
    numeric = notation.format_path(rule_set, path, capture, Style.NUMERIC)
    algebraic = notation.format_path(rule_set, path, capture, Style.ALGEBRAIC)
    return {
        "engine_notation": ("x" if capture else "-").join(map(str, path)),
        "numeric": numeric,
        "algebraic": algebraic,
        "text": numeric if tradition(rule_set).style is Style.NUMERIC else algebraic,
    }


def move_number(start_number: int | None, first_side: Side, ply: int) -> int:
    """The full-move number printed before ply `ply` of a game whose first move was
    `first_side`'s, numbered from `start_number` (a FEN's `:F`, else 1)."""
    offset = 1 if first_side is Side.TIRES else 0
    return (start_number or 1) + (ply - 1 + offset) // 2


def result_out(game: Game, tr: Translator) -> ResultOut | None:
    text = texts.result_text(tr, game)
    if text is None or game.termination is None or game.reason is None:
        return None
    return ResultOut(
        winner=game.winner,
        winner_seat=game.seat_of(game.winner) if game.winner else None,
        termination=game.termination,
        reason=game.reason.english(),
        text=text,
        pdn=policy.pdn_result(game),
    )


def share_url(base_url: str, room_id: str) -> str:
    return f"{base_url.rstrip('/')}/r/{room_id}"


def score(games: list[Game]) -> ScoreOut:
    """1 for a win, 1/2 each for a draw; expired games count for nobody."""
    points = dict.fromkeys(SeatRole, 0.0)
    for game in games:
        if game.status != GameStatus.FINISHED or game.termination == Ending.EXPIRED:
            continue
        if game.winner is None:
            points[SeatRole.CREATOR] += 0.5
            points[SeatRole.JOINER] += 0.5
        else:
            points[game.seat_of(game.winner)] += 1
    return ScoreOut(creator=points[SeatRole.CREATOR], joiner=points[SeatRole.JOINER])


class Played(Protocol):
    """A stored ply, as a row of `moves` or as the rooms read it."""

    @property
    def ply(self) -> int: ...
    @property
    def side(self) -> Side: ...
    @property
    def notation(self) -> str: ...
    @property
    def path(self) -> list[int]: ...
    @property
    def captured(self) -> list[int]: ...
    @property
    def crowned(self) -> bool: ...
    @property
    def fen_after(self) -> str: ...
    @property
    def created_at(self) -> datetime: ...
    @property
    def conditional(self) -> bool: ...


def played_out(rule_set: str, m: Played, number: int) -> PlayedMoveOut:
    return PlayedMoveOut(
        **move_forms(rule_set, m.path, bool(m.captured)),
        ply=m.ply,
        number=number,
        side=m.side,
        path=m.path,
        captured=m.captured,
        crowned=m.crowned,
        fen_after=m.fen_after,
        played_at=m.created_at,
        conditional=m.conditional,
    )


def plan_out(plan: ConditionalLines | None, tr: Translator) -> ConditionalOut | None:
    if plan is None:
        return None

    def lines(tree: list[dict[str, Any]]) -> list[LineOut]:
        return [LineOut(their_move=b["if"], reply=b["then"], next=lines(b["next"])) for b in tree]

    return ConditionalOut(lines=lines(plan.tree), note=texts.plan_note(tr, plan.dropped))


def moves_out(rule_set: str, game: Game, moves: Sequence[Played]) -> list[PlayedMoveOut]:
    """A game's moves, each with the number its tradition prints before it."""
    if not moves:
        return []
    first = moves[0].side
    return [
        played_out(rule_set, m, move_number(game.start_move_number, first, m.ply)) for m in moves
    ]


def start_position_of(rule_set: str, game: Game) -> str | None:
    return start_text(rule_set, game.start_fen, game.start_half_move_clock, game.start_move_number)


def position_moves_out(rule_set: str, board: Board) -> PositionMovesOut:
    """The position's legal moves with the position after each (for a scratch board)."""
    moves = []
    for m in board.legal_moves:
        board.push(m)
        after = board.fen()
        board.pop()
        moves.append(
            NextMoveOut(
                **move_forms(rule_set, m.path, m.is_capture),
                path=list(m.path),
                captured=list(m.captured),
                crowns=m.crowns,
                fen_after=after,
            )
        )
    return PositionMovesOut(fen=board.fen(), turn=board.turn, moves=moves)


def game_url(room_id: str, number: int) -> str:
    return f"/api/rooms/{room_id}/games/{number}"


def review_url(room_id: str, number: int) -> str:
    return f"{game_url(room_id, number)}/review"


def pdn_url(room_id: str, number: int) -> str:
    return f"{game_url(room_id, number)}.pdn"


def game_record_out(
    room: Room, game: Game, moves: Sequence[Played], tr: Translator
) -> GameRecordOut:
    return GameRecordOut(
        room_id=room.id,
        number=game.number,
        drums_seat=game.drums_seat,
        tires_seat=game.seat_of(Side.TIRES),
        status=game.status.label,
        start_fen=game.start_fen or Board(room.rule_set).fen(),
        start_position=start_position_of(room.rule_set, game),
        fen=game.fen,
        ply=game.ply,
        moves=moves_out(room.rule_set, game, moves),
        result=result_out(game, tr),
        started_at=game.started_at,
        ended_at=game.ended_at,
        pdn_url=pdn_url(room.id, game.number),
    )


def terms_out(settings: Settings) -> TermsOut:
    return TermsOut(
        claim_after_seconds=settings.claim_after_seconds,
        expire_after_seconds=settings.expire_after_seconds,
        rematch_window_seconds=settings.rematch_window_seconds,
        remind_before_seconds=settings.remind_before_seconds,
        email=settings.email_enabled,
    )


def declined_out(state: GameState) -> DeclinedOut | None:
    offer = policy.declined_offer(state.room, state.game, state.offers, state.moves)
    if offer is None or offer.resolved_at is None:
        return None
    return DeclinedOut(
        kind=offer.kind,
        by_seat=offer.by_seat,
        by_side=state.game.side_of(offer.by_seat),
        declined_at=offer.resolved_at,
        reason=offer.reason,
    )


def build_view(state: GameState, *, ctx: Context, base_url: str) -> RoomView:
    """The whole room as the state's seat (or a spectator, without one) sees it."""
    room, game, moves, games = state.room, state.game, state.moves, state.room.games
    seat, settings = state.seat, ctx.settings
    tr = translator(ctx.language)  # the reader's language, from the request
    offers = [o for o in state.offers if o.status == OfferStatus.PENDING]
    draws_left = {
        side: policy.MAX_DRAW_OFFERS - policy.draw_offers_made(state.offers, game.seat_of(side))
        for side in Side
    }
    legal = []
    if game.status == GameStatus.PLAYING:
        legal = [
            LegalMoveOut(
                **move_forms(room.rule_set, m.path, m.is_capture),
                path=list(m.path),
                captured=list(m.captured),
                crowns=m.crowns,
            )
            for m in state.board().legal_moves
        ]
    taken = {seat.role: seat for seat in room.seats}
    return RoomView(
        id=room.id,
        share_url=share_url(base_url, room.id),
        now=ctx.now,
        terms=terms_out(settings),
        rule_set=rule_set_out(RULE_SETS[room.rule_set], ctx.language),
        status=room.status.label,
        version=room.version,
        created_at=room.created_at,
        seats=[
            SeatOut(
                seat=role,
                side=game.side_of(role),
                taken=role in taken,
                name=shown_name(
                    taken[role].name if role in taken else None,
                    taken[role].computer_level if role in taken else None,
                    game.side_of(role),
                    texts.default_name(
                        tr, game.side_of(role), role in taken and taken[role].former
                    ),
                ),
                computer_level=taken[role].computer_level if role in taken else None,
            )
            for role in SeatRole
        ],
        you=(
            YouOut(
                seat=seat.role,
                side=game.side_of(seat.role),
                to_move=game.status == GameStatus.PLAYING and game.side_of(seat.role) == game.turn,
                name=seat.name,
                notifications=NotificationsOut(push=seat.push_on, email=seat.email_on),
                conditional=plan_out(state.plan, tr),
                chat=_chat_state(room, seat.role),
                can_give_time=_can_give_time(room, game, seat.role),
            )
            if seat
            else None
        ),
        game=GameOut(
            number=game.number,
            status=game.status.label,
            drums_seat=game.drums_seat,
            tires_seat=game.seat_of(Side.TIRES),
            start_fen=game.start_fen,
            start_position=start_position_of(room.rule_set, game),
            fen=game.fen,
            turn=game.turn,
            ply=game.ply,
            moves=moves_out(room.rule_set, game, moves),
            legal_moves=legal,
            result=result_out(game, tr),
            draw_offers_left=DrawOffersLeft(
                drums=draws_left[Side.DRUMS], tires=draws_left[Side.TIRES]
            ),
            started_at=game.started_at,
            turn_started_at=game.turn_started_at,
            ended_at=game.ended_at,
            extra_time=ExtraTimeOut(
                turn_days=game.turn_extra_days or 0,
                given_days=game.extra_days or 0,
                max_days=policy.MAX_EXTRA_DAYS,
            ),
        ),
        offers=[
            OfferOut(
                kind=o.kind,
                by_seat=o.by_seat,
                by_side=game.side_of(o.by_seat),
                created_at=o.created_at,
            )
            for o in offers
        ],
        declined=declined_out(state),
        games=[
            GameSummaryOut(
                number=g.number,
                drums_seat=g.drums_seat,
                status=g.status.label,
                plies=g.ply,
                result=result_out(g, tr),
                url=game_url(room.id, g.number),
                pdn_url=pdn_url(room.id, g.number),
                review_url=review_url(room.id, g.number) if g.reviewed else None,
            )
            for g in games
        ],
        score=score(games),
        claim_opens_at=policy.claim_opens_at(room, game, settings),
        expires_at=policy.expires_at(room, settings, game),
    )


def _chat_state(room: Room, role: SeatRole) -> ChatStateOut | None:
    """The chat as a player has it; None against the computer (no chat)."""
    if policy.vs_computer(room):
        return None
    off = {seat.role: seat.chat_off for seat in room.seats}
    return ChatStateOut(off=off.get(role, False), opponent_off=off.get(role.other, False))


def _can_give_time(room: Room, game: Game, role: SeatRole) -> bool:
    """Whether the seat may give more time now (the rule is `policy.check_give_time`)."""
    if room.status != RoomStatus.PLAYING or game.status != GameStatus.PLAYING:
        return False
    try:
        policy.check_give_time(room, game, role)
    except errors.RoomError:
        return False
    return True


def grant_view(granted: Granted, *, ctx: Context, base_url: str) -> SeatGrant:
    """The answer to whoever just took a seat: the room, the seat and its token (once)."""
    view = build_view(granted.state, ctx=ctx, base_url=base_url)
    assert view.you is not None
    return SeatGrant(
        room_id=view.id,
        share_url=view.share_url,
        seat=view.you.seat,
        side=view.you.side,
        token=granted.token,
        room=view,
    )
