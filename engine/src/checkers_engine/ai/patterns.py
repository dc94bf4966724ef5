"""Pattern terms: a fitted value for every arrangement of men on two neighbouring rows.

A row holds four squares, each empty, one of the side's own men or an enemy man (kings
count as empty: the row's terms speak of them), so two rows have 3^8 = 6,561 arrangements.
Each side is scored on the seven pairs of rows counted from its own back rank, its own men
first, and the evaluation adds the drums' sum less the tires': the same table serves both
colours, so the term is symmetric by construction. The tables hold what the hand-written
terms miss about formations of men (which holes, which exchanges, which cramps), fitted by
``tools/patterns.py`` on top of the row of weights; a rule set without a table scores no
pattern. They live in ``checkers_engine/ai/pattern_tables/RULESET.json``: the non-zero
values only.

In play a table is ``bytes``, each entry stored plus ``OFFSET``: the compiled build reads a
byte as a native integer, where a tuple's item is an object to unwrap (a third of the
evaluation's time). Seven entries are added and seven subtracted, so the offsets cancel.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Final

ROW_STATES: Final = 81
"""Arrangements of one row: four squares, three states each."""
PAIR_STATES: Final = ROW_STATES * ROW_STATES
PAIRS: Final = 7
SIZE: Final = PAIRS * PAIR_STATES
"""Entries of a table: one block of ``PAIR_STATES`` per pair of rows (0-1 up to 6-7)."""

#: The bit of a row's first square, by rank 0-7 (``checkers_engine.squares``' layout: a row's
#: four squares are four neighbouring bits).
ROW_SHIFT: Final[tuple[int, ...]] = (0, 5, 9, 14, 18, 23, 27, 32)


def _code(own: int, enemy: int, reverse: bool) -> int:
    """One row's arrangement number: square j (in bit order, or the reverse order for the
    tires, who see the board turned round) weighs 3^j, 1 for an own man, 2 for an enemy."""
    code = 0
    for j in range(4):
        bit = 3 - j if reverse else j
        state = 1 if own >> bit & 1 else 2 if enemy >> bit & 1 else 0
        code += state * 3**j
    return code


OFFSET: Final = 128
"""Added to every entry of a table in play (``encode``): entries lie within +-127."""

#: ``ROW_CODE[own << 4 | enemy]`` for the drums' rows and ``ROW_CODE_TURNED`` for the
#: tires', from the four bits of a row (never both set on one square).
ROW_CODE: Final = bytes(_code(i >> 4, i & 15, False) for i in range(256))
ROW_CODE_TURNED: Final = bytes(_code(i >> 4, i & 15, True) for i in range(256))


def encode(values: Sequence[int]) -> bytes:
    """A table in play: every entry plus ``OFFSET``, one byte each."""
    if len(values) != SIZE:
        raise ValueError(f"a pattern table has {SIZE} entries, not {len(values)}")
    if any(not -OFFSET < v < OFFSET for v in values):
        raise ValueError(f"a pattern entry lies within +-{OFFSET - 1}")
    return bytes(v + OFFSET for v in values)


def decode(table: bytes) -> list[int]:
    """The entries of a table in play."""
    return [b - OFFSET for b in table]


def pattern_score(dm: int, tm: int, table: bytes) -> int:
    """The drums' patterns less the tires' for men ``dm`` (drums) and ``tm`` (tires)."""
    if not (dm or tm):
        return 0
    code = ROW_CODE
    turned = ROW_CODE_TURNED
    # Written out row by row (``ROW_SHIFT``) with constant shifts.
    d0 = code[(dm & 15) << 4 | (tm & 15)]
    d1 = code[(dm >> 5 & 15) << 4 | (tm >> 5 & 15)]
    d2 = code[(dm >> 9 & 15) << 4 | (tm >> 9 & 15)]
    d3 = code[(dm >> 14 & 15) << 4 | (tm >> 14 & 15)]
    d4 = code[(dm >> 18 & 15) << 4 | (tm >> 18 & 15)]
    d5 = code[(dm >> 23 & 15) << 4 | (tm >> 23 & 15)]
    d6 = code[(dm >> 27 & 15) << 4 | (tm >> 27 & 15)]
    d7 = code[(dm >> 32 & 15) << 4 | (tm >> 32 & 15)]
    t0 = turned[(tm >> 32 & 15) << 4 | (dm >> 32 & 15)]  # the tires' rank 0 is rank 7
    t1 = turned[(tm >> 27 & 15) << 4 | (dm >> 27 & 15)]
    t2 = turned[(tm >> 23 & 15) << 4 | (dm >> 23 & 15)]
    t3 = turned[(tm >> 18 & 15) << 4 | (dm >> 18 & 15)]
    t4 = turned[(tm >> 14 & 15) << 4 | (dm >> 14 & 15)]
    t5 = turned[(tm >> 9 & 15) << 4 | (dm >> 9 & 15)]
    t6 = turned[(tm >> 5 & 15) << 4 | (dm >> 5 & 15)]
    t7 = turned[(tm & 15) << 4 | (dm & 15)]
    return (
        table[d0 + 81 * d1]
        + table[6561 + d1 + 81 * d2]
        + table[13122 + d2 + 81 * d3]
        + table[19683 + d3 + 81 * d4]
        + table[26244 + d4 + 81 * d5]
        + table[32805 + d5 + 81 * d6]
        + table[39366 + d6 + 81 * d7]
        - table[t0 + 81 * t1]
        - table[6561 + t1 + 81 * t2]
        - table[13122 + t2 + 81 * t3]
        - table[19683 + t3 + 81 * t4]
        - table[26244 + t4 + 81 * t5]
        - table[32805 + t5 + 81 * t6]
        - table[39366 + t6 + 81 * t7]
    )


def pattern_indices(dm: int, tm: int) -> tuple[list[int], list[int]]:
    """The table entries ``pattern_score`` adds (the drums') and subtracts (the tires'),
    for a fit."""
    drums = [ROW_CODE[(dm >> s & 15) << 4 | (tm >> s & 15)] for s in ROW_SHIFT]
    tires = [ROW_CODE_TURNED[(tm >> s & 15) << 4 | (dm >> s & 15)] for s in ROW_SHIFT]
    return (
        [r * PAIR_STATES + drums[r] + ROW_STATES * drums[r + 1] for r in range(PAIRS)],
        [r * PAIR_STATES + tires[7 - r] + ROW_STATES * tires[6 - r] for r in range(PAIRS)],
    )


def to_json(rule_set: str, values: Sequence[int], info: dict[str, object]) -> str:
    """A table's file: its non-zero entries, twelve a line."""
    encode(values)  # the same checks as in play
    head = json.dumps({"rule_set": rule_set, "size": SIZE, "info": info})
    lines = [head[:-1] + ', "values": {']
    entries = [f'"{i}": {v}' for i, v in enumerate(values) if v]
    for start in range(0, len(entries), 12):
        tail = "," if start + 12 < len(entries) else ""
        lines.append("  " + ", ".join(entries[start : start + 12]) + tail)
    lines.append("}}")
    return "\n".join(lines) + "\n"


def from_json(text: str) -> bytes:
    """The table in play of a file written by ``to_json``."""
    body = json.loads(text)
    if body.get("size") != SIZE:
        raise ValueError(f"a pattern table has {SIZE} entries, not {body.get('size')}")
    values = [0] * SIZE
    for index, value in body["values"].items():
        values[int(index)] = int(value)
    return encode(values)


@cache
def table_for(rule_set: str) -> bytes:
    """The rule set's pattern table in play, or an empty one when it has none."""
    path = resources.files("checkers_engine.ai").joinpath("pattern_tables", f"{rule_set}.json")
    if not path.is_file():
        return b""
    return from_json(path.read_text(encoding="utf-8"))
