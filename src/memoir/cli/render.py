"""How the CLI shows things: tables, progress, escaping. No memoir logic here."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape as _escape
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from memoir.config import OPTIONS, Settings
from memoir.facade.overview import ConversationInfo, DayCount, LedgerDay
from memoir.facade.views import Status
from memoir.model import Event, Memory
from memoir.model.event import format_timestamp
from memoir.model.wording import counted
from memoir.retrieval import Hit

__all__ = [
    "byte_progress",
    "console",
    "count_progress",
    "escape",
    "events_table",
    "hits_table",
    "memories_table",
    "settings_rows",
    "settings_table",
    "status_table",
]


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # all but tab and newline


def escape(text: str) -> str:
    """Text to print as is: rich markup escaped, lone surrogates (what a non-UTF-8 argument or
    file name becomes in Python) written as `\\udcff`, since no terminal encoding can carry them,
    and control characters (a model's or a file's `ESC ]2;...`) shown as `\\x1b`, never obeyed."""
    if not text.isascii():
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return _escape(_CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text))


def snippet(text: str, width: int = 80) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def human_bytes(size: int) -> str:
    value = float(size)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"


def _table(*columns: str) -> Table:
    """A borderless table; the `text` column folds, the others cut with an ellipsis."""
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for column in columns:
        table.add_column(column, overflow="fold" if column == "text" else "ellipsis")
    return table


def events_table(events: Iterable[Event]) -> Table:
    table = _table("time (UTC)", "type", "session", "conversation", "text", "id")
    for event in events:
        table.add_row(
            format_timestamp(event.timestamp)[:19].replace("T", " "),
            event.event_type.value,
            escape(event.session_id),
            escape(event.conversation_id),
            escape(snippet(event.text)),
            event.event_id,
        )
    return table


def hits_table(hits: Iterable[Hit], *, conversations: bool = False) -> Table:
    """The hits; `conversations` adds whose each is (a search of the whole home)."""
    table = _table("score", "kind", *(["conversation"] if conversations else []), "when (UTC)", "text", "from")
    for hit in hits:
        provenance = hit.memory_id or ", ".join(hit.event_ids)
        if hit.metadata.get("dia_id"):
            provenance += f" ({hit.metadata['dia_id']})"
        table.add_row(
            f"{hit.score:.3f}",
            hit.kind if hit.kind != "turn" else f"turn/{hit.role}",
            *([escape(hit.conversation_id or "")] if conversations else []),
            hit.created_at.strftime("%Y-%m-%d %H:%M"),
            escape(snippet(hit.text, 100)),
            escape(provenance),
        )
    return table


def memories_table(memories: Iterable[Memory], *, conversations: bool = False) -> Table:
    """The memories; `conversations` adds whose each is (a listing of the whole home)."""
    memories = list(memories)
    agents = any(m.agent_id for m in memories)  # unified mode: say whose each memory is
    where = ["conversation"] if conversations else []
    table = _table("id", *(["agent"] if agents else []), "kind", *where, "created (UTC)", "text", "tags", "state")
    for memory in memories:
        state = (
            "live" if not memory.deleted else (f"replaced by {memory.replaced_by}" if memory.replaced_by else "deleted")
        )
        if memory.unreadable:
            state += ", note unreadable: " + escape(snippet(memory.unreadable, 80))
        kind = memory.kind.value + (f", {memory.severity.value}" if memory.severity else "")
        table.add_row(
            memory.id,
            *([escape(memory.agent_id or "(shared)")] if agents else []),
            kind,
            *([escape(memory.conversation_id)] if conversations else []),
            memory.created_at.strftime("%Y-%m-%d %H:%M"),
            escape(snippet(memory.content, 100)),
            escape(" ".join(f"#{t}" for t in memory.tags)),
            state,
        )
    return table


def status_table(status: Status) -> str:
    """`name  value` lines: whole at any width (a table would wrap or cut values in a pipe)."""
    pending = ", ".join(f"{k} {v}" for k, v in sorted(status.outbox_pending.items())) or "empty"
    failed = ", ".join(f"{k} {v}" for k, v in sorted(status.outbox_failed.items())) or "none"
    rows = [
        ("home", status.home),
        ("database", f"{status.database} ({status.backend}, {human_bytes(status.size_bytes)})"),
        ("events", f"{status.events:,}"),
        ("sessions", f"{status.sessions:,}"),
        ("conversations", f"{status.conversations:,}"),
        ("outbox backlog", f"{status.backlog:,} ({pending})"),
        ("outbox failed", failed),
        ("search index", counted(status.indexed_items, "item")),
        *((f"worker ({lane} lane)", state) for lane, state in status.workers.items()),
        ("model", _model_line(status.model)),
        ("multi-agent mode", status.multi_agent_mode),
        ("schema", ", ".join(status.schema)),
    ]
    for job, used in status.llm_usage.items():
        ended = f"{used.get('ok', 0):,} ok, {used.get('rejected', 0):,} answers not usable"
        down = used.get("failed", 0) + used.get("timed_out", 0)
        rows.append(
            (
                f"LLM {job}",
                f"{used['calls_last_day']:,} calls, {used['tokens_last_day']:,} tokens in 24 h;"
                f" {used['calls']:,} calls, {used['tokens']:,} tokens in all ({ended}, {down:,} unanswered)",
            )
        )
    timeline = ", ".join(f"{k} {v:,}" for k, v in status.timeline.items())
    rows.append(("timeline", timeline or "empty"))
    for entry in status.jobs:
        state = "paused" if entry["paused"] else entry["lane"] + " lane"
        line = f"{state}; backlog {entry['backlog']:,}, {entry['runs']:,} done, {entry['failures']} failed"
        rows.append((f"job {entry['name']}", line))
    width = max(len(name) for name, _ in rows) + 2
    return "\n".join(f"[bold]{escape(name)}[/bold]{' ' * (width - len(name))}{escape(value)}" for name, value in rows)


def jobs_table(jobs: Iterable[dict[str, Any]]) -> Table:
    table = _table("job", "lane", "kind", "state", "backlog", "done", "failures", "last run")
    for job in jobs:
        last = job["last_run_ms"]
        when = datetime.fromtimestamp(last / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S") if last else "never"
        state = "paused" if job["paused"] else "active"
        row = (job["name"], job["lane"], job["kind"], state, f"{job['backlog']:,}", f"{job['runs']:,}")
        table.add_row(*(escape(v) for v in row), str(job["failures"]), when)
    return table


def conversations_table(conversations: Iterable[ConversationInfo]) -> Table:
    table = _table("conversation", "sessions", "events", "first (UTC)", "last (UTC)")
    for c in conversations:
        first, last = (moment.strftime("%Y-%m-%d %H:%M") for moment in (c.first_at, c.last_at))
        table.add_row(escape(c.conversation_id), f"{c.sessions:,}", f"{c.events:,}", first, last)
    return table


def activity_table(days: Iterable[DayCount]) -> Table:
    table = _table("day (UTC)", "events")
    for day in days:
        table.add_row(day.day.isoformat(), f"{day.events:,}")
    return table


def ledger_table(days: Iterable[LedgerDay]) -> Table:
    table = _table("day (UTC)", "job", "calls", "prompt tokens", "completion tokens", "seconds")
    for d in days:
        row = (d.day.isoformat(), escape(d.job), f"{d.calls:,}", f"{d.prompt_tokens:,}", f"{d.completion_tokens:,}")
        table.add_row(*row, f"{d.seconds:,.1f}")
    return table


def _model_line(model: dict[str, Any] | None) -> str:
    if model is None:
        return "none (facts are extracted by rules)"
    line = f"{model['model']} at {model['base_url']}; circuit breaker {model['breaker']}"
    if model["breaker"] != "closed":
        line += (
            f" since {model['since']} ({model['failures']} failures; last: {snippet(model['last_error'] or '', 80)})"
        )
    return line


def settings_rows(settings: Settings) -> list[tuple[str, Any, str]]:
    rows = []
    for option in OPTIONS:
        value = settings.value(option.key)
        if option.key == "db_path" and value is None:
            value = settings.database
        elif option.key.endswith("api_key") and value is not None:
            value = "(set, not shown)"  # a secret: `config show` output gets pasted into bug reports
        rows.append((option.key, json.loads(json.dumps(value, default=str)), settings.source(option.key)))
    return rows


def settings_table(settings: Settings) -> Table:
    table = _table("setting", "value", "from", "variable")
    variables = {o.key: o.env for o in OPTIONS}
    for key, value, source in settings_rows(settings):
        shown = "(not set)" if value is None else str(value)
        table.add_row(key, escape(shown), escape(source), variables[key])
    return table


@contextmanager
def count_progress(console: Console, description: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar fed (done, total) counts."""
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:,}/{task.total:,}"),
        TimeRemainingColumn(),
        console=console,
        disable=not console.is_terminal,
    )
    with progress:
        task = progress.add_task(description, total=None)

        def update(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        yield update


@contextmanager
def byte_progress(console: Console, path: Path) -> Iterator[tuple[Callable[[int], None], Callable[[str], None]]]:
    """A progress bar over a file's bytes; yields (advance, report) where report prints above the bar."""
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=not console.is_terminal,
    )
    with progress:
        task = progress.add_task(f"ingesting {path.name}", total=path.stat().st_size)

        def advance(size: int) -> None:
            progress.advance(task, size)

        def report(message: str) -> None:
            progress.console.print(escape(message))

        yield advance, report


PIPE_WIDTH = 100_000  # a table read by a program or a file: as wide as its longest value, never cut


def console(stderr: bool = False) -> Console:
    """soft_wrap: long lines stay whole (`line N: reason` must be one line to grep). Into a pipe or
    a file (no terminal, no COLUMNS) rich would lay tables out 80 columns wide and cut their
    values with an ellipsis: there, a row is as wide as what it holds."""
    stream = sys.stderr if stderr else sys.stdout
    piped = not stream.isatty() and "COLUMNS" not in os.environ
    return Console(stderr=stderr, highlight=False, soft_wrap=True, width=PIPE_WIDTH if piped else None)
