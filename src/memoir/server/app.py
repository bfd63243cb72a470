"""The HTTP app of `memoir serve`: the memory proxy, the REST API, the web view, health, and the docs.

It composes adapters and holds no logic of its own: the OpenAI-compatible proxy under
`/v1` (`proxy.py`), the façade's methods under `/api/v1` (`rest.py`), `GET /health` (the
process answers) and `GET /ready` (the store answers, with the backlog), and the OpenAPI
schema with its docs page, plain HTML rendered from that schema by `docs_page.py`: no
script and nothing from a CDN, so it works offline.
Every request passes the `Guard` first (API key, body size, access log).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.concurrency import run_in_threadpool

import memoir.remote.wire as wire
from memoir.errors import MemoirError
from memoir.facade.engine import Memoir
from memoir.mcp.server import mount_mcp
from memoir.server.docs_page import render_docs_page
from memoir.server.errors import install_error_handlers, status_of
from memoir.server.guard import Guard
from memoir.server.hooks import create_hooks_router
from memoir.server.openapi import describe
from memoir.server.proxy import add_proxy_routes
from memoir.server.rest import create_router
from memoir.web import create_web_router

__all__ = ["create_app"]

DESCRIPTION = (
    "Long-term memory for LLM agents. `/v1` is an OpenAI-compatible proxy that adds memory to chat "
    "requests; `/api/v1` is the memory itself, with the same methods as the Python `Memoir` class."
)


def create_app(memoir: Memoir) -> FastAPI:
    settings = memoir.settings
    clients: dict[str, httpx.AsyncClient] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # One pool of upstream connections for every request; no proxy variables: the upstream is named.
        limits = httpx.Limits(max_connections=None, max_keepalive_connections=100)
        clients["upstream"] = httpx.AsyncClient(timeout=settings.proxy.timeout, trust_env=False, limits=limits)
        try:
            yield
        finally:
            await clients["upstream"].aclose()

    app = FastAPI(
        title="memoir", description=DESCRIPTION, lifespan=lifespan, docs_url=None, redoc_url=None, version="1"
    )
    install_error_handlers(app)
    _add_status_routes(app, memoir)
    _add_docs(app)
    app.include_router(create_router(memoir))
    app.include_router(create_hooks_router(memoir))
    app.include_router(create_web_router(memoir, settings.api_key))  # `/` and `/ui/`: the web view
    mount_mcp(app, memoir)
    add_proxy_routes(app, memoir, lambda: clients["upstream"])
    describe(app)  # the document of the server that answers (error shape, statuses, typed answers)
    if settings.server.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(settings.server.cors_origins),
            allow_methods=["*"],
            allow_headers=["*"],
        )
    app.add_middleware(
        Guard,
        api_key=settings.api_key,
        max_body_bytes=settings.server.max_body_bytes,
        cors_origins=tuple(settings.server.cors_origins),
    )
    return app


def _add_status_routes(app: FastAPI, memoir: Memoir) -> None:
    @app.get("/health", tags=["status"])
    async def health() -> dict[str, str]:
        """The process answers (no key needed, for load balancers)."""
        return {"status": "ok"}

    @app.get("/ready", tags=["status"])
    async def ready() -> Response:
        """The store answers; `backlog` is the background work still to do."""
        try:
            backlog = await run_in_threadpool(memoir.pending)
        except MemoirError as exc:
            return JSONResponse(wire.error_body(exc), status_code=status_of(exc))
        return JSONResponse({"status": "ready", "backlog": backlog})


# The docs page runs no script and loads nothing: the browser is told so, whatever the page says.
DOCS_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"


def _add_docs(app: FastAPI) -> None:
    page: list[str] = []  # rendered once, from the document `/openapi.json` answers

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        if not page:
            page.append(render_docs_page(app.openapi()))
        return HTMLResponse(page[0], headers={"Content-Security-Policy": DOCS_POLICY})
