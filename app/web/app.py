"""The ASGI application."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.middleware.sessions import SessionMiddleware

from app.config import Settings, get_settings
from app.services.runtime import Runtime
from app.web import api, errors, health, notices, pages, realms, ws
from app.web.limits import BodyLimit
from app.web.render import STATIC_DIR


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        rt = Runtime.build(settings)
        app.state.rt = rt
        await rt.start()
        try:
            yield
        finally:
            await rt.stop()

    app = FastAPI(
        title="feytable",
        description="Fantasy card games with friends: the JSON API for bots and other clients.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.add_middleware(
        SessionMiddleware,
        secret_key=settings.resolved_secret_key(),
        session_cookie="feytable_session",
        same_site="lax",
        https_only=settings.https_only_cookies,
        max_age=60 * 60 * 24 * 365,
    )
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    errors.install(app)
    app.include_router(health.router)
    app.include_router(api.router)
    app.include_router(realms.api)
    app.include_router(realms.pages)
    app.include_router(ws.router)
    app.include_router(notices.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app
