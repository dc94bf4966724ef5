"""Display names: chosen by the players, with no account behind them.

A name is trimmed and put in Unicode NFC, then must be 1 to 24 characters with nothing a
reader cannot see: no control or format characters (bidirectional overrides, zero-width
joiners and spaces), no private-use, surrogate or unassigned code points, no line or
paragraph separators, and no blank-looking letters (Hangul fillers, the braille blank).
"""

from __future__ import annotations

import unicodedata

from app.ai import Level
from app.engine import Side

MAX_LENGTH = 24
_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
_BLANK_LETTERS = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"}


class InvalidName(ValueError):
    """Why a name cannot be used (a ValueError, so that request validation says so)."""


def clean_name(text: str) -> str | None:
    """The name to store for `text`; None for a blank one (the default is then shown)."""
    name = unicodedata.normalize("NFC", text).strip()
    if not name:
        return None
    for char in name:
        if unicodedata.category(char) in _REFUSED_CATEGORIES or char in _BLANK_LETTERS:
            raise InvalidName(f"a name cannot contain the invisible character U+{ord(char):04X}")
    if len(name) > MAX_LENGTH:
        raise InvalidName(f"a name has at most {MAX_LENGTH} characters")
    return name


def default_name(side: Side) -> str:
    """What a seat is called when its player gave no name: by its colour in this game."""
    return f"{side.title} player"


def shown_name(
    name: str | None, computer: Level | None, side: Side, default: str | None = None
) -> str:
    """The name shown for a seat: the computer's level, the player's name, or a default
    (`default`, the reader's language's, else the English one)."""
    if computer is not None:
        return computer.title
    return name or default or default_name(side)
