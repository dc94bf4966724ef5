"""Why a game ended, or why a seat's stored moves were dropped, kept as facts: a code and
its parameters, never a sentence.

The database stores these facts (`Game.reason_code` and `reason_params`,
`ConditionalLines.note` and `note_params`), so rewording a text changes no stored row and
no reader's language depends on parsing English back. A reader's text is rendered from
them at the edge: `texts` in the reader's language, `pdn` for the PDN comment, and
`english()` here for the API's `reason` and the event record, in the wording the API has
always had.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from app.core.settings import Settings
from checkers_engine import Outcome, Side, Termination


class ReasonCode(enum.StrEnum):
    """Why a game ended or a room closed. A code never changes meaning (stored rows keep
    it): a new reason gets a new code. Parameters in brackets."""

    RESIGNED = "resigned"  # side: the side that resigned
    FORFEIT = "forfeit"  # seconds: the claim's wait
    NOBODY_JOINED = "nobody_joined"  # seconds: the expiry's wait
    EXPIRED = "expired"  # seconds: the expiry's wait
    CLOSED = "closed"  # seconds: the rematch window (a room's event, never a game's)
    AGREED = "agreed"
    NO_PIECES = "no_pieces"  # side: the side left without pieces
    NO_MOVES = "no_moves"  # side: the side left without a legal move
    KING_MOVES = "king_moves"
    REPETITION = "repetition"
    MOVE_LIMIT = "move_limit"  # plies: the limit reached


class DropCode(enum.StrEnum):
    """Why a seat's conditional moves were dropped. Parameters in brackets."""

    GAME_OVER = "game_over"
    DRAW_OFFERED = "draw_offered"
    UNEXPECTED = "unexpected_move"  # move: the opponent's move, in the tradition's notation


@dataclass(frozen=True)
class Reason:
    """A reason's facts: its code and the values it names (JSON-ready)."""

    code: ReasonCode
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def length(self) -> timedelta | None:
        """The wait a forfeit, an expiry or a closing names (None if the row lacks it)."""
        seconds = self.params.get("seconds")
        return timedelta(seconds=int(seconds)) if seconds is not None else None

    @property
    def side(self) -> Side | None:
        side = self.params.get("side")
        return Side(side) if side in (Side.DRUMS.value, Side.TIRES.value) else None

    @property
    def plies(self) -> int | None:
        plies = self.params.get("plies")
        return int(plies) if plies is not None else None

    def english(self) -> str:
        """The API's and the event record's English for this reason (`drums resigned`,
        `forfeit: no move for 2 days`)."""
        length = span(self.length) if self.length is not None else "?"
        side = self.params.get("side", "nobody")
        match self.code:
            case ReasonCode.RESIGNED:
                return f"{side} resigned"
            case ReasonCode.FORFEIT:
                return f"forfeit: no move for {length}"
            case ReasonCode.NOBODY_JOINED:
                return f"nobody joined within {length}"
            case ReasonCode.EXPIRED:
                return f"expired: no move for {length}"
            case ReasonCode.CLOSED:
                return f"closed to rematches: no rematch within {length}"
            case ReasonCode.AGREED:
                return "agreed by both players"
            case ReasonCode.NO_PIECES:
                return f"{side} have no pieces left"
            case ReasonCode.NO_MOVES:
                return f"{side} have no legal move"
            case ReasonCode.KING_MOVES:
                return "20 king moves without a capture or a man's move"
            case ReasonCode.REPETITION:
                return "threefold repetition"
            case ReasonCode.MOVE_LIMIT:
                return f"the {self.plies if self.plies is not None else '?'}-ply limit was reached"


def span(length: timedelta) -> str:
    """A configured duration in English words: `7 days`, `36 hours`, `90 minutes`, `1 day`."""
    seconds = int(length.total_seconds())
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            count = seconds // size
            return f"{count} {unit}{'' if count == 1 else 's'}"
    return f"{seconds} second{'' if seconds == 1 else 's'}"


def _waited(code: ReasonCode, length: timedelta) -> Reason:
    return Reason(code, {"seconds": int(length.total_seconds())})


def forfeit(settings: Settings) -> Reason:
    """A forfeit claimed after `CLAIM_AFTER` without a move."""
    return _waited(ReasonCode.FORFEIT, settings.claim_after)


def expired(settings: Settings, *, waiting: bool) -> Reason:
    """A room that expired: nobody joined, or nobody moved, within `EXPIRE_AFTER`."""
    code = ReasonCode.NOBODY_JOINED if waiting else ReasonCode.EXPIRED
    return _waited(code, settings.expire_after)


def closed(settings: Settings) -> Reason:
    """A finished room closed to rematches after `REMATCH_WINDOW`."""
    return _waited(ReasonCode.CLOSED, settings.rematch_window)


def resigned(side: Side) -> Reason:
    return Reason(ReasonCode.RESIGNED, {"side": side.value})


AGREED = Reason(ReasonCode.AGREED)


def move_limit(plies: int) -> Reason:
    return Reason(ReasonCode.MOVE_LIMIT, {"plies": plies})


def of_outcome(outcome: Outcome) -> Reason:
    """The reason of an ending by the rules (the engine's outcome)."""
    loser = {"side": outcome.winner.opponent.value} if outcome.winner is not None else {}
    match outcome.termination:
        case Termination.NO_PIECES:
            return Reason(ReasonCode.NO_PIECES, loser)
        case Termination.NO_MOVES:
            return Reason(ReasonCode.NO_MOVES, loser)
        case Termination.KING_MOVES:
            return Reason(ReasonCode.KING_MOVES)
        case Termination.REPETITION:
            return Reason(ReasonCode.REPETITION)


@dataclass(frozen=True)
class Dropped:
    """Why a seat's stored lines were dropped: its code and the values it names."""

    code: DropCode
    params: dict[str, str] = field(default_factory=dict)


def unexpected(move: str) -> Dropped:
    return Dropped(DropCode.UNEXPECTED, {"move": move})
