"""A profile's own rules: its name, and the seats it holds.

A seat is attached to a profile by whoever holds the seat's token (its room's cookie in
this browser); the profile keeps the link, never the token. Every device signed in to
the profile then acts for the seat with a credential made in the process
(`app.rooms.seats.HeldSeat`), so the seat's token is neither shown nor replaced: the
browser that took the seat keeps playing with it too, with or without the profile.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.core.context import Context
from app.core.errors import Conflict, ServiceError
from app.notify import subscriptions
from app.rooms import errors as room_errors
from app.rooms import service as rooms
from app.rooms.models import Room, RoomStatus, Seat
from app.rooms.seats import HeldSeat

from .models import Profile, ProfileSeat


class SeatHeldElsewhere(Conflict):
    """This seat is attached to another profile already."""

    code = "seat_attached_elsewhere"


def choices_of(session: Session, seat_ids: list[int]) -> dict[int, frozenset[str]]:
    """The notification groups chosen by the profiles holding these seats (the outbox
    asks, in the room's transaction)."""
    rows = session.execute(
        select(ProfileSeat.seat_id, Profile.notify)
        .join(Profile, Profile.id == ProfileSeat.profile_id)
        .where(ProfileSeat.seat_id.in_(seat_ids))
    )
    return {seat_id: frozenset(groups or ()) for seat_id, groups in rows}


def choose_notifications(session: Session, profile_id: int, groups: list[str]) -> None:
    """The groups of notifications the profile's seats are told of, on every device."""
    with session.begin():
        profile_of(session, profile_id).notify = sorted(set(groups))


def profile_of(session: Session, profile_id: int) -> Profile:
    return session.get_one(Profile, profile_id)


def attach(session: Session, *, profile_id: int, room_id: str, token: str, ctx: Context) -> bool:
    """Attach the seat `token` opens to the profile; False when it was already its own.

    The token must open a seat of the room (403 `wrong_token` otherwise): only its holder
    may attach it."""
    state = rooms.read_room(session, room_id=room_id, token=token, ctx=ctx)
    seat = state.require_seat()
    try:
        with session.begin():
            holder = session.scalar(
                select(ProfileSeat.profile_id).where(ProfileSeat.seat_id == seat.id)
            )
            if holder == profile_id:
                return False
            if holder is not None:
                raise SeatHeldElsewhere("this seat is attached to another profile")
            session.add(
                ProfileSeat(
                    profile_id=profile_id, seat_id=seat.id, room_id=room_id, attached_at=ctx.now
                )
            )
    except IntegrityError as exc:  # attached by a request racing this one
        raise SeatHeldElsewhere("this seat is attached to another profile") from exc
    return True


def room_ids(session: Session, profile_id: int) -> list[str]:
    """The rooms where the profile holds a seat, the latest attached first."""
    with session.begin():
        return list(
            session.scalars(
                select(ProfileSeat.room_id)
                .where(ProfileSeat.profile_id == profile_id)
                .order_by(ProfileSeat.attached_at.desc(), ProfileSeat.id.desc())
            )
        )


def held_seat(session: Session, profile_id: int, room_id: str) -> HeldSeat | None:
    """The credential of the profile's seat in the room, if it holds one there."""
    with session.begin():
        seat_id = session.scalar(
            select(ProfileSeat.seat_id).where(
                ProfileSeat.profile_id == profile_id, ProfileSeat.room_id == room_id
            )
        )
    return HeldSeat(seat_id) if seat_id is not None else None


def rename(session: Session, *, profile_id: int, name: str, ctx: Context) -> int:
    """The profile's new name, and the player's in every room of its still in progress
    (waiting or playing: a finished game keeps the name it was played under); returns
    how many rooms took it."""
    with session.begin():
        profile_of(session, profile_id).name = name
        held = session.execute(
            select(ProfileSeat.room_id, ProfileSeat.seat_id)
            .join(Room, Room.id == ProfileSeat.room_id)
            .join(Seat, Seat.id == ProfileSeat.seat_id)
            .where(
                ProfileSeat.profile_id == profile_id,
                Room.status.in_((RoomStatus.WAITING, RoomStatus.PLAYING)),
            )
        ).all()
    renamed = 0
    for room_id, seat_id in held:
        try:
            rooms.rename_seat(session, room_id=room_id, token=HeldSeat(seat_id), name=name, ctx=ctx)
            renamed += 1
        except (room_errors.RoomExpired, room_errors.GameOver, room_errors.WrongToken):
            continue  # it ended (or the seat went) since it was read
    return renamed


def adopt(
    session: Session, *, profile_id: int, room_id: str, token: str, base_url: str, ctx: Context
) -> None:
    """A seat taken while signed in: attached to the profile, it takes the profile's name
    (when the player gave none for it) and mails its notifications to the profile's
    confirmed address. Push stays each device's own choice."""
    if not attach(session, profile_id=profile_id, room_id=room_id, token=token, ctx=ctx):
        return
    with session.begin():
        profile = profile_of(session, profile_id)
        name, address, language = profile.name, profile.email, profile.language
    held = held_seat(session, profile_id, room_id)
    assert held is not None
    state = rooms.read_room(session, room_id=room_id, token=held, ctx=ctx)
    if state.require_seat().name is None:
        rooms.rename_seat(session, room_id=room_id, token=held, name=name, ctx=ctx)
    if address is not None and ctx.settings.email_enabled:
        try:
            subscriptions.use_confirmed_address(
                session,
                room_id=room_id,
                token=held,
                address=address,
                base_url=base_url,
                language=language,
                ctx=ctx,
            )
        except ServiceError:
            return  # the room closed meanwhile: nothing is left to tell
