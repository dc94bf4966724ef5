"""The read side: what a viewer of a room sees, and the room's event record."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.settings import Settings
from app.engine import RULE_SETS, RuleSet, square_name

from . import errors
from .models import (
    Event,
    Game,
    GameStatus,
    Move,
    OfferKind,
    OfferStatus,
    Room,
    RoomStatus,
    Seat,
)
from .play import result_text
from .schemas import (
    DrawOffersLeft,
    EventOut,
    EventsOut,
    GameOut,
    GameSummaryOut,
    LegalMoveOut,
    OfferOut,
    PlayedMoveOut,
    ResultOut,
    RoomView,
    RuleSetOut,
    ScoreOut,
    SeatGrant,
    SeatOut,
    YouOut,
)
from .service import (
    MAX_DRAW_OFFERS,
    Granted,
    apply_deadlines,
    claim_opens_at,
    expires_at,
    identify,
    lock_room,
    seat_of,
    side_of,
)
from .state import GameState, load_state

PDN_RESULTS = {"tires": "1-0", "drums": "0-1"}  # PDN: White (tires) first, Black (drums)


def rule_set_out(rule_set: RuleSet) -> RuleSetOut:
    return RuleSetOut(
        key=rule_set.key,
        name=rule_set.name,
        description=rule_set.description,
        men_per_side=rule_set.men_per_side,
        men_capture_backward=rule_set.men_capture_backward,
        flying_kings=rule_set.flying_kings,
        majority_capture=rule_set.majority_capture,
        pdn_gametype=rule_set.pdn_gametype,
    )


def pdn_result(game: Game) -> str:
    if game.status != GameStatus.FINISHED:
        return "*"
    if game.winner is not None:
        return PDN_RESULTS[game.winner]
    return "*" if game.termination == "expired" else "1/2-1/2"


def result_out(game: Game) -> ResultOut | None:
    if game.status != GameStatus.FINISHED or game.termination is None or game.reason is None:
        return None
    return ResultOut(
        winner=game.winner,  # type: ignore[arg-type]
        winner_seat=seat_of(game, game.winner) if game.winner else None,  # type: ignore[arg-type]
        termination=game.termination,
        reason=game.reason,
        text=result_text(game.winner, game.reason, draw=game.termination != "expired"),
        pdn=pdn_result(game),  # type: ignore[arg-type]
    )


def share_url(base_url: str, room_id: str) -> str:
    return f"{base_url.rstrip('/')}/r/{room_id}"


def score(games: list[Game]) -> ScoreOut:
    """1 for a win, 1/2 each for a draw; expired games count for nobody."""
    points = {"creator": 0.0, "joiner": 0.0}
    for game in games:
        if game.status != GameStatus.FINISHED or game.termination == "expired":
            continue
        if game.winner is None:
            points["creator"] += 0.5
            points["joiner"] += 0.5
        else:
            points[seat_of(game, game.winner)] += 1
    return ScoreOut(**points)


def build_view(state: GameState, *, you: str | None, settings: Settings, base_url: str) -> RoomView:
    """The whole room as one viewer sees it (`you`: the viewer's seat role, if any)."""
    room, game, moves, games = state.room, state.game, state.moves, state.room.games
    offers = [o for o in state.offers if o.status == OfferStatus.PENDING]
    draw_counts = {"creator": 0, "joiner": 0}
    for offer in state.offers:
        if offer.kind == OfferKind.DRAW:
            draw_counts[offer.by_seat] += 1
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
    status = RoomStatus(room.status).label
    return RoomView(
        id=room.id,
        share_url=share_url(base_url, room.id),
        rule_set=rule_set_out(RULE_SETS[room.rule_set]),
        status=status,  # type: ignore[arg-type]
        version=room.version,
        created_at=room.created_at,
        seats=[
            SeatOut(
                seat=role,
                side=side_of(game, role),  # type: ignore[arg-type]
                taken=role in taken,
                computer_level=taken[role].computer_level if role in taken else None,
            )
            for role in ("creator", "joiner")
        ],
        you=(
            YouOut(
                seat=you,  # type: ignore[arg-type]
                side=side_of(game, you),  # type: ignore[arg-type]
                to_move=game.status == GameStatus.PLAYING and side_of(game, you) == game.turn,
            )
            if you
            else None
        ),
        game=GameOut(
            number=game.number,
            status=GameStatus(game.status).label,  # type: ignore[arg-type]
            drums_seat=game.drums_seat,  # type: ignore[arg-type]
            tires_seat=seat_of(game, "tires"),  # type: ignore[arg-type]
            fen=game.fen,
            turn=game.turn,  # type: ignore[arg-type]
            ply=game.ply,
            moves=[
                PlayedMoveOut(
                    ply=m.ply,
                    side=m.side,  # type: ignore[arg-type]
                    notation=m.notation,
                    algebraic=(":" if m.captured else "-").join(square_name(s) for s in m.path),
                    path=m.path,
                    captured=m.captured,
                    crowned=m.crowned,
                    fen_after=m.fen_after,
                    played_at=m.created_at,
                )
                for m in moves
            ],
            legal_moves=legal,
            result=result_out(game),
            draw_offers_left=DrawOffersLeft(
                drums=MAX_DRAW_OFFERS - draw_counts[seat_of(game, "drums")],
                tires=MAX_DRAW_OFFERS - draw_counts[seat_of(game, "tires")],
            ),
            started_at=game.started_at,
            turn_started_at=game.turn_started_at,
            ended_at=game.ended_at,
        ),
        offers=[
            OfferOut(
                kind=o.kind,  # type: ignore[arg-type]
                by_seat=o.by_seat,  # type: ignore[arg-type]
                by_side=side_of(game, o.by_seat),  # type: ignore[arg-type]
                created_at=o.created_at,
            )
            for o in offers
        ],
        games=[
            GameSummaryOut(
                number=g.number,
                drums_seat=g.drums_seat,  # type: ignore[arg-type]
                status=GameStatus(g.status).label,  # type: ignore[arg-type]
                plies=g.ply,
                result=result_out(g),
                pdn_url=f"/api/rooms/{room.id}/games/{g.number}.pdn",
            )
            for g in games
        ],
        score=score(games),
        claim_opens_at=claim_opens_at(room, game, settings),
        expires_at=expires_at(room, settings),
    )


def mover_view(*, settings: Settings, base_url: str) -> Callable[[GameState, Seat], RoomView]:
    """The answer to a move: the room as its mover sees it, built from what the move read."""

    def answer(state: GameState, seat: Seat) -> RoomView:
        return build_view(state, you=seat.role, settings=settings, base_url=base_url)

    return answer


def read_room(
    session: Session,
    *,
    room_id: str,
    token: str | None,
    now: datetime,
    settings: Settings,
    base_url: str,
) -> RoomView:
    """The room as the token's holder (or a spectator) sees it; an overdue deadline is
    applied first, in the transaction that builds the view, even if no sweep has run."""
    with session.begin():
        room = lock_room(session, room_id, read=True)
        if room.next_check_at is None or room.next_check_at > now:
            return _seen_by(session, room, token, settings=settings, base_url=base_url)
    # Overdue: apply the deadline in a writer's transaction (a share lock is not upgraded,
    # so two readers of one overdue room cannot deadlock).
    with session.begin():
        room = lock_room(session, room_id)
        apply_deadlines(session, room, now, settings)
        return _seen_by(session, room, token, settings=settings, base_url=base_url)


def _seen_by(
    session: Session, room: Room, token: str | None, *, settings: Settings, base_url: str
) -> RoomView:
    seat = identify(room, token)
    you = seat.role if seat else None
    return build_view(load_state(session, room), you=you, settings=settings, base_url=base_url)


def read_events(session: Session, *, room_id: str, after: int, limit: int) -> EventsOut:
    """Events with a version above `after`, oldest first."""
    with session.begin():
        room = session.get(Room, room_id)
        if room is None:
            raise errors.RoomNotFound("no room with this id")
        events = session.scalars(
            select(Event)
            .where(Event.room_id == room_id, Event.version > after)
            .order_by(Event.version)
            .limit(limit)
        ).all()
        return EventsOut(
            room_id=room_id,
            version=room.version,
            events=[
                EventOut(version=e.version, kind=e.kind, data=e.data, created_at=e.created_at)
                for e in events
            ],
        )


def load_game(session: Session, room_id: str, number: int) -> tuple[Room, Game, list[Move]]:
    with session.begin():
        room = session.get(Room, room_id)
        if room is None:
            raise errors.RoomNotFound("no room with this id")
        game = session.scalars(
            select(Game).where(Game.room_id == room_id, Game.number == number)
        ).one_or_none()
        if game is None:
            raise errors.GameNotFound(f"this room has no game {number}")
        moves = list(
            session.scalars(select(Move).where(Move.game_id == game.id).order_by(Move.ply))
        )
        return room, game, moves


def grant_view(
    session: Session, granted: Granted, *, settings: Settings, base_url: str
) -> SeatGrant:
    """The answer to whoever just took a seat: the room, the seat and its token (once)."""
    with session.begin():
        room = lock_room(session, granted.room_id, read=True)
        state = load_state(session, room)
        view = build_view(state, you=granted.role, settings=settings, base_url=base_url)
    assert view.you is not None
    return SeatGrant(
        room_id=room.id,
        share_url=view.share_url,
        seat=view.you.seat,
        side=view.you.side,
        token=granted.token,
        room=view,
    )
