"""Board geometry as masks in the engine's bit layout, for the evaluation.

The engine's low-level layer (``checkers_engine.squares``) puts square ``s`` on bit
``SQUARE_BIT[s]`` of a 36-bit integer so that every diagonal step is one shift: +5 and +4
towards the tires' side (the drums' forward), -4 and -5 towards the drums' side. Tables
here are indexed by bit, so the evaluation never converts to square numbers.
"""

from __future__ import annotations

from typing import Final

from checkers_engine.squares import BIT_SQUARE, FULL, SQUARE_BIT, squares_to_bits

SQUARES = range(1, 33)
BITS: Final = tuple(SQUARE_BIT[s] for s in SQUARES)
NUM_BITS: Final = len(BIT_SQUARE)


def coords(square: int) -> tuple[int, int]:
    """(file, rank), both 0-7, of a square 1-32 (rank 0 is the drums' back rank)."""
    rank, i = divmod(square - 1, 4)
    return (6 - 2 * i if rank % 2 == 0 else 7 - 2 * i), rank


def _where(test: object) -> int:
    return squares_to_bits(s for s in SQUARES if test(*coords(s)))  # type: ignore[operator]


RANK: Final = tuple(_where(lambda f, r, k=k: r == k) for k in range(8))
"""RANK[r]: the four squares of rank r (0 = the drums' back rank)."""

FILE_EDGE: Final = _where(lambda f, r: f in (0, 7))
CENTRE: Final = _where(lambda f, r: 2 <= f <= 5 and 2 <= r <= 5)
"""Files c-f of ranks 3-6."""
INNER_CENTRE: Final = _where(lambda f, r: 2 <= f <= 5 and 3 <= r <= 4)
MAIN_DIAGONAL: Final = _where(lambda f, r: f == r)
"""a1-h8, the long diagonal that decides many flying-king endings."""
DOUBLE_DIAGONALS: Final = _where(lambda f, r: f + r in (6, 8))
"""g1-a7 and h2-b8, joining the two double corners."""
DOUBLE_CORNERS: Final = squares_to_bits([1, 5, 28, 32])
"""g1/h2 on the drums' side, a7/b8 on the tires' side."""


def _distance(a: int, b: int) -> int:
    (fa, ra), (fb, rb) = coords(a), coords(b)
    return max(abs(fa - fb), abs(ra - rb))


DIST: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        _distance(BIT_SQUARE[a], BIT_SQUARE[b]) if BIT_SQUARE[a] and BIT_SQUARE[b] else 0
        for b in range(NUM_BITS)
    )
    for a in range(NUM_BITS)
)
"""DIST[a][b]: king-step distance between the squares on bits a and b."""


def _cone(square: int, upward: bool) -> int:
    """Squares ahead of a man that an enemy piece could use to stop it (its path widened
    by a file on each side)."""
    f, r = coords(square)

    def inside(fs: int, rs: int) -> bool:
        ahead = rs - r if upward else r - rs
        return ahead > 0 and abs(fs - f) <= ahead + 1

    return _where(inside)


CONE: Final[tuple[tuple[int, ...], tuple[int, ...]]] = (
    tuple(_cone(BIT_SQUARE[b], True) if BIT_SQUARE[b] else 0 for b in range(NUM_BITS)),
    tuple(_cone(BIT_SQUARE[b], False) if BIT_SQUARE[b] else 0 for b in range(NUM_BITS)),
)
"""CONE[turn][bit]: the cone ahead of a drums (0) or tires (1) man on that bit."""

__all__ = [
    "BITS",
    "CENTRE",
    "CONE",
    "DIST",
    "DOUBLE_CORNERS",
    "DOUBLE_DIAGONALS",
    "FILE_EDGE",
    "FULL",
    "INNER_CENTRE",
    "MAIN_DIAGONAL",
    "RANK",
    "coords",
]
