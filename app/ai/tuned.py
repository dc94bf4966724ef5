"""Evaluation weights per rule-set family. Written by ``bench/tune.py --write``; the
hand-set values before the first fit."""

from __future__ import annotations

from app.ai.weights import Weights

SHORT = Weights(
    flying=False,
    king=135,
    back_rank=10,
    bridge=18,
    triangle=0,
    dog_hole=0,
    centre=6,
    inner_centre=4,
    advance=(0, 1, 2, 3, 5, 8, 14, 0),
    advance_end=(0, 3, 6, 10, 15, 22, 32, 0),
    runaway=45,
    mobility=2,
    king_centre=8,
    king_edge=-8,
    king_main_diagonal=0,
    king_double_diagonal=0,
    king_mobility=3,
    opposition=0,
)

FLYING = Weights(
    flying=True,
    king=270,
    back_rank=8,
    bridge=0,
    triangle=0,
    dog_hole=0,
    centre=6,
    inner_centre=4,
    advance=(0, 1, 2, 3, 5, 8, 16, 0),
    advance_end=(0, 3, 6, 10, 16, 26, 40, 0),
    runaway=120,
    mobility=2,
    king_centre=4,
    king_edge=-4,
    king_main_diagonal=25,
    king_double_diagonal=10,
    king_mobility=2,
    opposition=0,
)
