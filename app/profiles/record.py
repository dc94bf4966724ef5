"""A profile's record: the games its seats finished, per rule set, and how often the
player moved in time.

A game counts once it is finished. It is won, drawn or lost by its result for the
player's colour in it. The player moved in time in it unless they lost it by letting the
claim window pass (the opponent claimed the win) or let the room expire on their turn.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.rooms.models import Ending, Game, GameStatus, Room, Seat

from .models import Profile, ProfileSeat

# (drawn, the player's colour won) -> the game's result for the player.
RESULTS = {(True, False): "drawn", (False, True): "won", (False, False): "lost"}


@dataclass
class Tally:
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    in_time: int = 0

    def add(self, result: str, in_time: bool) -> None:
        self.played += 1
        setattr(self, result, getattr(self, result) + 1)
        self.in_time += in_time


@dataclass
class Record:
    name: str
    public_id: str
    public: bool
    by_rule_set: dict[str, Tally] = field(default_factory=dict)

    @property
    def total(self) -> Tally:
        all_ = Tally()
        for tally in self.by_rule_set.values():
            for name in ("played", "won", "drawn", "lost", "in_time"):
                setattr(all_, name, getattr(all_, name) + getattr(tally, name))
        return all_


def record_of(session: Session, profile: Profile) -> Record:
    """The profile's record, read in the caller's transaction."""
    record = Record(profile.name, profile.public_id, profile.public)
    rows = session.execute(
        select(Room.rule_set, Seat.role, Game)
        .join(ProfileSeat, ProfileSeat.seat_id == Seat.id)
        .join(Room, Room.id == Seat.room_id)
        .join(Game, Game.room_id == Room.id)
        .where(ProfileSeat.profile_id == profile.id, Game.status == GameStatus.FINISHED)
    ).all()
    for rule_set, role, game in rows:
        side = game.side_of(role)
        result = RESULTS[game.winner is None, game.winner == side]
        late = (game.termination == Ending.FORFEIT and result == "lost") or (
            game.termination == Ending.EXPIRED and game.turn == side
        )
        record.by_rule_set.setdefault(rule_set, Tally()).add(result, not late)
    return record


def find_public(session: Session, public_id: str) -> Profile | None:
    """The profile of a record's link, if its player made the record public."""
    return session.scalar(
        select(Profile).where(Profile.public_id == public_id, Profile.public.is_(True))
    )


def creator_of(session: Session, room_id: str) -> Profile | None:
    """The profile that holds a room's creator seat, if its record is public."""
    from app.rooms.models import SeatRole

    return session.scalar(
        select(Profile)
        .join(ProfileSeat, ProfileSeat.profile_id == Profile.id)
        .join(Seat, Seat.id == ProfileSeat.seat_id)
        .where(Seat.room_id == room_id, Seat.role == SeatRole.CREATOR, Profile.public.is_(True))
    )
