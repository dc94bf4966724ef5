"""The pattern table's fit (``checkers_engine.ai.patterns``): logistic regression on game
positions, on top of a rule set's row of weights, which stays as it is.

The model is P(side to move wins) = sigmoid(K * (evaluation + patterns) / 100), a draw
counting as one half. There are more entries than the data tell apart, so an L2 pull
towards zero keeps every entry the data do not speak for at nothing; the fit is full-batch
Adam on the mean cross-entropy. ``tools/patterns.py`` gathers the positions and writes the
table.

Needs numpy (the ``fit`` extra); playing never imports this module.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from checkers_engine.ai.egdb import KNOWN_WIN
from checkers_engine.ai.evaluation import evaluate
from checkers_engine.ai.patterns import SIZE, pattern_indices
from checkers_engine.ai.selfplay import read
from checkers_engine.ai.tuning import HOLD_OUT, Sample, labelled
from checkers_engine.ai.weights import Weights


def design(samples: Sequence[Sample], row: Weights) -> dict[str, np.ndarray]:
    """The fit's arrays: the row's score, the entries added and subtracted (from the side to
    move's view, ``sign``), the engine term and the target."""
    n = len(samples)
    added = np.zeros((n, 7), dtype=np.int64)
    taken = np.zeros((n, 7), dtype=np.int64)
    sign = np.zeros(n)
    for i, s in enumerate(samples):
        own, opp, kings, turn = s.state
        drums, tires = (own, opp) if turn == 0 else (opp, own)
        d, t = pattern_indices(drums & ~kings, tires & ~kings)
        added[i], taken[i] = d, t
        sign[i] = 1 if turn == 0 else -1
    return {
        "base": np.array([evaluate(*s.state, row) for s in samples], dtype=np.float64),
        "added": added,
        "taken": taken,
        "sign": sign,
        "engine": np.array([s.engine for s in samples], dtype=np.float64),
        "target": np.array([s.target for s in samples]),
    }


DECIDED = KNOWN_WIN // 2


def selfplay_samples(path: Path) -> tuple[list[Sample], list[int]]:
    """The positions of a file of self-play games (as ``tools/selfplay.py`` writes them),
    labelled with their game's result for the side to move, and beside them the search's
    score of each."""
    samples: list[Sample] = []
    scores: list[int] = []
    for game in read(path):
        # A decided score is the tables' win or loss, not a judgement of the position.
        kept = [p for p in game["positions"] if abs(p[4]) < DECIDED]  # type: ignore[attr-defined]
        held_out = int(game["seed"]) % HOLD_OUT == 0  # type: ignore[call-overload]
        states = [(own, opp, kings, turn) for own, opp, kings, turn, _ in kept]
        samples += labelled(states, float(game["result"]), held_out, "selfplay")  # type: ignore[arg-type]
        scores += [p[4] for p in kept]
    return samples, scores


def score_k(samples: Sequence[Sample], scores: Sequence[int]) -> float:
    """The logit a man of the search's score is worth in predicting the result."""
    s = np.array(scores, dtype=np.float64)
    y = np.array([x.target for x in samples])

    def loss(k: float) -> float:
        p = np.clip(1 / (1 + np.exp(-k / 100 * s)), 1e-9, 1 - 1e-9)
        return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())

    low, high = 0.05, 5.0
    for _ in range(60):  # golden-section search: the loss is convex in k
        a, b = high - 0.618 * (high - low), low + 0.618 * (high - low)
        low, high = (low, b) if loss(a) < loss(b) else (a, high)
    return (low + high) / 2


def fit_table(
    data: dict[str, np.ndarray], k: float, l2: float, steps: int
) -> tuple[np.ndarray, float]:
    """The table minimising mean cross-entropy + ``l2`` * |table|^2 (full-batch Adam), and
    the engine term fitted beside it (hundredths of a man: the new Executive's edge)."""
    base, added, taken, sign = data["base"], data["added"], data["taken"], data["sign"]
    engine, y = data["engine"], data["target"]
    n = len(y)
    table = np.zeros(SIZE)
    edge = 0.0  # the engine term, in hundredths of a man
    # Adam's first and second moments, of the table's entries and of the engine term.
    first, second = np.zeros(SIZE), np.zeros(SIZE)
    first_edge = second_edge = 0.0
    beta1, beta2, rate = 0.9, 0.999, 2.0
    for step in range(1, steps + 1):
        pattern = sign * (table[added].sum(1) - table[taken].sum(1))
        z = k / 100 * (base + pattern + edge * engine)
        residual = (1 / (1 + np.exp(-z)) - y) * k / 100 / n
        spread = np.repeat(residual * sign, 7)
        grad = (
            np.bincount(added.ravel(), spread, SIZE)
            - np.bincount(taken.ravel(), spread, SIZE)
            + 2 * l2 * table
        )
        grad_edge = float((residual * engine).sum())
        first = beta1 * first + (1 - beta1) * grad
        second = beta2 * second + (1 - beta2) * grad * grad
        first_edge = beta1 * first_edge + (1 - beta1) * grad_edge
        second_edge = beta2 * second_edge + (1 - beta2) * grad_edge * grad_edge
        c1, c2 = 1 - beta1**step, 1 - beta2**step
        table = table - rate * (first / c1) / (np.sqrt(second / c2) + 1e-12)
        edge -= rate * (first_edge / c1) / (math.sqrt(second_edge / c2) + 1e-12)
    return table, edge
