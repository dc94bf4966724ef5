"""Settings, clock and the UTC column type."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from app.core.clock import ManualClock, SystemClock
from app.core.settings import Settings


def test_settings_read_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://u@db:5432/checkers")
    monkeypatch.setenv("SCHEDULER_ENABLED", "false")
    monkeypatch.setenv("CLAIM_AFTER_SECONDS", "120")
    settings = Settings()
    assert settings.database_url == "postgresql+psycopg://u@db:5432/checkers"
    assert settings.scheduler_enabled is False
    assert settings.claim_after == timedelta(minutes=2)


def test_defaults_are_the_product_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DATABASE_URL", "CLAIM_AFTER_SECONDS", "EXPIRE_AFTER_SECONDS"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.database_url == "sqlite:///checkers.sqlite3"
    assert settings.claim_after == timedelta(hours=48)
    assert settings.expire_after == timedelta(days=7)
    assert settings.rematch_window == timedelta(days=7)
    assert settings.max_plies == 1000


def test_clocks_are_aware_utc() -> None:
    assert SystemClock().now().tzinfo is UTC
    clock = ManualClock(datetime(2024, 1, 1, tzinfo=timezone(timedelta(hours=2))))
    assert clock.now() == datetime(2023, 12, 31, 22, tzinfo=UTC)
    assert clock.advance(hours=1) == datetime(2023, 12, 31, 23, tzinfo=UTC)
    with pytest.raises(ValueError):
        ManualClock(datetime(2024, 1, 1))


def test_utc_column_round_trips_on_sqlite(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from sqlalchemy import Column, Integer, MetaData, Table, select

    from app.core.db import UTCDateTime, make_engine

    table = Table(
        "t", MetaData(), Column("id", Integer, primary_key=True), Column("at", UTCDateTime())
    )
    engine = make_engine(f"sqlite:///{tmp_path}/x.sqlite3")
    table.metadata.create_all(engine)
    instant = datetime(2024, 5, 1, 10, 30, tzinfo=timezone(timedelta(hours=-4)))
    with engine.begin() as conn:
        conn.execute(table.insert().values(id=1, at=instant))
        assert conn.scalar(select(table.c.at)) == instant
        assert conn.scalar(select(table.c.at)).tzinfo == UTC
        with pytest.raises(Exception, match="naive"):
            conn.execute(table.insert().values(id=2, at=datetime(2024, 1, 1)))
    engine.dispose()
