"""Talk, time and thought: more time for the player to move (`games.turn_extra_days`,
`games.extra_days`), the players' chat (`chat_messages`, `seats.chat_off`, and
`events.audience` so that a chat event reaches its two seats alone), private notes
(`seat_notes`), the analysis board's kept lines (`analysis_lines`), and an imported
game's comments and variations (`imported_games.comments`, `.variations`), which a
player's own PDN carries.

Only added columns and new tables: `games` is altered by plain ADD COLUMN (a batch
rebuild on SQLite would drop the table and cascade to its moves).

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-11
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


reviews = sa.table("reviews", sa.column("id", sa.Integer()), sa.column("line_id", sa.Integer()))


def _when() -> sa.Column[object]:
    return sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False)


def upgrade() -> None:
    op.add_column(
        "games", sa.Column("turn_extra_days", sa.Integer(), nullable=False, server_default="0")
    )
    op.add_column(
        "games", sa.Column("extra_days", sa.Integer(), nullable=False, server_default="0")
    )
    op.add_column(
        "seats", sa.Column("chat_off", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column("events", sa.Column("audience", sa.String(length=16), nullable=True))
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "room_id",
            sa.String(length=32),
            sa.ForeignKey("rooms.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.String(length=8), nullable=False),
        sa.Column("text", sa.String(length=500), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_messages_room_id_id", "chat_messages", ["room_id", "id"])
    op.create_table(
        "seat_notes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "seat_id",
            sa.Integer(),
            sa.ForeignKey("seats.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("text", sa.String(length=2000), nullable=False),
        _when(),
        sa.UniqueConstraint("game_id", "seat_id", "ply"),
    )
    op.create_table(
        "analysis_lines",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "seat_id",
            sa.Integer(),
            sa.ForeignKey("seats.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("from_ply", sa.Integer(), nullable=False),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        _when(),
    )
    op.create_index("ix_analysis_lines_game_seat", "analysis_lines", ["game_id", "seat_id"])
    # No reference to the line: on SQLite only a rebuild of `reviews` could add one, and
    # its drop would cascade to every review's positions (the review goes with its room).
    op.add_column("reviews", sa.Column("line_id", sa.Integer(), nullable=True))
    op.create_index("ix_reviews_line_id", "reviews", ["line_id"], unique=True)
    op.add_column("imported_games", sa.Column("comments", sa.JSON(), nullable=True))
    op.add_column("imported_games", sa.Column("variations", sa.JSON(), nullable=True))


def downgrade() -> None:
    op.drop_column("imported_games", "variations")
    op.drop_column("imported_games", "comments")
    bind = op.get_bind()
    bind.execute(sa.delete(reviews).where(reviews.c.line_id.is_not(None)))
    op.drop_index("ix_reviews_line_id", table_name="reviews")
    op.drop_column("reviews", "line_id")
    op.drop_index("ix_analysis_lines_game_seat", table_name="analysis_lines")
    op.drop_table("analysis_lines")
    op.drop_table("seat_notes")
    op.drop_index("ix_chat_messages_room_id_id", table_name="chat_messages")
    op.drop_table("chat_messages")
    op.drop_column("events", "audience")
    op.drop_column("seats", "chat_off")
    op.drop_column("games", "extra_days")
    op.drop_column("games", "turn_extra_days")
