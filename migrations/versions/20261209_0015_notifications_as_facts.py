"""The outbox keeps facts: a notification's `params` (what its message names) replace its
rendered `payload`, and the text is written when it is sent, in its recipient's language.

Reviewed by hand. The rows already there keep their text under `params["rendered"]`: a
pending one is sent as it was rendered, the others stay as history. The downgrade renders
nothing: a row recorded as facts leaves with an empty payload, so a pending one of them
is marked failed rather than sent blank.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-09
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

notifications = sa.table(
    "notifications",
    sa.column("id", sa.Integer()),
    sa.column("kind", sa.String()),
    sa.column("state", sa.String()),
    sa.column("payload", sa.JSON()),
    sa.column("params", sa.JSON()),
)
CONFIRMATION = "confirm_address"  # its params were always facts (the link's nonce)


def upgrade() -> None:
    op.add_column("notifications", sa.Column("params", sa.JSON(), nullable=True))
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(notifications.c.id, notifications.c.kind, notifications.c.payload)
    )
    for note_id, kind, payload in rows.all():
        params = payload if kind == CONFIRMATION else {"rendered": payload}
        bind.execute(
            notifications.update().where(notifications.c.id == note_id).values(params=params)
        )
    # A batch operation: SQLite rebuilds the table to make the column NOT NULL, which is
    # safe here (no table refers to `notifications`, so nothing cascades from it).
    with op.batch_alter_table("notifications") as table:
        table.drop_column("payload")
        table.alter_column("params", existing_type=sa.JSON(), nullable=False)


def downgrade() -> None:
    op.add_column("notifications", sa.Column("payload", sa.JSON(), nullable=True))
    bind = op.get_bind()
    rows = bind.execute(sa.select(notifications.c.id, notifications.c.kind, notifications.c.params))
    for note_id, kind, params in rows.all():
        if kind == CONFIRMATION:
            payload, failed = params, False
        else:
            payload, failed = dict(params or {}).get("rendered"), "rendered" not in (params or {})
        values = {"payload": payload or {}}
        if failed:
            values["state"] = sa.case(
                (notifications.c.state == "pending", "failed"), else_=notifications.c.state
            )
        bind.execute(notifications.update().where(notifications.c.id == note_id).values(values))
    with op.batch_alter_table("notifications") as table:
        table.drop_column("params")
        table.alter_column("payload", existing_type=sa.JSON(), nullable=False)
