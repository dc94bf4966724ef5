"""The language and time zone of each push subscription and mail address.

Reviewed by hand.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("push_subscriptions", "seat_emails")


def upgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(
                sa.Column("language", sa.String(length=8), server_default="en", nullable=False)
            )
            batch.add_column(sa.Column("time_zone", sa.String(length=64), nullable=True))


def downgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            batch.drop_column("time_zone")
            batch.drop_column("language")
