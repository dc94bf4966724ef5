"""Imported games fall under a retention (`IMPORT_RETAIN_DAYS`, else `RETAIN_DAYS`): an
index on their import time finds the old ones.

Reviewed by hand.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-08
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(
        op.f("ix_imported_games_created_at"), "imported_games", ["created_at"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_imported_games_created_at"), table_name="imported_games")
