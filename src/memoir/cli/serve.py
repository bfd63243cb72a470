"""`memoir serve`: the HTTP API (memory proxy, REST), the gRPC service and the background workers."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated
from urllib.parse import quote

import typer
from rich.console import Console

from memoir.errors import MemoirError
from memoir.facade.engine import Memoir

if TYPE_CHECKING:
    from memoir.facade.overview import ConversationInfo
    from memoir.server import Endpoints

__all__ = ["register"]


def register(app: typer.Typer, open_home: Callable[..., Memoir], err: Console) -> None:
    @app.command()
    def serve(
        ctx: typer.Context,
        host: Annotated[
            str, typer.Option(help="address to listen on; anything but loopback needs MEMOIR_API_KEY")
        ] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="HTTP port (0: any free port)")] = 8765,
        grpc_port: Annotated[int, typer.Option(help="gRPC port (0: any free port)")] = 50051,
        no_grpc: Annotated[bool, typer.Option("--no-grpc", help="serve HTTP only")] = False,
        access_log: Annotated[bool, typer.Option(help="one JSON line per HTTP request on stderr")] = True,
        workers: Annotated[
            bool, typer.Option(help="run the background workers here (--no-workers: `memoir worker` runs them)")
        ] = True,
    ) -> None:
        """Serve memory over HTTP (an OpenAI-compatible proxy at /v1, the REST API at /api/v1) and gRPC.

        The background workers run in the same process unless --no-workers. Ctrl-C (or SIGTERM) stops it: requests
        in flight finish, and what was acknowledged is kept.
        """
        from memoir.server import serve  # imported here: the other commands start faster

        _log_access(access_log)
        with open_home(ctx, worker=workers) as memoir:

            def ready(where: Endpoints) -> None:
                err.print(_banner(memoir, where), markup=False, highlight=False, soft_wrap=True)

            serve(memoir, host, port, None if no_grpc else grpc_port, ready=ready)
        err.print("memoir stopped", highlight=False)


def _log_access(enabled: bool) -> None:
    """Access lines are JSON objects on their own: no level prefix, so a log shipper reads them as they are."""
    logger = logging.getLogger("memoir.access")
    logger.propagate = False
    logger.setLevel(logging.INFO if enabled else logging.WARNING)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger.handlers = [handler]
    logging.getLogger("httpx").setLevel(
        logging.WARNING
    )  # a line per upstream call says nothing the access log does not


def _latest_conversation(memoir: Memoir) -> ConversationInfo | None:
    try:
        return next(iter(memoir.conversations()), None)
    except MemoirError:  # unified mode with no agent configured: no one to list them as
        return None


def _banner(memoir: Memoir, where: Endpoints) -> str:
    upstream = memoir.settings.proxy.upstream_url or memoir.settings.llm.base_url or "(none: set proxy.upstream_url)"
    key = " -H 'Authorization: Bearer $MEMOIR_API_KEY'" if memoir.settings.api_key else ""
    latest = _latest_conversation(memoir)
    opened = f"   (open it in a browser: {where.url}/ui/c/{quote(latest.conversation_id, safe='')})" if latest else ""
    lines = [
        f"memoir serving {memoir.home}",
        f"  web view                 {where.url}/{opened}",
        f"  OpenAI-compatible proxy  {where.url}/v1   (forwards to {upstream})",
        f"  REST API                 {where.url}/api/v1   (docs: {where.url}/docs)",
        f"  coding-agent hooks       {where.url}/hooks/claude   (also /hooks/codex, /hooks/gemini)",
        f"  MCP (streamable HTTP)    {where.url}/mcp",
    ]
    if where.grpc_port is not None:
        lines.append(f"  gRPC                     {where.host}:{where.grpc_port}")
    lines += [
        "try:",
        f"  curl -s{key} '{where.url}/api/v1/search' -H 'Content-Type: application/json' "
        '-d \'{"query": "Which database?", "conversation_id": "lighthouse"}\'',
        f"  python -c \"import openai; c = openai.OpenAI(base_url='{where.url}/v1', api_key='none'); "
        "print(c.chat.completions.create(model='any', messages=[{'role': 'user', 'content': 'hi'}], "
        "extra_body={'memory_id': 'lighthouse'}).choices[0].message.content)\"",
        "Ctrl-C stops it.",
    ]
    return "\n".join(lines)
