"""The rooms domain: invite rooms, seats, games, moves, offers, deadlines and events."""

# Every appended room event is announced to the live streams (PostgreSQL NOTIFY).
from . import notify as _notify  # noqa: F401
