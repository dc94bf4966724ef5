"""Alembic, driven from code: `checkers migrate`, the app's start and the tests use it."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config


def _root() -> Path:
    """The folder holding `migrations/` and `alembic.ini`: the source tree's (an editable
    install), else the working directory's (a wheel install, as in the container image,
    which keeps them in its working directory)."""
    for folder in (Path(__file__).resolve().parents[2], Path.cwd()):
        if (folder / "migrations").is_dir() and (folder / "alembic.ini").is_file():
            return folder
    raise FileNotFoundError(
        "migrations/ and alembic.ini not found beside the app package or in the working "
        "directory: run from the project's folder"
    )


def alembic_config(url: str) -> Config:
    root = _root()
    config = Config(str(root / "alembic.ini"))
    config.set_main_option("script_location", str(root / "migrations"))
    # '%' is ConfigParser interpolation; URLs may contain percent-escapes.
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["configure_logger"] = False
    return config


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str = "base") -> None:
    command.downgrade(alembic_config(url), revision)
