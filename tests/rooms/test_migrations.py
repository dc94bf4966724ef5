"""The Alembic migrations build exactly the models' schema on PostgreSQL, and undo it."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect

from app.computer import review  # noqa: F401
from app.core import keys  # noqa: F401
from app.core.db import Base
from app.core.migrate import downgrade, upgrade
from app.imports import models as imported  # noqa: F401
from app.rooms import models  # noqa: F401


@pytest.mark.postgres
def test_upgrade_to_head_matches_the_models_and_downgrades(postgres) -> None:  # type: ignore[no-untyped-def]
    url = postgres.create("checkers_migr")
    try:
        upgrade(url)
        engine = create_engine(url)
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            diff = compare_metadata(context, Base.metadata)
            tables = set(inspect(conn).get_table_names())
            indexes = {ix["name"] for ix in inspect(conn).get_indexes("rooms")}
        assert diff == []
        assert {"rooms", "seats", "games", "moves", "offers", "events"} <= tables
        assert "ix_rooms_next_check_at" in indexes
        downgrade(url, "base")
        with engine.connect() as conn:
            assert set(inspect(conn).get_table_names()) == {"alembic_version"}
        engine.dispose()
    finally:
        postgres.drop(url)


def test_migrations_also_run_on_sqlite(tmp_path) -> None:  # type: ignore[no-untyped-def]
    url = f"sqlite:///{tmp_path}/m.sqlite3"
    upgrade(url)
    engine = create_engine(url)
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(context, Base.metadata) == []
    downgrade(url, "base")
    engine.dispose()
