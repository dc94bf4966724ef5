"""FastAPI dependencies shared by the routers: session, context, seat token, base URL.

They are coroutines although none awaits: FastAPI runs a plain function dependency in
its thread pool, and a thread hop per dependency costs more than the work they do.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from app.i18n.context import current_tag

from .clock import Clock
from .context import NO_HOOKS, Context
from .db import Database
from .proxies import client_key
from .settings import Settings


async def get_database(request: Request) -> Database:
    database: Database = request.app.state.database
    return database


async def get_session(
    database: Annotated[Database, Depends(get_database)],
) -> AsyncIterator[Session]:
    # Opening a session does no I/O, and every transaction is ended (committed or rolled
    # back) by the endpoint that began it, so closing it here releases no connection.
    with database.session() as session:
        yield session


async def get_context(request: Request) -> Context:
    """The request's instant (read once), the settings, the request's language (the
    language middleware's reading of it, taken here once), the client's address and the
    app's hooks (`app.state.hooks`, registered by the app factory)."""
    clock: Clock = request.app.state.clock
    return Context(
        clock.now(),
        request.app.state.settings,
        language=current_tag(),
        client=await client_address(request),
        hooks=getattr(request.app.state, "hooks", NO_HOOKS),
    )


_bearer = HTTPBearer(auto_error=False, description="A seat's secret token.")


async def get_token(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str | None:
    """The bearer token, if any (checked against the room's seats by the service)."""
    return credentials.credentials if credentials else None


async def client_address(request: Request) -> str:
    """What limits and shares count for this client: its validated address
    (`app.core.proxies`), an IPv6 address by its /64."""
    return client_key(request.client.host if request.client else "unknown")


async def base_url(request: Request) -> str:
    """Base of share links: PUBLIC_URL when set, else the URL this request came to."""
    settings: Settings = request.app.state.settings
    return settings.public_url or str(request.base_url)


SessionDep = Annotated[Session, Depends(get_session)]
ContextDep = Annotated[Context, Depends(get_context)]
TokenDep = Annotated[str | None, Depends(get_token)]
DatabaseDep = Annotated[Database, Depends(get_database)]
BaseUrlDep = Annotated[str, Depends(base_url)]
ClientDep = Annotated[str, Depends(client_address)]
