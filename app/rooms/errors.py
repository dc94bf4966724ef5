"""Refusals of the rooms domain.

Each is a `ServiceError` of one category (`app.core.errors`), which fixes its HTTP status.
`code` is machine-readable, the message is for people, `extra` carries structured details
(legal moves, current ply, instants).
"""

from __future__ import annotations

from app.core.errors import (
    Conflict,
    Forbidden,
    InvalidInput,
    NotFound,
    TooManyRequests,
    Unauthenticated,
    Unavailable,
)
from app.core.errors import ServiceError as RoomError

__all__ = [
    "AmbiguousMove",
    "ClaimNotAllowed",
    "ClaimNotOpen",
    "Conflict",
    "Forbidden",
    "GameLimit",
    "GameNotFound",
    "GameNotOver",
    "GameOver",
    "IllegalMove",
    "InvalidFen",
    "InvalidInput",
    "NoOffer",
    "NotFound",
    "NotYourTurn",
    "OfferLimit",
    "OfferPending",
    "PositionDecided",
    "RoomError",
    "RoomExpired",
    "RoomFull",
    "RoomNotFound",
    "StalePly",
    "StreamsFull",
    "TokenRequired",
    "TooManyRequests",
    "TooManyStreams",
    "Unauthenticated",
    "Unavailable",
    "UnknownRuleSet",
    "WaitingForOpponent",
    "WrongToken",
]


class RoomNotFound(NotFound):
    code = "room_not_found"


class GameNotFound(NotFound):
    code = "game_not_found"


class TokenRequired(Unauthenticated):
    code = "token_required"


class WrongToken(Forbidden):
    code = "wrong_token"


class RoomFull(Conflict):
    code = "room_full"


class WaitingForOpponent(Conflict):
    code = "waiting_for_opponent"


class RoomExpired(Conflict):
    code = "room_expired"


class GameOver(Conflict):
    code = "game_over"


class GameNotOver(Conflict):
    code = "game_not_over"


class GameLimit(Conflict):
    code = "game_limit"


class NotYourTurn(Conflict):
    code = "not_your_turn"


class StalePly(Conflict):
    code = "stale_ply"


class OfferPending(Conflict):
    code = "offer_pending"


class OfferLimit(Conflict):
    code = "offer_limit"


class NoOffer(Conflict):
    code = "no_offer"


class ClaimNotAllowed(Conflict):
    code = "claim_not_allowed"


class ClaimNotOpen(Conflict):
    code = "claim_not_open"


class UnknownRuleSet(InvalidInput):
    code = "unknown_rule_set"


class IllegalMove(InvalidInput):
    code = "illegal_move"


class AmbiguousMove(InvalidInput):
    code = "ambiguous_move"


class InvalidFen(InvalidInput):
    """A start position that cannot be read, or cannot be a position of the rule set."""

    code = "invalid_fen"


class PositionDecided(InvalidInput):
    """A start position with nothing left to play: no legal move, or the game over."""

    code = "position_decided"


class TooManyStreams(TooManyRequests):
    code = "too_many_streams"


class StreamsFull(Unavailable):
    code = "streams_full"
