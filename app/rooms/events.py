"""The room's event record: appended in the transaction of the change, then announced.

On PostgreSQL each event's insert runs `pg_notify` in the inserting transaction, so the
notice is delivered to every listening process only if, and when, that transaction
commits (a refused or rolled-back action announces nothing). SQLite has no such channel:
the inserted versions are remembered on the session and handed to this process's
listeners after the commit (`LocalNotices`).

A notice carries the event itself when it fits in a notification; a listener that misses
one (or gets one without the event) reads the record from the database, which stays the
only source of truth.
"""

from __future__ import annotations

import json
import threading
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, event, func, insert
from sqlalchemy.orm import Session, sessionmaker

from .models import Event, EventKind, Room
from .schemas import EventOut

CHANNEL = "room_events"
# Versions are INTEGER columns: a client's resume point beyond this is refused, not sent
# to the database (which would fail on it).
MAX_VERSION = 2**31 - 1
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


_INSERT = insert(Event)
_INSERT_AND_NOTIFY = insert(Event).returning(func.pg_notify(CHANNEL, bindparam("payload")))


def append_event(session: Session, room: Room, kind: EventKind, now: datetime, **data: Any) -> None:
    """Append to the room's versioned event record, in the change's own transaction.

    A Core statement on the session's connection (savepoints included): an event is
    append-only, so the unit of work has nothing to track. On PostgreSQL the notice is
    sent by the insert itself, in its RETURNING clause, so an event is one round trip.
    """
    room.version += 1
    row = {
        "room_id": room.id,
        "version": room.version,
        "kind": kind,
        "data": data,
        "created_at": now,
    }
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        notice = Notice(room.id, room.version, event_payload(row))
        connection.execute(_INSERT_AND_NOTIFY, {**row, "payload": encode(notice)})
        return
    connection.execute(_INSERT, row)
    # Without the event: a savepoint rolled back later could drop this row, so the
    # listeners read what was really committed.
    session.info.setdefault(_PENDING, []).append(Notice(room.id, room.version))


# --- in-process delivery (SQLite) -------------------------------------------------------

Listener = Callable[[Notice], None]


class LocalNotices:
    """Hands the notices of every transaction committed through one session factory to
    this process's listeners (from the committing thread)."""

    def __init__(self, factory: sessionmaker[Session]) -> None:
        self._listeners: dict[int, Listener] = {}
        self._lock = threading.Lock()
        event.listen(factory, "after_commit", self._deliver)
        event.listen(factory, "after_rollback", self._forget)

    def add(self, listener: Listener) -> int:
        """Start calling `listener`; returns a handle for `remove`."""
        with self._lock:
            handle = max(self._listeners, default=0) + 1
            self._listeners[handle] = listener
            return handle

    def remove(self, handle: int) -> None:
        with self._lock:
            self._listeners.pop(handle, None)

    def _deliver(self, session: Session) -> None:
        notices: list[Notice] = session.info.pop(_PENDING, [])
        if not notices:
            return
        with self._lock:
            targets = list(self._listeners.values())
        for notice in notices:
            for listener in targets:
                listener(notice)

    @staticmethod
    def _forget(session: Session) -> None:
        session.info.pop(_PENDING, None)


_local: weakref.WeakKeyDictionary[sessionmaker[Session], LocalNotices] = weakref.WeakKeyDictionary()
_local_lock = threading.Lock()


def local_notices(factory: sessionmaker[Session]) -> LocalNotices:
    """The one `LocalNotices` of a session factory (its hooks are installed once)."""
    with _local_lock:
        found = _local.get(factory)
        if found is None:
            found = _local[factory] = LocalNotices(factory)
        return found
