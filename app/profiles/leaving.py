"""Leaving cleanly: everything the service holds about a profile, to download, and the
profile's deletion.

The download is the profile (name, address, choices), its passkeys and devices as the
player sees them (never a key or a secret), and every game of its seats with its PDN.
Deleting a profile erases its name, address, passkeys, sessions and links at once; its
seats in finished rooms are shown as a former player's (the games stay, for the other
player), the mails its address was given for stop, and its seats still in play stay with
the browsers that hold them. Finished rooms then go by the rooms' retention
(`RETAIN_DAYS`) like any other.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from app.core.context import Context
from app.core.errors import ServiceError
from app.notify import subscriptions
from app.rooms import service as rooms
from app.rooms.models import Game, Room, RoomStatus, Seat
from app.rooms.pdn import export_game
from app.rooms.seats import HeldSeat

from . import passkeys, sessions
from .models import Challenge, Profile, ProfileSeat, SignInLink


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def everything(session: Session, profile_id: int, base_url: str, now: datetime) -> dict[str, Any]:
    """What the service holds about the profile, as JSON, with its games' PDN."""
    with session.begin():
        profile = session.get_one(Profile, profile_id)
        out: dict[str, Any] = {
            "profile": {
                "name": profile.name,
                "email": profile.email,
                "email_pending": profile.email_pending,
                "notify": list(profile.notify or []),
                "public": profile.public,
                "record_url": f"{base_url.rstrip('/')}/p/{profile.public_id}",
                "language": profile.language,
                "created_at": _iso(profile.created_at),
            },
            "passkeys": [
                {
                    "name": key.name,
                    "created_at": _iso(key.created_at),
                    "last_used_at": _iso(key.last_used_at),
                }
                for key in passkeys.passkeys_of(session, profile_id)
            ],
            "devices": [
                {
                    "device": row.device,
                    "method": row.method,
                    "created_at": _iso(row.created_at),
                    "last_seen_at": _iso(row.last_seen_at),
                }
                for row in sessions.sessions_of(session, profile_id, now)
            ],
        }
        held = session.execute(
            select(ProfileSeat.room_id, Seat.role, Game.number)
            .join(Seat, Seat.id == ProfileSeat.seat_id)
            .join(Game, Game.room_id == ProfileSeat.room_id)
            .where(ProfileSeat.profile_id == profile_id)
            .order_by(ProfileSeat.attached_at, ProfileSeat.id, Game.number)
        ).all()
    games = []
    for room_id, role, number in held:
        url = f"{base_url.rstrip('/')}/r/{room_id}"
        found, game, moves = rooms.read_game(session, room_id=room_id, number=number)
        games.append(
            {
                "room": room_id,
                "url": url,
                "rule_set": found.rule_set,
                "number": number,
                "seat": role.value,
                "side": game.side_of(role).value,
                "status": game.status.label,
                "pdn": export_game(found, game, moves, site=url),
            }
        )
    out["games"] = games
    return out


def pdn_of(export: dict[str, Any]) -> str:
    """Every game of a download, one PDN text."""
    return "\n".join(str(game["pdn"]).rstrip("\n") + "\n" for game in export["games"])


def delete_profile(session: Session, profile_id: int, ctx: Context) -> None:
    """Erase the profile (see the module)."""
    with session.begin():
        profile = session.get_one(Profile, profile_id)
        address = profile.email
        held = session.execute(
            select(ProfileSeat.room_id, ProfileSeat.seat_id, Room.status)
            .join(Room, Room.id == ProfileSeat.room_id)
            .where(ProfileSeat.profile_id == profile_id)
        ).all()
    for room_id, seat_id, status in held:
        credential = HeldSeat(seat_id)
        try:
            if address is not None:
                subscriptions.stop_email(session, room_id=room_id, token=credential, ctx=ctx)
            if status >= RoomStatus.FINISHED:
                rooms.erase_player(session, room_id=room_id, token=credential, ctx=ctx)
        except ServiceError:
            continue  # the room went meanwhile
    with session.begin():
        session.execute(delete(Challenge).where(Challenge.profile_id == profile_id))
        session.execute(delete(SignInLink).where(SignInLink.profile_id == profile_id))
        # The passkeys, sessions and attached seats go with it (ON DELETE CASCADE).
        session.execute(delete(Profile).where(Profile.id == profile_id))
