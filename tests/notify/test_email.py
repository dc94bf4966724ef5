"""Mail notifications through a local SMTP server: opt-in by a confirmed address, one
mail per kind of event and game per interval, a one-click unsubscribe, and the address
shown to nobody."""

from __future__ import annotations

import contextlib
import logging
import re
import socket
import threading
import time
from datetime import timedelta
from email.message import Message
from typing import Any
from urllib.parse import urlsplit

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text as sql

from app.core.clock import ManualClock
from app.core.context import Context
from app.core.db import Database
from app.core.settings import Settings
from app.i18n import translator
from app.main import create_app
from app.notify.confirmations import MailLimit, request_email
from app.notify.mail import list_link
from tests.rooms.conftest import Api, Room

from .conftest import Mailbox, Sender, free_port

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


def confirmed_room(api: Api, box: Mailbox, sender: Sender) -> Room:
    """A room whose tires seat confirmed ADDRESS."""
    room = api.create()
    assert room.joiner is not None
    r = api.client.post(
        f"/api/rooms/{room.id}/email", json={"address": ADDRESS}, headers=api.auth(room.joiner)
    )
    assert r.status_code == 200, r.text
    assert r.json()["you"]["notifications"]["email"] is False  # not before it is confirmed
    assert box.to(ADDRESS) == []  # the sender mails it, not the request
    assert sender.run() == 1
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
    room = confirmed_room(api, box, sender)
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
        assert Sender(database, clock, settings).run() == 1  # the confirmation
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
    room = confirmed_room(api, box, sender)
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
    room = confirmed_room(api, box, sender)
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
    api: Api, mailbox: tuple[Mailbox, int], clock: ManualClock, sender: Sender
) -> None:
    box, _ = mailbox
    room = api.create()
    assert room.joiner is not None
    api.client.post(
        f"/api/rooms/{room.id}/email", json={"address": ADDRESS}, headers=api.auth(room.joiner)
    )
    sender.run()
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


def test_an_unreachable_mail_server_delays_the_confirmation_not_the_request(
    notify_settings: Settings, clock: ManualClock, database: Database, mailbox: tuple[Mailbox, int]
) -> None:
    """The request answers at once; the sender retries the confirmation later, and the
    mail goes out once the server is back."""
    box, _ = mailbox
    down = notify_settings.model_copy(update={"smtp_port": free_port()})
    with TestClient(create_app(down, clock=clock, database=database)) as client:
        api = Api(client)
        room = api.create()
        assert room.joiner is not None
        r = client.post(
            f"/api/rooms/{room.id}/email", json={"address": ADDRESS}, headers=api.auth(room.joiner)
        )
        assert r.status_code == 200, r.text
    assert Sender(database, clock, down).run() == 1
    assert _outbox(database) == [("confirm_address", "pending", 1)]
    clock.advance(timedelta(seconds=notify_settings.notify_retry_seconds))
    assert Sender(database, clock, notify_settings).run() == 1
    assert _outbox(database) == [("confirm_address", "sent", 2)]
    assert [m["Subject"] for m in box.to(ADDRESS)] == ["Confirm your address"]


def _outbox(database: Database) -> list[tuple[str, str, int]]:
    with database.engine.connect() as conn:
        rows = conn.execute(sql("SELECT kind, state, attempts FROM notifications ORDER BY id"))
        return [(kind, state, attempts) for kind, state, attempts in rows]


class SilentRelay:
    """A mail relay that takes connections and never says a word (as a stuck one does)."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.sock.getsockname()[1])
        self.held: list[socket.socket] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                self.held.append(self.sock.accept()[0])

    def close(self) -> None:
        for conn in self.held:
            conn.close()
        self.sock.close()


def test_asking_for_mails_never_waits_for_the_relay(
    notify_settings: Settings, clock: ManualClock, database: Database
) -> None:
    """A slow relay once held the request that asked for mails (and another client's move
    behind it) for seconds: the request only queues the confirmation."""
    relay = SilentRelay()
    stuck = notify_settings.model_copy(
        update={"smtp_port": relay.port, "notify_timeout_seconds": 3.0}
    )
    try:
        with TestClient(create_app(stuck, clock=clock, database=database)) as client:
            api = Api(client)
            room, other = api.create(), api.create()
            assert room.joiner is not None
            started = time.monotonic()
            r = client.post(
                f"/api/rooms/{room.id}/email",
                json={"address": ADDRESS},
                headers=api.auth(room.joiner),
            )
            assert r.status_code == 200, r.text
            assert api.move(other, other.creator, "11-15", 0).status_code == 200
            assert time.monotonic() - started < 1.5
            assert relay.held == []  # nobody has called the relay
    finally:
        relay.close()
    assert _outbox(database) == [("confirm_address", "pending", 0)]


def _ask(api: Api, room: Room, address: str, token: str | None = None) -> Any:
    return api.client.post(
        f"/api/rooms/{room.id}/email",
        json={"address": address},
        headers=api.auth(token or room.joiner),
    )


def _limited(answer: Any, code: str) -> int:
    assert answer.status_code == 429, answer.text
    assert answer.json()["code"] == code
    retry_after = int(answer.headers["Retry-After"])
    assert retry_after == answer.json()["retry_after"]
    return retry_after


def test_a_seat_gets_one_confirmation_to_an_address_per_interval(
    api: Api, mailbox: tuple[Mailbox, int], sender: Sender, clock: ManualClock, database: Database
) -> None:
    """200 requests once sent 200 mails to one address in 2.6 s. One is mailed; the others
    are refused and change nothing (its link still works), until the interval is over."""
    box, _ = mailbox
    room = api.create()
    assert _ask(api, room, ADDRESS).status_code == 200
    before = _rows(database)
    clock.advance(timedelta(seconds=60))
    waits = {_limited(_ask(api, room, ADDRESS), "confirmation_pending") for _ in range(199)}
    assert waits == {240}
    assert _limited(_ask(api, room, ADDRESS.upper()), "confirmation_pending") == 240
    assert _rows(database) == before
    assert sender.run() == 1
    (first,) = box.to(ADDRESS)
    clock.advance(timedelta(seconds=240))
    assert _ask(api, room, ADDRESS).status_code == 200
    assert sender.run() == 1
    assert len(box.to(ADDRESS)) == 2
    # Only the newest link confirms: asking again replaced the first.
    old = query(link_in(first, "/mail/confirm"))["t"]
    assert api.client.post("/mail/confirm", data={"t": old}, headers=SAME).status_code == 403
    new = query(link_in(box.to(ADDRESS)[-1], "/mail/confirm"))["t"]
    assert api.client.post("/mail/confirm", data={"t": new}, headers=SAME).status_code == 200


def _rows(database: Database) -> dict[str, list[tuple[Any, ...]]]:
    with database.engine.connect() as conn:
        return {
            table: sorted((tuple(r) for r in conn.execute(sql(f"SELECT * FROM {table}"))), key=repr)
            for table in ("seat_emails", "notifications", "confirmation_mails", "seats", "events")
        }


def test_a_replaced_request_is_not_mailed(
    api: Api, mailbox: tuple[Mailbox, int], sender: Sender, database: Database
) -> None:
    """A seat has one confirmation waiting: a new address before the sender runs leaves the
    earlier mail unsent (dropped), and only the new address is mailed."""
    box, _ = mailbox
    room = api.create()
    assert _ask(api, room, "typo@exmaple.org").status_code == 200
    assert _ask(api, room, ADDRESS).status_code == 200
    assert sender.run() == 2
    assert box.to("typo@exmaple.org") == [] and len(box.to(ADDRESS)) == 1
    assert _outbox(database) == [("confirm_address", "dropped", 1), ("confirm_address", "sent", 1)]


def test_an_address_gets_a_few_confirmations_a_day_across_the_service(
    api: Api,
    mailbox: tuple[Mailbox, int],
    sender: Sender,
    clock: ManualClock,
    database: Database,
    notify_settings: Settings,
) -> None:
    """Whichever rooms and seats ask, one address is mailed EMAIL_CONFIRMS_PER_ADDRESS
    confirmations a day (its case changes nothing); other addresses are not held up."""
    box, _ = mailbox
    most = notify_settings.email_confirms_per_address
    rooms = [api.create() for _ in range(most + 1)]
    for n, room in enumerate(rooms[:most]):
        assert _ask(api, room, ADDRESS if n % 2 else ADDRESS.upper()).status_code == 200
        clock.advance(timedelta(hours=1))
    before = _rows(database)
    wait = _limited(_ask(api, rooms[-1], ADDRESS.title()), "mail_limit")
    _limited(_ask(api, rooms[-1], ADDRESS, rooms[-1].creator), "mail_limit")
    assert wait == 24 * 3600 - most * 3600
    assert _rows(database) == before
    assert _ask(api, rooms[-1], "other@example.org").status_code == 200
    assert sender.run() == most + 1
    assert len([m for m in box.mails if m["To"].lower() == ADDRESS]) == most
    clock.advance(timedelta(seconds=wait))
    assert _ask(api, rooms[-1], ADDRESS, rooms[-1].creator).status_code == 200
    # The sender forgets what no longer counts: the first request, then all of them.
    sender.run()
    assert len(_rows(database)["confirmation_mails"]) == most + 1
    clock.advance(timedelta(days=1))
    sender.run()
    assert _rows(database)["confirmation_mails"] == []


def test_a_seat_gets_a_few_confirmations_a_day(
    api: Api, mailbox: tuple[Mailbox, int], clock: ManualClock, notify_settings: Settings
) -> None:
    room = api.create()
    most = notify_settings.email_confirms_per_seat
    for n in range(most):
        assert _ask(api, room, f"player{n}@example.org").status_code == 200
        clock.advance(timedelta(minutes=10))
    wait = _limited(_ask(api, room, "one-more@example.org"), "mail_limit")
    assert wait == 24 * 3600 - most * 600
    # The other seat of the room has its own share.
    assert _ask(api, room, "one-more@example.org", room.creator).status_code == 200


def test_racing_requests_pass_an_addresses_limit_no_more_than_it_allows(
    notify_settings: Settings, clock: ManualClock, database: Database, api: Api
) -> None:
    """Requests from many rooms at once are counted one at a time per address."""
    rooms = [api.create() for _ in range(8)]
    ctx = Context(clock.now(), notify_settings)
    start = threading.Barrier(len(rooms))
    answers: list[str] = []

    def ask(room: Room) -> None:
        start.wait()
        with database.session() as session:
            try:
                request_email(
                    session,
                    room_id=room.id,
                    token=room.joiner,
                    address=ADDRESS,
                    base_url="http://checkers.test",
                    ctx=ctx,
                )
            except MailLimit:
                answers.append("refused")
            else:
                answers.append("asked")

    threads = [threading.Thread(target=ask, args=(room,)) for room in rooms]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    most = notify_settings.email_confirms_per_address
    assert sorted(answers) == ["asked"] * most + ["refused"] * (len(rooms) - most)
