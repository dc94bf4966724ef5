"""Mail notifications through a local SMTP server: opt-in by a confirmed address, one
mail per kind of event and game per interval, a one-click unsubscribe, and the address
shown to nobody."""

from __future__ import annotations

import logging
import re
from datetime import timedelta
from email.message import Message
from urllib.parse import urlsplit

import pytest
from fastapi.testclient import TestClient

from app.core.clock import ManualClock
from app.core.db import Database
from app.core.settings import Settings
from app.main import create_app
from tests.rooms.conftest import Api, Room

from .conftest import Mailbox, Sender

ADDRESS = "tires.player@example.org"
SAME = {"Origin": "http://testserver"}


def link_in(mail: Message, path: str) -> str:
    body = mail.get_payload(decode=True)
    assert isinstance(body, bytes)
    found = re.search(rf"http://checkers\.test{re.escape(path)}\S*", body.decode())
    assert found, body
    return found.group(0)


def query(url: str) -> dict[str, str]:
    return dict(p.split("=", 1) for p in urlsplit(url).query.split("&"))


def local(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.path}?{parts.query}"


def confirmed_room(api: Api, box: Mailbox) -> Room:
    """A room whose tires seat confirmed ADDRESS."""
    room = api.create()
    assert room.joiner is not None
    r = api.client.post(
        f"/api/rooms/{room.id}/email", json={"address": ADDRESS}, headers=api.auth(room.joiner)
    )
    assert r.status_code == 200, r.text
    assert r.json()["you"]["notifications"]["email"] is False  # not before it is confirmed
    (mail,) = box.to(ADDRESS)
    assert mail["Subject"] == "Confirm your address"
    link = link_in(mail, "/mail/confirm")
    page = api.client.get(local(link))
    assert page.status_code == 200 and "<form" in page.text  # a scanner confirms nothing
    token = query(link)["t"]
    done = api.client.post("/mail/confirm", data={"t": token}, headers=SAME)
    assert done.status_code == 200 and "Address confirmed" in done.text
    assert api.view(room, room.joiner)["you"]["notifications"]["email"] is True
    return room


def test_a_confirmed_address_gets_the_move_and_can_unsubscribe_in_one_click(
    api: Api, mailbox: tuple[Mailbox, int], sender: Sender, clock: ManualClock
) -> None:
    box, _ = mailbox
    room = confirmed_room(api, box)
    api.play(room, "11-15")
    sender.run()
    mails = box.to(ADDRESS)
    assert len(mails) == 2
    mail = mails[-1]
    assert mail["Subject"] == "Your move · English"
    assert mail["From"] == "Checkers <games@checkers.test>"
    unsubscribe = mail["List-Unsubscribe"].strip("<>")
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert f"/r/{room.id}" in str(mail.get_payload(decode=True))
    # Another move of the same kind in the same game, within the interval: no mail.
    api.play(room, "22-18", "15x22")
    sender.run()
    assert len(box.to(ADDRESS)) == 2
    # The mail program's one-click post: no page, no cookie, no token.
    fresh = TestClient(api.client.app)
    r = fresh.post(
        local(unsubscribe),
        content="List-Unsubscribe=One-Click",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == 200 and "Unsubscribed" in r.text
    assert fresh.post(local(unsubscribe)).status_code == 200  # again: harmless
    assert api.view(room, room.joiner)["you"]["notifications"]["email"] is False
    clock.advance(timedelta(hours=2))
    api.play(room, "25x18")
    sender.run()
    assert len(box.to(ADDRESS)) == 2


def test_one_mail_per_kind_and_game_per_interval(
    api: Api, mailbox: tuple[Mailbox, int], sender: Sender, clock: ManualClock
) -> None:
    box, _ = mailbox
    room = confirmed_room(api, box)
    api.play(room, "11-15")
    sender.run()
    clock.advance(timedelta(minutes=59))
    api.play(room, "22-18", "15x22")
    sender.run()
    assert [m["Subject"] for m in box.to(ADDRESS)][1:] == ["Your move · English"]
    clock.advance(timedelta(minutes=2))  # past the hour: moves are mailed again
    api.play(room, "25x18", "9-14")
    api.action(room, room.creator, "draw", "offer")  # another kind: mailed at once
    sender.run()
    subjects = [m["Subject"] for m in box.to(ADDRESS)][1:]
    assert subjects == ["Your move · English", "Your move · English", "Draw offered · English"]


def test_the_address_is_shown_to_nobody(
    api: Api,
    mailbox: tuple[Mailbox, int],
    sender: Sender,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="checkers")
    box, _ = mailbox
    room = confirmed_room(api, box)
    api.play(room, "11-15")
    api.action(room, room.joiner, "resign")
    sender.run()
    seen = [
        api.client.get(f"/api/rooms/{room.id}").text,
        api.client.get(f"/api/rooms/{room.id}", headers=api.auth(room.creator)).text,
        api.client.get(f"/api/rooms/{room.id}", headers=api.auth(room.joiner)).text,
        api.client.get(f"/api/rooms/{room.id}/events").text,
        api.client.get(f"/api/rooms/{room.id}/games/1.pdn").text,
        api.client.get(f"/r/{room.id}").text,
        caplog.text,
    ]
    for text in seen:
        assert ADDRESS not in text and "example.org" not in text


def test_confirmation_links_are_checked(
    api: Api, mailbox: tuple[Mailbox, int], clock: ManualClock
) -> None:
    box, _ = mailbox
    room = api.create()
    assert room.joiner is not None
    api.client.post(
        f"/api/rooms/{room.id}/email", json={"address": ADDRESS}, headers=api.auth(room.joiner)
    )
    token = dict(
        p.split("=", 1)
        for p in urlsplit(link_in(box.to(ADDRESS)[0], "/mail/confirm")).query.split("&")
    )["t"]
    wrong = api.client.post("/mail/confirm", data={"t": token[:-2] + "xx"}, headers=SAME)
    assert wrong.status_code == 403 and "not valid" in wrong.text
    cross = api.client.post("/mail/confirm", data={"t": token}, headers={"Origin": "https://evil"})
    assert cross.status_code == 403
    clock.advance(timedelta(hours=25))
    late = api.client.post("/mail/confirm", data={"t": token}, headers=SAME)
    assert late.status_code == 403 and "expired" in late.text
    assert api.view(room, room.joiner)["you"]["notifications"]["email"] is False
    forged = api.client.post("/mail/unsubscribe?e=1&t=forged", headers=SAME)
    assert forged.status_code == 403
    bad = api.client.post(
        f"/api/rooms/{room.id}/email",
        json={"address": "not-an-address"},
        headers=api.auth(room.joiner),
    )
    assert bad.status_code == 422


def test_without_smtp_there_is_no_email(
    settings: Settings, clock: ManualClock, database: Database
) -> None:
    with TestClient(create_app(settings, clock=clock, database=database)) as client:
        api = Api(client)
        room = api.create()
        assert room.joiner is not None
        view = api.view(room, room.joiner)
        assert view["terms"]["email"] is False
        r = client.post(
            f"/api/rooms/{room.id}/email", json={"address": ADDRESS}, headers=api.auth(room.joiner)
        )
        assert r.status_code == 409 and r.json()["code"] == "email_unavailable"


def test_an_unreachable_mail_server_answers_503(
    notify_settings: Settings, clock: ManualClock, database: Database
) -> None:
    down = notify_settings.model_copy(update={"smtp_port": 1, "notify_timeout_seconds": 2.0})
    with TestClient(create_app(down, clock=clock, database=database)) as client:
        api = Api(client)
        room = api.create()
        assert room.joiner is not None
        r = client.post(
            f"/api/rooms/{room.id}/email", json={"address": ADDRESS}, headers=api.auth(room.joiner)
        )
        assert r.status_code == 503 and r.json()["code"] == "mail_unavailable"
        assert r.headers["Retry-After"]
