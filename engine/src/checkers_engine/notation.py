"""Each rule set's own notation: its colours, square numbering and move text.

The engine works on one internal form (rules.md): the drums move first from ranks 1-3,
squares are numbered 1-32 as in English PDN and named a1-h8 from the drums' side. Every
tradition is a fixed relabelling of those squares and sides; this module is the one place
that knows them. Sources, per rule set (stored public copies):

- English (PDN GameType 21): Black moves first and holds squares 1-12; square 1 is at
  Black's back-right (g1 from the first mover's side), square 4 in Black's single corner.
  CheckerBoard ``coordinates.c`` (default case: ``number = 4 * (y + 1) - x / 2``) and the
  Tinsley archive published with it; pydraughts ``PDNWriter`` (``21,B,8,8,N1,0``). Moves are
  numeric, ``-`` for a plain move and ``x`` for a capture with every landing square
  (``24x15x6`` in ``games/tinsley.pdn``).
- Russian (25) and Brazilian (26): White moves first, from ranks 1-3; moves are written
  algebraically (a1 in White's left corner). Numeric squares follow lidraughts' ``Pos64``
  (field 1 is b8, field 32 is g1, White starts on 21-32: ``W:W21,...,32:B1,...,12:H0:F1``
  in lidraughts' ``variant/Russian.scala``), which is 33 minus the internal number.
  py-draughts' Russian board names the same 32 squares b8 ... g1 (``SQUARE_NAMES``);
  pydraughts writes ``25,W,8,8,A0,0`` and captures with ``x`` (its ``test_pdn.py``:
  ``d4xf6 g7xe5``). Printed Russian notation marks captures with ``:``; the display uses
  it, PDN export keeps the ``x`` that pydraughts reads.
- Italian (22): White moves first; the board lies the other way round (its a1 is light),
  so the tradition's board is the mirror image of the internal one. Squares 1-32 run from
  Black's side: CheckerBoard ``coordinates.c`` (``GT_ITALIAN``: ``number = 1 + 4 * y +
  x / 2``) with White on 21-32 (CheckerBoard ``11_man_italian.pdn``: ``W:W24,...:B4,...``);
  pydraughts' Italian board (``22,W,8,8,N2,1``) shows 1-4 on a8-g8 and 29-32 on b1-h1.
- Spanish (24): White moves first on a board the other way round, as in Italian; squares
  are numbered from White's side, 1 in White's right-hand corner, right to left and
  bottom to top, White starting on 1-12 (CheckerBoard ``coordinates.c``, ``GT_SPANISH``;
  the Spanish rules page of realidad-simulada.es: "comenzando por la primera casilla
  inferior derecha"). No replaying tool exists; the numeric notation with ``-`` and ``x``
  is the one CheckerBoard reads for GameType 24.
- Thai (31): no tool and no fixed custom (checkers.fandom.com's Mak-hot page: "no fixed
  rule which color starts; the Thai web site lets White move first"; mindsports.nl: "White
  begins"). Chosen: White first, the board as in Russian (its lower-left square dark),
  algebraic moves, numeric squares as lidraughts numbers an 8x8 board. Nothing numbers
  Thai squares, and the algebraic names are the ones the board shows.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import TYPE_CHECKING

from .errors import AmbiguousMoveError, EngineError, IllegalMoveError
from .messages import say
from .rulesets import RuleSet, get_rule_set
from .squares import FILES
from .squares import square_name as internal_name
from .values import Move, Side

if TYPE_CHECKING:
    from .board import Board


class NotationError(EngineError):
    """A square or move text that cannot be read in a rule set's notation; ``kind``
    (``range``, ``light`` or ``unreadable``) and ``square`` say which, for a square."""

    def __init__(self, message: str, kind: str = "", square: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.square = square


class Colour(Enum):
    """The colours a tradition gives its two sides."""

    WHITE = "White"
    BLACK = "Black"

    @property
    def letter(self) -> str:
        """``W`` or ``B``, as in PDN FEN."""
        return self.value[0]

    @property
    def other(self) -> Colour:
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE


class Style(Enum):
    """How squares are written: numbers 1-32 or names a1-h8."""

    NUMERIC = "numeric"
    ALGEBRAIC = "algebraic"


class _Numbering(Enum):
    ENGLISH = "english"  # internal: 1 = g1, drums on 1-12
    FIELDS = "fields"  # lidraughts Pos64: 1 = b8, first mover on 21-32
    ITALIAN = "italian"  # 1 = the mirrored board's a8, first mover on 21-32
    SPANISH = "spanish"  # 1 = the first mover's right-hand corner, first mover on 1-12


@dataclass(frozen=True, slots=True)
class Tradition:
    """How one rule set's own players write a game."""

    rule_set: str
    #: The colour of the side that moves first (the drums).
    first_mover: Colour
    #: Square notation of move lists, the board and the FEN by default.
    style: Style
    #: Whether the tradition's board is the internal one mirrored left to right (its a1 is
    #: light): the board is then drawn with the internal a1 in the lower right corner, and
    #: algebraic names are those of the mirrored board.
    mirrored: bool
    #: Whether PDN lists every landing square of a capture (CheckerBoard's files), or only
    #: start and end unless two legal moves share them (PDN 3.0, pydraughts, lidraughts).
    pdn_full_captures: bool
    #: Whether its FEN carries lidraughts' ``:H`` (half-move clock) and ``:F`` counters.
    fen_counters: bool
    #: Description of the numbering, for documentation and the API.
    numbering: str
    _numbering: _Numbering

    @property
    def gametype(self) -> int:
        """The PDN GameType number."""
        return get_rule_set(self.rule_set).pdn_gametype

    def colour(self, side: Side) -> Colour:
        """The tradition's colour of an engine side."""
        return self.first_mover if side is Side.DRUMS else self.first_mover.other

    def side(self, colour: Colour) -> Side:
        """The engine side of a tradition's colour."""
        return Side.DRUMS if colour is self.first_mover else Side.TIRES


_TABLE = (
    Tradition(
        "english",
        Colour.BLACK,
        Style.NUMERIC,
        False,
        True,
        False,
        "1-32 from Black's side: 1 at Black's back-right, Black (first) starts on 1-12",
        _Numbering.ENGLISH,
    ),
    Tradition(
        "brazilian",
        Colour.WHITE,
        Style.ALGEBRAIC,
        False,
        False,
        True,
        "a1-h8 with a1 in White's left corner; numbers 1-32 from b8, White starts on 21-32",
        _Numbering.FIELDS,
    ),
    Tradition(
        "russian",
        Colour.WHITE,
        Style.ALGEBRAIC,
        False,
        False,
        True,
        "a1-h8 with a1 in White's left corner; numbers 1-32 from b8, White starts on 21-32",
        _Numbering.FIELDS,
    ),
    Tradition(
        "spanish",
        Colour.WHITE,
        Style.NUMERIC,
        True,
        True,
        False,
        "1-32 from White's right-hand corner, right to left; White (first) starts on 1-12",
        _Numbering.SPANISH,
    ),
    Tradition(
        "italian",
        Colour.WHITE,
        Style.NUMERIC,
        True,
        True,
        False,
        "1-32 from Black's side, left to right from White's view; White (first) on 21-32",
        _Numbering.ITALIAN,
    ),
    Tradition(
        "thai",
        Colour.WHITE,
        Style.ALGEBRAIC,
        False,
        False,
        True,
        "a1-h8 with a1 in White's left corner; numbers 1-32 from b8, White starts on 25-32",
        _Numbering.FIELDS,
    ),
)

#: Each rule set's tradition, by rule set key.
TRADITIONS: Mapping[str, Tradition] = MappingProxyType({t.rule_set: t for t in _TABLE})


def tradition(rule_set: str | RuleSet) -> Tradition:
    """The tradition of a rule set (key or RuleSet); EngineError for an unknown key."""
    return TRADITIONS[get_rule_set(rule_set).key]


# -- squares ----------------------------------------------------------------------------


def _number(numbering: _Numbering, square: int) -> int:
    rank, j = divmod(square - 1, 4)
    if numbering is _Numbering.ENGLISH:
        return square
    if numbering is _Numbering.FIELDS:
        return 33 - square
    if numbering is _Numbering.ITALIAN:
        return 4 * (7 - rank) + j + 1
    return 4 * rank + 4 - j  # Spanish: 1 = the internal a1


def _name(mirrored: bool, square: int) -> str:
    internal = internal_name(square)
    return FILES[7 - FILES.index(internal[0])] + internal[1] if mirrored else internal


_NUMBERS: dict[str, tuple[int, ...]] = {
    t.rule_set: (0, *(_number(t._numbering, s) for s in range(1, 33))) for t in _TABLE
}
_FROM_NUMBER: dict[str, dict[int, int]] = {
    key: {n: s for s, n in enumerate(numbers) if s} for key, numbers in _NUMBERS.items()
}
_NAMES: dict[str, tuple[str, ...]] = {
    t.rule_set: ("", *(_name(t.mirrored, s) for s in range(1, 33))) for t in _TABLE
}
_FROM_NAME: dict[str, dict[str, int]] = {
    key: {n: s for s, n in enumerate(names) if s} for key, names in _NAMES.items()
}


def _check(square: int) -> None:
    if not isinstance(square, int) or not 1 <= square <= 32:
        raise NotationError(f"no internal square {square!r}: squares are 1-32")


def square_number(rule_set: str | RuleSet, square: int) -> int:
    """The tradition's number of internal square 1-32."""
    _check(square)
    return _NUMBERS[tradition(rule_set).rule_set][square]


def square_name(rule_set: str | RuleSet, square: int) -> str:
    """The tradition's algebraic name of internal square 1-32 (on its own board)."""
    _check(square)
    return _NAMES[tradition(rule_set).rule_set][square]


def format_square(rule_set: str | RuleSet, square: int, style: Style | None = None) -> str:
    """Internal square 1-32 in the tradition's notation (its default style unless given)."""
    trad = tradition(rule_set)
    if (style or trad.style) is Style.NUMERIC:
        return str(square_number(trad.rule_set, square))
    return square_name(trad.rule_set, square)


def parse_square(rule_set: str | RuleSet, text: str) -> int:
    """The internal square of a tradition's square, numeric (``22``) or algebraic (``c3``)."""
    trad = tradition(rule_set)
    token = text.strip().lower() if isinstance(text, str) else ""
    if token.isascii() and token.isdigit():
        # No square has more than two digits; a longer number is never read whole.
        square = _FROM_NUMBER[trad.rule_set].get(int(token)) if len(token) <= 9 else None
        if square is None:
            raise NotationError(f"no square {token}: squares are numbered 1-32", "range", token)
        return square
    square = _FROM_NAME[trad.rule_set].get(token)
    if square is not None:
        return square
    if len(token) == 2 and token[0] in FILES and token[1] in "12345678":
        raise NotationError(
            f"{token} is a light square; pieces stand only on dark squares", "light", token
        )
    raise NotationError(f"cannot read square {text!r}: use 1-32 or a1-h8", "unreadable", text)


# -- moves ------------------------------------------------------------------------------


def format_move(rule_set: str | RuleSet, move: Move, style: Style | None = None) -> str:
    """A move with every landing square in the tradition's notation: ``22x15x6`` in
    English, ``c3:e5:g7`` in Russian (captures: ``x`` between numbers, ``:`` between
    names, as rules.md writes them)."""
    return format_path(rule_set, move.path, move.is_capture, style)


def format_path(
    rule_set: str | RuleSet,
    path: Iterable[int],
    capture: bool,
    style: Style | None = None,
    *,
    capture_mark: str | None = None,
) -> str:
    """Internal squares joined as a move in the tradition's notation."""
    trad = tradition(rule_set)
    style = style or trad.style
    if not capture:
        sep = "-"
    elif capture_mark is not None:
        sep = capture_mark
    else:
        sep = "x" if style is Style.NUMERIC else ":"
    return sep.join(format_square(trad.rule_set, s, style) for s in path)


def move_texts(
    rule_set: str | RuleSet, moves: Iterable[Move], style: Style | None = None
) -> list[str]:
    """Moves in the tradition's notation, in reading order (numbers by value)."""
    return sorted((format_move(rule_set, m, style) for m in moves), key=_reading_order)


def listing(rule_set: str | RuleSet, moves: Iterable[Move], style: Style | None = None) -> str:
    """Moves as a comma-separated list in the tradition's notation ("none" if empty)."""
    texts = move_texts(rule_set, moves, style)
    return ", ".join(texts) if texts else "none"


def _reading_order(text: str) -> tuple[tuple[int, str], ...]:
    """Sort key of a move's text: numbers by value, names by letter then rank."""
    return tuple((int(t), "") if t.isdigit() else (0, t) for t in _SPLIT.split(text))


_SPLIT = re.compile(r"\s*[-x:]\s*", re.IGNORECASE)
# parse_square's kinds of unreadable square -> the code of the move that holds one.
_SQUARE_CODES = {
    "range": "move_square_range",
    "light": "move_light_square",
    "unreadable": "move_unreadable_square",
}
_CAPTURE_MARK = re.compile(r"[x:]", re.IGNORECASE)


def parse_move(board: Board, text: str, *, lenient_capture_mark: bool = False) -> Move:
    """Read a move written in the board's rule set's notation, numeric or algebraic.

    ``x`` or ``:`` claim a capture and ``-`` is read for either kind, as in
    ``Board.parse_move``; start and end alone are enough when only one legal move fits.
    With ``lenient_capture_mark`` a plain move written with ``x`` is read as ``-``, as
    CheckerBoard reads old files. Raises IllegalMoveError or AmbiguousMoveError (with the
    candidates) whose messages name moves in the tradition's notation.
    """
    rule_set = board.rule_set.key
    legal = board.legal_moves
    if not isinstance(text, str) or not text.strip():
        raise IllegalMoveError(say("move_empty"), legal)
    text = text.strip()
    try:
        squares = [parse_square(rule_set, token) for token in _SPLIT.split(text)]
    except NotationError as exc:
        if exc.kind in _SQUARE_CODES:
            coded = say(_SQUARE_CODES[exc.kind], move=text, square=exc.square)
            raise IllegalMoveError(coded, legal) from None
        raise IllegalMoveError(f"cannot read move {text!r}: {exc}", legal) from None
    if len(squares) < 2:
        raise IllegalMoveError(say("move_no_end", move=text), legal)
    claims_capture = bool(_CAPTURE_MARK.search(text))
    internal = ("x" if claims_capture else "-").join(str(s) for s in squares)
    try:
        return board.parse_move(internal)
    except AmbiguousMoveError as exc:
        raise AmbiguousMoveError(
            say(
                "move_ambiguous",
                move=text,
                count=len(exc.candidates),
                moves=listing(rule_set, exc.candidates),
            ),
            exc.candidates,
        ) from None
    except IllegalMoveError:
        pass
    plain: Move | None = None
    if claims_capture:
        try:
            plain = board.parse_move("-".join(str(s) for s in squares))
        except (IllegalMoveError, AmbiguousMoveError):
            plain = None
    if plain is not None and not plain.is_capture:
        if lenient_capture_mark:
            return plain
        raise IllegalMoveError(
            say("move_not_capture", move=text, plain=format_move(rule_set, plain)), legal
        )
    raise IllegalMoveError(say("move_illegal", move=text, legal=listing(rule_set, legal)), legal)


__all__ = [
    "TRADITIONS",
    "Colour",
    "NotationError",
    "Style",
    "Tradition",
    "format_move",
    "format_path",
    "format_square",
    "listing",
    "move_texts",
    "parse_move",
    "parse_square",
    "square_name",
    "square_number",
    "tradition",
]
