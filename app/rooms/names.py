"""Display names: chosen by the players, with no account behind them.

A name is trimmed and put in Unicode NFC, then must be 1 to 24 characters, every one of
them seen by a reader, and must not pass for a computer opponent's.

Refused, wherever they stand: control, surrogate, private-use and unassigned code
points, line and paragraph separators, format characters (bidirectional overrides,
zero-width spaces, the word joiner, the byte order mark, ...), and the rest of Unicode's
default-ignorable code points, which a font draws as nothing (the combining grapheme
joiner U+034F, Khmer's inherent vowels U+17B4 and U+17B5, the Hangul fillers), and the
braille blank.

Some of these are invisible only alone; they are taken where they change what is drawn:
- a zero-width joiner between two emoji (a family, a rainbow flag, a profession with a
  skin tone), or, as RFC 5892 (IDNA) allows it, after a virama;
- a zero-width non-joiner after a virama;
- a variation selector right after a character of the kind it selects a form of (FE0F
  after a heart asks for the emoji, E0100 after a CJK ideograph its variant), never
  alone, first, or after a Latin letter;
- tag characters in an emoji tag sequence (the flags of Scotland, Wales and England:
  a black flag, tag letters, a cancel tag).
A combining mark needs a character to sit on: one at the start or after a space is
refused.
"""

from __future__ import annotations

import unicodedata

from checkers_engine import Side

from .models import Level

MAX_LENGTH = 24
_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt) that are not format
# characters, which are refused by category anyway; and the braille blank.
_BLANK = frozenset(
    {
        "\u034f",  # combining grapheme joiner
        "\u115f",  # Hangul choseong filler
        "\u1160",  # Hangul jungseong filler
        "\u17b4",  # Khmer vowel inherent aq
        "\u17b5",  # Khmer vowel inherent aa
        "\u3164",  # Hangul filler
        "\uffa0",  # halfwidth Hangul filler
        "\u2800",  # braille pattern blank
    }
)
ZWNJ, ZWJ = "\u200c", "\u200d"
_VIRAMA = 9  # the canonical combining class of a virama
_BLACK_FLAG = "\U0001f3f4"
_CANCEL_TAG = "\U000e007f"
_SKIN_TONES = frozenset(chr(c) for c in range(0x1F3FB, 0x1F400))


class InvalidName(ValueError):
    """Why a name cannot be used (a ValueError, so that request validation says so);
    `code` says which rule it breaks."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def _is_variation_selector(char: str) -> bool:
    point = ord(char)
    return (
        0xFE00 <= point <= 0xFE0F
        or 0xE0100 <= point <= 0xE01EF
        or 0x180B <= point <= 0x180D
        or point == 0x180F
    )


# Characters other than symbols that have an emoji form (emoji-variation-sequences.txt).
_EMOJI_NON_SYMBOLS = frozenset("\u203c\u2049\u2139\u3030\u303d")


def _selects(before: str, selector: str, after: str) -> bool:
    """Whether `selector` picks a form of `before` (the kinds of character each range of
    selectors is defined for: emoji and text forms of symbols and keycaps, the variants
    of mathematical symbols, of CJK ideographs and of Mongolian letters)."""
    if not before:
        return False
    point, category = ord(selector), unicodedata.category(before)
    if point in (0xFE0E, 0xFE0F):
        keycap = before in "#*0123456789" and after == "\u20e3"
        return category[0] == "S" or before in _EMOJI_NON_SYMBOLS or keycap
    if 0xFE00 <= point <= 0xFE0D:
        return category[0] == "S" or category == "Lo"
    if point >= 0xE0100:
        return category == "Lo"
    return 0x1800 <= ord(before) <= 0x18AF and category == "Lo"  # Mongolian


def _is_tag(char: str) -> bool:
    return 0xE0020 <= ord(char) <= 0xE007F


def _is_base(char: str) -> bool:
    """A character drawn on its own, that marks and selectors may attach to."""
    return unicodedata.category(char)[0] in "LNSP" and char not in _BLANK


def _emoji_part(char: str) -> bool:
    """What an emoji ZWJ sequence is made of: pictographs (symbols), and the skin tone and
    presentation selector that may follow one."""
    return unicodedata.category(char) == "So" or char in _SKIN_TONES or char == "\ufe0f"


def _in_flag_tags(name: str, at: int) -> bool:
    """Whether the tag character at `at` belongs to a black flag's tag sequence, which
    ends with a cancel tag."""
    start = at
    while start > 0 and _is_tag(name[start - 1]):
        start -= 1
    end = at
    while end + 1 < len(name) and _is_tag(name[end + 1]):
        end += 1
    return (
        start > 0
        and name[start - 1] == _BLACK_FLAG
        and name[end] == _CANCEL_TAG
        and end > start
        and _CANCEL_TAG not in name[start:end]
    )


def _seen(name: str, at: int) -> bool:
    """Whether the character at `at` is drawn where it stands (the rules above)."""
    char = name[at]
    before = name[at - 1] if at else ""
    after = name[at + 1] if at + 1 < len(name) else ""
    after_virama = bool(before) and unicodedata.combining(before) == _VIRAMA
    if char == ZWJ:
        return after_virama or (
            bool(before) and bool(after) and _emoji_part(before) and _emoji_part(after)
        )
    if char == ZWNJ:
        return after_virama
    if _is_tag(char):
        return _in_flag_tags(name, at)
    if char in _BLANK or unicodedata.category(char) in _REFUSED_CATEGORIES:
        return False
    if _is_variation_selector(char):
        return _selects(before, char, after)
    if unicodedata.category(char)[0] == "M":
        # On a character, or on a mark that was itself on one (checked before it).
        return bool(before) and (_is_base(before) or unicodedata.category(before)[0] == "M")
    return True


def _reserved(name: str) -> Level | None:
    """The computer level a name would pass for: the same letters, whatever their case,
    width or the spaces and punctuation between them."""
    letters = "".join(c for c in unicodedata.normalize("NFKC", name).casefold() if c.isalnum())
    return next((level for level in Level if letters == level.value.casefold()), None)


def clean_name(text: str) -> str | None:
    """The name to store for `text`; None for a blank one (the default is then shown)."""
    name = unicodedata.normalize("NFC", text).strip()
    if not name:
        return None
    for at, char in enumerate(name):
        if not _seen(name, at):
            raise InvalidName(
                f"a name cannot contain the invisible character U+{ord(char):04X}",
                "name_invisible",
            )
    if len(name) > MAX_LENGTH:
        raise InvalidName(f"a name has at most {MAX_LENGTH} characters", "name_too_long")
    level = _reserved(name)
    if level is not None:
        raise InvalidName(
            f"{level.title} is the computer's name: a player cannot take it", "name_reserved"
        )
    return name


# A seat whose player erased their profile, as the records (PDN) name it.
FORMER_PLAYER = "Former player"


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
