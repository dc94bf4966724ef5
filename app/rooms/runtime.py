"""What the rooms routes need from the running app, registered once by the app factory:
the live-event hub and the hooks told after every room action (the computer player)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, FastAPI, Request

from .live import Hub
from .state import GameState

AfterAction = Callable[[GameState], None]


@dataclass
class RoomsRuntime:
    hub: Hub
    after_action: list[AfterAction] = field(default_factory=list)

    def acted(self, state: GameState) -> None:
        """Tell the hooks that a room action has committed."""
        for hook in self.after_action:
            hook(state)


def install(app: FastAPI, runtime: RoomsRuntime) -> None:
    app.state.rooms = runtime


async def get_runtime(request: Request) -> RoomsRuntime:
    runtime: RoomsRuntime = request.app.state.rooms
    return runtime


RuntimeDep = Annotated[RoomsRuntime, Depends(get_runtime)]
