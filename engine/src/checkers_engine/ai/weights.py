"""The evaluation's weights: one row per rule-set family, and the flat vector a fit works
on.

The fitted values live in ``checkers_engine.ai.tuned`` (written by ``tools/tune.py``);
this module only says what a row holds. A man is worth 100 and is not fitted: it fixes the
scale the search and the levels' margins are written in."""

from __future__ import annotations

from dataclasses import dataclass

MAN = 100
"""Value of a man, the unit of every score (hundredths of a man)."""

FAMILIES: dict[str, tuple[str, ...]] = {
    "short": ("english", "italian"),
    "flying": ("brazilian", "spanish", "thai"),
    "russian": ("russian",),
}
"""The rows of weights and the rule sets each serves: the short kings share one; Russian,
the only flying-king rule set whose men capture backwards with a free choice among
captures, has its own; the other flying-king rule sets share the last."""


@dataclass(frozen=True, slots=True)
class Weights:
    flying: bool
    king: int  # value of a king
    back_rank: int  # per man on its own back rank while the opponent has no king
    bridge: int  # both bridge squares held (1 and 3 for the drums) while no enemy king
    triangle: int  # the triangle 2, 3, 7 (the drums; 31, 30, 26 the tires) while no enemy king
    dog_hole: int  # a man stuck in the dog-hole: 28 under an enemy piece on 32 (5 under 1)
    centre: int
    inner_centre: int
    advance: tuple[int, ...]  # tempo: by relative rank 0-7 of a man, middle game
    advance_end: tuple[int, ...]  # the same, in the ending
    runaway: int  # a man nobody can stop, beyond its advancement
    mobility: int  # per free forward step of a man
    king_centre: int
    king_edge: int
    king_main_diagonal: int
    king_double_diagonal: int
    king_mobility: int  # per king step onto an empty square (flying: per square in reach)
    opposition: int  # king ending, equal numbers of pieces: the side that has "the move"
    square: tuple[int, ...]  # middle game: a man on each square 1-28 of its side's numbering
    # The rule set's pattern table (``checkers_engine.ai.patterns``), fitted apart from the
    # row: none in a family's row, added for a rule set that has one
    # (``checkers_engine.ai.search.weights_for``).
    patterns: bytes = b""


_SCALARS = (
    "king",
    "back_rank",
    "bridge",
    "triangle",
    "dog_hole",
    "centre",
    "inner_centre",
)
_SCALARS_AFTER = (
    "runaway",
    "mobility",
    "king_centre",
    "king_edge",
    "king_main_diagonal",
    "king_double_diagonal",
    "king_mobility",
    "opposition",
)
_RANKS = range(1, 7)  # a man never stands on its relative rank 7 (it is crowned there)
MEN_SQUARES = range(1, 29)
"""The squares a man can stand on, in the drums' numbering (a tires man on square s
counts as one on 33 - s): 29-32 crown it."""

PARAMETERS: tuple[str, ...] = (
    *_SCALARS,
    *(f"advance[{r}]" for r in _RANKS),
    *(f"advance_end[{r}]" for r in _RANKS),
    *_SCALARS_AFTER,
    *(f"square[{s}]" for s in MEN_SQUARES),
)
"""The fitted parameters, in the order of ``to_vector``."""


def to_vector(w: Weights) -> list[int]:
    """The fitted parameters of a row, in ``PARAMETERS`` order."""
    return [
        *(getattr(w, name) for name in _SCALARS),
        *(w.advance[r] for r in _RANKS),
        *(w.advance_end[r] for r in _RANKS),
        *(getattr(w, name) for name in _SCALARS_AFTER),
        *(w.square[s - 1] for s in MEN_SQUARES),
    ]


def from_vector(flying: bool, values: list[int]) -> Weights:
    """The row holding ``values`` (in ``PARAMETERS`` order)."""
    if len(values) != len(PARAMETERS):
        raise ValueError(f"expected {len(PARAMETERS)} values, got {len(values)}")
    named = dict(zip(PARAMETERS, values, strict=True))
    n = len(_SCALARS)
    advance = (0, *values[n : n + 6], 0)
    advance_end = (0, *values[n + 6 : n + 12], 0)
    square = (*values[-len(MEN_SQUARES) :], 0, 0, 0, 0)  # no man waits on 29-32
    return Weights(
        flying=flying,
        king=named["king"],
        back_rank=named["back_rank"],
        bridge=named["bridge"],
        triangle=named["triangle"],
        dog_hole=named["dog_hole"],
        centre=named["centre"],
        inner_centre=named["inner_centre"],
        advance=advance,
        advance_end=advance_end,
        runaway=named["runaway"],
        mobility=named["mobility"],
        king_centre=named["king_centre"],
        king_edge=named["king_edge"],
        king_main_diagonal=named["king_main_diagonal"],
        king_double_diagonal=named["king_double_diagonal"],
        king_mobility=named["king_mobility"],
        opposition=named["opposition"],
        square=square,
    )
