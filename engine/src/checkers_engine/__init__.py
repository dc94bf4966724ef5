"""The rules engine: six rule sets of 8x8 checkers, standard library only.

``Board`` holds a position and its history; ``Move`` a whole move; ``RULE_SETS`` the table
of rule sets. ``notation`` speaks each rule set's own tradition (colours, numbering, move
text), ``fen`` reads and writes its FEN, ``pdn`` reads, replays and writes PDN games. The
rules modules know nothing of the computer players, which live in ``checkers_engine.ai``
(search, evaluation, opening books, pattern tables, endgame tables), nor of any web
service or database: the package needs the standard library only.

Importing the package first chooses the build (``checkers_engine.build``): the hot modules
compiled by mypyc when they are installed and up to date, else their ``.py`` sources
(always with ``CHECKERS_PURE_PYTHON=1``).
"""

from .build import choose_build, package_version

# Before any hot module is imported: the compiled build, or the pure sources if asked for
# (CHECKERS_PURE_PYTHON=1) or if the compiled modules are out of date (build.py).
choose_build()

# The one version is pyproject.toml's, as installed.
__version__ = package_version()

from . import fen, notation, pdn
from .board import KING_PLIES_DRAW, REPETITION_DRAW, Board
from .errors import AmbiguousMoveError, EngineError, IllegalMoveError, InvalidFenError
from .fen import Position
from .notation import TRADITIONS, Colour, NotationError, Style, Tradition, tradition
from .pdn import GameRecord, ParsedGame, PdnError, ReplayFailure, ReplayReport
from .perft import perft, perft_divide
from .rulesets import DEFAULT_RULE_SET, RULE_SETS, Promotion, RuleSet, TieBreak, get_rule_set
from .squares import parse_square, square_name
from .values import Move, Outcome, Piece, Side, Termination, pdn_result, result_text

__all__ = [
    "DEFAULT_RULE_SET",
    "KING_PLIES_DRAW",
    "REPETITION_DRAW",
    "RULE_SETS",
    "TRADITIONS",
    "AmbiguousMoveError",
    "Board",
    "Colour",
    "EngineError",
    "GameRecord",
    "IllegalMoveError",
    "InvalidFenError",
    "Move",
    "NotationError",
    "Outcome",
    "ParsedGame",
    "PdnError",
    "Piece",
    "Position",
    "Promotion",
    "ReplayFailure",
    "ReplayReport",
    "RuleSet",
    "Side",
    "Style",
    "Termination",
    "TieBreak",
    "Tradition",
    "fen",
    "get_rule_set",
    "notation",
    "parse_square",
    "pdn",
    "pdn_result",
    "perft",
    "perft_divide",
    "result_text",
    "square_name",
    "tradition",
]
