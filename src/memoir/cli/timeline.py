"""`memoir timeline`, `memoir expand` and `memoir scheduler`: the timeline and the jobs, from the shell."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated

import typer
from rich.console import Console
from rich.tree import Tree

from memoir.cli import render
from memoir.errors import InvalidQuery
from memoir.facade.engine import Memoir
from memoir.model.timeline import GripContext, TocLevel, TocNode
from memoir.model.wording import counted

__all__ = ["register"]

Opener = Callable[[typer.Context], Memoir]


def register(app: typer.Typer, open_home: Opener, out: Console, err: Console) -> None:
    scheduler_app = typer.Typer(help="Background jobs: status, pause, resume.", no_args_is_help=True)
    app.add_typer(scheduler_app, name="scheduler")

    @app.command()
    def timeline(
        ctx: typer.Context,
        node_id: Annotated[str | None, typer.Argument(help="a node to start from, e.g. toc:day:2026-03-09")] = None,
        conversation: Annotated[str | None, typer.Option(help="only this conversation")] = None,
        agent: Annotated[str | None, typer.Option("--agent", help="act as this agent (unified mode)")] = None,
        rebuild: Annotated[
            bool, typer.Option("--rebuild", help="close open segments and roll up every period now")
        ] = False,
        version: Annotated[int | None, typer.Option(help="an older version of NODE_ID")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="the nodes as JSON, one per line")] = False,
    ) -> None:
        """Draw the table of contents: year, month, week, day, segment, with bullets and their grips."""
        if version is not None and node_id is None:
            raise InvalidQuery("version", "--version needs a NODE_ID: the version of which node?")
        with open_home(ctx) as memoir:
            with render.count_progress(err, "summarizing segments") as advance:
                memoir.update_timeline(rebuild=rebuild, progress=advance)
            if node_id is None:
                roots = memoir.toc_root(conversation, agent_id=agent)
            else:
                roots = [memoir.toc_node(node_id, version, conversation_id=conversation, agent_id=agent)]
            if as_json:
                for node in _walk(memoir, roots, agent):
                    out.print(json.dumps(node.to_dict(), ensure_ascii=False), markup=False, soft_wrap=True)
                return
            if not roots:
                err.print(_why_empty(memoir))
            for root in roots:
                out.print(_tree(memoir, root, agent), soft_wrap=False)

    @app.command()
    def expand(
        ctx: typer.Context,
        grip_id: Annotated[str, typer.Argument(help="a grip id, as `memoir timeline` shows under a bullet")],
        before: Annotated[int, typer.Option(help="events of context before")] = 3,
        after: Annotated[int, typer.Option(help="events of context after")] = 3,
        agent: Annotated[str | None, typer.Option("--agent", help="act as this agent (unified mode)")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="machine-readable")] = False,
    ) -> None:
        """Print the evidence of a grip: the events it stands on, with their context."""
        with open_home(ctx) as memoir:
            context = memoir.expand_grip(grip_id, before, after, agent_id=agent)
        if as_json:
            data = {
                "grip": context.grip.to_dict(),
                **{part: [e.to_dict() for e in getattr(context, part)] for part in _PARTS},
            }
            out.print(json.dumps(data, ensure_ascii=False, indent=2), markup=False)
        else:
            _print_context(out, context)

    @scheduler_app.command("status")
    def scheduler_status(
        ctx: typer.Context, as_json: Annotated[bool, typer.Option("--json", help="machine-readable")] = False
    ) -> None:
        """Every job: lane, paused or not, backlog, last run, work done, failures."""
        with open_home(ctx) as memoir:
            jobs = memoir.scheduler_status()
        if as_json:
            out.print(json.dumps([job.to_dict() for job in jobs], indent=2), markup=False)
        else:
            out.print(render.jobs_table([job.to_dict() for job in jobs]))

    @scheduler_app.command("pause")
    def scheduler_pause(ctx: typer.Context, job: Annotated[str, typer.Argument(help="the job's name")]) -> None:
        """Pause a job for every process of this home, until `memoir scheduler resume`."""
        with open_home(ctx) as memoir:
            memoir.pause_job(job)
        out.print(f"{render.escape(job)} paused: its work waits, nothing is lost")

    @scheduler_app.command("resume")
    def scheduler_resume(ctx: typer.Context, job: Annotated[str, typer.Argument(help="the job's name")]) -> None:
        """Resume a paused job."""
        with open_home(ctx) as memoir:
            memoir.resume_job(job)
        out.print(f"{render.escape(job)} resumed")


_PARTS = ("events_before", "excerpt_events", "events_after")


def _children(memoir: Memoir, node: TocNode, agent: str | None) -> list[TocNode]:
    if node.level is TocLevel.SEGMENT:
        return []
    found: list[TocNode] = []
    cursor = None
    while True:
        page = memoir.browse_toc(
            node.node_id, limit=200, cursor=cursor, conversation_id=node.conversation_id, agent_id=agent
        )
        found.extend(page.nodes)
        if not page.has_more:
            return found
        cursor = page.next_cursor


def _walk(memoir: Memoir, roots: list[TocNode], agent: str | None) -> list[TocNode]:
    nodes: list[TocNode] = []
    for root in roots:
        nodes.append(root)
        nodes.extend(_walk(memoir, _children(memoir, root, agent), agent))
    return nodes


def _label(node: TocNode) -> str:
    label = f"[bold]{render.escape(node.title)}[/bold] [dim]{render.escape(node.node_id)}"
    if node.level is TocLevel.YEAR:
        label += f" · {render.escape(node.conversation_id)}"
    if node.source == "llm":
        label += " · by the model"
    if node.note:
        label += f"\n[yellow]{render.escape(node.note)}[/yellow]"
    return label + "[/dim]"


def _tree(memoir: Memoir, node: TocNode, agent: str | None, into: Tree | None = None) -> Tree:
    branch = Tree(_label(node)) if into is None else into.add(_label(node))
    if node.level is TocLevel.SEGMENT:  # a rollup's bullets are its children's: shown there, once (--json has them)
        for bullet in node.bullets:
            grips = " ".join(bullet.grip_ids)
            branch.add(f"{render.escape(bullet.text)} [dim]{render.escape(grips)}[/dim]")
    for child in _children(memoir, node, agent):
        _tree(memoir, child, agent, into=branch)
    return branch


def _print_context(out: Console, context: GripContext) -> None:
    grip = context.grip
    out.print(f"[bold]{render.escape(grip.excerpt)}[/bold]")
    out.print(
        f"[dim]{render.escape(grip.grip_id)} · {grip.source} · node {render.escape(grip.toc_node_id or '-')}[/dim]"
    )
    for part, style in zip(_PARTS, ("dim", "bold", "dim"), strict=True):
        for event in getattr(context, part):
            marker = ">" if part == "excerpt_events" else " "
            when = event.timestamp.strftime("%Y-%m-%d %H:%M")
            said = render.escape(f"[{event.role.value}] {event.text}")
            out.print(f"[{style}]{marker} {when} {event.event_id} {said}[/{style}]", soft_wrap=True)


def _why_empty(memoir: Memoir) -> str:
    """Why there is no timeline, and what builds one: events may be waiting for the segment job."""
    waiting = memoir.status().outbox_pending.get("segment", 0)
    if waiting:
        return (
            f"no timeline yet: it is being built, {counted(waiting, 'event')} waiting for the segment job; "
            "`memoir worker --once` runs it now (a running `memoir serve` does it in the background)"
        )
    if memoir.events(limit=1):
        return (
            "no timeline yet: its conversations are still open (a segment closes after 30 quiet minutes); "
            "`memoir timeline --rebuild` closes them now"
        )
    return "no timeline yet: ingest a conversation (`memoir ingest`), then run `memoir timeline` again"
