"""Conditional moves: each seat's stored lines per game, the seats' flag, and the mark
of a move played from them.

Reviewed by hand. Existing moves were all played by their seats directly.

Revision ID: 0005
Revises: 0004i
Create Date: 2026-12-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004i"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.add_column(
            sa.Column("planned", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    with op.batch_alter_table("moves") as moves:
        moves.add_column(
            sa.Column("conditional", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    op.create_table(
        "conditional_lines",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("tree", sa.JSON(), nullable=False),
        sa.Column("note", sa.String(length=200), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_conditional_lines_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["seat_id"],
            ["seats.id"],
            name=op.f("fk_conditional_lines_seat_id_seats"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_conditional_lines")),
        sa.UniqueConstraint(
            "game_id", "seat_id", name=op.f("uq_conditional_lines_game_id_seat_id")
        ),
    )


def downgrade() -> None:
    op.drop_table("conditional_lines")
    with op.batch_alter_table("moves") as moves:
        moves.drop_column("conditional")
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("planned")
