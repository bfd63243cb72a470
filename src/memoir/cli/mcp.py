"""`memoir mcp`: memoir's memory as MCP tools on stdio, and its registration with coding agents.

One command rather than a group, so that plain `memoir mcp` (what an agent runs) serves,
and `memoir mcp install|remove` edit the agent's configuration. Serving writes nothing to
standard output but the protocol: the banner and the logs go to standard error.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from memoir.config import load_settings
from memoir.errors import InvalidInput
from memoir.facade.engine import Memoir
from memoir.mcp.install import AGENTS, config_path, install_server, remove_server, server_command
from memoir.model.project import project_root, project_scope

__all__ = ["register"]

Opener = Callable[..., Memoir]
ACTIONS = ("install", "remove")


def register(app: typer.Typer, open_home: Opener, out: Console, err: Console) -> None:
    @app.command()
    def mcp(
        ctx: typer.Context,
        action: Annotated[
            str | None, typer.Argument(help="install or remove; none: serve on stdio", metavar="ACTION")
        ] = None,
        agent: Annotated[str | None, typer.Option("--agent", help="claude (default), codex or gemini")] = None,
        scope: Annotated[
            str | None, typer.Option("--scope", help="project (default: this repository) or user (every project)")
        ] = None,
    ) -> None:
        """Serve memory to an MCP client on stdio, or register that server with a coding agent (install, remove)."""
        if action is None:
            if agent is not None or scope is not None:
                raise InvalidInput("agent", "--agent and --scope go with `memoir mcp install` or `memoir mcp remove`")
            _serve(ctx, open_home, err)
            return
        if action not in ACTIONS:
            raise InvalidInput("action", f"expected install or remove, got {action!r}")
        agent = agent or "claude"
        path = config_path(agent, scope or "project", project_root(Path.cwd()))
        if action == "install":
            _install(ctx, agent, path, out)
        elif remove_server(agent, path):
            out.print(f"removed memoir's MCP server from {path}", markup=False, highlight=False)
        else:
            out.print(f"memoir's MCP server is not registered in {path}", markup=False, highlight=False)


def _serve(ctx: typer.Context, open_home: Opener, err: Console) -> None:
    from memoir.mcp.server import run_stdio  # imported here: the SDK loads only for the command that serves

    scope = project_scope(os.getcwd())  # the project the agent works in
    with open_home(ctx, create=True, worker=True) as memoir:
        err.print(f"memoir MCP server on stdio: {memoir.home}, scope {scope}", markup=False, highlight=False)
        run_stdio(memoir, default_conversation=scope)


def _install(ctx: typer.Context, agent: str, path: Path, out: Console) -> None:
    options = ctx.obj
    settings = load_settings({"home": options.home}, config_file=options.config)
    home = settings.home if options.home or "MEMOIR_HOME" in os.environ else None
    done = install_server(agent, path, server_command(home, options.config))
    replaced = " (replacing its earlier entry)" if done.replaced else ""
    out.print(f"memoir's MCP server registered for {AGENTS[agent]} in {path}{replaced}", markup=False, highlight=False)
    out.print(f"  it runs: {shlex.join(done.command)}", markup=False, highlight=False)
