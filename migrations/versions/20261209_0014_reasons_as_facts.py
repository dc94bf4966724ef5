"""A game's reason and a plan's note are stored as facts (a code and its parameters), not
as English sentences: `games.reason` becomes `reason_code` and `reason_params`, and
`conditional_lines.note` holds a code, its parameters in `note_params`.

Reviewed by hand. The stored English is read once, here, by the wording the service wrote
(a reason it does not recognise keeps its ending's code, without parameters); the
downgrade writes the same English back. The columns are added and dropped with plain ALTER
TABLE, never a batch operation: on SQLite a batch rebuild of `games` would drop the table,
and the moves' foreign keys would cascade.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-09
"""

import re
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

games = sa.table(
    "games",
    sa.column("id", sa.Integer()),
    sa.column("termination", sa.String()),
    sa.column("reason", sa.String()),
    sa.column("reason_code", sa.String()),
    sa.column("reason_params", sa.JSON()),
)
lines = sa.table(
    "conditional_lines",
    sa.column("id", sa.Integer()),
    sa.column("note", sa.String()),
    sa.column("note_params", sa.JSON()),
)

# The reason each ending was stored with (an expiry also by whether anyone had joined).
CODES = {
    "resignation": "resigned",
    "forfeit": "forfeit",
    "agreement": "agreed",
    "no_pieces": "no_pieces",
    "no_moves": "no_moves",
    "king_moves": "king_moves",
    "repetition": "repetition",
    "move_limit": "move_limit",
}
UNITS = {"day": 86400, "hour": 3600, "minute": 60, "second": 1}
LENGTH = re.compile(r"(\d+) (day|hour|minute|second)s?")
SIDE = re.compile(r"(drums|tires)\b")
PLIES = re.compile(r"(\d+)-ply")
UNEXPECTED = re.compile(r"Dropped: your opponent played (\S+), which no line expected\.")
NOTES = {
    "Dropped: the game is over.": "game_over",
    "Dropped: a draw was offered.": "draw_offered",
}


def facts(termination: str, reason: str) -> tuple[str, dict[str, Any]]:
    """The code and parameters of a stored English reason."""
    if termination == "expired":
        code = "nobody_joined" if reason.startswith("nobody joined") else "expired"
    else:
        code = CODES.get(termination, termination)
    params: dict[str, Any] = {}
    if (length := LENGTH.search(reason)) and code in ("forfeit", "expired", "nobody_joined"):
        params["seconds"] = int(length.group(1)) * UNITS[length.group(2)]
    elif (side := SIDE.match(reason)) and code in ("resigned", "no_pieces", "no_moves"):
        params["side"] = side.group(1)
    elif (plies := PLIES.search(reason)) and code == "move_limit":
        params["plies"] = int(plies.group(1))
    return code, params


def span(seconds: int) -> str:
    for unit, size in UNITS.items():
        if seconds >= size and seconds % size == 0:
            count = seconds // size
            return f"{count} {unit}{'' if count == 1 else 's'}"
    return "?"


def english(code: str, params: dict[str, Any]) -> str:
    """The English the service stored for a reason's facts (the downgrade's)."""
    length = span(int(params["seconds"])) if "seconds" in params else "?"
    side = params.get("side", "nobody")
    texts = {
        "resigned": f"{side} resigned",
        "forfeit": f"forfeit: no move for {length}",
        "nobody_joined": f"nobody joined within {length}",
        "expired": f"expired: no move for {length}",
        "agreed": "agreed by both players",
        "no_pieces": f"{side} have no pieces left",
        "no_moves": f"{side} have no legal move",
        "king_moves": "20 king moves without a capture or a man's move",
        "repetition": "threefold repetition",
        "move_limit": f"the {params.get('plies', '?')}-ply limit was reached",
    }
    return texts.get(code, code)


def upgrade() -> None:
    op.add_column("games", sa.Column("reason_code", sa.String(length=24), nullable=True))
    op.add_column("games", sa.Column("reason_params", sa.JSON(), nullable=True))
    op.add_column("conditional_lines", sa.Column("note_params", sa.JSON(), nullable=True))
    bind = op.get_bind()
    found = bind.execute(
        sa.select(games.c.id, games.c.termination, games.c.reason).where(
            games.c.reason.is_not(None)
        )
    ).all()
    for game_id, termination, reason in found:
        code, params = facts(termination or "", reason)
        bind.execute(
            games.update()
            .where(games.c.id == game_id)
            .values(reason_code=code, reason_params=params)
        )
    op.drop_column("games", "reason")
    notes = bind.execute(sa.select(lines.c.id, lines.c.note).where(lines.c.note.is_not(None))).all()
    for line_id, note in notes:
        if note in NOTES:
            code, params = NOTES[note], {}
        elif unexpected := UNEXPECTED.fullmatch(note):
            code, params = "unexpected_move", {"move": unexpected.group(1)}
        else:  # no other note was ever written: an unknown one is dropped unread
            code, params = None, None
        bind.execute(
            lines.update().where(lines.c.id == line_id).values(note=code, note_params=params)
        )


def downgrade() -> None:
    op.add_column("games", sa.Column("reason", sa.String(length=100), nullable=True))
    bind = op.get_bind()
    found = bind.execute(
        sa.select(games.c.id, games.c.reason_code, games.c.reason_params).where(
            games.c.reason_code.is_not(None)
        )
    ).all()
    for game_id, code, params in found:
        text = english(code, dict(params or {}))
        bind.execute(games.update().where(games.c.id == game_id).values(reason=text))
    op.drop_column("games", "reason_params")
    op.drop_column("games", "reason_code")
    notes = bind.execute(
        sa.select(lines.c.id, lines.c.note, lines.c.note_params).where(lines.c.note.is_not(None))
    ).all()
    sentences = {code: note for note, code in NOTES.items()}
    for line_id, code, params in notes:
        move = dict(params or {}).get("move", "?")
        text = sentences.get(code, f"Dropped: your opponent played {move}, which no line expected.")
        bind.execute(lines.update().where(lines.c.id == line_id).values(note=text))
    op.drop_column("conditional_lines", "note_params")
