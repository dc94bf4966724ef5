"""What every action runs under: the instant it happens at, the service's settings, the
language of the person acting, who acts (the client's address) and the app's hooks.

Routes get one `Context` from one dependency (the language is the request's, read there
once); the sweep and the computer player build theirs from their clock, in the default
language and with no hooks. Rules read the time and the language from here, never from
the wall or from a hidden variable; the rooms' service asks and tells the hooks itself,
so no route can forget them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from .settings import Settings


class Hooks(Protocol):
    """What the app asks before and tells after a room action (the computer player:
    `app.rooms.runtime.RoomsRuntime`)."""

    def admit(self, state: Any, client: str) -> None:
        """May refuse (raise) an action that could owe the computer a reply, under the
        room's lock, before it is taken."""

    def acted(self, state: Any, client: str | None) -> None:
        """A room action has committed."""


class NoHooks:
    """The hooks of work done outside a request (the sweep, the computer's own moves)."""

    def admit(self, state: Any, client: str) -> None:
        return None

    def acted(self, state: Any, client: str | None) -> None:
        return None


NO_HOOKS = NoHooks()


@dataclass(frozen=True, slots=True)
class Context:
    now: datetime
    settings: Settings
    # A tag of `app.i18n.LANGUAGES`: what a seat asking to be told is told in, what a
    # view's texts are written in.
    language: str = "en"
    # The acting client's address (its key for the limits); None outside a request.
    client: str | None = None
    hooks: Hooks = NO_HOOKS
