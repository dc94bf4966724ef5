"""A chat message is told to the other player as an offer is (issue 62, point 1): by push
in the device's language, quoting the message; never to its writer, and never to a
player who switched the chat off."""

from __future__ import annotations

from tests.rooms.conftest import Api

from .conftest import Sender, subscribe
from .pushservice import PushService


def test_a_message_is_told_to_the_other_player_alone(
    api: Api, pushes: PushService, sender: Sender
) -> None:
    room = api.create()
    assert room.joiner is not None
    drums, tires = pushes.device("drums"), pushes.device("tires")
    subscribe(api, room, room.creator, drums.subscription())
    subscribe(api, room, room.joiner, tires.subscription())
    r = api.client.post(
        f"/api/rooms/{room.id}/chat",
        json={"text": "Away this weekend <3"},
        headers=api.auth(room.joiner),
    )
    assert r.status_code == 200, r.text
    sender.run()
    (told,) = pushes.delivered("drums")
    assert told["title"] == "Message from Tires player · English"
    assert told["body"] == "Away this weekend <3"
    assert pushes.delivered("tires") == []


def test_a_player_who_switched_the_chat_off_is_told_nothing_more(
    api: Api, pushes: PushService, sender: Sender
) -> None:
    room = api.create()
    assert room.joiner is not None
    drums = pushes.device("drums")
    subscribe(api, room, room.creator, drums.subscription())
    auth = api.auth(room.creator)
    off = api.client.post(f"/api/rooms/{room.id}/chat/switch", json={"on": False}, headers=auth)
    assert off.status_code == 200
    r = api.client.post(
        f"/api/rooms/{room.id}/chat", json={"text": "hello?"}, headers=api.auth(room.joiner)
    )
    assert r.status_code == 409
    sender.run()
    assert pushes.delivered("drums") == []
