"""Computer review of a finished game: the Executive's evaluation of every position and
the move it would have played, with each move of the game classified by how much it gave
away.

A review is data: its positions are stored when it is asked for, a row each, and each
evaluation into its own row as it comes (with the review's count of positions done), so
storing one reads and writes a few small rows whatever the game's length, and a restart
resumes where it stopped. Its searches go through the computer's lane for reviews, one
position at a time with the asker as the client (`runner`), apart from the replies to
moves. One review per game: asking again returns it.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    delete,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column, relationship, selectinload

from app.core.context import Context
from app.core.db import Base, EnumValue, UTCDateTime, read_transaction
from app.core.errors import Conflict, NotFound
from app.imports.models import ImportedGame
from app.rooms import analysis as rooms_analysis
from app.rooms import service as rooms
from app.rooms.models import GameStatus
from checkers_engine import Board, Side
from checkers_engine.ai import Level

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
    __table_args__ = (
        UniqueConstraint("room_id", "game_number"),
        UniqueConstraint("imported_id"),
        Index("ix_reviews_line_id", "line_id", unique=True),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[str | None] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    game_number: Mapped[int | None] = mapped_column(Integer)
    imported_id: Mapped[str | None] = mapped_column(
        ForeignKey("imported_games.id", ondelete="CASCADE")
    )
    # A player's own analysis line of the room's game, reviewed once the game is over
    # (its seat's alone; `game_number` stays null). No reference: the review goes with its
    # room, and one whose line has changed since is made again (`request_for_line`).
    line_id: Mapped[int | None] = mapped_column(Integer)
    rule_set: Mapped[str] = mapped_column(String(16))
    positions: Mapped[int] = mapped_column(Integer)  # of the game: its moves and the start
    done: Mapped[int] = mapped_column(Integer, default=0)  # positions evaluated, in order
    status: Mapped[ReviewStatus] = mapped_column(EnumValue(ReviewStatus, 8))
    seconds_per_position: Mapped[float] = mapped_column(Float)
    requested_by: Mapped[str] = mapped_column(String(64))
    requested_at: Mapped[datetime] = mapped_column(UTCDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # First to last; read only with the whole review (`read_for_room`, `read_for_import`),
    # never position by position as the review goes.
    steps: Mapped[list[ReviewPosition]] = relationship(
        order_by="ReviewPosition.ply", lazy="raise", cascade="all", passive_deletes=True
    )

    @property
    def key(self) -> str:
        """Its key in the computer's queue."""
        return queue_key(self.id)


class ReviewPosition(Base):
    """One position of a game under review, and the Executive's evaluation of it (null
    until it is made): the score for the side to move, in hundredths of a man, and the
    move it would play."""

    __tablename__ = "review_positions"

    review_id: Mapped[int] = mapped_column(
        ForeignKey("reviews.id", ondelete="CASCADE"), primary_key=True
    )
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)  # 0: the start
    fen: Mapped[str] = mapped_column(String(200))  # engine FEN
    move: Mapped[str | None] = mapped_column(String(200))  # played from it (null: the last)
    score: Mapped[int | None] = mapped_column(Integer)
    best: Mapped[str | None] = mapped_column(String(200))


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
    played: list[str | None] = [*moves, None]
    review = Review(
        rule_set=rule_set,
        positions=len(fens),
        steps=[
            ReviewPosition(ply=ply, fen=fen, move=move)
            for ply, (fen, move) in enumerate(zip(fens, played, strict=True))
        ],
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


def request_for_line(
    session: Session,
    *,
    room_id: str,
    number: int,
    line_id: int,
    token: str | None,
    ctx: Context,
    client: str,
    admit: Callable[[], None],
) -> tuple[Review, bool]:
    """The review of a player's own analysis line of a finished game (the seat's token
    only), made if it is new or if the line has changed since; whether it is new."""
    rule_set, fen, moves = rooms_analysis.line_to_review(
        session, room_id=room_id, token=token, number=number, line_id=line_id
    )
    existing = _find(session, Review.line_id == line_id)
    if existing is not None:
        reviewed = [step.move for step in existing.steps[:-1]]
        if existing.steps[0].fen == fen and reviewed == moves:
            return existing, False
        with session.begin():  # the line has changed: its old review goes
            session.execute(delete(Review).where(Review.id == existing.id))
        session.expunge_all()  # its rows are gone: a new review may take their keys
    admit()
    return _create(
        session,
        lambda: _new(
            session,
            rule_set=rule_set,
            start_fen=fen,
            moves=moves,
            ctx=ctx,
            client=client,
            room_id=room_id,
            line_id=line_id,
        ),
        Review.line_id == line_id,
    )


def read_for_line(
    session: Session, *, room_id: str, number: int, line_id: int, token: str | None
) -> Review:
    """The review of the seat's own line (its token only)."""
    rooms_analysis.line_to_review(
        session, room_id=room_id, token=token, number=number, line_id=line_id
    )
    found = _find(session, Review.line_id == line_id)
    if found is None:
        raise ReviewNotFound("this line has not been reviewed: ask for a review")
    return found


def _find(session: Session, *where: Any) -> Review | None:
    """The review, with its positions."""
    with read_transaction(session):
        return session.scalar(select(Review).where(*where).options(selectinload(Review.steps)))


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
    with read_transaction(session):
        rows = session.execute(
            select(Review.id, Review.requested_by).where(Review.status == ReviewStatus.QUEUED)
        )
        return [(queue_key(number), asker) for number, asker in rows]


def queue_key(number: int) -> str:
    """The computer's queue key of a review."""
    return f"review:{number}"


def review_id(key: str) -> int | None:
    """The review of a queue key, if it is one."""
    return int(key.split(":", 1)[1]) if key.startswith("review:") else None


def next_task(session: Session, *, key: str) -> Task | None:
    """The next position of the review to evaluate, if any is left."""
    number = review_id(key)
    if number is None:
        return None
    with read_transaction(session):
        found = session.execute(
            select(
                Review.rule_set, Review.seconds_per_position, ReviewPosition.ply, ReviewPosition.fen
            )
            .join(ReviewPosition, ReviewPosition.review_id == Review.id)
            .where(
                Review.id == number,
                Review.status == ReviewStatus.QUEUED,
                ReviewPosition.ply == Review.done,
            )
        ).one_or_none()
    if found is None:
        return None
    rule_set, seconds, index, fen = found
    return Task(
        room_id=key,
        game_number=0,
        ply=index,
        kind=TaskKind.REVIEW,
        rule_set=rule_set,
        level=Level.EXECUTIVE,
        side=Board(rule_set, fen=fen).turn.value,
        base_fen=fen,
        tail=(),
        time_limit=seconds,
    )


def record(session: Session, task: Task, answer: dict[str, Any], *, ctx: Context) -> bool:
    """Store one position's evaluation in its row, and count it done; False if the review
    has moved on (dropped)."""
    number = review_id(task.room_id)
    if number is None:
        return False
    with session.begin():
        review = session.get(Review, number, with_for_update=True)
        if review is None or review.done != task.ply:
            return False
        session.execute(
            update(ReviewPosition)
            .where(ReviewPosition.review_id == number, ReviewPosition.ply == task.ply)
            .values(score=int(answer["score"]), best=answer["best"])
        )
        review.done = task.ply + 1
        if review.done >= review.positions:
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
    for step in review.steps:
        if step.score is None:
            out.append(None)
        else:
            out.append(_clamp(step.score) if step.fen.startswith("B") else -_clamp(step.score))
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
    steps = review.steps
    for ply in range(1, len(steps)):
        before, after = steps[ply - 1], steps[ply]
        assert before.move is not None
        side = Side.DRUMS if before.fen.startswith("B") else Side.TIRES
        loss = (
            None
            if before.score is None or after.score is None
            else _clamp(before.score) + _clamp(after.score)
        )
        out.append(
            Judged(
                ply=ply,
                move=before.move,
                side=side,
                loss=loss,
                judgement=judge(loss) if loss is not None else None,
                best=before.best,
            )
        )
    return out
