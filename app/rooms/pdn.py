"""PDN export of a stored game (Black = drums, the first mover, as in English PDN)."""

from __future__ import annotations

from app.engine import RULE_SETS, Side

from .models import Game, Move, Room
from .policy import pdn_result


def _tag(name: str, value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def export_game(room: Room, game: Game, moves: list[Move], *, site: str) -> str:
    """The game as PDN: the seven-tag roster, GameType, FEN when not the standard start,
    moves with every landing square, and the result."""
    rule_set = RULE_SETS[room.rule_set]
    result = pdn_result(game)
    black, white = game.drums_seat, game.drums_seat.other
    date = (game.started_at or game.created_at).strftime("%Y.%m.%d")
    tags = [
        _tag("Event", f"{rule_set.name} correspondence game"),
        _tag("Site", site),
        _tag("Date", date),
        _tag("Round", str(game.number)),
        _tag("Black", f"{black} (drums)"),
        _tag("White", f"{white} (tires)"),
        _tag("Result", result),
        _tag("GameType", str(rule_set.pdn_gametype)),
    ]
    if game.start_fen is not None:
        tags += [_tag("SetUp", "1"), _tag("FEN", game.start_fen)]
    tokens: list[str] = []
    number = 1
    for move in moves:
        if move.side is Side.DRUMS:
            tokens.append(f"{number}.")
        elif not tokens:
            tokens.append(f"{number}...")
        tokens.append(move.notation)
        if move.side is Side.TIRES:
            number += 1
    if game.reason:
        tokens.append("{" + game.reason.replace("}", ")") + "}")
    tokens.append(result)
    lines: list[str] = []
    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > 79:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return "\n".join(tags) + "\n\n" + "\n".join(lines) + "\n"
