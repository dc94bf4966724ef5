"""More time (issue 62, point 2): the waiting player gives the player to move one more
day, at most seven a game; the claim and the expiry move, the record says who and when.

Time comes from the manual clock; the sweep runs as the scheduler runs it.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select

from app.core.clock import ManualClock
from app.core.db import Database
from app.core.settings import Settings
from app.rooms.jobs import sweep
from app.rooms.models import Seat

from .conftest import Api, Room

HOUR = timedelta(hours=1)
DAY = timedelta(days=1)
SECOND = timedelta(seconds=1)


def iso(instant: datetime) -> str:
    return instant.isoformat().replace("+00:00", "Z")


def events(api: Api, room: Room, kind: str) -> list[dict[str, Any]]:
    body = api.client.get(f"/api/rooms/{room.id}/events").json()
    return [e for e in body["events"] if e["kind"] == kind]


def give(api: Api, room: Room, token: str | None) -> Any:
    return api.action(room, token, "more-time")


def test_the_waiting_player_gives_a_day_and_both_see_it(api: Api, clock: ManualClock) -> None:
    room = api.create()
    api.play(room, "11-15")  # the tires (joiner) to move; the drums (creator) wait
    moved = clock.now()
    assert api.view(room, room.creator)["you"]["can_give_time"] is True
    assert api.view(room, room.joiner)["you"]["can_give_time"] is False
    clock.advance(5 * HOUR)
    r = give(api, room, room.creator)
    assert r.status_code == 200, r.text
    for token in (room.creator, room.joiner, None):
        view = api.view(room, token)
        assert view["claim_opens_at"] == iso(moved + 48 * HOUR + DAY)
        assert view["expires_at"] == iso(moved + 7 * DAY + DAY)
        assert view["game"]["extra_time"] == {"turn_days": 1, "given_days": 1, "max_days": 7}
    [event] = events(api, room, "time_given")
    assert event["created_at"] == iso(moved + 5 * HOUR)
    data = event["data"]
    assert (data["seat"], data["side"], data["days"], data["total_days"]) == (
        "creator",
        "tires",
        1,
        1,
    )
    assert data["claim_opens_at"] == (moved + 48 * HOUR + DAY).isoformat()


def test_who_may_give_and_who_may_not(api: Api, clock: ManualClock) -> None:
    room = api.create()
    api.play(room, "11-15")
    before = api.view(room)
    mover = give(api, room, room.joiner)
    assert mover.status_code == 409 and mover.json()["code"] == "not_waiting"
    assert give(api, room, None).status_code == 401
    assert give(api, room, "stranger").status_code == 403
    assert api.view(room) == before
    api.action(room, room.creator, "resign")
    over = give(api, room, room.joiner)
    assert over.status_code == 409 and over.json()["code"] == "game_over"


def test_seven_days_a_game_then_refused(api: Api, clock: ManualClock) -> None:
    room = api.create()
    api.play(room, "11-15")
    for _ in range(4):
        assert give(api, room, room.creator).status_code == 200
    api.play(room, "22-18")  # the turn's days lapse with the move; the game's count stays
    view = api.view(room)
    assert view["game"]["extra_time"] == {"turn_days": 0, "given_days": 4, "max_days": 7}
    assert view["claim_opens_at"] == iso(clock.now() + 48 * HOUR)
    for _ in range(3):
        assert give(api, room, room.joiner).status_code == 200
    before = api.view(room)
    eighth = give(api, room, room.joiner)
    assert eighth.status_code == 409 and eighth.json()["code"] == "time_limit"
    assert api.view(room) == before
    assert api.view(room, room.joiner)["you"]["can_give_time"] is False
    assert [e["data"]["seat"] for e in events(api, room, "time_given")] == ["creator"] * 4 + [
        "joiner"
    ] * 3


def test_the_claim_opens_a_day_later_to_the_second_with_a_sweep(
    api: Api, clock: ManualClock, database: Database, settings: Settings
) -> None:
    room = api.create()
    api.play(room, "11-15")
    moved = clock.now()
    assert give(api, room, room.creator).status_code == 200
    clock.set(moved + 48 * HOUR)  # the claim's old instant: nothing is due
    assert sweep(database, clock, settings) == 0
    early = api.action(room, room.creator, "claim-forfeit")
    assert early.status_code == 409 and early.json()["code"] == "claim_not_open"
    assert early.json()["opens_at"] == (moved + 48 * HOUR + DAY).isoformat()
    clock.set(moved + 48 * HOUR + DAY - SECOND)
    assert sweep(database, clock, settings) == 0
    assert api.action(room, room.creator, "claim-forfeit").status_code == 409
    assert events(api, room, "claim_open") == []
    clock.advance(SECOND)
    assert sweep(database, clock, settings) == 1
    [opened] = events(api, room, "claim_open")
    assert opened["data"]["opens_at"] == (moved + 48 * HOUR + DAY).isoformat()
    r = api.action(room, room.creator, "claim-forfeit")
    assert r.status_code == 200 and r.json()["game"]["result"]["winner_seat"] == "creator"


def test_a_day_given_after_the_claim_opened_closes_it_until_then(
    api: Api, clock: ManualClock, database: Database, settings: Settings
) -> None:
    room = api.create()
    api.play(room, "11-15")
    moved = clock.now()
    clock.advance(50 * HOUR)
    assert sweep(database, clock, settings) == 1  # the claim opens
    assert give(api, room, room.creator).status_code == 200
    closed = api.action(room, room.creator, "claim-forfeit")
    assert closed.status_code == 409 and closed.json()["code"] == "claim_not_open"
    clock.set(moved + 72 * HOUR)
    assert sweep(database, clock, settings) == 1  # and opens again, announced again
    assert len(events(api, room, "claim_open")) == 2
    assert api.action(room, room.creator, "claim-forfeit").status_code == 200


def test_the_room_does_not_expire_while_its_extra_days_run(
    api: Api, clock: ManualClock, database: Database, settings: Settings
) -> None:
    room = api.create()
    api.play(room, "11-15")
    moved = clock.now()
    for _ in range(7):
        assert give(api, room, room.creator).status_code == 200
    clock.set(moved + 7 * DAY + HOUR)  # past the usual expiry
    sweep(database, clock, settings)
    assert api.view(room)["status"] == "playing"
    clock.set(moved + 48 * HOUR + 7 * DAY - SECOND)
    sweep(database, clock, settings)
    assert api.action(room, room.creator, "claim-forfeit").status_code == 409
    clock.advance(SECOND)
    sweep(database, clock, settings)
    assert api.action(room, room.creator, "claim-forfeit").status_code == 200


def test_no_time_to_give_against_the_computer(
    api: Api, clock: ManualClock, database: Database
) -> None:
    room = api.create()
    with database.session() as session, session.begin():
        seat = session.scalars(
            select(Seat).where(Seat.room_id == room.id, Seat.role == "joiner")
        ).one()
        seat.computer_level = "tamer"
    api.play(room, "11-15")
    r = give(api, room, room.creator)
    assert r.status_code == 409 and r.json()["code"] == "no_time_to_give"
