"""An event's reason is stored as facts: the `game_over` and `expired` events of the
record keep `reason_code` and `reason_params` in their data instead of an English
`reason`, which the API now renders from them when it reads the record.

Reviewed by hand. A `game_over` event takes its game's facts (stored as facts since
0014). An `expired` event names the game that expired or the room that closed to
rematches; its English is read once, here, by the wording the service wrote. The
downgrade writes the same English back.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-10
"""

import re
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

events = sa.table(
    "events",
    sa.column("id", sa.Integer()),
    sa.column("room_id", sa.String()),
    sa.column("kind", sa.String()),
    sa.column("data", sa.JSON()),
)
games = sa.table(
    "games",
    sa.column("room_id", sa.String()),
    sa.column("number", sa.Integer()),
    sa.column("reason_code", sa.String()),
    sa.column("reason_params", sa.JSON()),
)

KINDS = ("game_over", "expired")
UNITS = {"day": 86400, "hour": 3600, "minute": 60, "second": 1}
LENGTH = re.compile(r"(\d+) (day|hour|minute|second)s?")
# The openings of the English an `expired` event was written with, and their codes.
EXPIRED = {
    "closed to rematches": "closed",
    "nobody joined": "nobody_joined",
    "expired": "expired",
}


def expired_facts(reason: str) -> tuple[str, dict[str, Any]]:
    code = next((c for start, c in EXPIRED.items() if reason.startswith(start)), "expired")
    length = LENGTH.search(reason)
    params = {"seconds": int(length.group(1)) * UNITS[length.group(2)]} if length else {}
    return code, params


def span(seconds: int) -> str:
    for unit, size in UNITS.items():
        if seconds >= size and seconds % size == 0:
            count = seconds // size
            return f"{count} {unit}{'' if count == 1 else 's'}"
    return "?"


def english(code: str, params: dict[str, Any]) -> str:
    """The English the service stored in an event for a reason's facts (the downgrade's)."""
    length = span(int(params["seconds"])) if "seconds" in params else "?"
    side = params.get("side", "nobody")
    texts = {
        "resigned": f"{side} resigned",
        "forfeit": f"forfeit: no move for {length}",
        "nobody_joined": f"nobody joined within {length}",
        "expired": f"expired: no move for {length}",
        "closed": f"closed to rematches: no rematch within {length}",
        "agreed": "agreed by both players",
        "no_pieces": f"{side} have no pieces left",
        "no_moves": f"{side} have no legal move",
        "king_moves": "20 king moves without a capture or a man's move",
        "repetition": "threefold repetition",
        "move_limit": f"the {params.get('plies', '?')}-ply limit was reached",
    }
    return texts.get(code, code)


def upgrade() -> None:
    bind = op.get_bind()
    found = bind.execute(
        sa.select(events.c.id, events.c.room_id, events.c.kind, events.c.data).where(
            events.c.kind.in_(KINDS)
        )
    ).all()
    for event_id, room_id, kind, data in found:
        data = dict(data or {})
        reason = data.pop("reason", None)
        if not isinstance(reason, str):
            continue
        if kind == "game_over":
            row = bind.execute(
                sa.select(games.c.reason_code, games.c.reason_params).where(
                    games.c.room_id == room_id, games.c.number == data.get("game")
                )
            ).first()
            if row is None or row.reason_code is None:
                continue  # its game is gone: the event keeps what it said
            code, params = row.reason_code, dict(row.reason_params or {})
        else:
            code, params = expired_facts(reason)
        data.update(reason_code=code, reason_params=params)
        bind.execute(events.update().where(events.c.id == event_id).values(data=data))


def downgrade() -> None:
    bind = op.get_bind()
    found = bind.execute(
        sa.select(events.c.id, events.c.data).where(events.c.kind.in_(KINDS))
    ).all()
    for event_id, data in found:
        data = dict(data or {})
        code = data.pop("reason_code", None)
        params = data.pop("reason_params", None)
        if code is None:
            continue
        data["reason"] = english(code, dict(params or {}))
        bind.execute(events.update().where(events.c.id == event_id).values(data=data))
