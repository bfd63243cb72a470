"""`memoir conversations` and `memoir ledger`: what the home holds and what the model cost, from the shell."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated

import typer
from rich.console import Console

from memoir.cli import render
from memoir.facade.engine import Memoir

__all__ = ["register"]

Opener = Callable[[typer.Context], Memoir]


def register(app: typer.Typer, open_home: Opener, out: Console, err: Console) -> None:
    @app.command()
    def conversations(
        ctx: typer.Context,
        conversation: Annotated[
            str | None, typer.Argument(help="a conversation: its events per day instead of the list")
        ] = None,
        agent: Annotated[str | None, typer.Option("--agent", help="act as this agent (unified mode)")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="one JSON object per line")] = False,
    ) -> None:
        """The conversations, most recently active first, with their sessions and events; or one's events per day."""
        with open_home(ctx) as memoir:
            if conversation is None:
                found = memoir.conversations(agent_id=agent)
                rows = [c.to_dict() for c in found]
                table = render.conversations_table(found)
            else:
                days = memoir.activity(conversation, agent_id=agent)
                rows = [d.to_dict() for d in days]
                table = render.activity_table(days)
            home = memoir.home
        if as_json:
            for row in rows:
                out.print(json.dumps(row, ensure_ascii=False), markup=False, soft_wrap=True)
        elif rows:
            out.print(table)
        elif conversation is None:
            err.print(f"no conversations in {home}: `memoir ingest` adds events")
        else:
            err.print(f"no events in conversation {conversation!r}; `memoir conversations` lists those there are")

    @app.command()
    def ledger(
        ctx: typer.Context,
        days: Annotated[int, typer.Option(help="the last N days (UTC), today included")] = 30,
        as_json: Annotated[bool, typer.Option("--json", help="one JSON object per day and job")] = False,
    ) -> None:
        """What memoir's model calls cost: calls, tokens and seconds per day and job."""
        with open_home(ctx) as memoir:
            found = memoir.llm_ledger(days)
        if as_json:
            for day in found:
                out.print(json.dumps(day.to_dict()), markup=False, soft_wrap=True)
        elif found:
            out.print(render.ledger_table(found))
        else:
            err.print(f"no model calls in the last {days} days (no model configured, or nothing for it to do)")
