"""Announce every appended room event to the live-update streams.

On PostgreSQL each event's insert runs `pg_notify` in the inserting transaction, so the
notice is delivered to every listening process only if, and when, that transaction
commits (a refused or rolled-back action announces nothing). SQLite has no such channel:
the inserted versions are remembered on the session and handed to this process's
listeners after the commit.

A notice carries the event itself when it fits in a notification; a listener that misses
one (or gets one without the event) reads the record from the database, which stays the
only source of truth.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, bindparam, event, func, insert
from sqlalchemy.orm import Session

from .models import Event
from .schemas import EventOut

CHANNEL = "room_events"
# PostgreSQL refuses payloads of 8000 bytes or more; bigger events go by version only.
MAX_PAYLOAD = 7900
_PENDING = "checkers_live_pending"


@dataclass(frozen=True)
class Notice:
    """Room `room_id` reached `version`; `event` is that event as the stream sends it."""

    room_id: str
    version: int
    event: dict[str, Any] | None = None


def event_payload(row: Mapping[str, Any]) -> dict[str, Any]:
    """An event row as the streams send it: as the JSON record reads it, to the byte."""
    return EventOut.model_validate(row).model_dump(mode="json")


def encode(notice: Notice) -> str:
    body = {"r": notice.room_id, "v": notice.version, "e": notice.event}
    text_ = json.dumps(body, separators=(",", ":"), default=str)
    if len(text_.encode()) > MAX_PAYLOAD:
        text_ = json.dumps({"r": notice.room_id, "v": notice.version, "e": None})
    return text_


def decode(payload: str) -> Notice | None:
    """A notice from a notification payload; None when it is not one of ours."""
    try:
        body = json.loads(payload)
        return Notice(str(body["r"]), int(body["v"]), body.get("e"))
    except (ValueError, KeyError, TypeError):
        return None


# --- in-process listeners (SQLite) ------------------------------------------------------

Listener = Callable[[Notice], None]
_listeners: dict[int, tuple[Engine, Listener]] = {}
_lock = threading.Lock()


def add_listener(engine: Engine, listener: Listener) -> int:
    """Call `listener` (from the committing thread) for each event committed through
    `engine` when it has no cross-process channel; returns a handle for removal."""
    with _lock:
        handle = max(_listeners, default=0) + 1
        _listeners[handle] = (engine, listener)
        return handle


def remove_listener(handle: int) -> None:
    with _lock:
        _listeners.pop(handle, None)


def insert_event(session: Session, row: dict[str, Any]) -> None:
    """Insert one event row (the columns of `events`) and announce it.

    A Core statement on the session's connection, in its transaction (savepoints
    included): an event is append-only, so the unit of work has nothing to track. On
    PostgreSQL the notice is sent by the insert itself, in its RETURNING clause, so that
    appending an event is one round trip.
    """
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        notice = Notice(row["room_id"], row["version"], event_payload(row))
        connection.execute(_INSERT_AND_NOTIFY, {**row, "payload": encode(notice)})
        return
    connection.execute(_INSERT, row)
    # Without the event: a savepoint rolled back later could drop this row, so the
    # listeners read what was really committed.
    session.info.setdefault(_PENDING, []).append(Notice(row["room_id"], row["version"]))


_INSERT = insert(Event)
_INSERT_AND_NOTIFY = insert(Event).returning(func.pg_notify(CHANNEL, bindparam("payload")))


@event.listens_for(Session, "after_commit")
def _deliver(session: Session) -> None:
    notices: list[Notice] = session.info.pop(_PENDING, [])
    if not notices:
        return
    bind = session.get_bind()
    with _lock:
        targets = [listener for engine, listener in _listeners.values() if engine is bind]
    for notice in notices:
        for listener in targets:
            listener(notice)


@event.listens_for(Session, "after_rollback")
def _forget(session: Session) -> None:
    session.info.pop(_PENDING, None)
