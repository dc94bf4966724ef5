"""A player's free text (a chat message, a note): plain text as written, kept to what a
reader sees. Put in Unicode NFC, line ends as `\\n`, trimmed; refused (422 `invalid_text`)
when empty, longer than allowed, or holding a control character other than a line end
or a tab, or a bidirectional override (which would reorder the text around it)."""

from __future__ import annotations

import unicodedata

from . import errors

# The embeddings, overrides and isolates of the bidirectional algorithm.
_BIDI = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))


class InvalidText(errors.InvalidInput):
    """The text is empty, too long, or holds a character a reader cannot see."""

    code = "invalid_text"


def clean_text(value: str, *, max_length: int) -> str:
    """The text as kept, or InvalidText."""
    text = unicodedata.normalize("NFC", value.replace("\r\n", "\n").replace("\r", "\n")).strip()
    if not text:
        raise InvalidText("the text is empty")
    if len(text) > max_length:
        raise InvalidText(f"the text is longer than {max_length} characters")
    for char in text:
        if char in _BIDI or (unicodedata.category(char) == "Cc" and char not in "\n\t"):
            raise InvalidText(f"the text holds a hidden character (U+{ord(char):04X})")
    return text
