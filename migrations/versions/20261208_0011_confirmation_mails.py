"""Confirmation mails asked for, which the limits on them count (per seat and address, per
seat, per address across the service): the seat, a keyed hash of the address, and when.

Reviewed by hand. A row counts for a day; the sweep deletes it after.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-08
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "confirmation_mails",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("seat_id", sa.Integer(), nullable=True),
        sa.Column("address_key", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["seat_id"],
            ["seats.id"],
            name=op.f("fk_confirmation_mails_seat_id_seats"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_confirmation_mails")),
    )
    op.create_index(
        "ix_confirmation_mails_address_key_created_at",
        "confirmation_mails",
        ["address_key", "created_at"],
        unique=False,
    )
    op.create_index(
        op.f("ix_confirmation_mails_created_at"), "confirmation_mails", ["created_at"], unique=False
    )
    op.create_index(
        op.f("ix_confirmation_mails_seat_id"), "confirmation_mails", ["seat_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_confirmation_mails_seat_id"), table_name="confirmation_mails")
    op.drop_index(op.f("ix_confirmation_mails_created_at"), table_name="confirmation_mails")
    op.drop_index("ix_confirmation_mails_address_key_created_at", table_name="confirmation_mails")
    op.drop_table("confirmation_mails")
