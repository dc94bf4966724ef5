# ruff: noqa: RUF001 (Russian texts: their letters are meant)
"""What happens for a player while they are away is told to them: a draw the computer
declines, with its reason, and a stored conditional reply played the moment the
opponent's move came, in the message of that move (push and mail alike)."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from app.core.clock import ManualClock
from app.core.db import Database
from app.core.settings import Settings
from app.main import create_app
from app.notify.delivery import deliver_due
from tests.rooms.conftest import Api

from .conftest import Mailbox, Sender, subscribe
from .pushservice import PushService
from .test_email import ADDRESS, confirmed_room


def _wait(client: TestClient, room_id: str, test: Any) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        view: dict[str, Any] = client.get(f"/api/rooms/{room_id}").json()
        if test(view):
            return view
        time.sleep(0.02)
    raise AssertionError("timed out")


def test_a_draw_the_computer_declines_is_told_with_its_reason(
    pushes: PushService, database: Database, notify_settings: Settings, clock: ManualClock
) -> None:
    settings = notify_settings.model_copy(
        update={"computer_workers": 1, "computer_time_limit": 0.05}
    )
    with TestClient(create_app(settings, clock=clock, database=database)) as c:
        # The computer (the tires) has three kings against the person's one man.
        r = c.post(
            "/api/computer-games",
            json={"rule_set": "english", "level": "warden", "fen": "B:WK15,K18,K19:B5"},
        )
        assert r.status_code == 201, r.text
        room_id, token = r.json()["room_id"], r.json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        for name, language in (("en", "en"), ("ru", "ru-RU")):
            device = pushes.device(name)
            r = c.post(
                f"/api/rooms/{room_id}/push",
                json=device.subscription(),
                headers={**auth, "Accept-Language": language},
            )
            assert r.status_code == 200, r.text
        r = c.post(f"/api/rooms/{room_id}/draw", json={"action": "offer"}, headers=auth)
        assert r.status_code == 200, r.text
        _wait(c, room_id, lambda v: v["declined"] is not None)
        deliver_due(database, clock, settings)
    (english,) = pushes.delivered("en")
    assert english["title"] == "Offer declined · English"
    assert english["body"] == "Warden declined your draw offer: it finds itself clearly ahead."
    (russian,) = pushes.delivered("ru")
    assert russian["title"] == "Предложение отклонено · Английские"
    assert russian["body"] == (
        "Warden отклонил ваше предложение ничьей: по его оценке, у него явный перевес."
    )


def test_the_message_of_the_opponents_move_says_the_planned_reply_went_out(
    api: Api, pushes: PushService, sender: Sender
) -> None:
    room = api.create()
    assert room.joiner is not None
    api.play(room, "11-15")
    device = pushes.device("drums")
    subscribe(api, room, room.creator, device.subscription())
    lines = [{"their_move": "22-18", "reply": "15x22"}]
    r = api.client.post(
        f"/api/rooms/{room.id}/conditional", json={"lines": lines}, headers=api.auth(room.creator)
    )
    assert r.status_code == 200, r.text
    assert api.move(room, room.joiner, "22-18", 1).status_code == 200
    sender.run()
    (payload,) = pushes.delivered("drums")
    assert payload["title"] == "Your planned reply was played · English"
    assert payload["body"] == "Tires player played 22-18. Your planned reply 15x22 was played."


def test_the_mail_of_the_opponents_move_says_the_planned_reply_went_out(
    api: Api, mailbox: tuple[Mailbox, int], sender: Sender
) -> None:
    box, _ = mailbox
    room = confirmed_room(api, box, sender)  # the tires' address
    lines = [{"their_move": "11-15", "reply": "22-18"}]
    r = api.client.post(
        f"/api/rooms/{room.id}/conditional", json={"lines": lines}, headers=api.auth(room.joiner)
    )
    assert r.status_code == 200, r.text
    assert api.move(room, room.creator, "11-15", 0).status_code == 200
    sender.run()
    mail = box.to(ADDRESS)[-1]
    assert mail["Subject"] == "Your planned reply was played · English"
    body = mail.get_payload(decode=True)
    assert isinstance(body, bytes)
    first = body.decode().splitlines()[0]
    assert first == "Drums player played 11-15. Your planned reply 22-18 was played."
