"""The pattern terms: an entry is one arrangement of men on two rows, counted from each
side's own back rank; the fit learns what decides results; the shipped table loads."""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from checkers_engine import RULE_SETS, Board
from checkers_engine.ai import fitting
from checkers_engine.ai import tuning as tune
from checkers_engine.ai.evaluation import evaluate
from checkers_engine.ai.patterns import (
    PAIR_STATES,
    SIZE,
    decode,
    encode,
    from_json,
    pattern_indices,
    pattern_score,
    table_for,
    to_json,
)
from checkers_engine.ai.search import weights_for
from checkers_engine.ai.weights import MAN
from checkers_engine.movegen import has_capture
from checkers_engine.squares import squares_to_bits

# Men on squares 1 (g1) and 5 (h2): each the fourth square of its row, so the arrangement
# of the drums' rows 0-1 is 27 + 81 * 27. The tires' men on 32 and 28 stand the same way
# seen from their side of the board.
ENTRY = 27 + 81 * 27


def one_entry(value: int) -> bytes:
    table = [0] * SIZE
    table[ENTRY] = value
    return encode(table)


def test_an_entry_is_the_men_on_two_rows_seen_from_their_own_side() -> None:
    table = one_entry(7)
    drums = squares_to_bits([1, 5])
    tires = squares_to_bits([32, 28])
    assert pattern_score(drums, 0, table) == 7
    assert pattern_score(0, tires, table) == -7
    assert pattern_score(drums, tires, table) == 0
    # One more man on those rows is another arrangement: the entry no longer applies.
    assert pattern_score(drums | squares_to_bits([2]), 0, table) == 0
    # Further up the board the same two men are another pair of rows' entry.
    assert pattern_score(squares_to_bits([9, 13]), 0, table) == 0


def test_the_evaluation_adds_the_men_patterns_for_the_side_to_move() -> None:
    row = replace(weights_for(RULE_SETS["english"]), patterns=b"")
    with_table = replace(row, patterns=one_entry(7))
    # Drums' men on 1 and 5, a tires king: kings are no part of an arrangement.
    for fen, gain in (("B:WK20:B1,5", 7), ("W:WK20:B1,5", -7)):
        state = Board("english", fen=fen).raw_state()
        assert evaluate(*state, with_table) - evaluate(*state, row) == gain


def test_the_indices_name_the_entries_the_score_adds() -> None:
    rng = random.Random(5)
    values = [rng.randint(-50, 50) for _ in range(SIZE)]
    table = encode(values)
    for _ in range(300):
        squares = rng.sample(range(1, 33), rng.randint(0, 16))
        cut = rng.randint(0, len(squares))
        dm, tm = squares_to_bits(squares[:cut]), squares_to_bits(squares[cut:])
        added, taken = pattern_indices(dm, tm)
        assert all(0 <= i < SIZE for i in added + taken)
        assert [i // PAIR_STATES for i in added] == list(range(7))
        assert pattern_score(dm, tm, table) == sum(values[i] for i in added) - sum(
            values[i] for i in taken
        )


def test_a_table_round_trips_and_only_english_ships_one() -> None:
    values = [0] * SIZE
    values[3], values[SIZE - 1] = -4, 9
    assert decode(from_json(to_json("english", values, {}))) == values
    with pytest.raises(ValueError, match="45927"):
        to_json("english", values[:-1], {})
    values[7] = 128
    with pytest.raises(ValueError, match="127"):
        to_json("english", values, {})
    english = decode(table_for("english"))
    assert len(english) == SIZE and any(english)
    # An arrangement of men adjusts the hand-written terms; none is worth a man.
    assert max(map(abs, english)) < MAN
    assert weights_for(RULE_SETS["english"]).patterns == table_for("english")
    for rule_set in RULE_SETS:
        if rule_set != "english":
            assert table_for(rule_set) == b""


def drums_rows(state: tuple[int, int, int, int]) -> int:
    """The entry of the men on the drums' rows 0-1."""
    own, opp, kings, turn = state
    drums, tires = (own, opp) if turn == 0 else (opp, own)
    return pattern_indices(drums & ~kings, tires & ~kings)[0][0]


def test_the_fit_learns_an_arrangement_that_decides_results() -> None:
    rng = random.Random(11)
    row = replace(weights_for(RULE_SETS["english"]), patterns=b"")
    states = []
    while len(states) < 600:
        board = Board("english")
        for _ in range(rng.randint(6, 40)):
            if board.is_game_over():
                break
            board.push(rng.choice(board.legal_moves))
        state = board.raw_state()
        if not board.is_game_over() and not has_capture(*state, board.rule_set):
            states.append(state)
    # The arrangement the drums' men most often show on rows 0-1 wins by more than a man.
    counts = Counter(drums_rows(s) for s in states)
    entry = counts.most_common(1)[0][0]
    hidden = [0] * SIZE
    hidden[entry] = 120
    k = 0.8
    samples = []
    for state in states:
        score = evaluate(*state, replace(row, patterns=encode(hidden)))
        target = 1 / (1 + math.exp(-k * score / 100))
        samples.append(tune.Sample(state, target, False, "english"))
    data = fitting.design(samples, row)
    table, _ = fitting.fit_table(data, k, l2=1e-9, steps=300)
    fitted = replace(row, patterns=encode([round(v) for v in table]))
    # Cross-entropy with the true arrangement's value is the least any table can reach;
    # the fit closes most of the gap the row alone leaves.
    least = tune.loss_of(samples, replace(row, patterns=encode(hidden)), k)
    gap = tune.loss_of(samples, row, k) - least
    assert tune.loss_of(samples, fitted, k) - least < gap / 4


def test_self_play_positions_are_labelled_for_the_side_to_move(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    a, b = (1, 2, 0, 0), (4, 8, 0, 1)
    games = [
        # Seed 10 is held out (every fifth); the drums won it.
        {"seed": 10, "result": 1.0, "positions": [[*a, 30], [*b, -40]]},
        # The tires won seed 11; its last position is a won ending from the tables.
        {"seed": 11, "result": 0.0, "positions": [[*a, -20], [*b, fitting.DECIDED]]},
    ]
    path.write_text("".join(json.dumps(g) + "\n" for g in games))
    samples, scores = fitting.selfplay_samples(path)
    assert [(s.state, s.target, s.held_out) for s in samples] == [
        (a, 1.0, True),  # the drums to move, and they won
        (b, 0.0, True),  # the tires to move, and they lost
        (a, 0.0, False),
    ]
    assert scores == [30, -40, -20], "a decided score is no judgement: left out"
    assert {s.source for s in samples} == {"selfplay"}


def test_the_search_scores_k_is_the_one_the_results_follow() -> None:
    rng = random.Random(5)
    scores = [rng.randint(-400, 400) for _ in range(20_000)]
    k = 0.9
    results = [float(rng.random() < 1 / (1 + math.exp(-k * s / 100))) for s in scores]
    samples = [tune.Sample((0, 0, 0, 0), r, False, "selfplay") for r in results]
    assert fitting.score_k(samples, scores) == pytest.approx(k, rel=0.08)
