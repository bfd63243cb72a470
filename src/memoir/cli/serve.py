"""`memoir serve`: the HTTP app (the OpenAI-compatible memory proxy) and the background workers."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from typing import Annotated

import typer
from rich.console import Console

from memoir.engine import Memoir
from memoir.errors import ConfigError

__all__ = ["register"]


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def register(app: typer.Typer, open_home: Callable[..., Memoir], err: Console) -> None:
    @app.command()
    def serve(
        ctx: typer.Context,
        host: Annotated[
            str, typer.Option(help="address to listen on (loopback only, until API keys arrive)")
        ] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="HTTP port")] = 8765,
    ) -> None:
        """Serve the OpenAI-compatible memory proxy at http://HOST:PORT/v1, with the background workers."""
        import uvicorn  # imported here: the other commands start faster without the web stack

        from memoir.server import create_app

        if not _loopback(host):
            raise ConfigError(f"--host {host}: memoir serves loopback only until API-key authentication lands")
        if not 1 <= port <= 65535:
            raise ConfigError(f"--port {port}: a TCP port is 1-65535")
        with open_home(ctx, worker=True) as memoir:
            upstream = memoir.settings.proxy.upstream_url or memoir.settings.llm.base_url
            err.print(f"memoir proxy at http://{host}:{port}/v1 (upstream {upstream}); Ctrl-C stops it")
            uvicorn.run(create_app(memoir), host=host, port=port, log_level="warning")
