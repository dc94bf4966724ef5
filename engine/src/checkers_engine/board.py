"""The Board: a position of one rule set with its history, in the spirit of python-chess."""

from __future__ import annotations

import random
import re
from typing import NamedTuple

from .errors import AmbiguousMoveError, IllegalMoveError
from .fen import Position, parse_fen, write_fen
from .movegen import RawMove, apply, count_moves, generate
from .rulesets import DEFAULT_RULE_SET, RuleSet, get_rule_set
from .squares import (
    BIT_SQUARE,
    FULL,
    NUM_BITS,
    SQUARE_BIT,
    bits_to_squares,
    parse_square,
    square_name,
    squares_to_bits,
)
from .values import Move, Outcome, Piece, Side, Termination

#: Plain king plies in a row (both sides counted) that draw the game (rules.md rule 11).
KING_PLIES_DRAW = 20
#: The occurrence of a position that draws the game.
REPETITION_DRAW = 3

_rng = random.Random(0x5EED_C0DE)
#: Zobrist keys by piece kind (drums man, drums king, tires man, tires king) and bit.
_ZOBRIST: tuple[tuple[int, ...], ...] = tuple(
    tuple(_rng.getrandbits(64) for _ in range(NUM_BITS)) for _ in range(4)
)
_ZOBRIST_TIRES_TO_MOVE = _rng.getrandbits(64)

_SIDES = (Side.DRUMS, Side.TIRES)
_MOVE_SPLIT = re.compile(r"\s*[-x:]\s*", re.IGNORECASE)
_SEPARATORS = re.compile(r"[-x:]")


def _zobrist(drums: int, tires: int, kings: int, turn: int) -> int:
    key = _ZOBRIST_TIRES_TO_MOVE if turn else 0
    for kind, mask in enumerate((drums & ~kings, drums & kings, tires & ~kings, tires & kings)):
        table = _ZOBRIST[kind]
        while mask:
            low = mask & -mask
            mask ^= low
            key ^= table[low.bit_length() - 1]
    return key


def _fen_of(drums: int, tires: int, kings: int, turn: int) -> str:
    return write_fen(
        bits_to_squares(drums & ~kings),
        bits_to_squares(drums & kings),
        bits_to_squares(tires & ~kings),
        bits_to_squares(tires & kings),
        turn,
    )


def _squares_of(path: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(BIT_SQUARE[b] for b in path)


class _Saved(NamedTuple):
    move: Move
    drums: int
    tires: int
    kings: int
    turn: int
    king_plies: int
    key: int
    reversible_from: int


class Board:
    """A position in one rule set, with the moves that led to it.

    ``Board()`` is the English start position; ``Board("russian")`` Russian's;
    ``Board("thai", fen="B:W...:B...")`` any position given as PDN FEN.
    """

    def __init__(self, rule_set: str | RuleSet = DEFAULT_RULE_SET, fen: str | None = None) -> None:
        self.rule_set: RuleSet = get_rule_set(rule_set)
        if fen is None:
            n = self.rule_set.men_per_side
            drums_men, tires_men = list(range(1, n + 1)), list(range(33 - n, 33))
            drum_kings: list[int] = []
            tire_kings: list[int] = []
            turn = 0
        else:
            drums_men, drum_kings, tires_men, tire_kings, turn = parse_fen(fen, self.rule_set)
        self._drums = squares_to_bits(drums_men) | squares_to_bits(drum_kings)
        self._tires = squares_to_bits(tires_men) | squares_to_bits(tire_kings)
        self._kings = squares_to_bits(drum_kings) | squares_to_bits(tire_kings)
        self._turn = turn
        self.king_plies = 0
        self._key = _zobrist(self._drums, self._tires, self._kings, turn)
        self._keys: list[int] = [self._key]
        self._reversible_from = 0
        self._stack: list[_Saved] = []
        self._legal: dict[Move, RawMove] | None = None

    # -- position -------------------------------------------------------------------------

    @property
    def turn(self) -> Side:
        """The side to move."""
        return _SIDES[self._turn]

    @property
    def key(self) -> int:
        """Zobrist key of the position: the pieces on their squares and the side to move."""
        return self._key

    @property
    def ply(self) -> int:
        """How many moves have been pushed on this board."""
        return len(self._stack)

    @property
    def move_stack(self) -> list[Move]:
        """The moves pushed on this board, oldest first."""
        return [saved.move for saved in self._stack]

    def raw_state(self) -> tuple[int, int, int, int]:
        """``(own, opp, kings, turn)`` for the low-level generator in ``movegen``."""
        if self._turn == 0:
            return self._drums, self._tires, self._kings, 0
        return self._tires, self._drums, self._kings, 1

    def piece_at(self, square: int) -> Piece | None:
        """The piece on square 1-32, or None."""
        bit = 1 << SQUARE_BIT[parse_square(str(square))]
        if self._drums & bit:
            return Piece(Side.DRUMS, bool(self._kings & bit))
        if self._tires & bit:
            return Piece(Side.TIRES, bool(self._kings & bit))
        return None

    def pieces(self) -> dict[int, Piece]:
        """Every piece by square number."""
        out: dict[int, Piece] = {}
        for square in range(1, 33):
            bit = 1 << SQUARE_BIT[square]
            if (self._drums | self._tires) & bit:
                side = Side.DRUMS if self._drums & bit else Side.TIRES
                out[square] = Piece(side, bool(self._kings & bit))
        return out

    def fen(self) -> str:
        """The position as PDN FEN (``B`` = drums, ``W`` = tires; side to move first)."""
        return _fen_of(self._drums, self._tires, self._kings, self._turn)

    def copy(self) -> Board:
        """An independent copy, history included."""
        other = Board.__new__(Board)
        other.__dict__.update(self.__dict__)
        other._keys = list(self._keys)
        other._stack = list(self._stack)
        other._legal = None
        return other

    def mirror(self) -> Board:
        """The position turned 180 degrees with the sides swapped (square s -> 33 - s).

        The mirrored board has no history: it is a new game from that position.
        """

        def flip(mask: int) -> int:
            out = 0
            while mask:
                low = mask & -mask
                mask ^= low
                out |= 1 << (NUM_BITS - low.bit_length())
            return out & FULL

        other = Board.__new__(Board)
        other.rule_set = self.rule_set
        other._drums = flip(self._tires)
        other._tires = flip(self._drums)
        other._kings = flip(self._kings)
        other._turn = self._turn ^ 1
        other.king_plies = 0
        other._key = _zobrist(other._drums, other._tires, other._kings, other._turn)
        other._keys = [other._key]
        other._reversible_from = 0
        other._stack = []
        other._legal = None
        return other

    # -- moves ----------------------------------------------------------------------------

    def _legal_map(self) -> dict[Move, RawMove]:
        if self._legal is None:
            own, opp, kings, turn = self.raw_state()
            grouped: dict[tuple[int, int, int], list[RawMove]] = {}
            for raw in generate(own, opp, kings, turn, self.rule_set, paths=True):
                grouped.setdefault((raw[0][0], raw[0][-1], raw[1]), []).append(raw)
            moves = []
            for routes in grouped.values():
                first = routes[0]
                paths = tuple(sorted(_squares_of(r[0]) for r in routes))
                move = Move(paths[0], bits_to_squares(first[1]), first[2], paths)
                moves.append((move, first))
            moves.sort(key=lambda pair: pair[0].path)
            self._legal = dict(moves)
        return self._legal

    @property
    def legal_moves(self) -> list[Move]:
        """Every legal move, sorted by path; a capture sequence is one move, and routes
        with the same start, end and captured pieces are one move (rule 8)."""
        return list(self._legal_map())

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal here."""
        return move in self._legal_map()

    def push(self, move: Move) -> None:
        """Play a legal move; raises IllegalMoveError otherwise."""
        legal = self._legal_map()
        raw = legal.get(move)
        if raw is None:
            raise IllegalMoveError(
                f"{move} is not legal here; legal moves: {_listing(list(legal))}", legal
            )
        path, captured, crowns = raw
        start, end = path[0], path[-1]
        own, opp, kings, turn = self.raw_state()
        was_king = bool(kings >> start & 1)
        self._stack.append(
            _Saved(
                move,
                self._drums,
                self._tires,
                self._kings,
                self._turn,
                self.king_plies,
                self._key,
                self._reversible_from,
            )
        )
        # Incremental Zobrist update: the mover leaves, lands (perhaps crowned), the
        # captured pieces go, and the side to move changes.
        base = 2 * turn
        key = self._key ^ _ZOBRIST[base + was_king][start]
        key ^= _ZOBRIST[base + (was_king or crowns)][end]
        victims = captured
        while victims:
            low = victims & -victims
            victims ^= low
            bit = low.bit_length() - 1
            key ^= _ZOBRIST[2 - base + bool(kings & low)][bit]
        self._key = key ^ _ZOBRIST_TIRES_TO_MOVE

        nxt_own, nxt_opp, nxt_kings, nxt_turn = apply(own, opp, kings, turn, raw)
        if nxt_turn == 0:
            self._drums, self._tires = nxt_own, nxt_opp
        else:
            self._drums, self._tires = nxt_opp, nxt_own
        self._kings = nxt_kings
        self._turn = nxt_turn
        self._keys.append(self._key)
        if was_king and not captured:
            self.king_plies += 1
        else:
            self.king_plies = 0
            self._reversible_from = len(self._keys) - 1
        self._legal = None

    def pop(self) -> Move:
        """Take back the last move and return it; IndexError when there is none."""
        saved = self._stack.pop()
        self._drums, self._tires, self._kings = saved.drums, saved.tires, saved.kings
        self._turn = saved.turn
        self.king_plies = saved.king_plies
        self._key = saved.key
        self._reversible_from = saved.reversible_from
        self._keys.pop()
        self._legal = None
        return saved.move

    def is_irreversible(self, move: Move) -> bool:
        """Whether ``move`` (played from here) is a capture or a man's move: no earlier
        position can occur again after it, and the king-move count restarts."""
        piece = self.piece_at(move.start)
        return move.is_capture or piece is None or not piece.king

    def reversible_history(self) -> tuple[str, list[Move]]:
        """What the draw rules look back on: the position after the last capture or man's
        move (or this board's first position) as FEN, and the plain king moves since.
        Replaying those moves from that FEN gives a board in the same draw state."""
        saved = self._stack[self._reversible_from :]
        if not saved:
            return self.fen(), []
        first = saved[0]
        return _fen_of(first.drums, first.tires, first.kings, first.turn), [
            entry.move for entry in saved
        ]

    def parse_move(self, text: str) -> Move:
        """Read a move in numeric or algebraic notation: ``11-15``, ``22x15x6``, ``c3-d4``,
        ``c3:e5:g7``. ``x`` or ``:`` mark a capture; ``-`` is read for either kind.

        The start and end squares alone are enough when exactly one legal move matches;
        landing squares in between narrow the choice. Raises IllegalMoveError (nothing
        matches, or unreadable text) or AmbiguousMoveError (several match); both carry the
        candidate moves and name them in the message.
        """
        legal = list(self._legal_map())
        if not isinstance(text, str):
            raise IllegalMoveError("a move must be given as text, such as 11-15", legal)
        if not text.strip():
            raise IllegalMoveError("empty move text", legal)
        text = text.strip()
        # "x" and ":" claim a capture; "-" is read either way, as older English texts
        # write captures with it too ("13-22").
        capture = bool(set(_SEPARATORS.findall(text.lower())) & {"x", ":"})
        try:
            squares = tuple(parse_square(t) for t in _MOVE_SPLIT.split(text))
        except ValueError as exc:
            raise IllegalMoveError(f"cannot read move {text!r}: {exc}", legal) from None
        if len(squares) < 2:
            raise IllegalMoveError(
                f"cannot read move {text!r}: give the start and end squares, as in 11-15",
                legal,
            )
        exact = [m for m in legal if squares in m.routes]
        matches = exact or [m for m in legal if any(_follows(squares, r) for r in m.routes)]
        fitting = [m for m in matches if m.is_capture or not capture]
        if len(fitting) == 1:
            return fitting[0]
        if fitting:
            raise AmbiguousMoveError(
                f"{text} matches {len(fitting)} moves; give the landing squares in order: "
                f"{_listing(fitting)}",
                fitting,
            )
        if matches:
            raise IllegalMoveError(
                f"{text} is written as a capture, which it is not: write {_listing(matches)}",
                legal,
            )
        raise IllegalMoveError(f"{text} is not legal here; legal moves: {_listing(legal)}", legal)

    def push_text(self, text: str) -> Move:
        """Parse a move and play it; returns the move."""
        move = self.parse_move(text)
        self.push(move)
        return move

    # -- end of game ----------------------------------------------------------------------

    def repetitions(self) -> int:
        """How many times the current position has occurred (at least 1)."""
        return self._keys[self._reversible_from :].count(self._key)

    def outcome(self) -> Outcome | None:
        """The result if the game is over by the rules, else None.

        A side to move with no pieces or no legal move loses; that is checked before the
        draws (20 plain king plies, third occurrence of a position).
        """
        own, opp, kings, turn = self.raw_state()
        winner = _SIDES[turn ^ 1]
        if not own:
            return Outcome(winner, Termination.NO_PIECES)
        if not count_moves(own, opp, kings, turn, self.rule_set, False):
            return Outcome(winner, Termination.NO_MOVES)
        if self.king_plies >= KING_PLIES_DRAW:
            return Outcome(None, Termination.KING_MOVES)
        if self.repetitions() >= REPETITION_DRAW:
            return Outcome(None, Termination.REPETITION)
        return None

    def is_game_over(self) -> bool:
        """Whether the rules have ended the game."""
        return self.outcome() is not None

    # -- positions in a tradition's FEN --------------------------------------------------

    #: The full-move number of this board's first position (a FEN's ``:F``).
    start_move_number: int = 1

    @classmethod
    def from_position(cls, position: Position) -> Board:
        """A new game from a Position (as ``fen.read`` gives it): its half-move clock, when
        it has one, seeds the count of plain king plies that draws at 20."""
        board = cls(position.rule_set, fen=position.internal_fen())
        board.king_plies = position.half_move_clock or 0
        board.start_move_number = position.move_number or 1
        return board

    def position(self) -> Position:
        """The current position, with its half-move clock and full-move number."""
        first_turn = self._stack[0].turn if self._stack else self._turn
        return Position.from_internal_fen(self.rule_set, self.fen()).with_counters(
            self.king_plies, self.start_move_number + (self.ply + first_turn) // 2
        )

    def __str__(self) -> str:
        rows = []
        for rank in range(7, -1, -1):
            cells = []
            for file in range(8):
                if (rank + file) % 2:
                    cells.append(" ")
                    continue
                square = parse_square(f"{'abcdefgh'[file]}{rank + 1}")
                piece = self.piece_at(square)
                if piece is None:
                    cells.append(".")
                else:
                    letter = "d" if piece.side is Side.DRUMS else "t"
                    cells.append(letter.upper() if piece.king else letter)
            rows.append(f"{rank + 1} {' '.join(cells)}")
        rows.append("  a b c d e f g h")
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"Board({self.rule_set.key!r}, fen={self.fen()!r})"


def _follows(given: tuple[int, ...], route: tuple[int, ...]) -> bool:
    """Whether ``given`` names the route's start and end with some of its landing squares,
    in order."""
    if given[0] != route[0] or given[-1] != route[-1]:
        return False
    inner = iter(route[1:-1])
    return all(square in inner for square in given[1:-1])


def _listing(moves: list[Move]) -> str:
    if not moves:
        return "none"
    return ", ".join(m.notation() for m in moves)


__all__ = ["KING_PLIES_DRAW", "REPETITION_DRAW", "Board", "square_name"]
