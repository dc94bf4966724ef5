"""The rooms domain: invite rooms, seats, games, moves, offers, deadlines and events."""

# The session hooks that hand committed events to in-process listeners (SQLite).
from . import notify as _notify  # noqa: F401
