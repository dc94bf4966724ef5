"""The rules engine: six rule sets of 8x8 checkers, standard library only.

``Board`` holds a position and its history; ``Move`` a whole move; ``RULE_SETS`` the table
of rule sets. The engine knows nothing of the web, the database or the computer players.
"""

from .board import KING_PLIES_DRAW, REPETITION_DRAW, Board
from .errors import AmbiguousMoveError, EngineError, IllegalMoveError, InvalidFenError
from .perft import perft, perft_divide
from .rulesets import DEFAULT_RULE_SET, RULE_SETS, Promotion, RuleSet, TieBreak, get_rule_set
from .squares import parse_square, square_name
from .values import Move, Outcome, Piece, Side, Termination, pdn_result, result_text

__all__ = [
    "DEFAULT_RULE_SET",
    "KING_PLIES_DRAW",
    "REPETITION_DRAW",
    "RULE_SETS",
    "AmbiguousMoveError",
    "Board",
    "EngineError",
    "IllegalMoveError",
    "InvalidFenError",
    "Move",
    "Outcome",
    "Piece",
    "Promotion",
    "RuleSet",
    "Side",
    "Termination",
    "TieBreak",
    "get_rule_set",
    "parse_square",
    "pdn_result",
    "perft",
    "perft_divide",
    "result_text",
    "square_name",
]
