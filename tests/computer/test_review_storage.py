"""Acceptance (issue 58, point 5): a review stores its progress without rewriting the whole
row for every position. Each evaluation goes into its position's own row, so what the
web process reads and writes for one position does not grow with the game; the reviews
stored before (their positions as lists in the review's row) are moved over by the
migration, and back by its downgrade."""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, event, text

from app.computer import review
from app.core.clock import ManualClock
from app.core.context import Context
from app.core.db import Database
from app.core.migrate import downgrade, upgrade
from app.core.settings import Settings
from app.imports.service import import_pdn
from tests.conftest import PostgresServer

# Two kings walking up and down the board: a game as long as one likes.
SHUFFLE_FEN = "B:WK32:BK1"
SHUFFLE = ["1-6", "32-27", "6-1", "27-32"]


def imported(database: Database, ctx: Context, plies: int) -> str:
    """An imported English game of `plies` king moves; its id."""
    moves = [SHUFFLE[i % 4] for i in range(plies)]
    numbered = " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(moves))
    pdn = f'[GameType "21"]\n[FEN "{SHUFFLE_FEN}"]\n[Result "*"]\n\n{numbered} *\n'
    with database.session() as session:
        (game,) = import_pdn(session, text=pdn, default_rule_set="english", ctx=ctx)
    assert game.id is not None, game
    return game.id


def reviewed(database: Database, ctx: Context, plies: int) -> review.Review:
    """A new review of such a game."""
    game_id = imported(database, ctx, plies)
    with database.session() as session:
        made, new = review.request_for_import(
            session, imported_id=game_id, ctx=ctx, client="10.9.0.1", admit=lambda: None
        )
    assert new and made.positions == plies + 1
    return made


def step(database: Database, key: str, ctx: Context) -> None:
    """What the web process does for one position: read it, then store its evaluation."""
    with database.session() as session:
        task = review.next_task(session, key=key)
        assert task is not None
        assert review.record(session, task, {"score": -12, "best": "1-6"}, ctx=ctx)


@pytest.fixture
def ctx(settings: Settings, clock: ManualClock) -> Context:
    return Context(clock.now(), settings)


@pytest.fixture
def sent(database: Database) -> Iterator[list[Any]]:
    """The parameters of every statement sent to the database while it is on."""
    seen: list[Any] = []

    def record(conn: Any, cursor: Any, statement: str, parameters: Any, *rest: Any) -> None:
        seen.append(parameters)

    event.listen(database.engine, "before_cursor_execute", record)
    yield seen
    event.remove(database.engine, "before_cursor_execute", record)


def test_one_position_reads_and_writes_the_same_whatever_the_game_length(
    database: Database, ctx: Context, sent: list[Any]
) -> None:
    short, long = reviewed(database, ctx, 20).key, reviewed(database, ctx, 800).key
    for key in (short, long):
        step(database, key, ctx)  # statements compiled and cached before measuring
    peaks: dict[str, int] = {}
    sizes: dict[str, int] = {}
    for key in (short, long, short, long):
        sent.clear()
        tracemalloc.start()
        step(database, key, ctx)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        peaks[key] = min(peaks.get(key, peak), peak)
        sizes[key] = max(sizes.get(key, 0), len(repr(sent)))
    # Before, one position rewrote the review's two lists of 801 entries (some 10 KB sent)
    # and read its four (some 100 KB decoded): both grew with the game.
    assert sizes[long] < 1_000, sizes
    assert sizes[long] <= sizes[short] + 20, sizes  # the ids and plies' digits
    assert peaks[long] < peaks[short] + 20_000, peaks


def test_a_finished_review_reads_back_whole(database: Database, ctx: Context) -> None:
    made = reviewed(database, ctx, 3)
    with database.session() as session:
        assert review.pending(session) == [(made.key, "10.9.0.1")]
    for _ in range(4):
        step(database, made.key, ctx)
    assert made.imported_id is not None
    with database.session() as session:
        assert review.next_task(session, key=made.key) is None
        assert review.pending(session) == []
        whole = review.read_for_import(session, imported_id=made.imported_id)
    assert (whole.status, whole.done, whole.positions) == (review.ReviewStatus.DONE, 4, 4)
    assert [s.move for s in whole.steps] == ["1-6", "32-27", "6-1", None]
    assert review.drums_view(whole) == [-12, 12, -12, 12]
    assert [j.loss for j in review.judged(whole)] == [-24, -24, -24]


# --- the migration --------------------------------------------------------------------

OLD = {
    "fens": ["B:WK32:BK1", "W:WK32:BK6", "B:WK27:BK6"],
    "moves": ["1-6", "32-27"],
    "scores": [-5, 7, None],
    "bests": ["1-6", "32-28", None],
}


def _migrated_both_ways(url: str) -> None:
    upgrade(url, "0012")
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO reviews (id, rule_set, fens, moves, scores, bests, done, "
                    "status, seconds_per_position, requested_by, requested_at) VALUES "
                    "(7, 'english', :fens, :moves, :scores, :bests, 2, 'queued', 0.5, "
                    "'10.9.0.2', '2026-12-08 12:00:00+00:00')"
                ),
                {name: json.dumps(value) for name, value in OLD.items()},
            )
        upgrade(url)
        with engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT ply, fen, move, score, best FROM review_positions "
                    "WHERE review_id = 7 ORDER BY ply"
                )
            ).all()
            count = conn.execute(text("SELECT positions FROM reviews WHERE id = 7")).scalar()
        assert [tuple(r) for r in rows] == [
            (0, OLD["fens"][0], "1-6", -5, "1-6"),
            (1, OLD["fens"][1], "32-27", 7, "32-28"),
            (2, OLD["fens"][2], None, None, None),
        ]
        assert count == 3
        downgrade(url, "0012")
        with engine.connect() as conn:
            back = conn.execute(
                text("SELECT fens, moves, scores, bests FROM reviews WHERE id = 7")
            ).one()
        assert [json.loads(v) if isinstance(v, str) else v for v in back] == list(OLD.values())
    finally:
        engine.dispose()


def test_the_migration_moves_stored_reviews_over_and_back_on_sqlite(tmp_path: Any) -> None:
    _migrated_both_ways(f"sqlite:///{tmp_path}/m.sqlite3")


@pytest.mark.postgres
def test_the_migration_moves_stored_reviews_over_and_back_on_postgresql(
    postgres: PostgresServer,
) -> None:
    url = postgres.create("checkers_migr")
    try:
        _migrated_both_ways(url)
    finally:
        postgres.drop(url)
