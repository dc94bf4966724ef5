"""Domain errors of the rooms service.

Each error belongs to one category; the router maps categories to HTTP statuses in one
place (`app.rooms.router.install_error_handlers`). `code` is machine-readable, the message
is for people, `extra` carries structured details (legal moves, current ply, instants).
"""

from __future__ import annotations

from typing import Any, ClassVar


class RoomError(Exception):
    """Base of every refusal; nothing has changed when one is raised."""

    code: ClassVar[str] = "error"

    def __init__(self, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra


# Categories (one HTTP status each).
class NotFound(RoomError):
    code = "not_found"


class Unauthenticated(RoomError):
    code = "unauthenticated"


class Forbidden(RoomError):
    code = "forbidden"


class Conflict(RoomError):
    code = "conflict"


class InvalidInput(RoomError):
    code = "invalid_input"


# Concrete errors.
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
