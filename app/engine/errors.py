"""Typed errors of the rules engine; all are ValueErrors so callers may catch either."""

from __future__ import annotations


class EngineError(ValueError):
    """Base of every error the engine raises for bad input."""


class InvalidFenError(EngineError):
    """A position string that is not valid PDN FEN for the rule set."""


class IllegalMoveError(EngineError):
    """A move that is not legal in the position (or cannot be read at all)."""


class AmbiguousMoveError(EngineError):
    """Move text that matches more than one legal move."""
