"""Alembic environment: the URL comes from the app's settings unless the caller set one,
and the target metadata is the app's models."""

from __future__ import annotations

from logging.config import fileConfig

from alembic import context
from sqlalchemy import Connection

from app.computer import review  # noqa: F401  (registers the tables)
from app.core import keys  # noqa: F401
from app.core.db import Base, make_engine
from app.core.settings import get_settings
from app.imports import models as imported  # noqa: F401
from app.notify import models as notify  # noqa: F401
from app.profiles import models as profiles  # noqa: F401
from app.rooms import models  # noqa: F401

config = context.config
if config.config_file_name and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


def _url() -> str:
    return config.get_main_option("sqlalchemy.url") or get_settings().database_url


# Several instances may start at once and each applies the migrations: on PostgreSQL
# they queue on this advisory lock (held until the migration transaction ends).
MIGRATION_LOCK_ID = 0x636B7273  # "ckrs"


def _lock(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK_ID})")


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        compare_type=True,
        render_as_batch=connection.dialect.name == "sqlite",
    )


def run_migrations_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
        with context.begin_transaction():
            _lock(connection)
            context.run_migrations()
        return
    engine = make_engine(_url())
    try:
        with engine.connect() as connection:
            _configure(connection)
            with context.begin_transaction():
                _lock(connection)
                context.run_migrations()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
