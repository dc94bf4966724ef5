"""Whether a game's review has been asked for, kept on the game so the room view links it
without reading the computer's tables. Games reviewed before are marked from `reviews`.

Reviewed by hand.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A plain ADD COLUMN, never SQLite's batch rebuild of `games`: dropping the old table
    # would cascade to every game's moves.
    op.add_column(
        "games", sa.Column("reviewed", sa.Boolean(), server_default=sa.false(), nullable=False)
    )
    op.execute(
        "UPDATE games SET reviewed = TRUE WHERE EXISTS (SELECT 1 FROM reviews "
        "WHERE reviews.room_id = games.room_id AND reviews.game_number = games.number)"
    )


def downgrade() -> None:
    op.drop_column("games", "reviewed")
