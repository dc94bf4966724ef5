"""Evaluation weights per rule-set family, fitted by ``bench/tune.py --write``.

short: fitted (--games 50 --depth 4 --nodes 4000 --seed 17 --prior 1e-06) on 26404
    positions, 6711 held out, K 0.144; loss (fit / held out) 0.6847 / 0.6712 before,
    0.6833 / 0.6685 after.
flying: fitted (--games 50 --depth 4 --nodes 4000 --seed 17 --prior 1e-06) on 8278
    positions, 2175 held out, K 0.286; loss (fit / held out) 0.6064 / 0.6194 before,
    0.5999 / 0.6166 after.
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
    king=265,
    back_rank=38,
    bridge=7,
    triangle=3,
    dog_hole=5,
    centre=-5,
    inner_centre=0,
    advance=(0, 10, 12, -14, 3, 19, 23, 0),
    advance_end=(0, 5, -8, 16, 4, 25, 45, 0),
    runaway=111,
    mobility=12,
    king_centre=2,
    king_edge=-5,
    king_main_diagonal=17,
    king_double_diagonal=9,
    king_mobility=1,
    opposition=-2,
)
