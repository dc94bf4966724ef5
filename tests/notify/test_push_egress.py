"""The server never connects where a client points: a push endpoint must name a listed push
service, its name is resolved when sending and every address checked, the connection goes
to the address checked (a second answer of the name cannot move it), and a redirect is not
followed. Every listener here is on loopback; no real push service's name is looked up
(the tests name `push.example` and resolve it themselves)."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update

from app.core.clock import ManualClock
from app.core.db import Database
from app.core.errors import InvalidInput
from app.core.settings import Settings
from app.notify.delivery import deliver_due
from app.notify.models import Delivery, Notification, PushSubscription
from app.notify.push import Network
from app.notify.subscriptions import PushServiceRefused, check_endpoint
from tests.rooms.conftest import Api, Room

from .listeners import CREATED, authority, listener
from .pushservice import PushService

SERVICE = "push.example"  # a listed push service in these tests; never looked up


@pytest.fixture
def notify_settings(notify_settings: Settings) -> Settings:
    """Loopback allowed (test-only), `push.example` a listed push service."""
    return notify_settings.model_copy(update={"push_services": f"{SERVICE},fcm.googleapis.com"})


@pytest.fixture
def production(notify_settings: Settings) -> Settings:
    return notify_settings.model_copy(update={"push_allow_loopback_for_tests": False})


class Resolver:
    """Answers a name with the addresses given, in turn (the last one for ever), and
    counts the questions."""

    def __init__(self, *answers: Sequence[str]) -> None:
        self.answers = list(answers)
        self.asked: list[str] = []

    async def __call__(self, host: str, port: int) -> list[str]:
        self.asked.append(host)
        return list(self.answers.pop(0) if len(self.answers) > 1 else self.answers[0])


def _keys() -> dict[str, Any]:
    keys: dict[str, Any] = PushService("http://unused").device("d").subscription()["keys"]
    return keys


def _subscribed(api: Api) -> Room:
    """A room whose joiner's device is subscribed (at a loopback endpoint, which the tests'
    app accepts); `_point` then moves the row where a test wants it, as a row stored
    before today's rules could be."""
    room = api.create()
    assert room.joiner is not None
    r = api.client.post(
        f"/api/rooms/{room.id}/push",
        json={"endpoint": "http://127.0.0.1:9/push/d", "keys": _keys()},
        headers=api.auth(room.joiner),
    )
    assert r.status_code == 200, r.text
    return room


def _point(database: Database, endpoint: str) -> None:
    with database.session() as session, session.begin():
        session.execute(update(PushSubscription).values(endpoint=endpoint))


def _notes(database: Database) -> list[tuple[Delivery, str | None]]:
    with database.session() as session:
        return [
            (n.state, n.last_error)
            for n in session.scalars(select(Notification).order_by(Notification.id))
        ]


# The forms an attack got through: each reached a listener on 127.0.0.1.
FORMS = {
    "short": "https://127.1:{port}/push/x",
    "decimal": "https://2130706433:{port}/push/x",
    "hex": "https://0x7f000001:{port}/push/x",
    "octal": "https://0177.0.0.1:{port}/push/x",
    "backslash-at": "https://127.0.0.1:{port}\\@push.example/push/x",
}


@pytest.mark.parametrize("form", FORMS, ids=list(FORMS))
def test_the_forms_that_reached_loopback_are_refused_when_subscribing(
    api: Api, form: str, notify_settings: Settings, production: Settings
) -> None:
    """Refused in production and even with loopback allowed for tests (this app)."""
    with listener() as local:
        endpoint = FORMS[form].format(port=local.port)
        for settings in (production, notify_settings):
            with pytest.raises(InvalidInput):
                check_endpoint(endpoint, settings)
        room = api.create()
        assert room.joiner is not None
        r = api.client.post(
            f"/api/rooms/{room.id}/push",
            json={"endpoint": endpoint, "keys": _keys()},
            headers=api.auth(room.joiner),
        )
        assert r.status_code == 422, r.text
        assert r.json()["code"] in ("push_service_refused", "invalid_input")
        assert api.view(room, room.joiner)["you"]["notifications"]["push"] is False
    assert local.connections == 0


@pytest.mark.parametrize("form", FORMS, ids=list(FORMS))
def test_a_stored_endpoint_of_those_forms_is_never_connected_to(
    api: Api, database: Database, clock: ManualClock, production: Settings, form: str
) -> None:
    """A subscription kept from before the rules is checked again when sending: it is
    dropped, and nothing connects to the address it hides."""
    with listener() as local:
        room = _subscribed(api)
        _point(database, FORMS[form].format(port=local.port))
        api.play(room, "11-15")
        assert deliver_due(database, clock, production, Network(resolve=Resolver(["8.8.8.8"]))) == 1
    assert local.connections == 0
    ((state, error),) = _notes(database)
    assert state == Delivery.DROPPED and error
    assert api.view(room, room.joiner)["you"]["notifications"]["push"] is False


def test_only_the_push_services_browsers_use_are_accepted() -> None:
    settings = Settings()  # the default list
    for endpoint in (
        "https://fcm.googleapis.com/fcm/send/dZ3k:APA91bH",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk",
        "https://web.push.apple.com/QGuQyavXutnMH",
        "https://wns2-by3p.notify.windows.com/w/?token=BQYAAA",
    ):
        found = check_endpoint(endpoint, settings)
        assert found.scheme == "https" and found.port == 443
    assert check_endpoint("https://fcm.googleapis.com/fcm/send/x?a=b", settings).target == (
        "/fcm/send/x?a=b"
    )
    for endpoint in (
        "https://fcm.googleapis.com.attacker.example/x",
        "https://evilfcm.googleapis.com/x",
        "https://attacker.example/fcm.googleapis.com/x",
        "https://8.8.8.8/x",
        "https://[2001:4860:4860::8888]/x",
    ):
        with pytest.raises(PushServiceRefused):
            check_endpoint(endpoint, settings)
    for endpoint in (
        "https://user@fcm.googleapis.com/x",
        "https://fcm.googleapis.com\\@127.0.0.1/x",
        "https://fcm.googleapis.com/x y",
        "http://fcm.googleapis.com/x",
        "https://fcm.googleapis.com:99999/x",
    ):
        with pytest.raises(InvalidInput):
            check_endpoint(endpoint, settings)


def test_a_push_service_outside_the_list_is_refused_with_its_own_code(api: Api) -> None:
    room = api.create()
    assert room.joiner is not None
    r = api.client.post(
        f"/api/rooms/{room.id}/push",
        json={"endpoint": "https://push.attacker.example/x", "keys": _keys()},
        headers=api.auth(room.joiner),
    )
    assert r.status_code == 422
    assert r.json()["code"] == "push_service_refused"
    assert "push.attacker.example" in r.json()["detail"]


@pytest.mark.parametrize(
    "answer",
    [
        ["127.0.0.1"],
        ["::1"],
        ["::ffff:127.0.0.1"],
        ["10.0.0.7"],
        ["169.254.169.254"],
        ["100.64.0.1"],
        ["0.0.0.0"],
        ["224.0.0.1"],
        ["8.8.8.8", "127.0.0.1"],  # one global address does not excuse the other
    ],
    ids=lambda a: ",".join(a),
)
def test_a_listed_name_that_resolves_to_an_address_not_global_is_not_reached(
    api: Api, database: Database, clock: ManualClock, production: Settings, answer: list[str]
) -> None:
    with listener() as local:
        room = _subscribed(api)
        _point(database, f"https://{SERVICE}:{local.port}/push/x")
        api.play(room, "11-15")
        resolver = Resolver(answer)
        deliver_due(database, clock, production, Network(resolve=resolver))
    assert local.connections == 0
    assert resolver.asked == [SERVICE]
    ((state, error),) = _notes(database)
    assert state == Delivery.FAILED
    assert error is not None and "resolves to" in error


def test_the_connection_goes_to_the_address_checked(
    api: Api, database: Database, clock: ManualClock, notify_settings: Settings, tmp_path: Path
) -> None:
    """DNS rebinding: the name answers 127.0.0.1 once, then 127.0.0.2. The message goes
    over TLS to the first, verified for the name, and the name is asked once."""
    ca = authority(tmp_path)
    resolver = Resolver(["127.0.0.1"], ["127.0.0.2"])
    with contextlib.ExitStack() as stack:
        checked = stack.enter_context(listener("127.0.0.1", tls=ca.server(SERVICE)))
        rebound = stack.enter_context(listener("127.0.0.2", checked.port, tls=ca.server(SERVICE)))
        room = _subscribed(api)
        _point(database, f"https://{SERVICE}:{checked.port}/push/device?x=1")
        api.play(room, "11-15")
        deliver_due(database, clock, notify_settings, Network(resolve=resolver, tls=ca.client()))
    assert resolver.asked == [SERVICE]
    assert rebound.connections == 0
    (request,) = checked.requests
    assert request.sni == SERVICE
    assert request.line == "POST /push/device?x=1 HTTP/1.1"
    assert request.header("host") == f"{SERVICE}:{checked.port}"
    assert request.header("authorization") is not None
    assert _notes(database) == [(Delivery.SENT, None)]


def test_a_certificate_for_another_name_is_not_trusted(
    api: Api, database: Database, clock: ManualClock, notify_settings: Settings, tmp_path: Path
) -> None:
    ca = authority(tmp_path)
    with listener(tls=ca.server("other.example")) as local:
        room = _subscribed(api)
        _point(database, f"https://{SERVICE}:{local.port}/push/x")
        api.play(room, "11-15")
        network = Network(resolve=Resolver(["127.0.0.1"]), tls=ca.client())
        deliver_due(database, clock, notify_settings, network)
    assert local.requests == []
    ((state, error),) = _notes(database)
    assert state == Delivery.PENDING and error is not None and "SSL" in error


@pytest.mark.parametrize("status", [301, 302, 307, 308])
def test_a_redirect_is_not_followed(
    api: Api, database: Database, clock: ManualClock, notify_settings: Settings, status: int
) -> None:
    with listener() as elsewhere:
        moved = (
            f"HTTP/1.1 {status} Moved\r\nLocation: http://127.0.0.1:{elsewhere.port}/push/x\r\n"
            "Content-Length: 0\r\n\r\n"
        ).encode()
        with listener(answer=moved) as first:
            room = _subscribed(api)
            _point(database, f"http://127.0.0.1:{first.port}/push/x")
            api.play(room, "11-15")
            deliver_due(database, clock, notify_settings)
    assert first.connections == 1
    assert elsewhere.connections == 0
    assert _notes(database) == [(Delivery.FAILED, f"push service answered {status}")]


def test_a_name_that_cannot_be_resolved_is_tried_again(
    api: Api, database: Database, clock: ManualClock, production: Settings
) -> None:
    async def fails(host: str, port: int) -> list[str]:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    room = _subscribed(api)
    _point(database, f"https://{SERVICE}/push/x")
    api.play(room, "11-15")
    deliver_due(database, clock, production, Network(resolve=fails))
    ((state, error),) = _notes(database)
    assert state == Delivery.PENDING and error == "name lookup failed: gaierror"


def test_answers_are_read_for_their_status_alone(
    api: Api, database: Database, clock: ManualClock, notify_settings: Settings
) -> None:
    continued = b"HTTP/1.1 100 Continue\r\n\r\n" + CREATED
    with listener(answer=continued) as local:
        room = _subscribed(api)
        _point(database, f"http://127.0.0.1:{local.port}/push/x")
        api.play(room, "11-15")
        deliver_due(database, clock, notify_settings)
    assert _notes(database) == [(Delivery.SENT, None)]
