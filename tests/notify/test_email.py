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
from app.i18n import translator
from app.main import create_app
from app.notify.mail import list_link
from tests.rooms.conftest import Api, Room

from .conftest import Mailbox, Sender

ADDRESS = "tires.player@example.org"
SAME = {"Origin": "http://testserver"}


def link_in(mail: Message, path: str, site: str = "http://checkers.test") -> str:
    body = mail.get_payload(decode=True)
    assert isinstance(body, bytes)
    found = re.search(rf"{re.escape(site + path)}\S*", body.decode())
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


def test_the_one_click_unsubscribe_goes_out_as_plain_text(
    notify_settings: Settings, mailbox: tuple[Mailbox, int], clock: ManualClock, database: Database
) -> None:
    """Mail programs offer one-click unsubscribe (RFC 8058) only when they read the link in
    List-Unsubscribe as it is: on the wire, in plain ASCII, however long (a header line may
    reach 998 characters), never as an RFC 2047 encoded word. The rest of the mail is still
    encoded as usual (a Russian subject), and the mail parses."""
    box, _ = mailbox
    site = "https://checkers.riverside-community-games.example.org/play/online"
    settings = notify_settings.model_copy(update={"public_url": site})
    with TestClient(create_app(settings, clock=clock, database=database)) as client:
        api = Api(client)
        room = api.create()
        assert room.joiner is not None
        asked = client.post(
            f"/api/rooms/{room.id}/email",
            json={"address": ADDRESS},
            headers={**api.auth(room.joiner), "Accept-Language": "ru"},  # the mails' language
        )
        assert asked.status_code == 200, asked.text
        token = query(link_in(box.to(ADDRESS)[0], "/mail/confirm", site))["t"]
        assert client.post("/mail/confirm", data={"t": token}, headers=SAME).status_code == 200
        api.play(room, "11-15")
        assert Sender(database, clock, settings).run() == 1
    raw = box.raw[-1]
    head = raw.split(b"\r\n\r\n", 1)[0]
    assert head.isascii() and all(len(line) <= 998 for line in head.split(b"\r\n"))
    lines = re.sub(rb"\r\n(?=[ \t])", b"", head).decode().split("\r\n")  # unfolded
    mail = box.to(ADDRESS)[-1]
    link = link_in(mail, "/mail/unsubscribe", site)
    assert len(f"List-Unsubscribe: <{link}>") > 78  # longer than the line the default folds at
    assert f"List-Unsubscribe: <{link}>" in lines
    assert "List-Unsubscribe-Post: List-Unsubscribe=One-Click" in lines
    (subject,) = [line for line in lines if line.startswith("Subject: ")]
    assert "=?utf-8?" in subject  # still encoded
    assert mail["Subject"].startswith(f"{translator('ru')._('Your move')} · ")
    assert mail["List-Unsubscribe"] == f"<{link}>"
    body = mail.get_payload(decode=True)
    opening = translator("ru")._("Open the room: {url}", url=site)
    assert isinstance(body, bytes) and opening in body.decode()


def test_a_list_link_is_one_line_of_plain_ascii() -> None:
    url = "https://example.org/ü?a=1%202&b=<x>\r\nBcc: x@example.org"
    assert (
        list_link(url) == "<https://example.org/%C3%BC?a=1%202&b=%3Cx%3E%0D%0ABcc:%20x@example.org>"
    )


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
