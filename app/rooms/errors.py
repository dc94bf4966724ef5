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
    "ChatOff",
    "ChatOffOpponent",
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
    "NoChat",
    "NoOffer",
    "NoTimeToGive",
    "NotFound",
    "NotWaiting",
    "NotYourTurn",
    "OfferLimit",
    "OfferPending",
    "PlayersOnly",
    "PositionDecided",
    "RoomError",
    "RoomExpired",
    "RoomFull",
    "RoomNotFound",
    "StalePly",
    "StreamsFull",
    "TimeLimit",
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
    """No room has this id (or it was deleted after its retention time)."""

    code = "room_not_found"


class GameNotFound(NotFound):
    """The room has no game of this number."""

    code = "game_not_found"


class TokenRequired(Unauthenticated):
    """This action needs a seat's token (`Authorization: Bearer <token>`)."""

    code = "token_required"


class WrongToken(Forbidden):
    """The token sent opens no seat of this room."""

    code = "wrong_token"


class RoomFull(Conflict):
    """Both seats of the room are taken."""

    code = "room_full"


class WaitingForOpponent(Conflict):
    """The room still waits for its second player."""

    code = "waiting_for_opponent"


class RoomExpired(Conflict):
    """The room expired (no move in time) or closed to rematches."""

    code = "room_expired"


class GameOver(Conflict):
    """The game is over; `result` says how it ended."""

    code = "game_over"


class GameNotOver(Conflict):
    """The game is still in progress (a rematch comes after it)."""

    code = "game_not_over"


class GameLimit(Conflict):
    """The room holds `max_games` games, its most."""

    code = "game_limit"


class NotYourTurn(Conflict):
    """The other side is to move."""

    code = "not_your_turn"


class StalePly(Conflict):
    """`expected_ply` is not the game's ply (`current_ply`): the position has changed."""

    code = "stale_ply"


class OfferPending(Conflict):
    """An offer of this kind is already waiting for an answer."""

    code = "offer_pending"


class OfferLimit(Conflict):
    """This player has made all the draw offers a game allows."""

    code = "offer_limit"


class NoOffer(Conflict):
    """There is no offer from the opponent to accept or decline."""

    code = "no_offer"


class ClaimNotAllowed(Conflict):
    """Only the waiting player may claim a forfeit, and never against the computer."""

    code = "claim_not_allowed"


class ClaimNotOpen(Conflict):
    """The forfeit claim is not open yet; it opens at `opens_at`."""

    code = "claim_not_open"


class NoTimeToGive(Conflict):
    """A game against the computer has no deadline to push back."""

    code = "no_time_to_give"


class NotWaiting(Conflict):
    """Only the player waiting for a move gives the player to move more time."""

    code = "not_waiting"


class TimeLimit(Conflict):
    """The game has had all the extra days it allows (`policy.MAX_EXTRA_DAYS`)."""

    code = "time_limit"


class PlayersOnly(Forbidden):
    """The two players' own things (their chat, notes and analysis) need a seat's token:
    spectators never see them."""

    code = "players_only"


class NoChat(Conflict):
    """A room against the computer has no chat."""

    code = "no_chat"


class ChatOff(Conflict):
    """The chat is switched off: by you (`chat_off`), or by your opponent, who reads no
    message (`chat_off_opponent`)."""

    code = "chat_off"


class ChatOffOpponent(Conflict):
    """Your opponent has switched the chat off: a message would reach nobody."""

    code = "chat_off_opponent"


class UnknownRuleSet(InvalidInput):
    """No rule set has this key; `rule_sets` lists those there are."""

    code = "unknown_rule_set"


class IllegalMove(InvalidInput):
    """The move is not legal in the position; `legal_moves` lists those that are."""

    code = "illegal_move"


class AmbiguousMove(InvalidInput):
    """The move text fits several legal moves; `candidates` lists them."""

    code = "ambiguous_move"


class InvalidFen(InvalidInput):
    """A start position that cannot be read, or cannot be a position of the rule set."""

    code = "invalid_fen"


class PositionDecided(InvalidInput):
    """A start position with nothing left to play: no legal move, or the game over."""

    code = "position_decided"


class TooManyStreams(TooManyRequests):
    """This client holds its share of live streams; retry after `retry_after`."""

    code = "too_many_streams"


class StreamsFull(Unavailable):
    """This server holds all the live streams it takes; retry after `retry_after`."""

    code = "streams_full"
