"""What a viewer of a room sees: a pure function of the loaded state."""

from __future__ import annotations

from collections.abc import Sequence

from app.core.settings import Settings
from app.engine import RULE_SETS, RuleSet, Side, square_name

from . import policy
from .models import Ending, Game, GameStatus, Move, OfferStatus, Room, SeatRole
from .schemas import (
    DrawOffersLeft,
    GameOut,
    GameSummaryOut,
    LegalMoveOut,
    OfferOut,
    PastGameOut,
    PlayedMoveOut,
    ResultOut,
    RoomView,
    RuleSetOut,
    ScoreOut,
    SeatGrant,
    SeatOut,
    YouOut,
)
from .service import Granted
from .state import GameState, MoveRecord


def rule_set_out(rule_set: RuleSet) -> RuleSetOut:
    return RuleSetOut.model_validate(rule_set, from_attributes=True)


def result_out(game: Game) -> ResultOut | None:
    text = policy.result_text(game)
    if text is None or game.termination is None or game.reason is None:
        return None
    return ResultOut(
        winner=game.winner,
        winner_seat=game.seat_of(game.winner) if game.winner else None,
        termination=game.termination,
        reason=game.reason,
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


def game_url(room_id: str, number: int) -> str:
    return f"/api/rooms/{room_id}/games/{number}"


def played_move_out(m: MoveRecord | Move) -> PlayedMoveOut:
    return PlayedMoveOut(
        ply=m.ply,
        side=m.side,
        notation=m.notation,
        algebraic=(":" if m.captured else "-").join(square_name(s) for s in m.path),
        path=m.path,
        captured=m.captured,
        crowned=m.crowned,
        fen_after=m.fen_after,
        played_at=m.created_at,
    )


def past_game_out(room: Room, game: Game, moves: Sequence[Move]) -> PastGameOut:
    """One game of the room in full."""
    return PastGameOut(
        room_id=room.id,
        number=game.number,
        status=game.status.label,
        drums_seat=game.drums_seat,
        tires_seat=game.seat_of(Side.TIRES),
        start_fen=game.start_fen,
        fen=game.fen,
        ply=game.ply,
        moves=[played_move_out(m) for m in moves],
        result=result_out(game),
        started_at=game.started_at,
        ended_at=game.ended_at,
        pdn_url=f"{game_url(room.id, game.number)}.pdn",
    )


def build_view(state: GameState, *, settings: Settings, base_url: str) -> RoomView:
    """The whole room as the state's seat (or a spectator, without one) sees it."""
    room, game, moves, games = state.room, state.game, state.moves, state.room.games
    you = state.seat.role if state.seat else None
    offers = [o for o in state.offers if o.status == OfferStatus.PENDING]
    draws_left = {
        side: policy.MAX_DRAW_OFFERS - policy.draw_offers_made(state.offers, game.seat_of(side))
        for side in Side
    }
    legal = []
    if game.status == GameStatus.PLAYING:
        legal = [
            LegalMoveOut(
                notation=m.notation(),
                algebraic=m.algebraic(),
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
        rule_set=rule_set_out(RULE_SETS[room.rule_set]),
        status=room.status.label,
        version=room.version,
        created_at=room.created_at,
        seats=[
            SeatOut(
                seat=role,
                side=game.side_of(role),
                taken=role in taken,
                computer_level=taken[role].computer_level if role in taken else None,
            )
            for role in SeatRole
        ],
        you=(
            YouOut(
                seat=you,
                side=game.side_of(you),
                to_move=game.status == GameStatus.PLAYING and game.side_of(you) == game.turn,
            )
            if you
            else None
        ),
        game=GameOut(
            number=game.number,
            status=game.status.label,
            drums_seat=game.drums_seat,
            tires_seat=game.seat_of(Side.TIRES),
            fen=game.fen,
            turn=game.turn,
            ply=game.ply,
            moves=[played_move_out(m) for m in moves],
            legal_moves=legal,
            result=result_out(game),
            draw_offers_left=DrawOffersLeft(
                drums=draws_left[Side.DRUMS], tires=draws_left[Side.TIRES]
            ),
            started_at=game.started_at,
            turn_started_at=game.turn_started_at,
            ended_at=game.ended_at,
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
        games=[
            GameSummaryOut(
                number=g.number,
                drums_seat=g.drums_seat,
                status=g.status.label,
                plies=g.ply,
                result=result_out(g),
                url=game_url(room.id, g.number),
                pdn_url=f"{game_url(room.id, g.number)}.pdn",
            )
            for g in games
        ],
        score=score(games),
        claim_opens_at=policy.claim_opens_at(room, game, settings),
        expires_at=policy.expires_at(room, settings),
    )


def grant_view(granted: Granted, *, settings: Settings, base_url: str) -> SeatGrant:
    """The answer to whoever just took a seat: the room, the seat and its token (once)."""
    view = build_view(granted.state, settings=settings, base_url=base_url)
    assert view.you is not None
    return SeatGrant(
        room_id=view.id,
        share_url=view.share_url,
        seat=view.you.seat,
        side=view.you.side,
        token=granted.token,
        room=view,
    )
