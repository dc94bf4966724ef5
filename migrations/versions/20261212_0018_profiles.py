"""Player profiles: the profile, its passkeys, its signed-in devices, its mailed links,
the passkey ceremonies in flight and the seats it holds.

New tables, and one column of seats (`former`: the player erased their profile).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-12
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A plain added column (no batch): SQLite adds it in place, nothing cascades.
    op.add_column(
        "seats", sa.Column("former", sa.Boolean(), server_default=sa.false(), nullable=False)
    )
    op.create_table(
        "profiles",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=32), nullable=False),
        sa.Column("user_handle", sa.LargeBinary(length=64), nullable=False),
        sa.Column("name", sa.String(length=24), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=True),
        sa.Column("email_pending", sa.String(length=254), nullable=True),
        sa.Column("notify", sa.JSON(), nullable=False),
        sa.Column("public", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("language", sa.String(length=8), server_default="en", nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_profiles")),
        sa.UniqueConstraint("public_id", name=op.f("uq_profiles_public_id")),
        sa.UniqueConstraint("user_handle", name=op.f("uq_profiles_user_handle")),
    )
    op.create_table(
        "passkeys",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("profile_id", sa.Integer(), nullable=False),
        sa.Column("credential_id", sa.LargeBinary(length=1024), nullable=False),
        sa.Column("public_key", sa.LargeBinary(length=2048), nullable=False),
        sa.Column("sign_count", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["profile_id"],
            ["profiles.id"],
            name=op.f("fk_passkeys_profile_id_profiles"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_passkeys")),
        sa.UniqueConstraint("credential_id", name=op.f("uq_passkeys_credential_id")),
    )
    op.create_index("ix_passkeys_profile_id", "passkeys", ["profile_id"], unique=False)
    op.create_table(
        "profile_links",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("profile_id", sa.Integer(), nullable=False),
        sa.Column("purpose", sa.String(length=8), nullable=False),
        sa.Column("address", sa.String(length=254), nullable=True),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["profile_id"],
            ["profiles.id"],
            name=op.f("fk_profile_links_profile_id_profiles"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_profile_links")),
        sa.UniqueConstraint("secret_hash", name=op.f("uq_profile_links_secret_hash")),
    )
    op.create_index("ix_profile_links_created_at", "profile_links", ["created_at"], unique=False)
    op.create_index("ix_profile_links_profile_id", "profile_links", ["profile_id"], unique=False)
    op.create_table(
        "profile_sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("profile_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("device", sa.String(length=80), nullable=False),
        sa.Column("method", sa.String(length=8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["profile_id"],
            ["profiles.id"],
            name=op.f("fk_profile_sessions_profile_id_profiles"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_profile_sessions")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_profile_sessions_token_hash")),
    )
    op.create_index(
        "ix_profile_sessions_expires_at", "profile_sessions", ["expires_at"], unique=False
    )
    op.create_index(
        "ix_profile_sessions_profile_id", "profile_sessions", ["profile_id"], unique=False
    )
    op.create_table(
        "webauthn_challenges",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("handle", sa.String(length=64), nullable=False),
        sa.Column("purpose", sa.String(length=8), nullable=False),
        sa.Column("challenge", sa.LargeBinary(length=64), nullable=False),
        sa.Column("profile_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=24), nullable=True),
        sa.Column("user_handle", sa.LargeBinary(length=64), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["profile_id"],
            ["profiles.id"],
            name=op.f("fk_webauthn_challenges_profile_id_profiles"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webauthn_challenges")),
        sa.UniqueConstraint("handle", name=op.f("uq_webauthn_challenges_handle")),
    )
    op.create_index(
        "ix_webauthn_challenges_expires_at", "webauthn_challenges", ["expires_at"], unique=False
    )
    op.create_index(
        "ix_webauthn_challenges_profile_id", "webauthn_challenges", ["profile_id"], unique=False
    )
    op.create_table(
        "profile_seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("profile_id", sa.Integer(), nullable=False),
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("attached_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["profile_id"],
            ["profiles.id"],
            name=op.f("fk_profile_seats_profile_id_profiles"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["room_id"],
            ["rooms.id"],
            name=op.f("fk_profile_seats_room_id_rooms"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["seat_id"],
            ["seats.id"],
            name=op.f("fk_profile_seats_seat_id_seats"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_profile_seats")),
        sa.UniqueConstraint("seat_id", name=op.f("uq_profile_seats_seat_id")),
    )
    op.create_index("ix_profile_seats_profile_id", "profile_seats", ["profile_id"], unique=False)
    op.create_index("ix_profile_seats_room_id", "profile_seats", ["room_id"], unique=False)


def downgrade() -> None:
    # SQLite drops a column in place since 3.35 (no table rebuild, so no cascade).
    op.drop_column("seats", "former")
    op.drop_index("ix_profile_seats_room_id", table_name="profile_seats")
    op.drop_index("ix_profile_seats_profile_id", table_name="profile_seats")
    op.drop_table("profile_seats")
    op.drop_index("ix_webauthn_challenges_profile_id", table_name="webauthn_challenges")
    op.drop_index("ix_webauthn_challenges_expires_at", table_name="webauthn_challenges")
    op.drop_table("webauthn_challenges")
    op.drop_index("ix_profile_sessions_profile_id", table_name="profile_sessions")
    op.drop_index("ix_profile_sessions_expires_at", table_name="profile_sessions")
    op.drop_table("profile_sessions")
    op.drop_index("ix_profile_links_profile_id", table_name="profile_links")
    op.drop_index("ix_profile_links_created_at", table_name="profile_links")
    op.drop_table("profile_links")
    op.drop_index("ix_passkeys_profile_id", table_name="passkeys")
    op.drop_table("passkeys")
    op.drop_table("profiles")
