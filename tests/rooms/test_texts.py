"""A game's result as its readers see it: rebuilt from the stored facts, in each language."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app.core.settings import Settings
from app.i18n import LANGUAGES, translator
from app.rooms import reasons, texts
from app.rooms.models import Ending, Game, GameStatus, SeatRole
from checkers_engine import Outcome, Side, Termination

T0 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
SETTINGS = Settings(claim_after_seconds=48 * 3600, expire_after_seconds=7 * 24 * 3600)


def finished(
    winner: Side | None, ending: Ending, reason: reasons.Reason, *, started: bool = True
) -> Game:
    """A finished game with the facts the service stores for the ending."""
    return Game(
        number=1,
        drums_seat=SeatRole.CREATOR,
        status=GameStatus.FINISHED,
        turn=Side.DRUMS,
        created_at=T0,
        started_at=T0 if started else None,
        winner=winner,
        termination=ending,
        reason=reason,
    )


# Every ending with the reason the service stores for it, and its English text.
ENDINGS = [
    (
        finished(Side.DRUMS, Ending.FORFEIT, reasons.forfeit(SETTINGS)),
        "Drums win by forfeit: tires made no move for 2 days",
    ),
    (
        finished(Side.TIRES, Ending.FORFEIT, reasons.forfeit(SETTINGS)),
        "Tires win by forfeit: drums made no move for 2 days",
    ),
    (
        finished(None, Ending.EXPIRED, reasons.expired(SETTINGS, waiting=False)),
        "No winner: the game expired after 7 days without a move",
    ),
    (
        finished(
            None,
            Ending.EXPIRED,
            reasons.expired(SETTINGS, waiting=True),
            started=False,
        ),
        "Nobody joined within 7 days",
    ),
    (
        finished(Side.TIRES, Ending.RESIGNATION, reasons.resigned(Side.DRUMS)),
        "Tires win: drums resigned",
    ),
    (
        finished(Side.DRUMS, Ending.RESIGNATION, reasons.resigned(Side.TIRES)),
        "Drums win: tires resigned",
    ),
    (
        finished(
            Side.DRUMS,
            Ending.NO_PIECES,
            reasons.of_outcome(Outcome(Side.DRUMS, Termination.NO_PIECES)),
        ),
        "Drums win: tires have no pieces left",
    ),
    (
        finished(
            Side.TIRES,
            Ending.NO_MOVES,
            reasons.of_outcome(Outcome(Side.TIRES, Termination.NO_MOVES)),
        ),
        "Tires win: drums have no legal move",
    ),
    (
        finished(
            None, Ending.REPETITION, reasons.of_outcome(Outcome(None, Termination.REPETITION))
        ),
        "Draw: threefold repetition",
    ),
    (
        finished(
            None, Ending.KING_MOVES, reasons.of_outcome(Outcome(None, Termination.KING_MOVES))
        ),
        "Draw: 20 king moves without a capture or a man's move",
    ),
    (finished(None, Ending.AGREEMENT, reasons.AGREED), "Draw: agreed by both players"),
    (
        finished(None, Ending.MOVE_LIMIT, reasons.move_limit(200)),
        "Draw: the 200-ply limit was reached",
    ),
]


def test_the_english_texts() -> None:
    english = translator("en")
    for game, text in ENDINGS:
        assert texts.result_text(english, game) == text
    playing = finished(None, Ending.AGREEMENT, reasons.AGREED)
    playing.status = GameStatus.PLAYING
    assert texts.result_text(english, playing) is None


def test_a_forfeit_and_an_expiry_in_russian() -> None:
    russian = translator("ru")
    won, _ = ENDINGS[0]
    assert texts.result_text(russian, won) == "Бочки выиграли ввиду неявки: шины не ходили 2 дня"
    expired, _ = ENDINGS[2]
    assert texts.result_text(russian, expired) == (
        "Без победителя: партия прекращена, за 7 дней не сделано ни одного хода"
    )


@pytest.mark.parametrize("tag", sorted(LANGUAGES))
def test_every_result_reads_as_one_sentence(tag: str) -> None:
    """The result, then at most one clause after a colon: never `win: forfeit: ...`."""
    tr = translator(tag)
    for game, english in ENDINGS:
        text = texts.result_text(tr, game)
        assert text is not None and text.count(":") <= 1, text
        assert "{" not in text, text
        if tag != "en":
            assert text != english  # translated
