"""The one hook the rooms call inside a room's transaction: whatever must follow a change
of a room in the same transaction (the notifications' outbox) is registered here at
start-up, so the rooms know nothing of what it does.

`HOOKS.record` is called on the way out of every action that appended events or notes
(`service.leave`), under the room's lock: it may write rows, never wait on the network,
and it renders no text (that is done when a notification is sent).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.orm import Session

from app.core.context import Context

from .state import GameState

Recorder = Callable[[Session, GameState, Context], None]


def _nothing(session: Session, state: GameState, ctx: Context) -> None:
    """Before anything registers: a room's change needs nothing more."""


@dataclass
class Hooks:
    record: Recorder = _nothing


HOOKS = Hooks()


def register(record: Recorder) -> None:
    """Set the in-transaction hook (the app factory and the command line's sweep do, at
    start-up; registering the same function again changes nothing)."""
    HOOKS.record = record


def changed(session: Session, state: GameState, ctx: Context) -> None:
    """Tell the registered hook of a room's change, in its transaction."""
    HOOKS.record(session, state, ctx)
