"""Typed errors of the rules engine; all are ValueErrors so callers may catch either."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .messages import Message

if TYPE_CHECKING:
    from .values import Move


class EngineError(ValueError):
    """Base of every error the engine raises for bad input.

    Given a Message, its English is the error's text and ``message`` keeps its code and
    parameters (None for an error raised with a plain text).
    """

    def __init__(self, message: str | Message = "") -> None:
        coded = message if isinstance(message, Message) else None
        super().__init__(coded.text if coded else message)
        self.message: Message | None = coded


class InvalidFenError(EngineError):
    """A position string that is not valid PDN FEN for the rule set."""


class IllegalMoveError(EngineError):
    """A move that is not legal in the position (or cannot be read at all).

    ``candidates`` holds the legal moves of the position, for callers that list them.
    """

    def __init__(self, message: str | Message, candidates: Iterable[Move] = ()) -> None:
        super().__init__(message)
        self.candidates: tuple[Move, ...] = tuple(candidates)


class AmbiguousMoveError(EngineError):
    """Move text that matches more than one legal move; ``candidates`` holds them."""

    def __init__(self, message: str | Message, candidates: Iterable[Move] = ()) -> None:
        super().__init__(message)
        self.candidates: tuple[Move, ...] = tuple(candidates)
