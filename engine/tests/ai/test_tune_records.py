"""The tuner's positions from a recorded match: quiet positions of its games, labelled with
each game's result for the side to move, whichever colour the new Executive had, and
marked with which Executive was to move, so the fit puts the stronger one's results down
to its strength and not to its positions."""

from __future__ import annotations

import json
import math
from pathlib import Path

from checkers_engine import Board
from checkers_engine.ai import tuning as tune
from checkers_engine.ai.evaluation import evaluate
from checkers_engine.ai.tuned import ROWS
from checkers_engine.ai.weights import to_vector
from checkers_engine.movegen import has_capture

# The start of a Russian game, with exchanges (positions with a capture pending are not quiet).
MOVES = ["11-15", "22-18", "15x22", "25x18", "12-16", "18-14", "9x18", "23x14", "10x17", "21x14"]


def write_record(path: Path) -> None:
    lines = [
        json.dumps({"match": {"rule_set": "russian", "time": 2.0}}),
        # Game 0: the new Executive had the tires and lost; game 1: it had the drums and
        # drew. The score is always the new Executive's.
        json.dumps({"game": 0, "new_drums": False, "score": 0.0, "moves": MOVES}),
        json.dumps({"game": 1, "new_drums": True, "score": 0.5, "moves": MOVES}),
    ]
    path.write_text("\n".join(lines) + "\n")


def test_a_recorded_match_gives_quiet_positions_labelled_by_the_result(
    tmp_path: Path,
) -> None:
    path = tmp_path / "match.jsonl"
    write_record(path)
    samples = tune.record_samples(path)
    board = Board("russian")
    quiet = []
    for text in MOVES:
        board.push_text(text)
        state = board.raw_state()
        if board.ply >= tune.FIRST_PLY and not has_capture(*state, board.rule_set):
            quiet.append(state)
    assert quiet, "the game has quiet positions past the opening"
    assert [s.state for s in samples] == quiet + quiet
    first, second = samples[: len(quiet)], samples[len(quiet) :]
    # Game 0: the drums won (the new Executive, with the tires, lost).
    assert all(s.target == (1.0 if s.state[3] == 0 else 0.0) for s in first)
    assert all(s.target == 0.5 for s in second)
    assert all(s.held_out for s in first) and not any(s.held_out for s in second)
    assert {s.source for s in samples} == {"russian record"}
    # Game 0: the new Executive had the tires; game 1: the drums.
    assert all(s.engine == (1 if s.state[3] == 1 else -1) for s in first)
    assert all(s.engine == (1 if s.state[3] == 0 else -1) for s in second)


def test_the_fit_puts_the_new_executives_edge_in_its_own_term() -> None:
    """Results that today's weights predict exactly, shifted by half a man for whichever
    Executive is the new one: the fit finds the half man and leaves the weights."""
    weights = ROWS["russian"]
    k = 0.5
    edge = 50
    states = []
    for seed in range(6):
        states += [s.state for s in tune.self_play(("russian", seed, 2, 400))]
    assert len(states) > 100
    samples = [
        tune.Sample(
            state,
            tune.sigmoid(k * (evaluate(*state, weights) + edge * engine) / 100),
            False,
            "russian record",
            engine,
        )
        for state in states
        for engine in (1, -1)
    ]
    fitted, found = tune.fit_weights(samples, weights, k, 1e-6)
    assert math.isclose(found, edge, abs_tol=3)
    changed = [
        (a, b) for a, b in zip(to_vector(weights), to_vector(fitted), strict=True) if abs(a - b) > 2
    ]
    assert not changed
    # Told nothing of the engines, the same fit takes the edge for the positions': the
    # new Executive's samples alone, labelled half a man up, move the weights.
    alone = [tune.Sample(s.state, s.target, False, s.source) for s in samples if s.engine == 1]
    skewed, _ = tune.fit_weights(alone, weights, k, 1e-6)
    assert skewed != weights
