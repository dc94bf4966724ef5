"""The rooms tell the notifications through one hook, inside the room's transaction, and
that hook records facts only: the text is rendered when the notification is sent, after
the room's transaction has committed (issue 59, point 2)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import select

from app.core.db import Database
from app.i18n import Translator
from app.notify import messages
from app.notify.models import Notification
from app.rooms import hooks, moves
from tests.rooms.conftest import Api

from .conftest import Sender, subscribe
from .pushservice import PushService


def test_a_move_records_facts_once_and_renders_its_text_after_commit(
    api: Api,
    pushes: PushService,
    sender: Sender,
    database: Database,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    room = api.create()
    assert room.joiner is not None
    subscribe(api, room, room.joiner, pushes.device("phone").subscription())
    trail: list[str] = []  # what happened, in order
    locked = [False]  # inside a room's locked transaction

    original_lock = moves.locked_room

    @contextmanager
    def watched_lock(*args: Any, **kwargs: Any) -> Iterator[Any]:
        locked[0] = True
        trail.append("lock")
        try:
            with original_lock(*args, **kwargs) as state:
                yield state
        finally:
            locked[0] = False
        trail.append("committed")

    recorder = hooks.HOOKS.record

    def counted_record(*args: Any) -> None:
        trail.append("record" if locked[0] else "record outside the lock")
        recorder(*args)

    original_render = messages.render

    def counted_render(*args: Any) -> tuple[str, str]:
        trail.append("render" if not locked[0] else "render inside the lock")
        return original_render(*args)

    original_text = Translator._

    def watched_text(self: Translator, message: str, **params: Any) -> str:
        if locked[0]:
            trail.append(f"text inside the lock: {message}")
        return original_text(self, message, **params)

    monkeypatch.setattr(moves, "locked_room", watched_lock)
    monkeypatch.setattr(hooks.HOOKS, "record", counted_record)
    monkeypatch.setattr(messages, "render", counted_render)
    monkeypatch.setattr(Translator, "_", watched_text)

    api.play(room, "11-15")  # the drums move: the tires' phone is to be told
    assert trail == ["lock", "record", "committed"]
    with database.session() as session:
        (params,) = session.scalars(select(Notification.params)).all()
    assert params == {
        "rule_set": "english",
        "who": {"name": None, "level": None, "side": "drums"},
        "move": "11-15",
    }

    assert sender.run() == 1
    assert trail == ["lock", "record", "committed", "render"]
    (payload,) = pushes.wait("phone", 1)
    assert (payload["title"], payload["body"]) == (
        "Your move · English",
        "Drums player played 11-15.",
    )
