"""The deadline sweep: opens forfeit claims, expires rooms, (with `RETAIN_DAYS`) deletes
the finished and expired rooms whose last activity is older than that.

Deadlines are data (each room's indexed `next_check_at`), so the sweep only reads rooms
that are due, and a restart loses nothing: the next sweep catches up. Batches are claimed
with `FOR UPDATE SKIP LOCKED`, so several sweepers (instances) never act on one room twice,
and every action re-checks the room's state under its lock (idempotent).

Retention deletes a batch of rooms per transaction, found by the index on (status,
last activity); the database cascades the delete to their seats, games, moves, offers,
events and device links.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime

from apscheduler.schedulers.base import BaseScheduler
from sqlalchemy import Select, delete, select, tuple_
from sqlalchemy.orm import Session

from app.core.clock import Clock
from app.core.context import Context
from app.core.db import Database
from app.core.jobs import add_periodic, purge_in_batches
from app.core.logging import log_fields
from app.core.settings import Settings

from .deadlines import apply_due_deadlines
from .locking import leave
from .models import Game, Offer, OfferStatus, Room, RoomStatus
from .state import GameState

log = logging.getLogger("checkers.jobs")

SWEEP_JOB_ID = "rooms-sweep"


def due_query(now: datetime, limit: int) -> Select[Room]:
    """Up to `limit` rooms whose next check has come, oldest first, locked; rows another
    transaction holds are skipped (PostgreSQL `FOR UPDATE SKIP LOCKED`). Served by the
    index on `next_check_at`, so its cost follows the due rooms, not all rooms."""
    return (
        select(Room)
        .where(Room.next_check_at <= now)
        .order_by(Room.next_check_at)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )


def sweep_batch(session: Session, *, limit: int, ctx: Context) -> int:
    """Apply the deadlines of one batch of due rooms in one transaction; returns the count."""
    with session.begin():
        rooms = list(session.scalars(due_query(ctx.now, limit)))
        if not rooms:
            return 0
        games = {
            game.room_id: game
            for game in session.scalars(
                select(Game).where(
                    tuple_(Game.room_id, Game.number).in_(
                        [(room.id, room.current_game_number) for room in rooms]
                    )
                )
            )
        }
        pending: dict[int, list[Offer]] = {game.id: [] for game in games.values()}
        for offer in session.scalars(
            select(Offer).where(
                Offer.game_id.in_(list(pending)), Offer.status == OfferStatus.PENDING
            )
        ):
            pending[offer.game_id].append(offer)
        # One flush at commit instead of one per room: the sweep adds no row that a query
        # below would need to see.
        with session.no_autoflush:
            for room in rooms:
                game = games[room.id]
                # The deadlines need no moves: only the game, its offers and the seats.
                state = GameState(room, game, [], pending[game.id])
                apply_due_deadlines(session, state, ctx=ctx)
                leave(session, state, ctx=ctx)
        return len(rooms)


def sweep(database: Database, clock: Clock, settings: Settings) -> int:
    """Apply every deadline due now, then the retention; returns how many rooms had a
    deadline applied."""
    started = time.perf_counter()
    ctx = Context(clock.now(), settings)
    total = 0
    while True:
        with database.session() as session:
            count = sweep_batch(session, limit=settings.sweep_batch_size, ctx=ctx)
        total += count
        if count < settings.sweep_batch_size:
            break
    if total:
        log_fields(log, "sweep", rooms=total, ms=round((time.perf_counter() - started) * 1000, 1))
    purge(database, ctx)
    return total


DONE = (RoomStatus.FINISHED, RoomStatus.EXPIRED)


def purge_batch(session: Session, *, limit: int, ctx: Context) -> int:
    """Delete up to `limit` finished or expired rooms idle for longer than the retention
    (with everything they hold); returns how many."""
    retain = ctx.settings.retain
    assert retain is not None
    with session.begin():
        ids = list(
            session.scalars(
                select(Room.id)
                .where(Room.status.in_(DONE), Room.last_active_at < ctx.now - retain)
                .order_by(Room.last_active_at)
                .limit(limit)
                .with_for_update(skip_locked=True)
            )
        )
        if ids:
            # Re-checked in the statement: a room locked above cannot have changed since.
            session.execute(delete(Room).where(Room.id.in_(ids), Room.status.in_(DONE)))
        return len(ids)


def purge(database: Database, ctx: Context) -> int:
    """Apply the retention (`RETAIN_DAYS`; nothing without it); returns rooms deleted."""
    if ctx.settings.retain is None:
        return 0
    return purge_in_batches(database, purge_batch, ctx=ctx, counted="rooms")


def add_sweep_job(
    scheduler: BaseScheduler, database: Database, clock: Clock, settings: Settings
) -> None:
    """Run the sweep now and then every `sweep_interval_seconds`."""
    add_periodic(
        scheduler,
        SWEEP_JOB_ID,
        settings.sweep_interval_seconds,
        sweep,
        database,
        clock,
        settings,
        first_run=clock.now(),
    )
