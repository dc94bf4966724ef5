"""The load benchmark's floor: the least a room action can cost on this stack.

`POST /bench/floor/{room_id}` runs one transaction like a move's, stripped of the game:
lock the room row (`SELECT ... FOR UPDATE`), write it, commit. The benchmark compares
the moves per second the real API sustains with the rate of this route. Mounted only when
`BENCH_ENDPOINTS=true`; it is not part of the API and not in its schema.
"""

from __future__ import annotations

from fastapi import APIRouter
from sqlalchemy import update

from app.core.deps import SessionDep

from .models import Room
from .service import lock_room

router = APIRouter(prefix="/bench", include_in_schema=False)


@router.post("/floor/{room_id}")
def floor(room_id: str, session: SessionDep) -> dict[str, int]:
    with session.begin():
        room = lock_room(session, room_id)
        session.execute(update(Room).where(Room.id == room_id).values(version=Room.version))
        return {"version": room.version}
