"""Seat transfers: the one-time "continue on another device" links of seats.

Reviewed by hand. Only the hash of each link's secret is stored.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "seat_transfers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["seat_id"],
            ["seats.id"],
            name=op.f("fk_seat_transfers_seat_id_seats"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seat_transfers")),
        sa.UniqueConstraint("secret_hash", name=op.f("uq_seat_transfers_secret_hash")),
    )
    op.create_index(op.f("ix_seat_transfers_seat_id"), "seat_transfers", ["seat_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_seat_transfers_seat_id"), table_name="seat_transfers")
    op.drop_table("seat_transfers")
