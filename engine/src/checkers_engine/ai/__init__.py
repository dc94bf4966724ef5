"""The computer opponents: search and evaluation over the rules engine.

This package imports the rules engine and the standard library only.
"""

from checkers_engine.ai.players import (
    CLEARLY_AHEAD,
    DEFAULT_TIME_LIMIT,
    PROFILES,
    Level,
    NoMoveError,
    Profile,
    analyse,
    choose_move,
    evaluate_for_draw_offer,
    parse_level,
    review_position,
)
from checkers_engine.ai.search import Searcher, SearchResult

__all__ = [
    "CLEARLY_AHEAD",
    "DEFAULT_TIME_LIMIT",
    "PROFILES",
    "Level",
    "NoMoveError",
    "Profile",
    "SearchResult",
    "Searcher",
    "analyse",
    "choose_move",
    "evaluate_for_draw_offer",
    "parse_level",
    "review_position",
]
