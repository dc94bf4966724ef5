"""A computer review keeps each position of its game in a row of its own
(`review_positions`: the FEN, the move played from it, and its score and best move once
evaluated), so storing one evaluation writes one small row instead of rewriting the
review's lists; `reviews.positions` counts them. The reviews stored before are moved over.

Reviewed by hand. On SQLite a batch operation recreates its table, and dropping the old
one deletes the rows whose foreign key cascades from it: so the new table takes its
foreign key only after `reviews` has been rebuilt, and loses it before.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-08
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LISTS = ("fens", "moves", "scores", "bests")

reviews = sa.table(
    "reviews",
    sa.column("id", sa.Integer()),
    sa.column("positions", sa.Integer()),
    *(sa.column(name, sa.JSON()) for name in LISTS),
)
positions = sa.table(
    "review_positions",
    sa.column("review_id", sa.Integer()),
    sa.column("ply", sa.Integer()),
    sa.column("fen", sa.String()),
    sa.column("move", sa.String()),
    sa.column("score", sa.Integer()),
    sa.column("best", sa.String()),
)
FOREIGN_KEY = "fk_review_positions_review_id_reviews"


def upgrade() -> None:
    op.create_table(
        "review_positions",
        sa.Column("review_id", sa.Integer(), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("fen", sa.String(length=200), nullable=False),
        sa.Column("move", sa.String(length=200), nullable=True),
        sa.Column("score", sa.Integer(), nullable=True),
        sa.Column("best", sa.String(length=200), nullable=True),
        sa.PrimaryKeyConstraint("review_id", "ply", name=op.f("pk_review_positions")),
    )
    with op.batch_alter_table("reviews") as table:
        table.add_column(sa.Column("positions", sa.Integer(), nullable=True))
    bind = op.get_bind()
    for number in bind.scalars(sa.select(reviews.c.id)).all():  # one review at a time
        fens, moves, scores, bests = bind.execute(
            sa.select(*(reviews.c[name] for name in LISTS)).where(reviews.c.id == number)
        ).one()
        played = [*moves, None]
        bind.execute(
            positions.insert(),
            [
                {
                    "review_id": number,
                    "ply": ply,
                    "fen": fen,
                    "move": played[ply],
                    "score": scores[ply],
                    "best": bests[ply],
                }
                for ply, fen in enumerate(fens)
            ],
        )
        bind.execute(reviews.update().where(reviews.c.id == number).values(positions=len(fens)))
    with op.batch_alter_table("reviews") as table:
        table.alter_column("positions", existing_type=sa.Integer(), nullable=False)
        for name in LISTS:
            table.drop_column(name)
    with op.batch_alter_table("review_positions") as table:
        table.create_foreign_key(FOREIGN_KEY, "reviews", ["review_id"], ["id"], ondelete="CASCADE")


def downgrade() -> None:
    with op.batch_alter_table("review_positions") as table:
        table.drop_constraint(FOREIGN_KEY, type_="foreignkey")
    with op.batch_alter_table("reviews") as table:
        for name in LISTS:
            table.add_column(sa.Column(name, sa.JSON(), nullable=True))
    bind = op.get_bind()
    lists: dict[int, dict[str, list[object]]] = {}
    for number, fen, move, score, best in bind.execute(
        sa.select(
            positions.c.review_id,
            positions.c.fen,
            positions.c.move,
            positions.c.score,
            positions.c.best,
        ).order_by(positions.c.review_id, positions.c.ply)
    ):
        kept = lists.setdefault(number, {name: [] for name in LISTS})
        kept["fens"].append(fen)
        if move is not None:
            kept["moves"].append(move)
        kept["scores"].append(score)
        kept["bests"].append(best)
    for number, kept in lists.items():
        bind.execute(reviews.update().where(reviews.c.id == number).values(**kept))
    op.drop_table("review_positions")
    with op.batch_alter_table("reviews") as table:
        for name in LISTS:
            table.alter_column(name, existing_type=sa.JSON(), nullable=False)
        table.drop_column("positions")
