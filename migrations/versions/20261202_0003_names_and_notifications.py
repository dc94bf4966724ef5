"""Names, reminders and notifications: seat names, push subscriptions, seat addresses,
the notifications outbox and the service's own keys.

Reviewed by hand. Existing rows keep their meaning: no name (the default by colour), no
subscription, nobody reminded yet.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("name", sa.String(length=24), nullable=True))
        seats.add_column(
            sa.Column("push_on", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        seats.add_column(
            sa.Column("email_on", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    with op.batch_alter_table("games") as games:
        games.add_column(
            sa.Column("reminded", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    op.create_table(
        "service_keys",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_service_keys")),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("endpoint", sa.String(length=1024), nullable=False),
        sa.Column("p256dh", sa.String(length=128), nullable=False),
        sa.Column("auth", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["seat_id"],
            ["seats.id"],
            name=op.f("fk_push_subscriptions_seat_id_seats"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_subscriptions")),
        sa.UniqueConstraint(
            "seat_id", "endpoint", name=op.f("uq_push_subscriptions_seat_id_endpoint")
        ),
    )
    op.create_index(
        op.f("ix_push_subscriptions_seat_id"), "push_subscriptions", ["seat_id"], unique=False
    )
    op.create_table(
        "seat_emails",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=254), nullable=False),
        sa.Column("base_url", sa.String(length=200), nullable=False),
        sa.Column("confirm_hash", sa.String(length=64), nullable=True),
        sa.Column("confirm_expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["seat_id"], ["seats.id"], name=op.f("fk_seat_emails_seat_id_seats"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seat_emails")),
        sa.UniqueConstraint("confirm_hash", name=op.f("uq_seat_emails_confirm_hash")),
        sa.UniqueConstraint("seat_id", name=op.f("uq_seat_emails_seat_id")),
    )
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(length=8), nullable=False),
        sa.Column("subscription_id", sa.Integer(), nullable=True),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=24), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=8), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.String(length=200), nullable=True),
        sa.ForeignKeyConstraint(
            ["room_id"],
            ["rooms.id"],
            name=op.f("fk_notifications_room_id_rooms"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["seat_id"],
            ["seats.id"],
            name=op.f("fk_notifications_seat_id_seats"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["subscription_id"],
            ["push_subscriptions.id"],
            name=op.f("fk_notifications_subscription_id_push_subscriptions"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notifications")),
    )
    op.create_index(op.f("ix_notifications_room_id"), "notifications", ["room_id"], unique=False)
    op.create_index(
        "ix_notifications_state_due_at", "notifications", ["state", "due_at"], unique=False
    )


def downgrade() -> None:
    op.drop_index("ix_notifications_state_due_at", table_name="notifications")
    op.drop_index(op.f("ix_notifications_room_id"), table_name="notifications")
    op.drop_table("notifications")
    op.drop_table("seat_emails")
    op.drop_index(op.f("ix_push_subscriptions_seat_id"), table_name="push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_table("service_keys")
    with op.batch_alter_table("games") as games:
        games.drop_column("reminded")
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("email_on")
        seats.drop_column("push_on")
        seats.drop_column("name")
