"""Static evaluation, in hundredths of a man, from the point of view of the side to move.

Two families share one function with different weights: short kings (english, italian)
and flying kings (brazilian, russian, spanish, thai), where a king is worth far more and
the long diagonals decide endings. The terms: material (with a bonus for trading down
when ahead), back-rank guard, centre, advancement (tempo), runaway men, mobility, king
activity and, in endings, driving the weaker side and recognising the usual draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from app.ai.geometry import (
    CENTRE,
    CONE,
    DIST,
    DOUBLE_CORNERS,
    DOUBLE_DIAGONALS,
    FILE_EDGE,
    FULL,
    INNER_CENTRE,
    MAIN_DIAGONAL,
    RANK,
)
from app.engine.squares import squares_to_bits

WIN: Final = 1_000_000
"""Score of a won position (minus the plies to the win)."""


@dataclass(frozen=True, slots=True)
class Weights:
    flying: bool
    king: int  # value of a king; a man is 100
    back_rank: int  # per man on its own back rank while the opponent has no king
    bridge: int  # bonus for holding both bridge squares (short kings)
    centre: int
    inner_centre: int
    advance: tuple[int, ...]  # by relative rank 0-7 of a man, middle game
    advance_end: tuple[int, ...]  # the same, in the ending
    runaway: int  # a man nobody can stop, beyond its advancement
    mobility: int  # per free forward step of a man
    king_centre: int
    king_edge: int
    king_main_diagonal: int
    king_double_diagonal: int
    king_mobility: int  # per empty square next to a king


SHORT: Final = Weights(
    flying=False,
    king=135,
    back_rank=10,
    bridge=18,
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
)

FLYING: Final = Weights(
    flying=True,
    king=270,
    back_rank=8,
    bridge=0,
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
)

_BRIDGE_DRUMS: Final = squares_to_bits([1, 3])
_BRIDGE_TIRES: Final = squares_to_bits([30, 32])
_DRUM_RANKS: Final = RANK  # relative rank r of a drums man is its rank
_TIRE_RANKS: Final = tuple(reversed(RANK))  # relative rank r of a tires man is rank 7 - r
_ADVANCED: Final = (RANK[4] | RANK[5] | RANK[6], RANK[3] | RANK[2] | RANK[1])
_ENDING: Final = 10  # pieces on the board at or below which the ending weights apply


def _men_terms(men: int, ranks: tuple[int, ...], advance: tuple[int, ...]) -> int:
    score = 0
    for r in range(1, 7):
        n = (men & ranks[r]).bit_count()
        if n:
            score += n * advance[r]
    return score


def _steps_up(men: int, empty: int) -> int:
    return ((men << 5) & empty).bit_count() + ((men << 4) & empty).bit_count()


def _steps_down(men: int, empty: int) -> int:
    return ((men >> 5) & empty).bit_count() + ((men >> 4) & empty).bit_count()


def _runaways(men: int, turn: int, enemy: int) -> int:
    """How many advanced men (relative rank 4+) have no enemy piece in their path."""
    n = 0
    cones = CONE[turn]
    candidates = men & _ADVANCED[turn]
    while candidates:
        low = candidates & -candidates
        candidates ^= low
        if not cones[low.bit_length() - 1] & enemy:
            n += 1
    return n


def _king_terms(kings: int, w: Weights) -> int:
    if not kings:
        return 0
    return (
        (kings & CENTRE).bit_count() * w.king_centre
        + (kings & FILE_EDGE).bit_count() * w.king_edge
        + (kings & MAIN_DIAGONAL).bit_count() * w.king_main_diagonal
        + (kings & DOUBLE_DIAGONALS).bit_count() * w.king_double_diagonal
    )


def _bits(m: int) -> list[int]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def _nearest(bit: int, targets: list[int]) -> int:
    row = DIST[bit]
    return min(row[t] for t in targets)


def _drive(strong_kings: int, weak: int, flying: bool) -> int:
    """Ending bonus for the stronger side: kings close in on the weaker side's pieces,
    whose pieces are pushed out of the double corners (short kings) or off the long
    diagonal (flying kings)."""
    targets = _bits(weak)
    if not targets or not strong_kings:
        return 0
    bonus = 0
    for k in _bits(strong_kings):
        bonus -= 4 * _nearest(k, targets)
    if flying:
        bonus -= 40 * (weak & MAIN_DIAGONAL).bit_count()
    else:
        bonus -= 25 * (weak & DOUBLE_CORNERS).bit_count()
        # The weaker king in a single corner or on an edge is nearly caught.
        bonus += 10 * (weak & FILE_EDGE).bit_count()
    return bonus


def evaluate(own: int, opp: int, kings: int, turn: int, w: Weights) -> int:
    """Score of an engine position ``(own, opp, kings, turn)`` for the side to move
    (positive: it stands better)."""
    if turn == 0:
        drums, tires = own, opp
    else:
        drums, tires = opp, own
    dm = drums & ~kings
    dk = drums & kings
    tm = tires & ~kings
    tk = tires & kings
    n_dm = dm.bit_count()
    n_dk = dk.bit_count()
    n_tm = tm.bit_count()
    n_tk = tk.bit_count()
    pieces = n_dm + n_dk + n_tm + n_tk
    kv = w.king
    mat_d = 100 * n_dm + kv * n_dk
    mat_t = 100 * n_tm + kv * n_tk
    score = mat_d - mat_t
    # Trading down when ahead: the same lead counts for more with fewer pieces left.
    if score:
        score += score * 8 // (pieces + 4)

    empty = FULL & ~(drums | tires)
    ending = pieces <= _ENDING
    advance = w.advance_end if ending else w.advance

    if dm:
        score += _men_terms(dm, _DRUM_RANKS, advance)
        score += (dm & CENTRE).bit_count() * w.centre + (dm & INNER_CENTRE).bit_count() * (
            w.inner_centre
        )
        if not tk:
            score += (dm & RANK[0]).bit_count() * w.back_rank
            if w.bridge and dm & _BRIDGE_DRUMS == _BRIDGE_DRUMS:
                score += w.bridge
        score += _steps_up(dm, empty) * w.mobility
        runaways = _runaways(dm, 0, tires)
        if runaways:
            score += runaways * w.runaway
    if tm:
        score -= _men_terms(tm, _TIRE_RANKS, advance)
        score -= (tm & CENTRE).bit_count() * w.centre + (tm & INNER_CENTRE).bit_count() * (
            w.inner_centre
        )
        if not dk:
            score -= (tm & RANK[7]).bit_count() * w.back_rank
            if w.bridge and tm & _BRIDGE_TIRES == _BRIDGE_TIRES:
                score -= w.bridge
        score -= _steps_down(tm, empty) * w.mobility
        runaways = _runaways(tm, 1, drums)
        if runaways:
            score -= runaways * w.runaway
    if dk:
        score += (
            _king_terms(dk, w) + (_steps_up(dk, empty) + _steps_down(dk, empty)) * w.king_mobility
        )
    if tk:
        score -= (
            _king_terms(tk, w) + (_steps_up(tk, empty) + _steps_down(tk, empty)) * w.king_mobility
        )

    if ending and (dk or tk):
        score = _ending(score, dm, dk, tm, tk, mat_d, mat_t, w)

    return score if turn == 0 else -score


def _ending(
    score: int, dm: int, dk: int, tm: int, tk: int, mat_d: int, mat_t: int, w: Weights
) -> int:
    """Ending knowledge: drive the weaker side, and damp scores of known draws."""
    if mat_d > mat_t:
        score += _drive(dk, tm | tk, w.flying)
        if _drawish(dm, dk, tm, tk, w.flying):
            score //= 8
    elif mat_t > mat_d:
        score -= _drive(tk, dm | dk, w.flying)
        if _drawish(tm, tk, dm, dk, w.flying):
            score //= 8
    return score


def _drawish(sm: int, sk: int, wm: int, wk: int, flying: bool) -> bool:
    """The stronger side (s) cannot force a win against a lone king (w) by material alone:
    one king against one in either family; with flying kings also two against one, and
    three against one while the lone king holds the long diagonal."""
    if sm or wm or wk.bit_count() != 1:
        return False
    n = sk.bit_count()
    if n == 1:
        return True
    if flying:
        return n == 2 or (n == 3 and bool(wk & MAIN_DIAGONAL))
    return False
