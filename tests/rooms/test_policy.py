"""The rules around a game that need no database, tested on rows built in memory."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.core.settings import Settings
from app.rooms import errors, policy
from app.rooms.models import (
    Ending,
    Game,
    GameStatus,
    Level,
    Offer,
    OfferKind,
    OfferStatus,
    Room,
    RoomStatus,
    Seat,
    SeatRole,
)
from app.rooms.policy import Deadline
from checkers_engine import Side

T0 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)
SETTINGS = Settings(
    claim_after_seconds=48 * 3600,
    expire_after_seconds=7 * 24 * 3600,
    rematch_window_seconds=3 * 24 * 3600,
)


def room(status: RoomStatus, *, computer: bool = False, active: datetime = T0) -> Room:
    seats = [Seat(role=SeatRole.CREATOR, token_hash="x", joined_at=T0)]
    if status != RoomStatus.WAITING:
        level = Level.TAMER if computer else None
        seats.append(Seat(role=SeatRole.JOINER, computer_level=level, joined_at=T0))
    return Room(id="r", rule_set="english", status=status, last_active_at=active, seats=seats)


def game(status: GameStatus = GameStatus.PLAYING, *, turn_began: datetime | None = T0) -> Game:
    return Game(
        number=1,
        drums_seat=SeatRole.CREATOR,
        status=status,
        turn=Side.DRUMS,
        turn_started_at=turn_began,
        claim_notified=False,
    )


def offer(kind: OfferKind, by: SeatRole, status: OfferStatus = OfferStatus.PENDING) -> Offer:
    return Offer(kind=kind, by_seat=by, status=status, created_at=T0)


# --- deadlines -------------------------------------------------------------------------


def test_a_claim_opens_a_fixed_time_after_the_turn_began() -> None:
    assert policy.claim_opens_at(room(RoomStatus.PLAYING), game(), SETTINGS) == T0 + 48 * HOUR


@pytest.mark.parametrize("status", [RoomStatus.WAITING, RoomStatus.FINISHED, RoomStatus.EXPIRED])
def test_no_claim_without_a_game_in_progress(status: RoomStatus) -> None:
    assert policy.claim_opens_at(room(status), game(), SETTINGS) is None


def test_no_claim_against_the_computer() -> None:
    assert policy.claim_opens_at(room(RoomStatus.PLAYING, computer=True), game(), SETTINGS) is None


def test_expiry_and_the_rematch_window() -> None:
    assert policy.expires_at(room(RoomStatus.WAITING), SETTINGS) == T0 + 7 * 24 * HOUR
    assert policy.expires_at(room(RoomStatus.PLAYING), SETTINGS) == T0 + 7 * 24 * HOUR
    assert policy.expires_at(room(RoomStatus.FINISHED), SETTINGS) == T0 + 3 * 24 * HOUR
    assert policy.expires_at(room(RoomStatus.EXPIRED), SETTINGS) is None


def test_the_next_check_is_the_nearest_deadline_not_yet_announced() -> None:
    playing, g = room(RoomStatus.PLAYING), game()
    # The reminder comes REMIND_BEFORE (24 h) ahead of the claim (48 h).
    assert policy.remind_at(playing, g, SETTINGS) == T0 + 24 * HOUR
    assert policy.next_check(playing, g, SETTINGS) == T0 + 24 * HOUR
    g.reminded = True
    assert policy.next_check(playing, g, SETTINGS) == T0 + 48 * HOUR
    g.claim_notified = True  # the claim's opening was announced: only expiry is left
    assert policy.next_check(playing, g, SETTINGS) == T0 + 7 * 24 * HOUR
    assert policy.next_check(room(RoomStatus.EXPIRED), g, SETTINGS) is None


def test_no_reminder_when_turned_off_or_longer_than_the_turn() -> None:
    playing, g = room(RoomStatus.PLAYING), game()
    off = SETTINGS.model_copy(update={"remind_before_seconds": 0})
    assert policy.remind_at(playing, g, off) is None
    assert policy.next_check(playing, g, off) == T0 + 48 * HOUR
    longer = SETTINGS.model_copy(update={"remind_before_seconds": 49 * 3600})
    assert policy.remind_at(playing, g, longer) is None
    vs_computer = room(RoomStatus.PLAYING, computer=True)
    assert policy.remind_at(vs_computer, g, SETTINGS) is None


def test_which_deadline_has_come() -> None:
    playing, g = room(RoomStatus.PLAYING), game()
    assert policy.due_deadline(playing, g, T0 + 23 * HOUR, SETTINGS) is None
    assert policy.due_deadline(playing, g, T0 + 24 * HOUR, SETTINGS) is Deadline.REMIND
    g.reminded = True
    assert policy.due_deadline(playing, g, T0 + 47 * HOUR, SETTINGS) is None
    assert policy.due_deadline(playing, g, T0 + 48 * HOUR, SETTINGS) is Deadline.CLAIM_OPEN
    g.claim_notified = True
    assert policy.due_deadline(playing, g, T0 + 49 * HOUR, SETTINGS) is None
    # A claim overtakes a reminder never sent; expiry overtakes both.
    fresh = game()
    assert policy.due_deadline(playing, fresh, T0 + 48 * HOUR, SETTINGS) is Deadline.CLAIM_OPEN
    later = T0 + 7 * 24 * HOUR
    assert policy.due_deadline(playing, fresh, later, SETTINGS) is Deadline.EXPIRE
    finished_room = room(RoomStatus.FINISHED)
    assert policy.due_deadline(finished_room, g, T0 + 3 * 24 * HOUR, SETTINGS) is Deadline.CLOSE
    assert policy.due_deadline(room(RoomStatus.EXPIRED), g, later + HOUR, SETTINGS) is None


def test_durations_are_said_as_configured() -> None:
    assert policy.span(timedelta(days=7)) == "7 days"
    assert policy.span(timedelta(hours=48)) == "2 days"
    assert policy.span(timedelta(hours=36)) == "36 hours"
    assert policy.span(timedelta(hours=1)) == "1 hour"
    assert policy.span(timedelta(minutes=90)) == "90 minutes"
    assert policy.span(timedelta(seconds=61)) == "61 seconds"
    assert policy.forfeit_reason(SETTINGS) == "forfeit: no move for 2 days"
    assert policy.expired_reason(SETTINGS, waiting=False) == "expired: no move for 7 days"
    assert policy.expired_reason(SETTINGS, waiting=True) == "nobody joined within 7 days"
    assert policy.closed_reason(SETTINGS) == "closed to rematches: no rematch within 3 days"


# --- offers ----------------------------------------------------------------------------


def test_one_pending_offer_of_a_kind_at_a_time() -> None:
    offers = [offer(OfferKind.DRAW, SeatRole.CREATOR)]
    with pytest.raises(errors.OfferPending, match="you have a draw offer pending"):
        policy.check_new_offer(offers, OfferKind.DRAW, SeatRole.CREATOR)
    with pytest.raises(errors.OfferPending, match="your opponent has a draw offer pending"):
        policy.check_new_offer(offers, OfferKind.DRAW, SeatRole.JOINER)
    policy.check_new_offer(offers, OfferKind.REMATCH, SeatRole.JOINER)  # another kind


def test_at_most_three_draw_offers_per_player_and_game() -> None:
    made = [offer(OfferKind.DRAW, SeatRole.CREATOR, OfferStatus.DECLINED) for _ in range(3)]
    with pytest.raises(errors.OfferLimit):
        policy.check_new_offer(made, OfferKind.DRAW, SeatRole.CREATOR)
    policy.check_new_offer(made, OfferKind.DRAW, SeatRole.JOINER)
    policy.check_new_offer(made, OfferKind.REMATCH, SeatRole.CREATOR)  # rematches: no cap
    assert policy.draw_offers_made(made, SeatRole.CREATOR) == policy.MAX_DRAW_OFFERS == 3


def test_only_the_opponents_pending_offer_can_be_answered() -> None:
    pending = offer(OfferKind.REMATCH, SeatRole.JOINER)
    assert policy.offer_to_answer([pending], OfferKind.REMATCH, SeatRole.CREATOR) is pending
    with pytest.raises(errors.NoOffer):
        policy.offer_to_answer([pending], OfferKind.REMATCH, SeatRole.JOINER)
    with pytest.raises(errors.NoOffer):
        policy.offer_to_answer([pending], OfferKind.DRAW, SeatRole.CREATOR)
    answered = offer(OfferKind.DRAW, SeatRole.JOINER, OfferStatus.DECLINED)
    with pytest.raises(errors.NoOffer):
        policy.offer_to_answer([answered], OfferKind.DRAW, SeatRole.CREATOR)


# --- results ---------------------------------------------------------------------------


def finished(winner: Side | None, ending: Ending, reason: str) -> Game:
    """A finished game; the result depends on the ending and the winner alone (`reason`
    names the case)."""
    g = game(GameStatus.FINISHED)
    g.winner, g.termination = winner, ending
    return g


def test_pdn_results() -> None:
    assert policy.pdn_result(game()) == "*"
    assert policy.pdn_result(finished(None, Ending.EXPIRED, "nobody joined")) == "*"
    assert policy.pdn_result(finished(None, Ending.AGREEMENT, "agreed")) == "1/2-1/2"
    drums = policy.pdn_result(finished(Side.DRUMS, Ending.FORFEIT, "forfeit"))
    tires = policy.pdn_result(finished(Side.TIRES, Ending.NO_MOVES, "drums have no legal move"))
    assert (drums, tires) == ("1-0", "0-1")  # "1-0": the first mover (drums) won
