"""What every action runs under: the instant it happens at and the service's settings.

Routes get one `Context` from one dependency; the sweep and the computer player build
theirs from their clock. Rules read the time from here, never from the wall.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .settings import Settings


@dataclass(frozen=True, slots=True)
class Context:
    now: datetime
    settings: Settings
