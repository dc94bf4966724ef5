"""A room's game as PDN: the comment after the last move says why the game ended, naming
the sides by the tradition's colours, as the tags name the players."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from app.core.settings import Settings
from app.rooms import reasons
from app.rooms.models import Ending, Game, GameStatus, Room, RoomStatus, Seat, SeatRole
from app.rooms.pdn import export_game
from checkers_engine import RULE_SETS, Outcome, Side, Termination

T0 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
SETTINGS = Settings(claim_after_seconds=48 * 3600, expire_after_seconds=7 * 24 * 3600)


def reason(ending: Ending, winner: Side | None) -> reasons.Reason:
    """The reason the service stores for the ending."""
    loser = winner.opponent if winner else None
    if ending == Ending.RESIGNATION:
        assert loser is not None
        return reasons.resigned(loser)
    if ending == Ending.NO_PIECES:
        return reasons.of_outcome(Outcome(winner, Termination.NO_PIECES))
    if ending == Ending.NO_MOVES:
        return reasons.of_outcome(Outcome(winner, Termination.NO_MOVES))
    if ending == Ending.REPETITION:
        return reasons.of_outcome(Outcome(None, Termination.REPETITION))
    if ending == Ending.KING_MOVES:
        return reasons.of_outcome(Outcome(None, Termination.KING_MOVES))
    if ending == Ending.FORFEIT:
        return reasons.forfeit(SETTINGS)
    if ending == Ending.AGREEMENT:
        return reasons.AGREED
    if ending == Ending.MOVE_LIMIT:
        return reasons.move_limit(200)
    return reasons.expired(SETTINGS, waiting=False)


def pdn(rule_set: str, ending: Ending, winner: Side | None) -> str:
    room = Room(
        id="r",
        rule_set=rule_set,
        status=RoomStatus.FINISHED,
        seats=[
            Seat(role=SeatRole.CREATOR, name="Ana", joined_at=T0),
            Seat(role=SeatRole.JOINER, name="Bo", joined_at=T0),
        ],
    )
    game = Game(
        number=1,
        drums_seat=SeatRole.CREATOR,
        status=GameStatus.FINISHED,
        turn=Side.DRUMS,
        created_at=T0,
        started_at=T0,
        ended_at=T0,
        winner=winner,
        termination=ending,
        reason=reason(ending, winner),
    )
    return export_game(room, game, [], site="https://example.org/r/r")


def comment(text: str) -> str:
    found = re.findall(r"\{([^}]*)\}", text)
    assert len(found) == 1, text
    return str(found[0])


# The first mover (the drums) is Black in English checkers, White in Russian.
FIRST_MOVER = {"english": "Black", "russian": "White"}
OTHER = {"english": "White", "russian": "Black"}


@pytest.mark.parametrize("rule_set", ["english", "russian"])
@pytest.mark.parametrize("winner", [Side.DRUMS, Side.TIRES])
def test_a_won_game_names_the_loser_by_its_colour(rule_set: str, winner: Side) -> None:
    loser = OTHER[rule_set] if winner is Side.DRUMS else FIRST_MOVER[rule_set]
    expected = {
        Ending.RESIGNATION: f"{loser} resigned",
        Ending.NO_PIECES: f"{loser} has no pieces left",
        Ending.NO_MOVES: f"{loser} has no legal move",
        Ending.FORFEIT: f"{loser} forfeited: no move for 2 days",
    }
    result = "1-0" if winner is Side.DRUMS else "0-1"
    for ending, said in expected.items():
        text = pdn(rule_set, ending, winner)
        assert comment(text) == said, ending
        assert text.rstrip().endswith(f"{{{said}}} {result}")
        # The tags name the same colour for the same player.
        loser_name = "Bo" if winner is Side.DRUMS else "Ana"
        assert f'[{loser} "{loser_name}"]' in text


@pytest.mark.parametrize("rule_set", ["english", "russian"])
def test_an_ending_without_a_winner_names_no_side(rule_set: str) -> None:
    expected = {
        Ending.AGREEMENT: ("agreed by both players", "1/2-1/2"),
        Ending.REPETITION: ("threefold repetition", "1/2-1/2"),
        Ending.KING_MOVES: ("20 king moves without a capture or a man's move", "1/2-1/2"),
        Ending.MOVE_LIMIT: ("the 200-ply limit was reached", "1/2-1/2"),
        Ending.EXPIRED: ("expired: no move for 7 days", "*"),
    }
    for ending, (said, result) in expected.items():
        text = pdn(rule_set, ending, None)
        assert comment(text) == said, ending
        assert text.rstrip().endswith(f"{{{said}}} {result}")


WON = {Ending.RESIGNATION, Ending.NO_PIECES, Ending.NO_MOVES, Ending.FORFEIT}


@pytest.mark.parametrize("rule_set", sorted(RULE_SETS))
def test_no_comment_names_the_service_s_own_sides(rule_set: str) -> None:
    for ending in Ending:
        for winner in list(Side) if ending in WON else [None]:
            said = comment(pdn(rule_set, ending, winner)).lower()
            assert "drums" not in said and "tires" not in said, (ending, winner, said)
