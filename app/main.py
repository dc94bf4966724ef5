"""The app factory: settings, database, routers, error handlers, lifespan, scheduler."""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import APIRouter, FastAPI
from fastapi.middleware.gzip import GZipMiddleware
from sqlalchemy import update

from app import __version__
from app.computer.levels import check_levels
from app.computer.router import router as computer_router
from app.computer.runner import ComputerRunner
from app.core.clock import Clock, SystemClock
from app.core.db import Database, engine_options
from app.core.deps import SessionDep
from app.core.errors import install_error_handlers
from app.core.health import HealthProbe
from app.core.health import router as health_router
from app.core.logging import configure_logging
from app.core.middleware import (
    AccessLogMiddleware,
    BodyLimitMiddleware,
    UnexpectedErrorMiddleware,
)
from app.core.openapi import install_openapi, operation_id
from app.core.proxies import ClientAddressMiddleware, HostCheckMiddleware
from app.core.ratelimit import RateLimitMiddleware, is_limited
from app.core.settings import Settings, get_settings
from app.i18n.context import LanguageMiddleware
from app.imports.router import router as imports_router
from app.imports.runner import ImportRunner
from app.notify import outbox
from app.notify.router import router as notify_router
from app.profiles import install as install_profiles
from app.rooms import runtime
from app.rooms.live import Hub
from app.rooms.models import Room
from app.rooms.router import router as rooms_router
from app.rooms.state import lock_room
from app.rooms.streams import AnswerFirstMiddleware
from app.scheduler import start_background
from app.web.docs import mount_docs
from app.web.pwa import router as pwa_router
from app.web.router import mount_static
from app.web.router import router as web_router
from app.web.security import SecurityHeadersMiddleware
from app.web.share import router as share_router

log = logging.getLogger("checkers.app")


def create_app(
    settings: Settings | None = None,
    *,
    clock: Clock | None = None,
    database: Database | None = None,
    freeze_gc: bool = False,
) -> FastAPI:
    """A ready app; migrations and the sweep scheduler start with its lifespan.

    `freeze_gc`: the app owns its process (`checkers serve`). Once it has started,
    everything built so far lives as long as the process, so it is moved out of the
    garbage collector's reach: a full collection then scans only what requests left,
    instead of pausing every request in flight for a scan of the whole heap.
    """
    settings = settings or get_settings()
    clock = clock or SystemClock()
    database = database or Database(settings.database_url, **engine_options(settings))
    configure_logging(settings.log_level)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.migrate_on_start:
            from app.core.migrate import upgrade

            upgrade(database.url)
        background = (
            start_background(database, clock, settings) if settings.scheduler_enabled else None
        )
        scheduler = background.scheduler if background is not None else None
        app.state.scheduler = scheduler
        computer.start(scheduler)
        if freeze_gc:
            gc.collect()
            gc.freeze()
        try:
            yield
        finally:
            computer.shutdown()
            imports.shutdown()
            if background is not None:
                background.shutdown()
            await hub.stop()
            await probe.close()

    app = FastAPI(
        title="Checkers at your own pace",
        version=__version__,
        description="Correspondence checkers in six rule sets. A seat acts with "
        "`Authorization: Bearer <token>`; everyone else with the room id watches.\n\n"
        "Refusals are `{detail, code}`: `detail` is always English, for developers; "
        "`code` is the stable key a client translates or acts on. Texts meant for players "
        "(`result.text`, `rule_set.description`) follow the `lang` cookie or "
        "`Accept-Language` (en, pt-BR, ru, es, it, th; English by default).",
        lifespan=lifespan,
        generate_unique_id_function=operation_id,
        docs_url=None,  # served offline by app.web.docs
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.clock = clock
    app.state.database = database
    probe = HealthProbe(timeout=settings.db_connect_timeout)
    app.state.health_probe = probe
    computer = ComputerRunner(database, clock, settings)
    app.state.computer = computer
    imports = ImportRunner(settings)
    app.state.imports = imports
    hub = Hub(database, coalesce_seconds=settings.live_coalesce_seconds)
    check_levels()  # the computer's players are the levels a room's seat names
    runtime.install(
        app,
        runtime.RoomsRuntime(
            hub=hub, after_action=[computer.room_changed], before_action=[computer.admit]
        ),
    )
    outbox.install()
    app.include_router(rooms_router)
    app.include_router(computer_router)
    app.include_router(imports_router)
    app.include_router(notify_router)
    install_profiles(app)
    app.include_router(health_router)
    app.include_router(web_router)
    app.include_router(pwa_router)
    app.include_router(share_router)
    mount_static(app)
    mount_docs(app)
    install_error_handlers(app)
    install_openapi(app, is_limited if settings.rate_limit_enabled else lambda *_: False)
    if settings.bench_endpoints:
        app.include_router(floor_router)
    # Text answers compressed; the event stream is not (Starlette leaves it alone).
    # Level 1: a move's answer (about 6.6 KB of JSON) shrinks to 1.9 KB in 35 us, where
    # level 9 saves 0.2 KB more for 280 us of the worker's CPU on every answer.
    app.add_middleware(GZipMiddleware, minimum_size=800, compresslevel=1)
    app.add_middleware(LanguageMiddleware)
    app.add_middleware(
        BodyLimitMiddleware,
        max_bytes=settings.max_body_bytes,
        larger={"/api/imports": settings.import_max_bytes},
    )
    if settings.rate_limit_enabled:
        app.add_middleware(RateLimitMiddleware, settings=settings)
    app.add_middleware(AccessLogMiddleware)
    app.add_middleware(HostCheckMiddleware, settings=settings)
    app.add_middleware(ClientAddressMiddleware, settings=settings)
    app.add_middleware(UnexpectedErrorMiddleware)
    app.add_middleware(SecurityHeadersMiddleware)
    app.add_middleware(AnswerFirstMiddleware, hub=hub)

    return app


floor_router = APIRouter(prefix="/bench", include_in_schema=False)


@floor_router.post("/floor/{room_id}")
def floor(room_id: str, session: SessionDep) -> dict[str, int]:
    """The load benchmark's floor (`BENCH_ENDPOINTS=true` only): the least a room action
    can cost on this stack, a transaction like a move's stripped of the game: lock the
    room, write it, commit."""
    with session.begin():
        room = lock_room(session, room_id=room_id)
        session.execute(update(Room).where(Room.id == room_id).values(version=Room.version))
        return {"version": room.version}


def create_served_app() -> FastAPI:
    """The app of a `checkers serve` worker process, built from the environment."""
    return create_app(freeze_gc=True)
