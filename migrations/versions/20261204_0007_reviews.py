"""Computer reviews of games: each position's score and best move, as they come.

Reviewed by hand.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.String(length=32), nullable=True),
        sa.Column("game_number", sa.Integer(), nullable=True),
        sa.Column("imported_id", sa.String(length=32), nullable=True),
        sa.Column("rule_set", sa.String(length=16), nullable=False),
        sa.Column("fens", sa.JSON(), nullable=False),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("scores", sa.JSON(), nullable=False),
        sa.Column("bests", sa.JSON(), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("seconds_per_position", sa.Float(), nullable=False),
        sa.Column("requested_by", sa.String(length=64), nullable=False),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["imported_id"],
            ["imported_games.id"],
            name=op.f("fk_reviews_imported_id_imported_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_reviews_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reviews")),
        sa.UniqueConstraint("imported_id", name=op.f("uq_reviews_imported_id")),
        sa.UniqueConstraint("room_id", "game_number", name=op.f("uq_reviews_room_id_game_number")),
    )


def downgrade() -> None:
    op.drop_table("reviews")
