"""Sides, pieces, moves and outcomes: the engine's public value types."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from .squares import square_name


class Side(Enum):
    """The two sides; the drums always move first."""

    DRUMS = "drums"
    TIRES = "tires"

    @property
    def opponent(self) -> Side:
        """The other side."""
        return Side.TIRES if self is Side.DRUMS else Side.DRUMS

    @property
    def title(self) -> str:
        """Capitalised name, as in "Drums win"."""
        return self.value.capitalize()


class Piece(NamedTuple):
    """A piece on a square: its side and whether it is a king."""

    side: Side
    king: bool


class Move:
    """A whole move: a plain step, or a capture sequence with every landing square.

    Two moves are equal when they start and end on the same squares and take the same set
    of pieces (rules.md rule 8); ``path`` is one route, ``routes`` every route that reaches
    the same position.
    """

    __slots__ = ("_key", "captured", "crowns", "path", "routes")

    path: tuple[int, ...]
    captured: tuple[int, ...]
    crowns: bool
    routes: tuple[tuple[int, ...], ...]

    def __init__(
        self,
        path: tuple[int, ...],
        captured: tuple[int, ...] = (),
        crowns: bool = False,
        routes: tuple[tuple[int, ...], ...] = (),
    ) -> None:
        if len(path) < 2:
            raise ValueError("a move needs a start and at least one landing square")
        self.path = tuple(path)
        self.captured = tuple(sorted(captured))
        self.crowns = crowns
        self.routes = routes or (self.path,)
        self._key = (self.path[0], self.path[-1], frozenset(self.captured))

    @property
    def start(self) -> int:
        """The square the moving piece leaves."""
        return self.path[0]

    @property
    def end(self) -> int:
        """The square where the moving piece ends."""
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        """Whether the move takes anything."""
        return bool(self.captured)

    def notation(self) -> str:
        """Numeric notation: ``11-15`` or ``22x15x6`` (every landing square)."""
        sep = "x" if self.captured else "-"
        return sep.join(str(s) for s in self.path)

    def algebraic(self) -> str:
        """Algebraic notation: ``c3-d4`` or ``c3:e5:g7``."""
        sep = ":" if self.captured else "-"
        return sep.join(square_name(s) for s in self.path)

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return f"Move({self.notation()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)


class Termination(Enum):
    """Why a game ended by the rules (agreement, resignation and time are the service's)."""

    NO_PIECES = "no pieces"
    NO_MOVES = "no legal move"
    KING_MOVES = "20 king moves"
    REPETITION = "threefold repetition"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: the winner (None for a draw) and the reason."""

    winner: Side | None
    termination: Termination

    @property
    def detail(self) -> str:
        """Why the game ended, without who won: ``tires have no legal move``."""
        if self.termination is Termination.NO_PIECES:
            return f"{self.winner.opponent.value if self.winner else 'nobody'} have no pieces left"
        if self.termination is Termination.NO_MOVES:
            return f"{self.winner.opponent.value if self.winner else 'nobody'} have no legal move"
        if self.termination is Termination.KING_MOVES:
            return "20 king moves without a capture or a man's move"
        return str(self.termination.value)

    @property
    def reason(self) -> str:
        """The result and its reason: ``Draw: threefold repetition``, ``Drums win: tires
        have no legal move``."""
        return result_text(self.winner, self.detail)

    @property
    def pdn_result(self) -> str:
        """The PDN result token of this outcome."""
        return pdn_result(self.winner)


def result_text(winner: Side | None, detail: str) -> str:
    """A game's result with its reason, for any ending (the service's too): ``Tires win:
    drums resigned``, ``Draw: agreed by both players``."""
    if winner is None:
        return f"Draw: {detail}"
    return f"{winner.title} win: {detail}"


def pdn_result(winner: Side | None) -> str:
    """PDN result token of a finished game in CheckerBoard's convention, in every GameType:
    the first mover's score first, so "1-0" when the drums (the first mover) win
    (CheckerBoard ``pdn_result_to_string``; read that way ``tinsley.pdn`` gives Tinsley 175
    wins and 16 losses)."""
    if winner is None:
        return "1/2-1/2"
    return "1-0" if winner is Side.DRUMS else "0-1"
