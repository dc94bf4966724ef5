"""Imported games, and the counters of a game's start position.

Reviewed by hand. Existing games keep their meaning: no counters (a standard start, or a
set-up position counted from zero, as before). Stored moves stay in the engine's own
notation, which is unchanged, so no row is converted: every rule set's notation is
derived from them when a game is shown or exported.

Revision ID: 0004i
Revises: 0003
Create Date: 2026-12-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004i"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("start_half_move_clock", sa.Integer(), nullable=True))
        games.add_column(sa.Column("start_move_number", sa.Integer(), nullable=True))
    op.create_table(
        "imported_games",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("rule_set", sa.String(length=16), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("tags", sa.JSON(), nullable=False),
        sa.Column("start_fen", sa.String(length=200), nullable=True),
        sa.Column("start_half_move_clock", sa.Integer(), nullable=True),
        sa.Column("start_move_number", sa.Integer(), nullable=True),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("plies", sa.Integer(), nullable=False),
        sa.Column("result", sa.String(length=8), nullable=False),
        sa.Column("notes", sa.JSON(), nullable=False),
        sa.Column("service_end_ply", sa.Integer(), nullable=True),
        sa.Column("service_end", sa.String(length=32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_imported_games")),
    )


def downgrade() -> None:
    op.drop_table("imported_games")
    with op.batch_alter_table("games") as games:
        games.drop_column("start_move_number")
        games.drop_column("start_half_move_clock")
