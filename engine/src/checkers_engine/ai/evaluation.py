"""Static evaluation, in hundredths of a man, from the point of view of the side to move.

One function serves every rule set, with its row of weights
(``checkers_engine.ai.weights.FAMILIES``): short kings (english, italian), Russian, and
the other flying kings (brazilian, spanish, thai); with flying kings a king is worth far
more and the long diagonals decide endings. The terms: material (with a bonus for trading
down when ahead), back-rank guard and formations (bridge, triangle), dog-holes, centre,
advancement by rank (tempo), the men's squares in the middle game, runaway men, mobility,
king activity and, in endings, the opposition, driving the weaker side and recognising the
usual draws.

The weights are fitted by ``tools/tune.py`` (``checkers_engine.ai.tuned``); ``features``
splits a score into the fitted terms, so the fit works on exactly what ``evaluate``
computes. A rule set with a pattern table (``checkers_engine.ai.patterns``; English) adds
the fitted values of its men's formations on every two neighbouring rows, fitted on top of
the row."""

from __future__ import annotations

from typing import Final

from checkers_engine.ai.geometry import (
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
from checkers_engine.ai.patterns import pattern_score
from checkers_engine.ai.weights import MAN, MEN_SQUARES, PARAMETERS, Weights
from checkers_engine.squares import BIT_SQUARE, popcount, squares_to_bits

WIN: Final = 1_000_000
"""Score of a won position (minus the plies to the win)."""


_BRIDGE_DRUMS: Final = squares_to_bits([1, 3])
_BRIDGE_TIRES: Final = squares_to_bits([30, 32])
_TRIANGLE_DRUMS: Final = squares_to_bits([2, 3, 7])
_TRIANGLE_TIRES: Final = squares_to_bits([31, 30, 26])
# A drums man on 28 (a7) can only step to 32; an enemy piece there shuts it in. The same
# for a tires man on 5 (h2) under square 1.
_DOG_DRUMS: Final = squares_to_bits([28])
_DOG_DRUMS_LID: Final = squares_to_bits([32])
_DOG_TIRES: Final = squares_to_bits([5])
_DOG_TIRES_LID: Final = squares_to_bits([1])
# The drums' "system": the rows 1-4, 9-12, 17-20 and 25-28. With equal numbers of pieces,
# an odd count of pieces there gives the side to move the opposition ("the move").
_SYSTEM: Final = RANK[0] | RANK[2] | RANK[4] | RANK[6]
_DRUM_RANKS: Final = RANK  # relative rank r of a drums man is its rank
_TIRE_RANKS: Final = tuple(reversed(RANK))  # relative rank r of a tires man is rank 7 - r
_ADVANCED: Final = (RANK[4] | RANK[5] | RANK[6], RANK[3] | RANK[2] | RANK[1])
_ENDING: Final = 10  # pieces on the board at or below which the ending weights apply
# Index into ``Weights.square`` of a man on each bit: square - 1 for the drums, and for the
# tires the square seen from their side of the board (33 - square) - 1.
_DRUM_SQUARE: Final = tuple(s - 1 if s else 0 for s in BIT_SQUARE)
_TIRE_SQUARE: Final = tuple(32 - s if s else 0 for s in BIT_SQUARE)


def _men_terms(men: int, ranks: tuple[int, ...], advance: tuple[int, ...]) -> int:
    score = 0
    for r in range(1, 7):
        n = popcount(men & ranks[r])
        if n:
            score += n * advance[r]
    return score


def _placement(men: int, square: tuple[int, ...], index: tuple[int, ...]) -> int:
    score = 0
    while men:
        low = men & -men
        score += square[index[low.bit_length() - 1]]
        men ^= low
    return score


def _steps_up(men: int, empty: int) -> int:
    return popcount((men << 5) & empty) + popcount((men << 4) & empty)


def _steps_down(men: int, empty: int) -> int:
    return popcount((men >> 5) & empty) + popcount((men >> 4) & empty)


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


def _king_reach(kings: int, empty: int, flying: bool) -> int:
    """The kings' room: their steps onto empty squares (short kings), or the empty squares
    along their diagonals up to the first piece, each counted once (flying kings)."""
    if not flying:
        return _steps_up(kings, empty) + _steps_down(kings, empty)
    reach = 0
    for step in (4, 5):
        ray = kings
        while ray:
            ray = (ray << step) & empty
            reach |= ray
        ray = kings
        while ray:
            ray = (ray >> step) & empty
            reach |= ray
    return popcount(reach)


def _king_terms(kings: int, w: Weights) -> int:
    if not kings:
        return 0
    return (
        popcount(kings & CENTRE) * w.king_centre
        + popcount(kings & FILE_EDGE) * w.king_edge
        + popcount(kings & MAIN_DIAGONAL) * w.king_main_diagonal
        + popcount(kings & DOUBLE_DIAGONALS) * w.king_double_diagonal
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
        bonus -= 40 * popcount(weak & MAIN_DIAGONAL)
    else:
        bonus -= 25 * popcount(weak & DOUBLE_CORNERS)
        # The weaker king in a single corner or on an edge is nearly caught.
        bonus += 10 * popcount(weak & FILE_EDGE)
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
    n_dm = popcount(dm)
    n_dk = popcount(dk)
    n_tm = popcount(tm)
    n_tk = popcount(tk)
    pieces = n_dm + n_dk + n_tm + n_tk
    kv = w.king
    mat_d = MAN * n_dm + kv * n_dk
    mat_t = MAN * n_tm + kv * n_tk
    score = mat_d - mat_t
    # Trading down when ahead: the same lead counts for more with fewer pieces left.
    # (Rounded towards zero, as every division here, so both colours score alike.)
    if score > 0:
        score += score * 8 // (pieces + 4)
    elif score < 0:
        score -= -score * 8 // (pieces + 4)

    empty = FULL & ~(drums | tires)
    ending = pieces <= _ENDING
    advance = w.advance_end if ending else w.advance

    if dm:
        score += _men_terms(dm, _DRUM_RANKS, advance)
        if not ending:
            score += _placement(dm, w.square, _DRUM_SQUARE)
        score += popcount(dm & CENTRE) * w.centre + popcount(dm & INNER_CENTRE) * (w.inner_centre)
        if not tk:
            score += popcount(dm & RANK[0]) * w.back_rank
            if dm & _BRIDGE_DRUMS == _BRIDGE_DRUMS:
                score += w.bridge
            if dm & _TRIANGLE_DRUMS == _TRIANGLE_DRUMS:
                score += w.triangle
        if dm & _DOG_DRUMS and tires & _DOG_DRUMS_LID:
            score += w.dog_hole
        score += _steps_up(dm, empty) * w.mobility
        runaways = _runaways(dm, 0, tires)
        if runaways:
            score += runaways * w.runaway
    if tm:
        score -= _men_terms(tm, _TIRE_RANKS, advance)
        if not ending:
            score -= _placement(tm, w.square, _TIRE_SQUARE)
        score -= popcount(tm & CENTRE) * w.centre + popcount(tm & INNER_CENTRE) * (w.inner_centre)
        if not dk:
            score -= popcount(tm & RANK[7]) * w.back_rank
            if tm & _BRIDGE_TIRES == _BRIDGE_TIRES:
                score -= w.bridge
            if tm & _TRIANGLE_TIRES == _TRIANGLE_TIRES:
                score -= w.triangle
        if tm & _DOG_TIRES and drums & _DOG_TIRES_LID:
            score -= w.dog_hole
        score -= _steps_down(tm, empty) * w.mobility
        runaways = _runaways(tm, 1, drums)
        if runaways:
            score -= runaways * w.runaway
    if dk:
        score += _king_terms(dk, w) + _king_reach(dk, empty, w.flying) * w.king_mobility
    if tk:
        score -= _king_terms(tk, w) + _king_reach(tk, empty, w.flying) * w.king_mobility
    patterns = w.patterns
    if patterns and (dm or tm):
        score += pattern_score(dm, tm, patterns)

    if ending:
        if w.opposition and n_dk and n_tk and n_dm + n_dk == n_tm + n_tk:
            score += w.opposition if _drums_have_the_move(drums | tires, turn) else -w.opposition
        if dk or tk:
            score = _ending(score, dm, dk, tm, tk, mat_d, mat_t, w)

    return score if turn == 0 else -score


def _drums_have_the_move(occupied: int, turn: int) -> bool:
    """With equal numbers of pieces: an odd count in the drums' system gives the
    opposition to the side to move, an even count to the other side."""
    odd = popcount(occupied & _SYSTEM) & 1
    return bool(odd) == (turn == 0)


Features = tuple[list[float], float, float]
"""``(values, offset, scale)``: ``evaluate`` is ``scale * (offset + sum(w * values))`` with
the values of the fitted parameters (``PARAMETERS`` order) from the side to move's view,
up to integer rounding."""

_INDEX = {name: i for i, name in enumerate(PARAMETERS)}
_SQUARE_PARAMETER = tuple(_INDEX[f"square[{s}]"] for s in MEN_SQUARES)


def features(own: int, opp: int, kings: int, turn: int, w: Weights) -> Features:
    """The terms ``evaluate`` adds up, split by fitted parameter (for ``tools/tune.py``).

    What ``w`` does not fit enters as it stands: the men's value and the drive and
    draw-damping of king endings (which side is stronger depends on ``w.king``)."""
    if turn == 0:
        drums, tires = own, opp
    else:
        drums, tires = opp, own
    dm, dk = drums & ~kings, drums & kings
    tm, tk = tires & ~kings, tires & kings
    n_dm, n_dk, n_tm, n_tk = popcount(dm), popcount(dk), popcount(tm), popcount(tk)
    pieces = n_dm + n_dk + n_tm + n_tk
    v = [0.0] * len(PARAMETERS)
    ix = _INDEX
    trade = 1 + 8 / (pieces + 4)
    v[ix["king"]] = (n_dk - n_tk) * trade
    offset = MAN * (n_dm - n_tm) * trade
    empty = FULL & ~(drums | tires)
    ending = pieces <= _ENDING
    table = "advance_end" if ending else "advance"
    for r in range(1, 7):
        v[ix[f"{table}[{r}]"]] = popcount(dm & _DRUM_RANKS[r]) - popcount(tm & _TIRE_RANKS[r])
    if not ending:
        for men, index, sign in ((dm, _DRUM_SQUARE, 1), (tm, _TIRE_SQUARE, -1)):
            for bit in _bits(men):
                if index[bit] < len(_SQUARE_PARAMETER):  # never a man on its crowning rank
                    v[_SQUARE_PARAMETER[index[bit]]] += sign
    v[ix["centre"]] = popcount(dm & CENTRE) - popcount(tm & CENTRE)
    v[ix["inner_centre"]] = popcount(dm & INNER_CENTRE) - popcount(tm & INNER_CENTRE)
    if not tk:
        v[ix["back_rank"]] += popcount(dm & RANK[0])
        v[ix["bridge"]] += dm & _BRIDGE_DRUMS == _BRIDGE_DRUMS
        v[ix["triangle"]] += dm & _TRIANGLE_DRUMS == _TRIANGLE_DRUMS
    if not dk:
        v[ix["back_rank"]] -= popcount(tm & RANK[7])
        v[ix["bridge"]] -= tm & _BRIDGE_TIRES == _BRIDGE_TIRES
        v[ix["triangle"]] -= tm & _TRIANGLE_TIRES == _TRIANGLE_TIRES
    v[ix["dog_hole"]] = bool(dm & _DOG_DRUMS and tires & _DOG_DRUMS_LID) - bool(
        tm & _DOG_TIRES and drums & _DOG_TIRES_LID
    )
    v[ix["mobility"]] = _steps_up(dm, empty) - _steps_down(tm, empty)
    v[ix["runaway"]] = (_runaways(dm, 0, tires) if dm else 0) - (
        _runaways(tm, 1, drums) if tm else 0
    )
    for name, mask in (
        ("king_centre", CENTRE),
        ("king_edge", FILE_EDGE),
        ("king_main_diagonal", MAIN_DIAGONAL),
        ("king_double_diagonal", DOUBLE_DIAGONALS),
    ):
        v[ix[name]] = popcount(dk & mask) - popcount(tk & mask)
    v[ix["king_mobility"]] = _king_reach(dk, empty, w.flying) - _king_reach(tk, empty, w.flying)
    if w.patterns and (dm or tm):
        offset += pattern_score(dm, tm, w.patterns)
    scale = 1.0
    if ending:
        if n_dk and n_tk and n_dm + n_dk == n_tm + n_tk:
            v[ix["opposition"]] = 1 if _drums_have_the_move(drums | tires, turn) else -1
        if dk or tk:
            kv = w.king
            mat_d, mat_t = MAN * n_dm + kv * n_dk, MAN * n_tm + kv * n_tk
            if mat_d > mat_t:
                offset += _drive(dk, tm | tk, w.flying)
                if _drawish(dm, dk, tm, tk, w.flying):
                    scale = 1 / 8
            elif mat_t > mat_d:
                offset -= _drive(tk, dm | dk, w.flying)
                if _drawish(tm, tk, dm, dk, w.flying):
                    scale = 1 / 8
    if turn == 1:
        v = [-x for x in v]
        offset = -offset
    return v, offset, scale


def _ending(
    score: int, dm: int, dk: int, tm: int, tk: int, mat_d: int, mat_t: int, w: Weights
) -> int:
    """Ending knowledge: drive the weaker side, and damp scores of known draws."""
    if mat_d > mat_t:
        score += _drive(dk, tm | tk, w.flying)
        if _drawish(dm, dk, tm, tk, w.flying):
            score = _damped(score)
    elif mat_t > mat_d:
        score -= _drive(tk, dm | dk, w.flying)
        if _drawish(tm, tk, dm, dk, w.flying):
            score = _damped(score)
    return score


def _damped(score: int) -> int:
    """A known draw's score, an eighth of what the terms say (rounded towards zero)."""
    return score // 8 if score >= 0 else -(-score // 8)


def _drawish(sm: int, sk: int, wm: int, wk: int, flying: bool) -> bool:
    """The stronger side (s) cannot force a win against a lone king (w) by material alone:
    one king against one in either family; with flying kings also two against one, and
    three against one while the lone king holds the long diagonal."""
    if sm or wm or popcount(wk) != 1:
        return False
    n = popcount(sk)
    if n == 1:
        return True
    if flying:
        return n == 2 or (n == 3 and bool(wk & MAIN_DIAGONAL))
    return False


__all__ = ["WIN", "Features", "Weights", "evaluate", "features"]
