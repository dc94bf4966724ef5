"""The room's event record: appended in the transaction of the change, then announced.

On PostgreSQL each event's insert runs `pg_notify` in the inserting transaction, so the
notice is delivered to every listening process only if, and when, that transaction
commits (a refused or rolled-back action announces nothing). SQLite has no such channel:
the notices are kept on the session, with the savepoints they were made in, and handed
to this process's listeners when the whole transaction commits (`LocalNotices`); the
notices of a savepoint rolled back are dropped with it.

A notice carries the event itself (on PostgreSQL when it fits in a notification), so a
process fans it out to all its viewers without reading anything; its SSE frame is encoded
once (`Notice.frame`). A listener that misses one, or gets one without the event, reads
the record from the database, which stays the only source of truth.
"""

from __future__ import annotations

import json
import threading
import weakref
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any

from sqlalchemy import bindparam, event, func, insert
from sqlalchemy.orm import Session, SessionTransaction, sessionmaker

from .models import Event, EventKind
from .reasons import Reason, ReasonCode
from .record_schemas import EventOut
from .state import GameState

CHANNEL = "room_events"
# Versions are INTEGER columns: a client's resume point beyond this is refused, not sent
# to the database (which would fail on it).
MAX_VERSION = 2**31 - 1
# PostgreSQL refuses payloads of 8000 bytes or more; bigger events go by version only.
MAX_PAYLOAD = 7900
_PENDING = "checkers_live_pending"


def sees(audience: str | None, seat: str | None) -> bool:
    """Whether an event for `audience` (None: everyone; else seat roles, space-separated)
    is shown to a viewer holding `seat` (None: a spectator)."""
    return audience is None or (seat is not None and seat in audience.split())


@dataclass(frozen=True)
class Notice:
    """Room `room_id` reached `version`; `event` is that event as the stream sends it.

    A coalesced notice stands for every version from `first` to `version`, all of them
    events that a later one of the run makes stale (a seat's renames): it carries only
    the events still news (`kept`, the last one being `event`), and a viewer that had
    `first - 1` takes it whole."""

    room_id: str
    version: int
    event: dict[str, Any] | None = None
    first: int | None = None  # None: this version alone
    kept: tuple[dict[str, Any], ...] = ()
    audience: str | None = None  # None: everyone; else the seats it is for (`sees`)

    def seen_by(self, seat: str | None) -> bool:
        """Whether a stream of `seat` (None: a spectator) writes this notice."""
        return sees(self.audience, seat)

    @property
    def since(self) -> int:
        """The first version this notice stands for."""
        return self.version if self.first is None else self.first

    @cached_property
    def frame(self) -> bytes:
        """The event(s) as Server-Sent Events frames (built once, sent to every viewer in
        one write)."""
        if self.kept:
            return b"".join(sse_frame(event) for event in self.kept)
        assert self.event is not None
        return sse_frame(self.event)


# One event of the live stream as OpenAPI 3.1 describes a Server-Sent Events stream: the
# schema of each event's fields (`id` its version, `data` an `EventOut` as JSON).
SSE_EVENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "One Server-Sent Event; idle streams also get `: keep-alive` comments.",
    "properties": {
        "id": {"type": "string", "description": "The event's version (resume after it)."},
        "data": {
            "type": "string",
            "description": "The event as JSON, an `EventOut`.",
            "contentMediaType": "application/json",
            "contentSchema": {"$ref": "#/components/schemas/EventOut"},
        },
        "event": {"type": "string", "description": "Always the default, `message`."},
        "retry": {"type": "integer", "description": "How long to wait before reconnecting (ms)."},
    },
}
SSE_EVENT_EXAMPLE = {
    "id": "7",
    "data": '{"version":7,"kind":"move","data":{"game":1,"ply":3,"side":"drums",'
    '"notation":"15x22"},"created_at":"2026-12-01T12:00:00Z"}',
}


def sse_frame(event: dict[str, Any]) -> bytes:
    data = json.dumps(event, separators=(",", ":"), default=str)
    return f"id: {event['version']}\ndata: {data}\n\n".encode()


def event_payload(row: Mapping[str, Any]) -> dict[str, Any]:
    """An event row as the streams send it: as the JSON record reads it, to the byte."""
    return EventOut.model_validate({**row, "data": said(row["data"])}).model_dump(mode="json")


def reason_facts(reason: Reason) -> dict[str, Any]:
    """A reason as an event stores it: its code and parameters, never its sentence."""
    return {"reason_code": reason.code.value, "reason_params": reason.params}


def said(data: Mapping[str, Any]) -> dict[str, Any]:
    """An event's stored data as the API gives it: a stored reason's facts, and beside
    them the API's English for it (`reason`), rendered now from those facts."""
    out = dict(data)
    code = data.get("reason_code")
    if code is not None:
        out["reason"] = Reason(ReasonCode(code), dict(data.get("reason_params") or {})).english()
    return out


def encode(notice: Notice) -> str:
    body = {"r": notice.room_id, "v": notice.version, "e": notice.event, "a": notice.audience}
    text_ = json.dumps(body, separators=(",", ":"), default=str)
    if len(text_.encode()) > MAX_PAYLOAD:
        body["e"] = None
        text_ = json.dumps(body)
    return text_


def decode(payload: str) -> Notice | None:
    """A notice from a notification payload; None when it is not one of ours."""
    try:
        body = json.loads(payload)
        audience = body.get("a")
        return Notice(
            str(body["r"]),
            int(body["v"]),
            body.get("e"),
            audience=str(audience) if audience is not None else None,
        )
    except (ValueError, KeyError, TypeError):
        return None


_INSERT = insert(Event)
_INSERT_AND_NOTIFY = insert(Event).returning(func.pg_notify(CHANNEL, bindparam("payload")))


def append_event(
    session: Session,
    state: GameState,
    *,
    kind: EventKind,
    now: datetime,
    audience: str | None = None,
    **data: Any,
) -> None:
    """Append to the room's versioned event record, in the change's own transaction; the
    action's events are kept on `state` too (its notifications are made from them).
    `audience` keeps an event to some seats' eyes (`sees`): the players' chat.

    A Core statement on the session's connection (savepoints included): an event is
    append-only, so the unit of work has nothing to track. On PostgreSQL the notice is
    sent by the insert itself, in its RETURNING clause, so an event is one round trip.
    """
    room = state.room
    room.version += 1
    state.events.append((kind, data))
    row = {
        "room_id": room.id,
        "version": room.version,
        "kind": kind,
        "data": data,
        "created_at": now,
        "audience": audience,
    }
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        notice = Notice(room.id, room.version, event_payload(row), audience=audience)
        connection.execute(_INSERT_AND_NOTIFY, {**row, "payload": encode(notice)})
        holder = answering.get()
        if holder is not None:
            holder.expect(notice)
        return
    connection.execute(_INSERT, row)
    session.info.setdefault(_PENDING, []).append(
        (Notice(room.id, room.version, event_payload(row), audience=audience), _savepoints(session))
    )


def _savepoints(session: Session) -> tuple[SessionTransaction, ...]:
    """The savepoints open in `session` now, innermost first."""
    found = []
    transaction = session.get_nested_transaction()
    while transaction is not None:
        if transaction.nested:
            found.append(transaction)
        transaction = transaction.parent
    return tuple(found)


# --- answer first ----------------------------------------------------------------------


class Answering:
    """The notices of the events a request commits, held in this process until its answer
    is sent (`app.rooms.streams.AnswerFirstMiddleware`): on SQLite handed over by the commit
    hook, on PostgreSQL claimed when they come back through LISTEN."""

    _expected: dict[tuple[str, int], Answering] = {}
    _registry_lock = threading.Lock()

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._notices: list[Notice] = []
        self._keys: list[tuple[str, int]] = []
        self._open = True

    def hold(self, notice: Notice) -> bool:
        """Keep `notice` for later; False once the answer has gone (send it now)."""
        with self._lock:
            if self._open:
                self._notices.append(notice)
            return self._open

    def expect(self, notice: Notice) -> None:
        """This request made `notice`'s event; its NOTIFY will come back to this process."""
        key = (notice.room_id, notice.version)
        with Answering._registry_lock:
            Answering._expected[key] = self
        with self._lock:
            self._keys.append(key)

    @classmethod
    def claim(cls, notice: Notice) -> bool:
        """Hold a notice that came back while the request that made it is being answered."""
        with cls._registry_lock:
            holder = cls._expected.get((notice.room_id, notice.version))
        return holder is not None and holder.hold(notice)

    def release(self) -> list[Notice]:
        """The answer has gone: stop holding; the notices held so far, to send now."""
        with self._lock:
            self._open = False
            notices, self._notices = self._notices, []
            keys, self._keys = self._keys, []
        with Answering._registry_lock:
            for key in keys:
                Answering._expected.pop(key, None)
        return notices


answering: ContextVar[Answering | None] = ContextVar("checkers_answering", default=None)


# --- in-process delivery (SQLite) -------------------------------------------------------

Listener = Callable[[Notice], None]


class LocalNotices:
    """Hands the notices of every transaction committed through one session factory to
    this process's listeners (from the committing thread)."""

    def __init__(self, factory: sessionmaker[Session]) -> None:
        self._listeners: dict[int, Listener] = {}
        self._lock = threading.Lock()
        event.listen(factory, "after_commit", self._deliver)
        event.listen(factory, "after_soft_rollback", self._forget)

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
        if session.in_nested_transaction():
            return  # a savepoint released: its notices wait for the whole transaction
        pending: list[tuple[Notice, Any]] = session.info.pop(_PENDING, [])
        if not pending:
            return
        with self._lock:
            targets = list(self._listeners.values())
        for notice, _ in pending:
            for listener in targets:
                listener(notice)

    @staticmethod
    def _forget(session: Session, transaction: SessionTransaction) -> None:
        """A rollback drops the notices made inside what it undid."""
        if not transaction.nested:
            session.info.pop(_PENDING, None)
            return
        pending: list[tuple[Notice, tuple[SessionTransaction, ...]]] = session.info.get(
            _PENDING, []
        )
        pending[:] = [(n, inside) for n, inside in pending if transaction not in inside]


_local: weakref.WeakKeyDictionary[sessionmaker[Session], LocalNotices] = weakref.WeakKeyDictionary()
_local_lock = threading.Lock()


def local_notices(factory: sessionmaker[Session]) -> LocalNotices:
    """The one `LocalNotices` of a session factory (its hooks are installed once)."""
    with _local_lock:
        found = _local.get(factory)
        if found is None:
            found = _local[factory] = LocalNotices(factory)
        return found
