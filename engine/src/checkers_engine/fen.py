"""PDN FEN. The engine's own form is ``B:W21,22,K30:B1,2,3`` with ``B`` the drums (first
mover) and ``W`` the tires; ``read`` and ``write`` speak each rule set's tradition."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .errors import EngineError, InvalidFenError
from .messages import say
from .notation import (
    Colour,
    NotationError,
    Style,
    format_square,
    tradition,
)
from .notation import (
    parse_square as tradition_square,
)
from .rulesets import RuleSet, get_rule_set
from .squares import parse_square
from .values import Side

#: (drums men, drums kings, tires men, tires kings) as square lists, and the side to move
#: (0 drums, 1 tires).
ParsedFen = tuple[list[int], list[int], list[int], list[int], int]

_SIDES = {"B": 0, "W": 1}


def _squares(item: str) -> list[int]:
    """One FEN item: a square, or a range ``1-12`` of numeric squares."""
    if "-" in item:
        low_text, _, high_text = item.partition("-")
        low, high = parse_square(low_text), parse_square(high_text)
        if not (low_text.strip().isdigit() and high_text.strip().isdigit()) or low > high:
            raise InvalidFenError(say("fen_internal_bad_range", item=item, range=item))
        return list(range(low, high + 1))
    return [parse_square(item)]


def _square_code(token: str) -> str:
    """Why ``squares.parse_square`` refused ``token``: the FEN message's code."""
    token = token.strip().lower()
    if token.isascii() and token.isdigit():
        return "fen_square_range"
    if len(token) == 2 and token[0] in "abcdefgh" and token[1] in "12345678":
        return "fen_light_square"
    return "fen_unreadable_square"


def parse_fen(text: str, rules: RuleSet) -> ParsedFen:
    """Read a PDN FEN; raises InvalidFenError saying what is wrong."""
    if not isinstance(text, str):
        raise InvalidFenError(say("fen_not_string"))
    body = text.strip().rstrip(".").strip()
    if not body:
        raise InvalidFenError(say("fen_empty"))
    fields = body.split(":")
    turn_text = fields[0].strip().upper()
    if turn_text not in _SIDES:
        raise InvalidFenError(say("fen_internal_bad_turn", turn=fields[0]))
    pieces: dict[int, tuple[int, bool]] = {}
    seen_sides: set[int] = set()
    for field in fields[1:]:
        field = field.strip()
        if not field:
            continue
        side_letter = field[0].upper()
        if side_letter not in _SIDES:
            raise InvalidFenError(say("fen_internal_bad_list", field=field))
        side = _SIDES[side_letter]
        if side in seen_sides:
            raise InvalidFenError(say("fen_internal_list_twice", letter=side_letter))
        seen_sides.add(side)
        for raw in field[1:].split(","):
            item = raw.strip()
            if not item:
                continue
            king = item[0] in "Kk"
            if king:
                item = item[1:]
            try:
                squares = _squares(item)
            except InvalidFenError:
                coded = say("fen_internal_bad_range", item=raw.strip(), range=item)
                raise InvalidFenError(coded) from None
            except EngineError:
                # The first token that does not read: the item, or a range's low or high end.
                tokens = item.partition("-")[::2] if "-" in item else (item,)
                token = next(t for t in tokens if not _reads(t))
                coded = say(_square_code(token), item=raw.strip(), square=token.strip())
                raise InvalidFenError(coded) from None
            for square in squares:
                if square in pieces:
                    raise InvalidFenError(say("fen_square_twice", square=square))
                pieces[square] = (side, king)
    if len(fields) > 3:
        raise InvalidFenError(say("fen_internal_too_many_lists"))
    lists: tuple[list[int], list[int], list[int], list[int]] = ([], [], [], [])
    for square, (side, king) in sorted(pieces.items()):
        if not king and side == 0 and square >= 29:
            raise InvalidFenError(say("fen_internal_far_row_drums", square=square))
        if not king and side == 1 and square <= 4:
            raise InvalidFenError(say("fen_internal_far_row_tires", square=square))
        lists[2 * side + king].append(square)
    for side, name in ((0, "drums"), (1, "tires")):
        count = len(lists[2 * side]) + len(lists[2 * side + 1])
        if count > rules.men_per_side:
            raise InvalidFenError(
                say(
                    f"fen_internal_too_many_{name}",
                    count=count,
                    rule_set=rules.name,
                    n=rules.men_per_side,
                )
            )
    return lists[0], lists[1], lists[2], lists[3], _SIDES[turn_text]


def _reads(token: str) -> bool:
    """Whether ``squares.parse_square`` reads ``token``."""
    try:
        parse_square(token)
    except EngineError:
        return False
    return True


def write_fen(
    drums: Sequence[int],
    drum_kings: Sequence[int],
    tires: Sequence[int],
    tire_kings: Sequence[int],
    turn: int,
) -> str:
    """PDN FEN with the side to move first, then the tires (W) and the drums (B)."""

    def part(men: Sequence[int], kings: Sequence[int]) -> str:
        items = [(s, str(s)) for s in men] + [(s, f"K{s}") for s in kings]
        return ",".join(text for _, text in sorted(items))

    side = "B" if turn == 0 else "W"
    return f"{side}:W{part(tires, tire_kings)}:B{part(drums, drum_kings)}"


# -- each tradition's FEN ---------------------------------------------------------------
#
# A tradition's FEN names the side to move and the pieces in its own colours and squares:
# English ``B:W21,...,32:B1,...,12`` (Black first), Italian ``W:W21,...,32:B1,...,12`` and
# Spanish ``W:W1,...,12:B21,...,32`` (CheckerBoard reads squares in the GameType's
# numbering), Russian and Brazilian as lidraughts writes them
# (``W:W21,...,32:B1,...,12:H0:F1``) or pydraughts (``W:Wa1,c3,...:Bb6,...``). lidraughts'
# ``:H`` is the half-move clock and ``:F`` the number of the next full move (its
# ``format/Forsyth.scala``); the half-move clock seeds the 20-king-ply counter.


@dataclass(frozen=True, slots=True)
class Position:
    """A position in internal squares and sides, with the counters a FEN may carry."""

    rule_set: str
    turn: Side
    drums: frozenset[int] = frozenset()
    drum_kings: frozenset[int] = frozenset()
    tires: frozenset[int] = frozenset()
    tire_kings: frozenset[int] = frozenset()
    #: Plies since the last capture or man's move (lidraughts' ``:H``), if given.
    half_move_clock: int | None = None
    #: The number of the next full move (lidraughts' ``:F``), if given.
    move_number: int | None = None

    def internal_fen(self) -> str:
        """The engine's own FEN of the pieces and side to move (``B`` = drums)."""
        return write_fen(
            sorted(self.drums),
            sorted(self.drum_kings),
            sorted(self.tires),
            sorted(self.tire_kings),
            0 if self.turn is Side.DRUMS else 1,
        )

    def with_counters(self, half_move_clock: int | None, move_number: int | None) -> Position:
        """The same pieces and side to move with these counters."""
        return replace(self, half_move_clock=half_move_clock, move_number=move_number)

    @classmethod
    def from_internal_fen(cls, rule_set: str | RuleSet, text: str) -> Position:
        """A Position from the engine's own FEN (as ``Board(fen=...)`` reads it)."""
        rules = get_rule_set(rule_set)
        drums, drum_kings, tires, tire_kings, turn = parse_fen(text, rules)
        return cls(
            rules.key,
            Side.DRUMS if turn == 0 else Side.TIRES,
            frozenset(drums),
            frozenset(drum_kings),
            frozenset(tires),
            frozenset(tire_kings),
        )


_WRAPPED = re.compile(r'^\[\s*FEN\s+"(.*)"\s*\]$', re.DOTALL)
_COUNTER = re.compile(r"^([HF])([0-9]{1,9})$", re.IGNORECASE)


def read(rule_set: str | RuleSet, text: str) -> Position:
    """Read a FEN in the rule set's tradition: its colours, its numbering or algebraic
    squares, ranges such as ``1-12``, and lidraughts' ``:H`` and ``:F`` counters.

    A FEN that cannot be read, or whose position is inconsistent (the wrong side to move,
    a man on its crowning row, more pieces than a side starts with, a square given twice),
    raises InvalidFenError saying exactly what is wrong, in the tradition's terms.
    """
    rules = get_rule_set(rule_set)
    trad = tradition(rules)
    if not isinstance(text, str):
        raise InvalidFenError(say("fen_not_string"))
    body = text.strip()
    wrapped = _WRAPPED.match(body)
    if wrapped:
        body = wrapped.group(1).strip()
    body = body.rstrip(".").strip()
    if not body:
        raise InvalidFenError(say("fen_empty"))
    fields = [f.strip() for f in body.split(":")]
    turn_text = fields[0].upper()
    if turn_text not in ("W", "B"):
        first = trad.first_mover.value.lower()
        raise InvalidFenError(
            say(f"fen_bad_turn_{first}_first", turn=fields[0], rule_set=rules.name)
        )
    colours = {"W": Colour.WHITE, "B": Colour.BLACK}
    turn = trad.side(colours[turn_text])
    pieces: dict[int, tuple[Side, bool]] = {}
    seen: set[str] = set()
    counters: dict[str, int] = {}

    def name(square: int) -> str:
        return format_square(rules, square)

    for field in fields[1:]:
        if not field:
            continue
        counter = _COUNTER.match(field)
        if counter:
            letter = counter.group(1).upper()
            if letter in counters:
                raise InvalidFenError(say("fen_counter_twice", letter=letter))
            counters[letter] = int(counter.group(2))
            continue
        letter = field[0].upper()
        if letter not in colours:
            raise InvalidFenError(say("fen_bad_list", field=field))
        if letter in seen:
            raise InvalidFenError(say(f"fen_list_twice_{colours[letter].value.lower()}"))
        if counters:
            raise InvalidFenError(say("fen_counters_last"))
        seen.add(letter)
        side = trad.side(colours[letter])
        for raw in field[1:].split(","):
            item = raw.strip()
            if not item:
                continue
            king = item[0] in "Kk"
            if king:
                item = item[1:].strip()
            try:
                squares = _tradition_squares(rules, item)
            except NotationError as exc:
                code = _SQUARE_CODES.get(exc.kind, "fen_unreadable_square")
                raise InvalidFenError(say(code, item=raw.strip(), square=exc.square)) from None
            except InvalidFenError as exc:
                if exc.message is None:
                    raise
                # A range's reason, said of the item it is in.
                raise InvalidFenError(say(exc.message.code, item=raw.strip())) from None
            for square in squares:
                if square in pieces:
                    other = pieces[square][0]
                    code = "fen_square_twice" if other is side else "fen_square_both"
                    raise InvalidFenError(say(code, square=name(square)))
                pieces[square] = (side, king)
    if not seen:
        raise InvalidFenError(say("fen_no_pieces"))
    if counters.get("F") == 0:
        raise InvalidFenError(say("fen_move_number_zero"))

    position = Position(
        rules.key,
        turn,
        frozenset(s for s, (side, k) in pieces.items() if side is Side.DRUMS and not k),
        frozenset(s for s, (side, k) in pieces.items() if side is Side.DRUMS and k),
        frozenset(s for s, (side, k) in pieces.items() if side is Side.TIRES and not k),
        frozenset(s for s, (side, k) in pieces.items() if side is Side.TIRES and k),
        counters.get("H"),
        counters.get("F"),
    )
    _check_consistent(rules, position)
    return position


def _tradition_squares(rules: RuleSet, item: str) -> list[int]:
    """One FEN item in a tradition: a square, or a range ``1-12`` of its numbers."""
    if "-" in item:
        low_text, _, high_text = item.partition("-")
        if not (
            re.fullmatch(r"[0-9]{1,9}", low_text.strip())
            and re.fullmatch(r"[0-9]{1,9}", high_text.strip())
        ):
            raise InvalidFenError(say("fen_range_numbers", item=item))
        low, high = int(low_text), int(high_text)
        if not 1 <= low <= high <= 32:
            raise InvalidFenError(say("fen_range_order", item=item))
        return [tradition_square(rules, str(n)) for n in range(low, high + 1)]
    return [tradition_square(rules, item)]


#: NotationError kinds -> the FEN message for a square that cannot be read.
_SQUARE_CODES = {
    "range": "fen_square_range",
    "light": "fen_light_square",
    "unreadable": "fen_unreadable_square",
}


def _check_consistent(rules: RuleSet, position: Position) -> None:
    """Refuse a position that no game reaches with this side to move."""
    trad = tradition(rules)

    def colour(side: Side) -> str:
        return trad.colour(side).value.lower()

    crowning = {Side.DRUMS: range(29, 33), Side.TIRES: range(1, 5)}
    for side, men in ((Side.DRUMS, position.drums), (Side.TIRES, position.tires)):
        for square in sorted(men):
            if square in crowning[side]:
                raise InvalidFenError(
                    say(f"fen_crowning_{colour(side)}", square=format_square(rules, square))
                )
    n = rules.men_per_side
    for side, men, kings in (
        (Side.DRUMS, position.drums, position.drum_kings),
        (Side.TIRES, position.tires, position.tire_kings),
    ):
        if len(men) + len(kings) > n:
            raise InvalidFenError(
                say(
                    f"fen_too_many_{colour(side)}",
                    count=len(men) + len(kings),
                    rule_set=rules.name,
                    n=n,
                )
            )
    # The drums move first, so the tires are never to move while every drums man still
    # stands on its starting square (a man cannot go back): the usual sign of a FEN
    # written in another tradition's colours.
    n_start = frozenset(range(1, n + 1))
    if position.turn is Side.TIRES and position.drums == n_start and not position.drum_kings:
        raise InvalidFenError(
            say(f"fen_wrong_turn_{colour(Side.DRUMS)}_first", rule_set=rules.name)
        )


def write(position: Position, *, counters: bool = False) -> str:
    """The position as its tradition's FEN: the tradition's colours, side to move first,
    then White's and Black's pieces in its notation; with ``counters`` lidraughts' ``:H``
    (half-move clock) and ``:F`` (full-move number) follow."""
    rules = get_rule_set(position.rule_set)
    trad = tradition(rules)

    def part(men: frozenset[int], kings: frozenset[int]) -> str:
        items = [(s, False) for s in men] + [(s, True) for s in kings]
        if trad.style is Style.NUMERIC:
            items.sort(key=lambda item: int(format_square(rules, item[0])))
        else:
            items.sort(key=lambda item: format_square(rules, item[0])[::-1])
        return ",".join(("K" if king else "") + format_square(rules, s) for s, king in items)

    by_colour = {
        trad.colour(Side.DRUMS): part(position.drums, position.drum_kings),
        trad.colour(Side.TIRES): part(position.tires, position.tire_kings),
    }
    text = (
        f"{trad.colour(position.turn).letter}:W{by_colour[Colour.WHITE]}:B{by_colour[Colour.BLACK]}"
    )
    if counters:
        text += f":H{position.half_move_clock or 0}:F{position.move_number or 1}"
    return text
