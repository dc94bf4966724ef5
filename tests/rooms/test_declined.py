"""A declined offer is told, not just gone: the room view keeps it while it is news to the
one who made it (a draw until they move again, a rematch while the room stays open), and
says why when a reason was given."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from app.core.clock import ManualClock

from .conftest import Api

SECOND = timedelta(seconds=1)


def _declined(view: dict[str, Any]) -> dict[str, Any] | None:
    found: dict[str, Any] | None = view["declined"]
    return found


def test_a_declined_draw_stays_news_until_its_offerer_moves_again(
    api: Api, clock: ManualClock
) -> None:
    room = api.create()
    assert room.joiner is not None
    api.play(room, "11-15")  # the tires to move
    assert _declined(api.view(room, room.creator)) is None
    api.action(room, room.creator, "draw", "offer")
    clock.advance(SECOND)
    answer = api.action(room, room.joiner, "draw", "decline")
    assert answer.status_code == 200, answer.text
    told = {
        "kind": "draw",
        "by_seat": "creator",
        "by_side": "drums",
        "declined_at": clock.now().isoformat().replace("+00:00", "Z"),
        "reason": None,
    }
    assert _declined(answer.json()) == told  # the decliner's answer
    for token in (room.creator, room.joiner, None):  # both players and a spectator
        assert _declined(api.view(room, token)) == told
    assert api.view(room)["offers"] == []
    # The one who declined moves: still news to the one who offered.
    clock.advance(SECOND)
    api.play(room, "22-18")
    assert _declined(api.view(room, room.creator)) == told
    # The offerer moves on: the answer is old news.
    clock.advance(SECOND)
    api.play(room, "15x22")
    assert _declined(api.view(room, room.creator)) is None


def test_a_new_offer_and_the_games_end_replace_a_declined_draw(
    api: Api, clock: ManualClock
) -> None:
    room = api.create()
    assert room.joiner is not None
    api.action(room, room.joiner, "draw", "offer")
    clock.advance(SECOND)
    api.action(room, room.creator, "draw", "decline")
    assert _declined(api.view(room))["by_seat"] == "joiner"  # type: ignore[index]
    api.action(room, room.creator, "draw", "offer")  # pending now: said as an offer
    view = api.view(room)
    assert _declined(view) is None and [o["kind"] for o in view["offers"]] == ["draw"]
    api.action(room, room.joiner, "draw", "decline")
    assert _declined(api.view(room))["by_seat"] == "creator"  # type: ignore[index]
    api.action(room, room.joiner, "resign")
    assert _declined(api.view(room)) is None  # the result is the news


def test_a_declined_rematch_stays_news_while_the_room_is_open(api: Api, clock: ManualClock) -> None:
    room = api.create()
    assert room.joiner is not None
    api.action(room, room.creator, "resign")
    api.action(room, room.creator, "rematch", "offer")
    clock.advance(SECOND)
    api.action(room, room.joiner, "rematch", "decline")
    clock.advance(timedelta(days=1))
    declined = _declined(api.view(room, room.creator))
    assert declined is not None
    assert (declined["kind"], declined["by_seat"], declined["reason"]) == (
        "rematch",
        "creator",
        None,
    )
    # Declined lately means once: a new offer is the news, and then its acceptance.
    api.action(room, room.joiner, "rematch", "offer")
    assert _declined(api.view(room)) is None
    api.action(room, room.creator, "rematch", "accept")
    assert _declined(api.view(room)) is None
