"""Warden and Executive find winning shots and convert won king endings.

Each position was built by hand; the comment says why the shot wins, and the test first
checks that claim with the exhaustive prover in ``proof`` (rules engine only), so the
expected move never comes from the search under test.
"""

from __future__ import annotations

import pytest

from ai.proof import material_by_move, winning_first_moves
from checkers_engine import Board, Side
from checkers_engine.ai import choose_move

SHORT = ("english", "italian")
FLYING = ("russian", "brazilian", "spanish", "thai")

# Drums men d4 e3 d2 f2 plus g1 e1, tires men f6 d6 plus h8 b8, drums to move. 15-18
# (d4-e5) gives a man: either capture (f6xd4 or d6xf4) leaves a tires man in front of
# e3, which jumps it and the other tires man (10x19x26 or 10x17x26). d2 and f2 stop the
# tires capture from going on. Two for one, in every rule set (no backward or majority
# rule changes the lines).
TWO_FOR_ONE = "B:W22,23,29,32:B1,2,6,7,10,15"

# Drums king b2, men a1 e3 c3; tires men e5 c5. 11-15 (c3-d4) forces e5xc3 (a1 stops it
# going on, e3 stops c5xe3); the king then takes c3 and c5 (8x15x24): tires have nothing
# left. Short kings step one square, so this is the king's only double.
SHORT_KING_SHOT = "B:W18,19:BK8,4,10,11"

# Flying king a1, men e1 c1 c3; tires men e5 f6 c7 d8. 11-15 (c3-d4) forces e5xc3 and
# opens the long diagonal: the king takes c3 and, flying on over the empty e5, f6
# (4x15x25), landing out of reach. Two for one.
FLYING_KING_SHOT = "B:W18,22,27,31:BK4,2,3,11"

CASES = [
    *((rs, TWO_FOR_ONE, "15-18") for rs in SHORT + FLYING),
    *((rs, SHORT_KING_SHOT, "11-15") for rs in SHORT),
    *((rs, FLYING_KING_SHOT, "11-15") for rs in FLYING),
]


@pytest.mark.parametrize(("rule_set", "fen", "shot"), CASES)
def test_the_position_holds_exactly_one_shot(rule_set: str, fen: str, shot: str) -> None:
    board = Board(rule_set, fen=fen)
    if fen == SHORT_KING_SHOT:
        assert winning_first_moves(board, 3) == [shot]
    else:
        gains = material_by_move(board, 5)
        best = max(gains.values())
        assert [m for m, g in gains.items() if g == best] == [shot]
        assert best - sorted(gains.values())[-2] >= 2  # at least a man more than any other


@pytest.mark.parametrize("level", ["warden", "executive"])
@pytest.mark.parametrize(("rule_set", "fen", "shot"), CASES)
def test_strong_levels_find_the_shot(rule_set: str, fen: str, shot: str, level: str) -> None:
    board = Board(rule_set, fen=fen)
    for seed in (1, 2):
        move = choose_move(board, level, seed=seed, time_limit=0.5)
        assert str(move) == shot


# Won king endings, drums to move, to be won before 20 plain king plies in a row.
# English/Italian: three kings against one in the double corner b8: three short kings
# drive a lone king out of any corner. Russian/Brazilian: the attacker's three flying kings
# hold the long diagonal a1-h8 and the lone king is off it (with the diagonal held, three
# flying kings win; these starting squares allow a quick trap).
ENDINGS = [
    ("english", "B:WK32:BK15,K10,K11"),
    ("italian", "B:WK32:BK15,K10,K11"),
    ("russian", "B:WK2:BK14,K7,K32"),
    ("brazilian", "B:WK30:BK8,K15,K27"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("rule_set", "fen"), ENDINGS)
@pytest.mark.parametrize("defender", ["warden", "executive"])
def test_executive_converts_a_won_king_ending(rule_set: str, fen: str, defender: str) -> None:
    board = Board(rule_set, fen=fen)
    while not board.is_game_over():
        level = "executive" if board.turn is Side.DRUMS else defender
        board.push(choose_move(board, level, seed=board.ply, time_limit=0.4))
        assert board.ply <= 40, "no progress"
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is Side.DRUMS, outcome
