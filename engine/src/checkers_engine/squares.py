"""Squares, their two notations, and the bit layout the move generator works on.

Squares are numbered 1-32 as in English PDN (rules.md): drums hold 1-12 at the start,
square 1 is g1 and square 4 is a1. Internally a dark square at rank ``r`` and file ``f``
(both 0-7) is bit ``(9 * r + f) // 2`` of a 36-bit integer. Bits 4, 13, 22 and 31 are
"ghost" squares that are never occupied, so every diagonal step is one constant shift:
+5 (towards h8), +4 (towards a8), -4 (towards h1) and -5 (towards a1), and a step off the
board always lands on a ghost or outside the 36 bits.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .errors import EngineError

FILES: Final = "abcdefgh"

#: Diagonal steps as bit shifts, in the order north-east, north-west, south-east, south-west.
DIRECTIONS: Final[tuple[int, int, int, int]] = (5, 4, -4, -5)
#: Direction indexes a drums man moves forward along; a tires man uses the other two.
DRUMS_FORWARD: Final = (0, 1)
TIRES_FORWARD: Final = (2, 3)
ALL_DIRECTIONS: Final = (0, 1, 2, 3)

NUM_BITS: Final = 36


def popcount(mask: int) -> int:
    """How many bits of a board mask (36 bits; at most 40) are set. ``int.bit_count`` does
    the same, but the compiled build calls it as a Python method: this is native
    arithmetic there (the hot paths of the move generator and the evaluation use it)."""
    mask -= (mask >> 1) & 0x5555555555
    mask = (mask & 0x3333333333) + ((mask >> 2) & 0x3333333333)
    mask = (mask + (mask >> 4)) & 0x0F0F0F0F0F
    mask += mask >> 8
    mask += mask >> 16
    return (mask + (mask >> 32)) & 0x7F


if __file__.endswith(".py"):  # the pure build, where the method is the faster
    popcount = int.bit_count  # type: ignore[assignment]


def _coords(square: int) -> tuple[int, int]:
    """(rank, file), both 0-7, of square 1-32."""
    rank, j = divmod(square - 1, 4)
    file = 6 - 2 * j if rank % 2 == 0 else 7 - 2 * j
    return rank, file


#: SQUARE_BIT[square] is the bit index of square 1-32 (index 0 unused).
SQUARE_BIT: Final[tuple[int, ...]] = (
    -1,
    *((9 * r + f) // 2 for r, f in map(_coords, range(1, 33))),
)
#: BIT_SQUARE[bit] is the square number of a bit index, 0 for a ghost.
BIT_SQUARE: Final[tuple[int, ...]] = tuple(
    SQUARE_BIT.index(b) if b in SQUARE_BIT[1:] else 0 for b in range(NUM_BITS)
)
#: Every playable bit.
FULL: Final[int] = sum(1 << b for b in SQUARE_BIT[1:])


def _rank_mask(rank: int) -> int:
    return sum(1 << SQUARE_BIT[s] for s in range(4 * rank + 1, 4 * rank + 5))


#: Far rows: drums crown on rank 8, tires on rank 1.
PROMOTION_MASK: Final[tuple[int, int]] = (_rank_mask(7), _rank_mask(0))


def _step(bit: int, direction: int) -> int:
    """The bit one diagonal step away, or -1 off the board."""
    nxt = bit + DIRECTIONS[direction]
    return nxt if 0 <= nxt < NUM_BITS and BIT_SQUARE[nxt] else -1


#: NEIGHBOUR[bit][direction]: the adjacent bit, or -1.
NEIGHBOUR: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(_step(b, d) if BIT_SQUARE[b] else -1 for d in range(4)) for b in range(NUM_BITS)
)


def _ray(bit: int, direction: int) -> tuple[int, ...]:
    out: list[int] = []
    nxt = _step(bit, direction)
    while nxt >= 0:
        out.append(nxt)
        nxt = _step(nxt, direction)
    return tuple(out)


#: RAY[bit][direction]: the bits along a diagonal from bit (exclusive) to the edge.
RAY: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(_ray(b, d) if BIT_SQUARE[b] else () for d in range(4)) for b in range(NUM_BITS)
)


def square_name(square: int) -> str:
    """Algebraic name of square 1-32: ``square_name(11) == "c3"``."""
    if not 1 <= square <= 32:
        raise EngineError(f"no square {square}: squares are numbered 1-32")
    rank, file = _coords(square)
    return f"{FILES[file]}{rank + 1}"


_BY_NAME = {square_name(s): s for s in range(1, 33)}


def parse_square(text: str) -> int:
    """Square number from ``"11"`` or ``"c3"``; raises EngineError for anything else."""
    token = text.strip().lower()
    if token.isascii() and token.isdigit():
        number = int(token)
        if 1 <= number <= 32:
            return number
        raise EngineError(f"no square {token}: squares are numbered 1-32")
    if token in _BY_NAME:
        return _BY_NAME[token]
    if len(token) == 2 and token[0] in FILES and token[1] in "12345678":
        raise EngineError(f"{token} is a light square; pieces stand only on dark squares")
    raise EngineError(f"cannot read square {text!r}: use 1-32 or a1-h8")


def bits_to_squares(mask: int) -> tuple[int, ...]:
    """Square numbers of the set bits, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(BIT_SQUARE[low.bit_length() - 1])
        mask ^= low
    out.sort()
    return tuple(out)


def squares_to_bits(squares: Iterable[int]) -> int:
    """Bit mask of square numbers."""
    mask = 0
    for s in squares:
        mask |= 1 << SQUARE_BIT[s]
    return mask


JumpTable = tuple[tuple[tuple[int, int, int], ...], ...]


def _jump_table(directions: tuple[int, ...]) -> JumpTable:
    """For each bit, ``(jumped mask, landing bit, landing mask)`` of every one-square jump
    along ``directions`` that stays on the board."""
    table = []
    for b in range(NUM_BITS):
        jumps = []
        for d in directions:
            middle = NEIGHBOUR[b][d]
            land = NEIGHBOUR[middle][d] if middle >= 0 else -1
            if BIT_SQUARE[b] and land >= 0:
                jumps.append((1 << middle, land, 1 << land))
        table.append(tuple(jumps))
    return tuple(table)


DRUMS_JUMPS: Final = _jump_table(DRUMS_FORWARD)
TIRES_JUMPS: Final = _jump_table(TIRES_FORWARD)
ALL_JUMPS: Final = _jump_table(ALL_DIRECTIONS)
