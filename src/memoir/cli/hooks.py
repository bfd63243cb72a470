"""`memoir hook` and `memoir hooks install|remove`: coding agents' hooks, from the shell.

`memoir hook` normally never gets here: `memoir.cli.main` sends it down a fast path that
skips this app (see there). It is declared here too so that `--help` and the docs know it.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Annotated
from urllib.parse import urlsplit

import typer
from rich.console import Console

from memoir.config import load_settings
from memoir.facade.engine import Memoir
from memoir.hooks.command import run_hook
from memoir.hooks.install import install_hooks, remove_hooks, settings_path
from memoir.model.project import project_root

__all__ = ["register"]

Opener = Callable[[typer.Context], Memoir]
# Codex keeps each hook untrusted, and skips it without a word, until a person reviews it.
# Trusting is the user's decision: memoir says how, and writes no trust entry itself.
CODEX_TRUST = (
    "Codex runs none of these hooks until you trust them: start `codex` in this project and choose "
    "'Trust all and continue' on its 'Hooks need review' screen (or review them with /hooks). "
    "`codex exec` asks no one, so review them in the terminal first. "
    "After `memoir hooks install` changes them, Codex asks again."
)
AgentChoice = Annotated[str, typer.Option("--agent", help="claude, codex or gemini")]
ScopeChoice = Annotated[str, typer.Option("--scope", help="project (this repository) or user (every project)")]


def register(app: typer.Typer, open_home: Opener, out: Console, err: Console) -> None:
    hooks_app = typer.Typer(help="Install memoir's hooks into Claude Code, Codex or Gemini CLI.", no_args_is_help=True)
    app.add_typer(hooks_app, name="hooks")

    @app.command()
    def hook(
        ctx: typer.Context,
        event: Annotated[str | None, typer.Argument(help="the agent's hook event, e.g. PostToolUse")] = None,
        agent: AgentChoice = "claude",
    ) -> None:
        """Capture one hook call (JSON on stdin); prints the agent's answer. Always exits 0."""
        options = ctx.obj
        raise typer.Exit(run_hook(event, agent, options.home, options.config))

    @hooks_app.command("install")
    def install(
        ctx: typer.Context,
        agent: AgentChoice = "claude",
        scope: ScopeChoice = "project",
        kind: Annotated[
            str, typer.Option("--type", help="auto (http when a server answers, for Claude Code), http or command")
        ] = "auto",
    ) -> None:
        """Merge memoir's hooks into the agent's settings file (your own hooks stay as they are)."""
        options = ctx.obj
        settings = load_settings({"home": options.home}, config_file=options.config)
        path = settings_path(agent, scope, project_root(Path.cwd()))
        url = settings.hooks.server_url
        if kind == "auto":
            kind = "http" if agent == "claude" and url and _answers(url) else "command"
        home = settings.home if options.home or "MEMOIR_HOME" in os.environ else None
        plan = install_hooks(agent, path, kind=kind, server_url=url, memoir_home=home)
        replaced = f" (replacing {plan.replaced} earlier memoir entries)" if plan.replaced else ""
        out.print(f"memoir's {plan.kind} hooks installed in {plan.path}{replaced}: {', '.join(plan.added)}")
        if agent == "codex":
            err.print(CODEX_TRUST)
        if plan.kind == "http":
            err.print("the http form needs `memoir serve` running; calls made while it is down are not captured")
        elif url and not _answers(url):
            err.print(
                f"no memoir server answers at {url} yet: "
                + (
                    "the first hook call starts `memoir serve` in the background (hooks.autostart); until it answers,"
                    " calls are stored locally and get no context"
                    if settings.hooks.autostart
                    else "calls are stored locally and get no context until you run `memoir serve`"
                )
            )

    @hooks_app.command("remove")
    def remove(ctx: typer.Context, agent: AgentChoice = "claude", scope: ScopeChoice = "project") -> None:
        """Take memoir's hooks (and nothing else) out of the agent's settings file."""
        path = settings_path(agent, scope, project_root(Path.cwd()))
        removed = remove_hooks(path)
        out.print(f"removed {removed} memoir hook entries from {path}" if removed else f"no memoir hooks in {path}")


def _answers(url: str) -> bool:
    """A server listens at `url` (a TCP connection within half a second)."""
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 80), timeout=0.5):
            return True
    except OSError:
        return False
