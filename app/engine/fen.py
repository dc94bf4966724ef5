"""PDN FEN: ``B:W21,22,K30:B1,2,3``. ``B`` is the drums (first mover), ``W`` the tires."""

from __future__ import annotations

from collections.abc import Sequence

from .errors import EngineError, InvalidFenError
from .rulesets import RuleSet
from .squares import parse_square

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
            raise InvalidFenError(f"bad square range {item!r}")
        return list(range(low, high + 1))
    return [parse_square(item)]


def parse_fen(text: str, rules: RuleSet) -> ParsedFen:
    """Read a PDN FEN; raises InvalidFenError saying what is wrong."""
    if not isinstance(text, str):
        raise InvalidFenError("a FEN must be a string")
    body = text.strip().rstrip(".").strip()
    if not body:
        raise InvalidFenError("empty FEN")
    fields = body.split(":")
    turn_text = fields[0].strip().upper()
    if turn_text not in _SIDES:
        raise InvalidFenError(
            f"FEN must start with the side to move, B (drums) or W (tires), not {fields[0]!r}"
        )
    pieces: dict[int, tuple[int, bool]] = {}
    seen_sides: set[int] = set()
    for field in fields[1:]:
        field = field.strip()
        if not field:
            continue
        side_letter = field[0].upper()
        if side_letter not in _SIDES:
            raise InvalidFenError(f"a piece list must start with B or W, not {field!r}")
        side = _SIDES[side_letter]
        if side in seen_sides:
            raise InvalidFenError(f"the {side_letter} piece list appears twice")
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
            except EngineError as exc:
                raise InvalidFenError(f"bad square {raw.strip()!r}: {exc}") from None
            for square in squares:
                if square in pieces:
                    raise InvalidFenError(f"square {square} is given twice")
                pieces[square] = (side, king)
    if len(fields) > 3:
        raise InvalidFenError("a FEN has at most two piece lists")
    lists: tuple[list[int], list[int], list[int], list[int]] = ([], [], [], [])
    for square, (side, king) in sorted(pieces.items()):
        if not king and side == 0 and square >= 29:
            raise InvalidFenError(f"a drums man cannot stand on the far row (square {square})")
        if not king and side == 1 and square <= 4:
            raise InvalidFenError(f"a tires man cannot stand on the far row (square {square})")
        lists[2 * side + king].append(square)
    for side, name in ((0, "drums"), (1, "tires")):
        count = len(lists[2 * side]) + len(lists[2 * side + 1])
        if count > rules.men_per_side:
            raise InvalidFenError(
                f"{count} {name} pieces: {rules.name} starts with {rules.men_per_side} a side"
            )
    return lists[0], lists[1], lists[2], lists[3], _SIDES[turn_text]


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
