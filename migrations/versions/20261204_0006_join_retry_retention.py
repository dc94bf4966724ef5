"""Idempotent joins and data retention: the sealed token of a join sent with an
Idempotency-Key, and the index by which the retention sweep finds old rooms.

Reviewed by hand.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("join_key_hash", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("join_sealed", sa.String(length=128), nullable=True))
    op.create_index(
        op.f("ix_rooms_status_last_active_at"),
        "rooms",
        ["status", "last_active_at"],
        unique=False,
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_rooms_status_last_active_at"), table_name="rooms")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("join_sealed")
        batch.drop_column("join_key_hash")
