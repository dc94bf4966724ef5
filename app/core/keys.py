"""Secrets the service makes for itself once (the Web Push signing key, the key that
signs unsubscribe links), kept in the database so every instance uses the same ones."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy import String, Text, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from .db import Base, UTCDateTime


class ServiceKey(Base):
    __tablename__ = "service_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


def service_key(session: Session, name: str, make: Callable[[], str], now: datetime) -> str:
    """The key called `name`, made by `make` and stored the first time it is asked for.

    Two instances asking at once both try to store theirs; the second insert fails on the
    primary key and that instance takes the one stored first.
    """
    query = select(ServiceKey.value).where(ServiceKey.name == name)
    with session.begin():
        found = session.scalar(query)
    if found is not None:
        return found
    try:
        with session.begin():
            session.execute(insert(ServiceKey).values(name=name, value=make(), created_at=now))
    except IntegrityError:
        pass
    with session.begin():
        stored = session.scalar(query)
    assert stored is not None
    return stored
