"""`memoir import`: the sessions Claude Code, Codex and Gemini CLI keep on disk, stored as their hooks' events."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

from memoir.cli import render
from memoir.cli.lines import wait_for_jobs
from memoir.errors import EXIT_BAD_INPUT
from memoir.facade.engine import Memoir
from memoir.importers import AGENT_NAMES, ImportReport, Problem, find_transcripts, import_transcripts

__all__ = ["register"]

Opener = Callable[[typer.Context], Memoir]


class Source(StrEnum):
    CLAUDE_CODE = "claude-code"
    CODEX = "codex"
    GEMINI = "gemini"


_AGENTS = {Source.CLAUDE_CODE: "claude", Source.CODEX: "codex", Source.GEMINI: "gemini"}


def register(app: typer.Typer, open_home: Opener, out: Console, err: Console) -> None:
    @app.command("import")
    def import_command(
        ctx: typer.Context,
        source: Annotated[Source, typer.Argument(help="whose transcripts", show_default=False)],
        path: Annotated[
            Path | None,
            typer.Argument(help="a transcript, or a folder of them (default: where the agent keeps them)"),
        ] = None,
    ) -> None:
        """Import the sessions Claude Code, Codex or Gemini CLI kept, as the events their hooks would have made.

        Prompts, tool calls with their results, answers and session starts, scoped by project,
        secrets masked. Importing again adds nothing. A line that cannot be read is reported as
        `FILE:LINE: reason` on stderr and skipped, and the exit code is then 2.
        """
        agent = _AGENTS[source]
        files = find_transcripts(agent, path)
        if not files:
            err.print(f"no {AGENT_NAMES[agent]} transcripts in {render.escape(str(path))}")
        with open_home(ctx) as memoir:
            with _progress_bar(err, files) as (progress, report):
                result = import_transcripts(memoir, agent, files, progress=progress, on_problem=report)
            if result.events_added:
                wait_for_jobs(memoir, err, everything=False)  # searchable on return, as after `memoir ingest`
        out.print(summary(result))
        if result.lines_skipped:
            raise typer.Exit(EXIT_BAD_INPUT)


def summary(report: ImportReport) -> str:
    parts = [
        f"imported {_count(report.files, 'file')} of {AGENT_NAMES[report.agent]}: {_count(report.sessions, 'session')}",
        f"{_count(report.events_added, 'event')} added",
        f"{report.events_present} already present",
        f"{_count(report.lines_skipped, 'line')} skipped",
    ]
    if report.events_changed:
        parts.append(f"{report.events_changed} stored before with other content")
    return ", ".join(parts)


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}" + ("" if number == 1 else "s")


@contextmanager
def _progress_bar(
    console: Console, files: list[Path]
) -> Iterator[tuple[Callable[[Path, int], None], Callable[[Problem], None]]]:
    """A bar over the files' bytes, naming the file being read; problems print above it."""
    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TextColumn("{task.fields[position]}"),
        TimeRemainingColumn(),
        console=console,
        disable=not console.is_terminal,
    )
    with bar:
        task = bar.add_task("importing", total=sum(_size(path) for path in files), position="")
        started = 0

        def progress(path: Path, size: int) -> None:
            nonlocal started
            if size:
                bar.advance(task, size)
                return
            started += 1
            name = render.escape(render.snippet(path.name, 40))
            bar.update(task, description=f"importing {name}", position=f"file {started:,}/{len(files):,}")

        def report(problem: Problem) -> None:
            bar.console.print(render.escape(str(problem)), soft_wrap=True, highlight=False)  # one line, to grep

        yield progress, report


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
