"""Time rules (issue 4): forfeit claims after 48 h, expiry after 7 days, the sweep.

Time comes from the manual clock; nothing sleeps.
"""

from __future__ import annotations

import threading
from datetime import datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.core.clock import ManualClock
from app.core.db import Database
from app.core.settings import Settings
from app.main import create_app
from app.rooms.jobs import sweep
from app.rooms.models import Event, Seat
from app.rooms.models import Room as RoomRow

from .conftest import Api, Room

HOUR = timedelta(hours=1)
DAY = timedelta(days=1)
SECOND = timedelta(seconds=1)


def iso(instant: datetime) -> str:
    return instant.isoformat().replace("+00:00", "Z")


def events(api: Api, room: Room, kind: str | None = None) -> list[dict[str, Any]]:
    body = api.client.get(f"/api/rooms/{room.id}/events").json()
    return [e for e in body["events"] if kind is None or e["kind"] == kind]


# --- deadlines are data, shown in the view ------------------------------------------------


def test_view_shows_the_exact_instants(api: Api, clock: ManualClock) -> None:
    start = clock.now()
    room = api.create(join=False)
    waiting = api.view(room)
    assert waiting["expires_at"] == iso(start + 7 * DAY) and waiting["claim_opens_at"] is None
    clock.advance(hours=5)
    api.client.post(f"/api/rooms/{room.id}/join")
    room.joiner = None  # the token is not needed below
    playing = api.view(room)
    assert playing["claim_opens_at"] == iso(start + 5 * HOUR + 48 * HOUR)
    assert playing["expires_at"] == iso(start + 5 * HOUR + 7 * DAY)
    clock.advance(hours=3)
    api.move(room, room.creator, "11-15", 0)
    moved = api.view(room)
    assert moved["claim_opens_at"] == iso(start + 8 * HOUR + 48 * HOUR)
    assert moved["expires_at"] == iso(start + 8 * HOUR + 7 * DAY)
    clock.advance(hours=1)
    api.action(room, room.creator, "resign")
    over = api.view(room)
    assert over["claim_opens_at"] is None
    assert over["expires_at"] == iso(start + 9 * HOUR + 7 * DAY)


def test_durations_are_settings(database: Database, clock: ManualClock) -> None:
    settings = Settings(
        database_url=database.url,
        scheduler_enabled=False,
        migrate_on_start=False,
        claim_after_seconds=60,
        expire_after_seconds=600,
    )
    with TestClient(create_app(settings, clock=clock, database=database)) as client:
        api = Api(client)
        room = api.create()
        view = api.view(room)
        assert view["claim_opens_at"] == iso(clock.now() + timedelta(seconds=60))
        assert view["expires_at"] == iso(clock.now() + timedelta(seconds=600))
        clock.advance(seconds=60)
        assert api.action(room, room.joiner, "claim-forfeit").status_code == 200


# --- the forfeit claim ----------------------------------------------------------------------


def test_claim_opens_exactly_at_48_hours(api: Api, clock: ManualClock) -> None:
    room = api.create()
    api.play(room, "11-15")  # now the tires (joiner) are to move; the drums wait
    clock.advance(48 * HOUR - SECOND)
    before = api.view(room)
    early = api.action(room, room.creator, "claim-forfeit")
    assert early.status_code == 409 and early.json()["code"] == "claim_not_open"
    assert early.json()["opens_at"] == before["claim_opens_at"].replace("Z", "+00:00")
    assert api.view(room) == before
    clock.advance(SECOND)
    r = api.action(room, room.creator, "claim-forfeit")
    assert r.status_code == 200
    result = r.json()["game"]["result"]
    assert (result["winner"], result["winner_seat"]) == ("drums", "creator")
    assert result["reason"] == "forfeit: no move for 2 days"
    assert result["text"] == "Drums win by forfeit: tires made no move for 2 days"
    assert r.json()["status"] == "finished"
    assert [e["kind"] for e in events(api, room)][-2:] == ["forfeit_claimed", "game_over"]


def test_the_seat_to_move_and_spectators_cannot_claim(api: Api, clock: ManualClock) -> None:
    room = api.create()
    clock.advance(72 * HOUR)
    before = api.view(room)
    mover = api.action(room, room.creator, "claim-forfeit")  # the drums are to move
    assert mover.status_code == 409 and mover.json()["code"] == "claim_not_allowed"
    assert api.action(room, None, "claim-forfeit").status_code == 401
    assert api.action(room, "stranger", "claim-forfeit").status_code == 403
    assert api.view(room) == before


def test_a_move_closes_the_claim_window(api: Api, clock: ManualClock) -> None:
    room = api.create()
    api.play(room, "11-15")
    clock.advance(47 * HOUR)
    api.play(room, "22-18")  # the tires move in time: now the drums are to move
    clock.advance(HOUR)
    # 48 h after the drums' move, but the tires' turn ended: the tires are now waiting and
    # the drums' claim window is unrelated; the drums are to move and cannot claim.
    assert api.action(room, room.creator, "claim-forfeit").status_code == 409
    late = api.action(room, room.joiner, "claim-forfeit")
    assert late.status_code == 409 and late.json()["code"] == "claim_not_open"
    clock.advance(47 * HOUR)
    assert api.action(room, room.joiner, "claim-forfeit").status_code == 200


def test_no_claims_against_the_computer(api: Api, clock: ManualClock, database: Database) -> None:
    room = api.create()
    with database.session() as session, session.begin():
        seat = session.scalars(
            select(Seat).where(Seat.room_id == room.id, Seat.role == "joiner")
        ).one()
        seat.computer_level = "tamer"
    api.play(room, "11-15")
    clock.advance(100 * HOUR)
    assert api.view(room)["claim_opens_at"] is None
    r = api.action(room, room.creator, "claim-forfeit")
    assert r.status_code == 409 and r.json()["code"] == "claim_not_allowed"
    assert events(api, room, "claim_open") == []


# --- claim_open events ----------------------------------------------------------------------


def test_sweep_emits_claim_open_once_per_turn(
    api: Api, clock: ManualClock, database: Database, settings: Settings
) -> None:
    room = api.create()
    api.play(room, "11-15")
    clock.advance(48 * HOUR - SECOND)
    assert sweep(database, clock, settings) == 0
    clock.advance(SECOND)
    assert sweep(database, clock, settings) == 1
    clock.advance(HOUR)
    assert sweep(database, clock, settings) == 0
    api.view(room)
    [event] = events(api, room, "claim_open")
    assert event["data"]["seat"] == "creator" and event["data"]["side"] == "drums"
    assert event["data"]["ply"] == 1
    # Next turn, next claim.
    api.play(room, "22-18")
    clock.advance(48 * HOUR)
    api.view(room)  # reached on access even before a sweep
    assert sweep(database, clock, settings) == 0
    assert [e["data"]["side"] for e in events(api, room, "claim_open")] == ["drums", "tires"]


# --- expiry ---------------------------------------------------------------------------------


def test_waiting_room_expires_seven_days_after_creation_on_access(
    api: Api, clock: ManualClock
) -> None:
    room = api.create(join=False)
    clock.advance(7 * DAY - SECOND)
    assert api.view(room)["status"] == "waiting"
    clock.advance(SECOND)
    view = api.view(room)  # no sweep has run
    assert view["status"] == "expired" and view["expires_at"] is None
    result = view["game"]["result"]
    # The configured duration, said as what happened: nobody took the seat.
    assert result["winner"] is None and result["reason"] == "nobody joined within 7 days"
    assert result["text"] == "Nobody joined within 7 days"
    join = api.client.post(f"/api/rooms/{room.id}/join")
    assert join.status_code == 409 and join.json()["code"] == "room_expired"
    assert "expired" in join.json()["detail"]
    assert len(events(api, room, "expired")) == 1


def test_active_room_expires_and_refuses_everything(api: Api, clock: ManualClock) -> None:
    room = api.create()
    api.play(room, "11-15")
    clock.advance(7 * DAY)
    # The first request to reach the room is a move: refused, but the expiry sticks.
    r = api.move(room, room.joiner, "22-18", 1)
    assert r.status_code == 409 and r.json()["code"] == "room_expired"
    view = api.view(room)
    assert view["status"] == "expired"
    assert view["game"]["result"]["text"] == (
        "No winner: the game expired after 7 days without a move"
    )
    assert view["score"] == {"creator": 0.0, "joiner": 0.0}
    for what, action in (
        ("draw", "offer"),
        ("resign", None),
        ("claim-forfeit", None),
        ("rematch", "offer"),
    ):
        refused = api.action(room, room.creator, what, action)
        assert refused.status_code == 409 and refused.json()["code"] == "room_expired", what
    assert view == api.view(room)
    assert len(events(api, room, "expired")) == 1


def test_claim_after_seven_days_finds_the_room_expired(api: Api, clock: ManualClock) -> None:
    room = api.create()
    api.play(room, "11-15")
    clock.advance(7 * DAY + HOUR)
    r = api.action(room, room.creator, "claim-forfeit")
    assert r.status_code == 409 and r.json()["code"] == "room_expired"


def test_finished_room_closes_to_rematches_after_seven_days(
    api: Api, clock: ManualClock, database: Database, settings: Settings
) -> None:
    room = api.create()
    api.action(room, room.joiner, "resign")
    api.action(room, room.creator, "rematch", "offer")
    clock.advance(7 * DAY)
    assert sweep(database, clock, settings) == 1
    view = api.view(room)
    assert view["status"] == "expired" and view["offers"] == []
    assert view["game"]["result"]["text"] == "Drums win: tires resigned"  # unchanged
    r = api.action(room, room.joiner, "rematch", "accept")
    assert r.status_code == 409 and r.json()["code"] == "room_expired"


def test_sweep_catches_up_after_downtime(
    api: Api, clock: ManualClock, database: Database, settings: Settings
) -> None:
    waiting = [api.create(join=False) for _ in range(3)]
    playing = [api.create() for _ in range(3)]
    for room in playing:
        api.play(room, "11-15")
    clock.advance(30 * DAY)  # nothing ran meanwhile
    assert sweep(database, clock, settings) == 6
    assert sweep(database, clock, settings) == 0
    for room in waiting + playing:
        assert api.view(room)["status"] == "expired"
        assert len(events(api, room, "expired")) == 1
        # Expired before the claim was ever announced: no stale claim_open.
        assert events(api, room, "claim_open") == []


def test_sweep_reads_only_due_rooms(
    api: Api, clock: ManualClock, database: Database, settings: Settings
) -> None:
    due = [api.create(join=False) for _ in range(2)]
    clock.advance(6 * DAY)
    fresh = [api.create(join=False) for _ in range(3)]
    clock.advance(DAY)
    assert sweep(database, clock, settings) == 2
    with database.session() as session:
        checks = dict(session.execute(select(RoomRow.id, RoomRow.next_check_at)).all())
    assert all(checks[r.id] is None for r in due)
    assert all(checks[r.id] == clock.now() + 6 * DAY for r in fresh)


def _race(
    api: Api, room: Room, database: Database, clock: ManualClock, settings: Settings
) -> list[int]:
    """The tires' move and a sweep, released together; returns the move's status."""
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def mover() -> None:
        barrier.wait()
        statuses.append(api.move(room, room.joiner, "22-18", 1).status_code)

    def sweeper() -> None:
        barrier.wait()
        sweep(database, clock, settings)

    threads = [threading.Thread(target=mover), threading.Thread(target=sweeper)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return statuses


def test_move_racing_the_sweep_leaves_a_consistent_state(
    api: Api, clock: ManualClock, database: Database, settings: Settings
) -> None:
    """At the instant the claim opens, the tires' move and the sweep race: either the
    sweep announces the claim first and the move then closes it, or the move comes first
    and no claim is announced. Never a claim_open after the move."""
    for _ in range(5):
        room = api.create()
        api.play(room, "11-15")
        clock.advance(48 * HOUR)
        statuses = _race(api, room, database, clock, settings)
        assert statuses == [200]
        kinds = [e["kind"] for e in events(api, room) if e["kind"] in ("claim_open", "move")]
        assert kinds in (["move", "move"], ["move", "claim_open", "move"])
        view = api.view(room)
        assert view["game"]["ply"] == 2
        assert view["claim_opens_at"] == iso(clock.now() + 48 * HOUR)
        with database.session() as session:
            row = session.get(RoomRow, room.id)
            assert row is not None and row.next_check_at == clock.now() + 48 * HOUR


# --- the scheduler --------------------------------------------------------------------------


@pytest.mark.parametrize("enabled", [True, False])
def test_scheduler_runs_in_the_lifespan_unless_disabled(
    database: Database, clock: ManualClock, enabled: bool
) -> None:
    settings = Settings(
        database_url=database.url,
        migrate_on_start=False,
        scheduler_enabled=enabled,
        sweep_interval_seconds=3600,
    )
    app = create_app(settings, clock=clock, database=database)
    with TestClient(app):
        scheduler = app.state.scheduler
        if enabled:
            job = scheduler.get_job("rooms-sweep")
            assert job is not None and job.trigger.interval == timedelta(hours=1)
        else:
            assert scheduler is None


def test_events_are_versioned_per_room(api: Api, database: Database) -> None:
    first, second = api.create(), api.create()
    api.play(first, "11-15")
    with database.session() as session:
        rows = session.execute(
            select(Event.room_id, Event.version).order_by(Event.room_id, Event.version)
        ).all()
    versions: dict[str, list[int]] = {}
    for room_id, version in rows:
        versions.setdefault(room_id, []).append(version)
    assert versions[first.id] == [1, 2, 3] and versions[second.id] == [1, 2]
