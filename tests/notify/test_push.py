"""Web Push for real: the server signs with its VAPID key and encrypts for each device;
the local push service checks the signature and decrypts the payload."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.core.clock import ManualClock
from app.core.db import Database
from app.core.errors import InvalidInput
from app.core.settings import Settings
from app.i18n import page_catalog, translator
from app.main import create_app
from app.notify.delivery import deliver_due
from app.notify.models import Delivery, Notification, PushSubscription
from app.notify.push import new_private_key
from app.notify.subscriptions import check_endpoint
from app.rooms.jobs import sweep
from tests.rooms.conftest import Api

from .conftest import Sender, subscribe
from .pushservice import PushService


def test_the_opponents_move_reaches_the_waiting_device(
    api: Api, pushes: PushService, sender: Sender
) -> None:
    room = api.create()
    device = pushes.device("phone")
    assert room.joiner is not None
    view = subscribe(api, room, room.joiner, device.subscription())
    assert view["you"]["notifications"] == {"push": True, "email": False}
    assert api.view(room, room.creator)["you"]["notifications"]["push"] is False
    api.play(room, "11-15")  # the drums move: the tires (the phone) are to move
    assert pushes.delivered("phone") == []  # nothing is sent by the request itself
    assert sender.run() == 1
    (payload,) = pushes.wait("phone", 1)
    assert payload == {
        "title": "Your move · English",
        "body": "Drums player played 11-15.",
        "url": f"/r/{room.id}",
        "tag": f"room-{room.id}-game-1",
        "lang": "en",
        "app": "Checkers",
    }
    (received,) = pushes.received
    key = api.client.get("/api/push-key").json()["public_key"]
    assert received.vapid_key == key  # signed with the key browsers subscribe with
    assert received.claims["sub"] == "mailto:checkers@localhost"
    assert received.headers["ttl"] and received.headers["topic"]
    assert sender.run() == 0  # sent once


def test_offers_answers_and_the_end_reach_the_other_seat_only(
    api: Api, pushes: PushService, sender: Sender
) -> None:
    room = api.create()
    assert room.joiner is not None
    drums, tires = pushes.device("drums"), pushes.device("tires")
    subscribe(api, room, room.creator, drums.subscription())
    subscribe(api, room, room.joiner, tires.subscription())
    api.action(room, room.joiner, "draw", "offer")
    api.action(room, room.creator, "draw", "decline")
    api.action(room, room.creator, "resign")
    sender.run()
    assert [p["title"] for p in pushes.delivered("drums")] == ["Draw offered · English"]
    assert [p["body"] for p in pushes.delivered("tires")] == [
        "Drums player declined your draw offer.",
        "Tires win: drums resigned.",
    ]
    api.action(room, room.joiner, "rematch", "offer")
    api.action(room, room.creator, "rematch", "accept")
    sender.run()
    assert pushes.delivered("drums")[-1]["body"] == "Tires player offers a rematch."
    last = pushes.delivered("tires")[-1]
    assert last["title"] == "Rematch accepted · English"
    assert last["body"] == "Game 2 has begun: you play the drums. Your move."
    assert last["tag"] == f"room-{room.id}-game-2"


def test_names_are_in_the_messages(api: Api, pushes: PushService, sender: Sender) -> None:
    r = api.client.post("/api/rooms", json={"rule_set": "russian", "name": "  Ана  "})
    assert r.status_code == 201, r.text
    room_id, creator = r.json()["room_id"], r.json()["token"]
    joined = api.client.post(f"/api/rooms/{room_id}/join", json={"name": "Bob"}).json()
    assert [s["name"] for s in joined["room"]["seats"]] == ["Ана", "Bob"]
    device = pushes.device("bob")
    r = api.client.post(
        f"/api/rooms/{room_id}/push", json=device.subscription(), headers=api.auth(joined["token"])
    )
    assert r.status_code == 200
    moved = api.client.post(
        f"/api/rooms/{room_id}/moves",
        json={"move": "c3-d4", "expected_ply": 0},
        headers=api.auth(creator),
    )
    assert moved.status_code == 200
    sender.run()
    # The move in the rule set's own notation.
    assert pushes.wait("bob", 1)[0]["body"] == "Ана played c3-d4."


def test_the_claim_and_the_reminder_reach_the_right_player(
    client: object,
    pushes: PushService,
    database: Database,
    notify_settings: Settings,
    clock: object,
) -> None:

    from app.core.clock import ManualClock

    assert isinstance(clock, ManualClock)
    settings = notify_settings.model_copy(update={"remind_before_seconds": 6 * 3600})
    with TestClient(create_app(settings, clock=clock, database=database)) as c:
        api = Api(c)
        room = api.create()
        assert room.joiner is not None
        waiting, moving = pushes.device("waiting"), pushes.device("moving")
        subscribe(api, room, room.creator, waiting.subscription())
        subscribe(api, room, room.joiner, moving.subscription())
        api.play(room, "11-15")
        deliver_due(database, clock, settings)
        assert len(pushes.delivered("moving")) == 1  # "your move"
        clock.advance(timedelta(hours=42))
        assert sweep(database, clock, settings) == 1
        deliver_due(database, clock, settings)
        reminder = pushes.delivered("moving")[-1]
        assert reminder["title"] == "Your move: time is running · English"
        # The claim opens 48 h after the turn began (the move, at the clock's start).
        opens = clock.now() + timedelta(hours=6)
        assert reminder["body"] == (
            f"Move within 6 hours (by {translator('en').datetime(opens)}), "
            "or Drums player may claim the win."
        )
        clock.advance(timedelta(hours=6))
        assert sweep(database, clock, settings) == 1
        deliver_due(database, clock, settings)
        claim = pushes.delivered("waiting")[-1]
        assert claim["title"] == "You may claim the win · English"
        assert claim["body"] == "Tires player has not moved for 2 days: you may claim the win."
        assert len(pushes.delivered("moving")) == 2  # the claim is not the mover's news


def test_a_failing_push_service_is_retried_then_given_up(
    api: Api, pushes: PushService, sender: Sender, clock: ManualClock, database: Database
) -> None:
    flaky = pushes.device("flaky", answers=[500, 503])
    room = api.create()
    assert room.joiner is not None
    subscribe(api, room, room.joiner, flaky.subscription())
    api.play(room, "11-15")
    sender.run()
    assert pushes.delivered("flaky") == []
    sender.run()  # not due again yet: the retry waits
    assert len(pushes.received) == 1
    clock.advance(timedelta(seconds=30))
    sender.run()  # second try: 503
    clock.advance(timedelta(seconds=60))
    sender.run()  # third try: accepted
    assert len(pushes.delivered("flaky")) == 1
    with database.session() as session:
        note = session.scalars(select(Notification)).one()
        assert (note.state, note.attempts) == (Delivery.SENT, 3)

    broken = pushes.device("broken", answers=[500] * 20)
    room2 = api.create()
    assert room2.joiner is not None
    subscribe(api, room2, room2.joiner, broken.subscription())
    api.play(room2, "11-15")
    for _ in range(sender.settings.notify_max_attempts + 2):
        sender.run()
        clock.advance(timedelta(hours=3))
    with database.session() as session:
        gave_up = session.scalars(
            select(Notification).where(Notification.room_id == room2.id)
        ).one()
        assert gave_up.state == Delivery.FAILED
        assert gave_up.attempts == sender.settings.notify_max_attempts
    assert len([r for r in pushes.received if r.device == "broken"]) == 8


def test_a_gone_subscription_is_dropped(
    api: Api, pushes: PushService, sender: Sender, database: Database
) -> None:
    gone = pushes.device("gone", answers=[410])
    kept = pushes.device("kept")
    room = api.create()
    assert room.joiner is not None
    subscribe(api, room, room.joiner, gone.subscription())
    subscribe(api, room, room.joiner, kept.subscription())
    api.play(room, "11-15")
    sender.run()
    assert len(pushes.delivered("kept")) == 1
    with database.session() as session:
        endpoints = session.scalars(select(PushSubscription.endpoint)).all()
        states = sorted(s for s in session.scalars(select(Notification.state)))
    assert endpoints == [kept.endpoint]
    assert states == [Delivery.DROPPED, Delivery.SENT]
    assert api.view(room, room.joiner)["you"]["notifications"]["push"] is True
    api.play(room, "22-18", "15x22")
    sender.run()
    assert len([r for r in pushes.received if r.device == "gone"]) == 1  # never again


def test_turning_push_off_stops_the_messages(api: Api, pushes: PushService, sender: Sender) -> None:
    room = api.create()
    assert room.joiner is not None
    laptop = pushes.device("laptop")
    subscribe(api, room, room.joiner, laptop.subscription())
    r = api.client.post(
        f"/api/rooms/{room.id}/push/off",
        json={"endpoint": laptop.endpoint},
        headers=api.auth(room.joiner),
    )
    assert r.status_code == 200 and r.json()["you"]["notifications"]["push"] is False
    api.play(room, "11-15")
    assert sender.run() == 0
    assert pushes.received == []


def test_bad_subscriptions_are_refused(api: Api, notify_settings: Settings) -> None:
    room = api.create()
    assert room.joiner is not None
    good = {
        "endpoint": "https://fcm.googleapis.com/fcm/send/x",
        "keys": {"p256dh": "A" * 87, "auth": "A" * 22},
    }

    def refused(body: object, token: str | None = room.joiner) -> str:
        r = api.client.post(f"/api/rooms/{room.id}/push", json=body, headers=api.auth(token))
        assert r.status_code in (401, 403, 422), r.text
        return str(r.json()["code"])

    assert refused({**good, "keys": {"p256dh": "A" * 86, "auth": "A" * 22}}) in (
        "invalid_input",
        "validation_error",
    )
    assert refused({**good, "endpoint": "ftp://fcm.googleapis.com/x"}) == "invalid_input"
    assert refused(good, token=None) == "token_required"
    assert refused(good, token="nope") == "wrong_token"


def test_private_push_endpoints_are_refused_in_production() -> None:
    production = Settings()
    check_endpoint("https://fcm.googleapis.com/fcm/send/abc", production)
    for bad in (
        "http://fcm.googleapis.com/fcm/send/abc",
        "https://127.0.0.1/x",
        "https://10.1.2.3/x",
        "https://[::1]/x",
        "https://localhost/x",
        "https://169.254.169.254/latest",
    ):
        with pytest.raises(InvalidInput):
            check_endpoint(bad, production)


def test_two_senders_deliver_every_notification_exactly_once(
    api: Api, pushes: PushService, database: Database, clock: ManualClock, notify_settings: Settings
) -> None:
    rooms = []
    for i in range(30):
        room = api.create()
        assert room.joiner is not None
        subscribe(api, room, room.joiner, pushes.device(f"d{i}").subscription())
        rooms.append(room)
    for room in rooms:
        api.play(room, "11-15")
    # Two instances: two engines (pools) on one database, sending at once.
    instances = [Database(database.url) for _ in range(2)]
    barrier = threading.Barrier(2)

    def run(db: Database) -> None:
        barrier.wait()
        deliver_due(db, clock, notify_settings)

    threads = [threading.Thread(target=run, args=(db,)) for db in instances]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for db in instances:
        db.dispose()
    counts = [len(pushes.delivered(f"d{i}")) for i in range(30)]
    assert counts == [1] * 30
    with database.session() as session:
        sent = session.scalar(
            select(func.count())
            .select_from(Notification)
            .where(Notification.state == Delivery.SENT)
        )
    assert sent == 30


def test_the_vapid_key_is_made_once_for_every_instance(
    notify_settings: Settings, clock: ManualClock, database: Database
) -> None:
    keys = []
    for _ in range(2):
        other = Database(database.url)
        with TestClient(create_app(notify_settings, clock=clock, database=other)) as c:
            keys.append(c.get("/api/push-key").json()["public_key"])
        other.dispose()
    assert keys[0] == keys[1] and len(keys[0]) == 87  # a 65-byte P-256 point, base64url

    given = notify_settings.model_copy(update={"vapid_private_key": new_private_key()})
    with TestClient(create_app(given, clock=clock, database=database)) as c:
        assert c.get("/api/push-key").json()["public_key"] != keys[0]


def test_moving_the_seat_to_another_device_drops_the_old_devices(
    api: Api, pushes: PushService, sender: Sender
) -> None:
    room = api.create()
    assert room.joiner is not None
    old = pushes.device("old-phone")
    subscribe(api, room, room.joiner, old.subscription())
    page = TestClient(api.client.app)  # the old device's browser, holding the seat cookie
    page.cookies.set("seat", room.joiner, path=f"/r/{room.id}")
    same = {"Origin": "http://testserver"}
    link = page.post(f"/r/{room.id}/device-link", headers=same)
    assert link.status_code == 200, link.text
    secret = link.json()["url"].split("#continue=", 1)[1]
    moved = TestClient(api.client.app).post(
        f"/r/{room.id}/continue", json={"secret": secret}, headers=same
    )
    assert moved.status_code == 200
    assert moved.json()["you"]["notifications"]["push"] is False
    kinds = [e["kind"] for e in api.client.get(f"/api/rooms/{room.id}/events").json()["events"]]
    assert kinds[-1] == "seat_moved"
    api.play(room, "11-15")
    assert sender.run() == 0 and pushes.received == []


def test_a_device_gets_the_language_and_time_zone_it_was_turned_on_in(
    client: object,
    pushes: PushService,
    database: Database,
    notify_settings: Settings,
    clock: object,
) -> None:
    """The subscription keeps the page's language (here Russian, by Accept-Language) and
    the browser's time zone; a later change of the page's language does not move it."""
    assert isinstance(clock, ManualClock)
    settings = notify_settings.model_copy(update={"remind_before_seconds": 6 * 3600})
    with TestClient(create_app(settings, clock=clock, database=database)) as c:
        api = Api(c)
        room = api.create()
        assert room.joiner is not None
        phone = pushes.device("phone")
        r = c.post(
            f"/api/rooms/{room.id}/push",
            json={**phone.subscription(), "time_zone": "Asia/Bangkok"},
            headers={**api.auth(room.joiner), "Accept-Language": "ru-RU,ru;q=0.9"},
        )
        assert r.status_code == 200, r.text
        api.play(room, "11-15")
        deliver_due(database, clock, settings)
        (payload,) = pushes.delivered("phone")
        assert payload["title"] == "Ваш ход · Английские"
        assert payload["body"] == "Игрок бочек сыграл(а) 11-15."  # noqa: RUF001
        assert payload["lang"] == "ru"
        # The service worker's title for a payload without one: the service's name in
        # the device's language, as the catalog has it (the pages' catalog has it too).
        assert payload["app"] == "Шашки" == page_catalog("ru")["messages"]["Checkers"]
        clock.advance(timedelta(hours=42))
        sweep(database, clock, settings)
        deliver_due(database, clock, settings)
        reminder = pushes.delivered("phone")[-1]
        opens = clock.now() + timedelta(hours=6)
        when = translator("ru").datetime(opens, "Asia/Bangkok")
        assert "UTC" not in when
        assert reminder["body"] == (
            f"Сделайте ход в течение 6 часов (до {when}), иначе Игрок бочек сможет "
            "потребовать победу."
        )
