"""Evaluation weights per rule-set family, fitted by ``bench/tune.py --write``.

short: fitted (--games 50 --depth 4 --nodes 4000 --seed 17 --prior 1e-06) on 26404
    positions, 6711 held out, K 0.144; loss (fit / held out) 0.6847 / 0.6712 before,
    0.6833 / 0.6685 after.
flying: fitted (--games 200 --depth 4 --nodes 4000 --seed 17 --prior 1e-06) on 34507
    positions, 8375 held out, K 0.300; loss (fit / held out) 0.5996 / 0.5607 before,
    0.5953 / 0.5565 after.
"""

from __future__ import annotations

from app.ai.weights import Weights

SHORT = Weights(
    flying=False,
    king=142,
    back_rank=22,
    bridge=22,
    triangle=2,
    dog_hole=-2,
    centre=4,
    inner_centre=2,
    advance=(0, 6, 0, -1, -1, 8, 14, 0),
    advance_end=(0, 5, 3, 11, 11, 21, 28, 0),
    runaway=42,
    mobility=3,
    king_centre=11,
    king_edge=-8,
    king_main_diagonal=-4,
    king_double_diagonal=6,
    king_mobility=14,
    opposition=-1,
)

FLYING = Weights(
    flying=True,
    king=248,
    back_rank=70,
    bridge=17,
    triangle=10,
    dog_hole=2,
    centre=8,
    inner_centre=4,
    advance=(0, 19, 11, 15, 7, 36, 31, 0),
    advance_end=(0, -4, -10, 7, -5, 21, 44, 0),
    runaway=89,
    mobility=18,
    king_centre=-5,
    king_edge=-3,
    king_main_diagonal=5,
    king_double_diagonal=8,
    king_mobility=4,
    opposition=0,
)
