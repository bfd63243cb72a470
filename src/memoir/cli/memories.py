"""`memoir remember`, `forget`, `correct` and `memories`: the vault's memories from the shell."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from memoir.cli import render
from memoir.cli.options import AgentOption, AllAgentsOption
from memoir.facade.engine import Memoir
from memoir.model.limits import MAX_PAGE, MEMORIES_SHOWN, MEMORY_KINDS, SEVERITIES
from memoir.model.project import caller_scope

__all__ = ["register"]

Opener = Callable[[typer.Context], Memoir]
TABLE_PAGE = MEMORIES_SHOWN  # memories a table shows by default: the latest


def register(app: typer.Typer, open_home: Opener, out: Console, err: Console) -> None:
    @app.command()
    def remember(
        ctx: typer.Context,
        text: Annotated[str, typer.Argument(help="the memory, one fact in plain words")],
        kind: Annotated[str, typer.Option(help=" or ".join([", ".join(MEMORY_KINDS[:-1]), MEMORY_KINDS[-1]]))] = "fact",
        conversation: Annotated[
            str | None, typer.Option(help="its conversation (default: this repository's, or `global` outside one)")
        ] = None,
        tag: Annotated[
            list[str] | None, typer.Option("--tag", help="a tag (repeat for more); 'important' pins it")
        ] = None,
        severity: Annotated[str | None, typer.Option(help=f"gotchas only: {', '.join(SEVERITIES)}")] = None,
        agent: AgentOption = None,
    ) -> None:
        """Keep a memory in the vault (a Markdown file) and the search index."""
        with open_home(ctx) as memoir:
            scope = caller_scope(Path.cwd()) if conversation is None else conversation
            memory = memoir.remember(
                text, kind=kind, conversation_id=scope, tags=tag or (), severity=severity, agent_id=agent
            )
            path = memoir.memory_path(memory)
        out.print(f"remembered {memory.kind.value} {memory.id} in {memory.conversation_id} ({path})")

    @app.command()
    def forget(
        ctx: typer.Context, memory_id: Annotated[str, typer.Argument(help="the memory's id")], agent: AgentOption = None
    ) -> None:
        """Soft-delete a memory: its file moves under deleted/, search stops finding it."""
        with open_home(ctx) as memoir:
            tombstone = memoir.forget(memory_id, agent_id=agent)
        out.print(f"forgot {tombstone.id}: {tombstone.content}")

    @app.command()
    def correct(
        ctx: typer.Context,
        memory_id: Annotated[str, typer.Argument(help="the memory's id")],
        text: Annotated[str, typer.Argument(help="what it should say now")],
        agent: AgentOption = None,
    ) -> None:
        """Replace a memory by its corrected text: a new version, the old one kept as its history."""
        with open_home(ctx) as memoir:
            memory = memoir.correct(memory_id, text, agent_id=agent)
            path = memoir.memory_path(memory)
        out.print(
            f"corrected {memory_id}: now {memory.id} ({path}); `memoir memories --history {memory.id}` shows both"
        )

    @app.command()
    def memories(
        ctx: typer.Context,
        conversation: Annotated[str | None, typer.Option(help="only this conversation")] = None,
        kind: Annotated[str | None, typer.Option(help="only this kind")] = None,
        deleted: Annotated[bool, typer.Option("--deleted", help="include soft-deleted memories")] = False,
        history: Annotated[str | None, typer.Option(help="the versions of this memory instead")] = None,
        agent: AgentOption = None,
        all_agents: AllAgentsOption = False,
        as_json: Annotated[bool, typer.Option("--json", help="one JSON object per memory")] = False,
        newest: Annotated[
            int | None,
            typer.Option(help=f"only the N latest (a table shows the {TABLE_PAGE} latest unless --all)", min=1),
        ] = None,
        every: Annotated[bool, typer.Option("--all", help="every memory, however many (a table's default)")] = False,
    ) -> None:
        """List memories (or one memory's history of versions); a memory whose note broke is flagged."""
        # A table of ten thousand rows takes rich some 16 s and no one reads it: a table shows a page
        # unless asked for all; JSON, read by programs, lists everything unless asked for fewer.
        if every and newest is not None:
            raise typer.BadParameter("--all lists every memory, --newest N the N latest: give one", param_hint="--all")
        page = newest if newest is not None else (None if every or as_json else TABLE_PAGE)
        with open_home(ctx) as memoir:
            if history:
                found = memoir.memory_history(history, agent_id=agent)
            else:
                # one more: are there others? (past the façade's page limit, its own error says so)
                asked = None if page is None else page + 1 if page < MAX_PAGE else page
                found = memoir.memories(
                    conversation, kind, deleted, agent_id=agent, all_agents=all_agents, newest=asked
                )
        more = page is not None and not history and len(found) > page
        found = found[1:] if more else found
        if as_json:
            out.file.write("".join(json.dumps(m.to_dict(), ensure_ascii=False) + "\n" for m in found))
        elif found:
            out.print(render.memories_table(found, conversations=conversation is None and not history))
        elif conversation is not None:
            err.print(f"no memories in conversation {conversation!r}; leave out --conversation to list the whole home")
        else:
            err.print(f"no memories in {memoir.home}" + ("" if deleted else " (add --deleted for forgotten ones)"))
        if more and newest is None:
            err.print(f"the {page} latest shown; --newest N for more, --all for every one")
