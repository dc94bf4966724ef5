"""Fixtures of the notification tests: an app whose push endpoints may be on loopback, a
local push service and a local SMTP server, and the delivery job run on demand."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from email import message_from_bytes
from email.message import Message
from email.policy import default
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient

from app.core.clock import ManualClock
from app.core.db import Database
from app.core.settings import Settings
from app.main import create_app
from app.notify.delivery import deliver_due
from tests.rooms.conftest import Api, Room

from .pushservice import PushService, push_service


class Mailbox:
    """What the local SMTP server received."""

    def __init__(self) -> None:
        self.mails: list[Message] = []
        self.raw: list[bytes] = []  # each mail's bytes as they came over the wire
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.lock:
            self.raw.append(envelope.original_content)
            self.mails.append(message_from_bytes(envelope.content, policy=default))
        return "250 OK"

    def to(self, address: str) -> list[Message]:
        with self.lock:
            return [m for m in self.mails if m["To"] == address]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def mailbox() -> Iterator[tuple[Mailbox, int]]:
    box = Mailbox()
    port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield box, port
    finally:
        controller.stop()


@pytest.fixture
def pushes() -> Iterator[PushService]:
    with push_service() as service:
        yield service


@pytest.fixture
def notify_settings(settings: Settings, mailbox: tuple[Mailbox, int]) -> Settings:
    return settings.model_copy(
        update={
            "push_allow_loopback_for_tests": True,
            "smtp_host": "127.0.0.1",
            "smtp_port": mailbox[1],
            "smtp_tls": "none",
            "mail_from": "Checkers <games@checkers.test>",
            "notify_timeout_seconds": 5.0,
        }
    )


@pytest.fixture
def client(
    notify_settings: Settings, clock: ManualClock, database: Database
) -> Iterator[TestClient]:
    app = create_app(notify_settings, clock=clock, database=database)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


@pytest.fixture
def api(client: TestClient) -> Api:
    return Api(client)


class Sender:
    """The delivery job, run when the test says (as the scheduler would)."""

    def __init__(self, database: Database, clock: ManualClock, settings: Settings) -> None:
        self.database, self.clock, self.settings = database, clock, settings

    def run(self) -> int:
        return deliver_due(self.database, self.clock, self.settings)


@pytest.fixture
def sender(database: Database, clock: ManualClock, notify_settings: Settings) -> Sender:
    return Sender(database, clock, notify_settings)


def subscribe(api: Api, room: Room, token: str, subscription: dict[str, Any]) -> dict[str, Any]:
    r = api.client.post(f"/api/rooms/{room.id}/push", json=subscription, headers=api.auth(token))
    assert r.status_code == 200, r.text
    view: dict[str, Any] = r.json()
    return view
