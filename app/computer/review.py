"""Computer review of a finished game: the Executive's evaluation of every position and
the move it would have played, with each move of the game classified by how much it gave
away.

A review is data: its positions are stored when it is asked for, each evaluation as it
comes, so a restart resumes where it stopped. Its searches go through the computer's
fair queue like any reply (one position at a time, the asker as the client), so neither
games nor reviews can starve the other. One review per game: asking again returns it.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Integer, String, UniqueConstraint, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from app.ai import Level
from app.core.context import Context
from app.core.db import Base, EnumValue, UTCDateTime
from app.core.errors import Conflict, NotFound
from app.engine import Board, Side
from app.imports.models import ImportedGame
from app.rooms import service as rooms
from app.rooms.models import GameStatus

from .worker import Task, TaskKind

# What a move gave away, in hundredths of a man, by the Executive's scores before and
# after it (clamped to ten men: a won position counts as ten men up).
INACCURACY, MISTAKE, BLUNDER = 35, 75, 150
CLAMP = 1000


class Judgement(enum.StrEnum):
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


class ReviewStatus(enum.StrEnum):
    QUEUED = "queued"  # positions still to evaluate
    DONE = "done"


class GameNotFinished(Conflict):
    """Only a finished game is reviewed."""

    code = "game_not_finished"


class ReviewNotFound(NotFound):
    """This game has no review; request one first."""

    code = "review_not_found"


class Review(Base):
    __tablename__ = "reviews"
    __table_args__ = (UniqueConstraint("room_id", "game_number"), UniqueConstraint("imported_id"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[str | None] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    game_number: Mapped[int | None] = mapped_column(Integer)
    imported_id: Mapped[str | None] = mapped_column(
        ForeignKey("imported_games.id", ondelete="CASCADE")
    )
    rule_set: Mapped[str] = mapped_column(String(16))
    # The positions of the game, first to last (engine FEN), and the moves between them.
    fens: Mapped[list[str]] = mapped_column(JSON)
    moves: Mapped[list[str]] = mapped_column(JSON)
    # Per position: the score for the side to move and the move the Executive would play
    # (null until evaluated).
    scores: Mapped[list[int | None]] = mapped_column(JSON)
    bests: Mapped[list[str | None]] = mapped_column(JSON)
    done: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[ReviewStatus] = mapped_column(EnumValue(ReviewStatus, 8))
    seconds_per_position: Mapped[float] = mapped_column(Float)
    requested_by: Mapped[str] = mapped_column(String(64))
    requested_at: Mapped[datetime] = mapped_column(UTCDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())

    @property
    def key(self) -> str:
        """Its key in the computer's queue."""
        return f"review:{self.id}"


def _positions(rule_set: str, start_fen: str | None, moves: list[str]) -> list[str]:
    board = Board(rule_set, fen=start_fen)
    fens = [board.fen()]
    for text in moves:
        board.push_text(text)
        fens.append(board.fen())
    return fens


def _new(
    session: Session,
    *,
    rule_set: str,
    start_fen: str | None,
    moves: list[str],
    ctx: Context,
    client: str,
    **where: Any,
) -> Review:
    fens = _positions(rule_set, start_fen, moves)
    review = Review(
        rule_set=rule_set,
        fens=fens,
        moves=moves,
        scores=[None] * len(fens),
        bests=[None] * len(fens),
        done=0,
        status=ReviewStatus.QUEUED,
        seconds_per_position=ctx.settings.review_seconds_per_position,
        requested_by=client[:64],
        requested_at=ctx.now,
        **where,
    )
    session.add(review)
    return review


def request_for_room(
    session: Session,
    *,
    room_id: str,
    number: int,
    ctx: Context,
    client: str,
    admit: Callable[[], None],
) -> tuple[Review, bool]:
    """The review of a finished game of a room, made if it is new (`admit` may refuse
    a new one); whether it is."""
    existing = _find(session, Review.room_id == room_id, Review.game_number == number)
    if existing is not None:
        return existing, False
    room, game, moves = rooms.read_game(session, room_id=room_id, number=number)
    if game.status != GameStatus.FINISHED:
        raise GameNotFinished("a game is reviewed once it is over")
    admit()

    def make() -> Review:
        rooms.mark_reviewed(session, room_id=room.id, number=game.number)
        return _new(
            session,
            rule_set=room.rule_set,
            start_fen=game.start_fen,
            moves=[m.notation for m in moves],
            ctx=ctx,
            client=client,
            room_id=room.id,
            game_number=game.number,
        )

    return _create(session, make, Review.room_id == room_id, Review.game_number == number)


def request_for_import(
    session: Session,
    *,
    imported_id: str,
    ctx: Context,
    client: str,
    admit: Callable[[], None],
) -> tuple[Review, bool]:
    """The review of an imported game, made if it is new (`admit` may refuse a new one);
    whether it is."""
    existing = _find(session, Review.imported_id == imported_id)
    if existing is not None:
        return existing, False
    with session.begin():
        game = session.get(ImportedGame, imported_id)
        if game is None:
            raise ReviewNotFound("no imported game with this id")
        rule_set, start, moves = game.rule_set, game.start_fen, list(game.moves)
    admit()
    return _create(
        session,
        lambda: _new(
            session,
            rule_set=rule_set,
            start_fen=start,
            moves=moves,
            ctx=ctx,
            client=client,
            imported_id=imported_id,
        ),
        Review.imported_id == imported_id,
    )


def _find(session: Session, *where: Any) -> Review | None:
    with session.begin():
        return session.scalar(select(Review).where(*where))


def _create(session: Session, make: Any, *where: Any) -> tuple[Review, bool]:
    """Store a new review; when another request stored one first, that one is it."""
    try:
        with session.begin():
            review: Review = make()
        return review, True
    except IntegrityError:
        found = _find(session, *where)
        assert found is not None
        return found, False


def read_for_room(session: Session, *, room_id: str, number: int) -> Review:
    found = _find(session, Review.room_id == room_id, Review.game_number == number)
    if found is None:
        raise ReviewNotFound("this game has not been reviewed: ask for a review")
    return found


def read_for_import(session: Session, *, imported_id: str) -> Review:
    found = _find(session, Review.imported_id == imported_id)
    if found is None:
        raise ReviewNotFound("this game has not been reviewed: ask for a review")
    return found


def pending(session: Session) -> list[tuple[str, str]]:
    """Reviews still to finish (after a restart): their queue keys and askers."""
    with session.begin():
        rows = session.scalars(select(Review).where(Review.status == ReviewStatus.QUEUED))
        return [(r.key, r.requested_by) for r in rows]


def review_id(key: str) -> int | None:
    """The review of a queue key, if it is one."""
    return int(key.split(":", 1)[1]) if key.startswith("review:") else None


def next_task(session: Session, *, key: str) -> Task | None:
    """The next position of the review to evaluate, if any is left."""
    number = review_id(key)
    with session.begin():
        review = session.get(Review, number) if number is not None else None
        if review is None or review.status == ReviewStatus.DONE:
            return None
        index = review.done
        fen = review.fens[index]
        side = Board(review.rule_set, fen=fen).turn
        return Task(
            room_id=key,
            game_number=0,
            ply=index,
            kind=TaskKind.REVIEW,
            rule_set=review.rule_set,
            level=Level.EXECUTIVE,
            side=side.value,
            base_fen=fen,
            tail=(),
            time_limit=review.seconds_per_position,
        )


def record(session: Session, task: Task, answer: dict[str, Any], *, ctx: Context) -> bool:
    """Store one position's evaluation; False if the review has moved on (dropped)."""
    number = review_id(task.room_id)
    with session.begin():
        review = session.get(Review, number, with_for_update=True) if number else None
        if review is None or review.done != task.ply:
            return False
        scores, bests = list(review.scores), list(review.bests)
        scores[task.ply] = int(answer["score"])
        bests[task.ply] = answer["best"]
        review.scores, review.bests = scores, bests
        review.done = task.ply + 1
        if review.done >= len(review.fens):
            review.status = ReviewStatus.DONE
            review.finished_at = ctx.now
        return True


# --- what a review says ------------------------------------------------------------------


@dataclass(frozen=True)
class Judged:
    """One move of the game as the review sees it."""

    ply: int
    move: str
    side: Side
    loss: int | None  # what it gave away, hundredths of a man (None: not yet known)
    judgement: Judgement | None
    best: str | None  # the Executive's move in the position before it


def _clamp(score: int) -> int:
    return max(-CLAMP, min(CLAMP, score))


def drums_view(review: Review) -> list[int | None]:
    """Each position's score from the drums' side, clamped (for the graph)."""
    out: list[int | None] = []
    for fen, score in zip(review.fens, review.scores, strict=True):
        if score is None:
            out.append(None)
        else:
            out.append(_clamp(score) if fen.startswith("B") else -_clamp(score))
    return out


def judge(loss: int) -> Judgement | None:
    if loss >= BLUNDER:
        return Judgement.BLUNDER
    if loss >= MISTAKE:
        return Judgement.MISTAKE
    if loss >= INACCURACY:
        return Judgement.INACCURACY
    return None


def judged(review: Review) -> list[Judged]:
    """Every move with what it gave away: the mover's best score before it, less the
    score it left (the opponent's score after it, turned round)."""
    out = []
    for ply, move in enumerate(review.moves, start=1):
        before, after = review.scores[ply - 1], review.scores[ply]
        side = Side.DRUMS if review.fens[ply - 1].startswith("B") else Side.TIRES
        loss = None if before is None or after is None else _clamp(before) + _clamp(after)
        out.append(
            Judged(
                ply=ply,
                move=move,
                side=side,
                loss=loss,
                judgement=judge(loss) if loss is not None else None,
                best=review.bests[ply - 1],
            )
        )
    return out
