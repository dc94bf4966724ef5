"""What the rooms need from the running app, registered once by the app factory: the
live-event hub, the hooks asked before a seat action that may owe the computer a reply
(its queue's admission) and those told after every room action (the computer player),
each with the acting client's address. The hooks reach the service through the request's
`Context` (`app.core.deps.get_context` reads `app.state.hooks`), and the service calls
them: a route never does."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, FastAPI, Request

from .live import Hub
from .state import GameState

AfterAction = Callable[[GameState, str | None], None]
# Raises a `ServiceError` to refuse the action; it runs under the room's lock.
BeforeAction = Callable[[GameState, str], None]


@dataclass
class RoomsRuntime:
    hub: Hub
    after_action: list[AfterAction] = field(default_factory=list)
    before_action: list[BeforeAction] = field(default_factory=list)

    def admit(self, state: GameState, client: str) -> None:
        """Ask the hooks whether `client` may take this action now (they may refuse)."""
        for hook in self.before_action:
            hook(state, client)

    def acted(self, state: GameState, client: str | None) -> None:
        """Tell the hooks that a room action has committed."""
        for hook in self.after_action:
            hook(state, client)


def install(app: FastAPI, runtime: RoomsRuntime) -> None:
    app.state.rooms = runtime
    app.state.hooks = runtime


async def get_runtime(request: Request) -> RoomsRuntime:
    runtime: RoomsRuntime = request.app.state.rooms
    return runtime


RuntimeDep = Annotated[RoomsRuntime, Depends(get_runtime)]
