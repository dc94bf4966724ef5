"""The ids of rooms and imported games: 128 random bits in URL-safe base64.

Every id the service makes is 22 characters of `A-Z a-z 0-9 _ -`, and the columns
that hold them are 32 wide. A path that names something by anything else (a NUL
byte, a space, 300 characters) cannot name anything, so the API refuses it (422) before
any query; a database is never asked about text it may not be able to compare (PostgreSQL
refuses a NUL byte in a string).
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from fastapi import Path

#: The columns' width: the most an id may be.
MAX_ID_LENGTH = 32
ID_PATTERN = rf"^[A-Za-z0-9_-]{{1,{MAX_ID_LENGTH}}}$"
_ID = re.compile(ID_PATTERN)


def new_id() -> str:
    """A fresh id: 128 random bits, URL-safe, unguessable."""
    return secrets.token_urlsafe(16)


def is_id(text: str) -> bool:
    """Whether `text` could be an id (of something that may or may not exist)."""
    return _ID.fullmatch(text) is not None


def id_path(description: str) -> Any:
    """A path parameter that holds an id: anything else is refused with 422."""
    return Path(min_length=1, max_length=MAX_ID_LENGTH, pattern=ID_PATTERN, description=description)
