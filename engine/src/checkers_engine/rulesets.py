"""The six rule sets as rows of one table of the axes on which they differ (rules.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

from .errors import EngineError


class Promotion(Enum):
    """What a man does on reaching the far row in the middle of a capture."""

    #: The move ends there and the man is crowned (men that only capture forward).
    STOP = "stop"
    #: Keeps capturing as a man if it can; crowned only if the move ends there (Brazilian).
    PASS_AS_MAN = "pass_as_man"
    #: Crowned at once and keeps capturing as a king (Russian).
    CROWN_AND_CONTINUE = "crown_and_continue"


class TieBreak(Enum):
    """Criteria that choose among maximal captures of equal size, applied in order."""

    MORE_KINGS_CAPTURED = "more_kings_captured"
    CAPTURED_BY_KING = "captured_by_king"


@dataclass(frozen=True, slots=True)
class RuleSet:
    """One rule set: everything the move generator needs to know about it."""

    key: str
    name: str
    description: str
    men_per_side: int
    men_capture_backward: bool
    flying_kings: bool
    majority_capture: bool
    tie_breaks: tuple[TieBreak, ...]
    men_capture_kings: bool
    promotion: Promotion
    pdn_gametype: int

    def __str__(self) -> str:
        return self.name


_TABLE = (
    RuleSet(
        key="english",
        name="English",
        description="Men jump forward only; kings move one square; any capture will do.",
        men_per_side=12,
        men_capture_backward=False,
        flying_kings=False,
        majority_capture=False,
        tie_breaks=(),
        men_capture_kings=True,
        promotion=Promotion.STOP,
        pdn_gametype=21,
    ),
    RuleSet(
        key="brazilian",
        name="Brazilian",
        description="Men jump both ways; flying kings; you must take the most pieces.",
        men_per_side=12,
        men_capture_backward=True,
        flying_kings=True,
        majority_capture=True,
        tie_breaks=(),
        men_capture_kings=True,
        promotion=Promotion.PASS_AS_MAN,
        pdn_gametype=26,
    ),
    RuleSet(
        key="russian",
        name="Russian",
        description="Men jump both ways; flying kings; a man crowned mid-capture goes on as king.",
        men_per_side=12,
        men_capture_backward=True,
        flying_kings=True,
        majority_capture=False,
        tie_breaks=(),
        men_capture_kings=True,
        promotion=Promotion.CROWN_AND_CONTINUE,
        pdn_gametype=25,
    ),
    RuleSet(
        key="spanish",
        name="Spanish",
        description="Men jump forward only; flying kings; you must take the most pieces.",
        men_per_side=12,
        men_capture_backward=False,
        flying_kings=True,
        majority_capture=True,
        tie_breaks=(),
        men_capture_kings=True,
        promotion=Promotion.STOP,
        pdn_gametype=24,
    ),
    RuleSet(
        key="italian",
        name="Italian",
        description="Men cannot take kings; short kings; take the most, then the most kings.",
        men_per_side=12,
        men_capture_backward=False,
        flying_kings=False,
        majority_capture=True,
        tie_breaks=(TieBreak.MORE_KINGS_CAPTURED, TieBreak.CAPTURED_BY_KING),
        men_capture_kings=False,
        promotion=Promotion.STOP,
        pdn_gametype=22,
    ),
    RuleSet(
        key="thai",
        name="Thai",
        description="Eight men a side on two rows; flying kings; any capture will do.",
        men_per_side=8,
        men_capture_backward=False,
        flying_kings=True,
        majority_capture=False,
        tie_breaks=(),
        men_capture_kings=True,
        promotion=Promotion.STOP,
        pdn_gametype=31,
    ),
)

#: The rule sets by key, in the order the service lists them (English first, the default).
RULE_SETS: Mapping[str, RuleSet] = MappingProxyType({r.key: r for r in _TABLE})

DEFAULT_RULE_SET = "english"


def get_rule_set(rule_set: str | RuleSet) -> RuleSet:
    """The RuleSet for a key (or the RuleSet itself); EngineError for an unknown key."""
    if isinstance(rule_set, RuleSet):
        return rule_set
    try:
        return RULE_SETS[rule_set]
    except (KeyError, TypeError):
        known = ", ".join(RULE_SETS)
        raise EngineError(f"unknown rule set {rule_set!r}; known: {known}") from None
