"""Why an offer was declined, when the one who declined it gave a reason.

Reviewed by hand. Offers declined before had none.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("offers") as offers:
        offers.add_column(sa.Column("reason", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("offers") as offers:
        offers.drop_column("reason")
