"""The `memoir` command: a thin adapter over `memoir.Memoir` (no logic of its own).

Exit codes: 0 success; 1 a runtime failure (store, disk); 2 bad input (an invalid
argument, event or configuration, or lines rejected by `ingest`); 130 interrupted.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from memoir import __version__
from memoir.cli import chat as chat_commands
from memoir.cli import hooks as hooks_commands
from memoir.cli import importing as importing_commands
from memoir.cli import mcp as mcp_command
from memoir.cli import memories as memory_commands
from memoir.cli import migrate as migrate_command
from memoir.cli import overview as overview_commands
from memoir.cli import render
from memoir.cli import serve as serve_command
from memoir.cli import think as think_commands
from memoir.cli import timeline as timeline_commands
from memoir.cli.lines import Batches, input_lines, wait_for_jobs
from memoir.cli.options import AgentOption, AllAgentsOption
from memoir.config import load_settings
from memoir.errors import EXIT_BAD_INPUT, EXIT_FAILURE, MemoirError, RuntimeFailure, answer_for
from memoir.facade.engine import Memoir
from memoir.model.wording import counted


class _ExitCodes(TyperGroup):
    """Turns every error into one line on stderr and an exit code, however the app is invoked.

    Here rather than around `app()` so that the entry point and an in-process run (typer's
    `CliRunner`) exit alike; typer's own signals (usage errors, Exit, Abort) pass through.
    """

    def invoke(self, ctx: Any) -> Any:  # Any: typer types it with its private click's Context
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort, typer.TyperException, BrokenPipeError):
            raise  # typer's own handling: usage errors exit 2, a closed pipe exits quietly
        except MemoirError as exc:
            _fail(str(exc), answer_for(exc).exit)  # the one table of what an error becomes at a door
        except OSError as exc:
            _fail(str(exc), EXIT_FAILURE)
        except KeyboardInterrupt:
            err.print("interrupted")
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except Exception as exc:
            if os.environ.get("MEMOIR_DEBUG"):
                raise
            err.print(f"[red]internal error:[/red] {render.escape(repr(exc))} (set MEMOIR_DEBUG=1 for a traceback)")
            raise typer.Exit(EXIT_FAILURE) from None


app = typer.Typer(
    name="memoir",
    help="Local-first long-term memory for LLM agents.",
    cls=_ExitCodes,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
config_app = typer.Typer(help="Inspect configuration.", no_args_is_help=True)
app.add_typer(config_app, name="config")

out = render.console()
err = render.console(stderr=True)

EXIT_INTERRUPTED = 130


class _Options:
    def __init__(self, home: Path | None, config: Path | None) -> None:
        self.home = home
        self.config = config


def _fail(message: str, code: int) -> NoReturn:
    err.print(f"[red]error:[/red] {render.escape(message)}")
    raise typer.Exit(code)


def _open(ctx: typer.Context, *, create: bool = False, worker: bool = False) -> Memoir:
    options: _Options = ctx.obj
    return Memoir.open(options.home, config_file=options.config, create=create, worker_enabled=worker)


def _version(value: bool) -> None:
    if value:
        out.print(f"memoir {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    ctx: typer.Context,
    home: Annotated[
        Path | None, typer.Option("--home", help="memoir home folder (default: $MEMOIR_HOME or ~/.memoir)")
    ] = None,
    config: Annotated[Path | None, typer.Option("--config", help="a TOML config file")] = None,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="print the version and exit")
    ] = False,
) -> None:
    ctx.obj = _Options(home, config)
    settings = load_settings({"home": home}, config_file=config)
    logging.basicConfig(level=settings.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per request drowns what a command prints


@app.command()
def init(ctx: typer.Context) -> None:
    """Create a memoir home (folder and database); harmless when it exists."""
    with _open(ctx, create=True) as memoir:
        out.print(f"memoir home ready at {memoir.home} (database {memoir.database})")


@app.command()
def ingest(
    ctx: typer.Context,
    source: Annotated[str, typer.Argument(help="a JSON Lines file of events, or - for standard input")],
    batch_size: Annotated[int, typer.Option(min=1, max=10_000, help="events per transaction")] = 1000,
    wait: Annotated[
        bool | None,
        typer.Option(
            "--wait/--no-wait",
            help="--wait: also wait for the model's work (fact extraction), with a progress bar;"
            " --no-wait: return once stored. Default: return once searchable",
        ),
    ] = None,
) -> None:
    """Append events from JSON Lines (one event object per line).

    Every line stands alone: good lines are kept whatever is wrong with others; each
    rejected line is reported as `line N: reason` on stderr, and the exit code is then 2.
    By default it returns once the events are stored and searchable; work that waits on a
    model (fact extraction) goes on in its lane (`memoir worker`), unless `--wait`.
    """
    fail = lambda message: _fail(message, EXIT_BAD_INPUT)  # noqa: E731
    with _open(ctx) as memoir, input_lines(source, err, fail) as (numbered, report):
        batches = Batches(memoir, report, batch_size)
        try:
            for number, raw in numbered:
                batches.add(number, raw)
            batches.store()
        except RuntimeFailure:
            # Say where it stopped: lines without an event_id would be stored twice by a full rerun.
            err.print(
                f"stopped: {counted(batches.accepted, 'event')} stored, lines 1-{batches.done_through} done;"
                f" rerun from line {batches.done_through + 1} once the cause below is fixed"
            )
            raise
        if wait is not False:
            try:
                wait_for_jobs(memoir, err, everything=bool(wait))
            except RuntimeFailure as exc:  # the events are stored: only their background work waits
                err.print(f"warning: stored; background work waits until this is fixed: {render.escape(str(exc))}")
    out.print(f"ingested {batches.accepted}, rejected {batches.rejected}")
    if batches.rejected:
        raise typer.Exit(EXIT_BAD_INPUT)


@app.command()
def events(
    ctx: typer.Context,
    since: Annotated[str | None, typer.Option(help="from this time (ISO 8601 or epoch ms), inclusive")] = None,
    until: Annotated[str | None, typer.Option(help="up to this time, exclusive")] = None,
    session: Annotated[str | None, typer.Option(help="only this session")] = None,
    conversation: Annotated[str | None, typer.Option(help="only this conversation")] = None,
    agent: AgentOption = None,
    all_agents: AllAgentsOption = False,
    limit: Annotated[int, typer.Option(help="events per page")] = 100,
    cursor: Annotated[str | None, typer.Option(help="continue after a previous page")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON Lines, the format `ingest` reads")] = False,
) -> None:
    """List events in time order (in unified mode, one agent's unless --all-agents)."""
    with _open(ctx) as memoir:
        page = memoir.events(
            since=since,
            until=until,
            session_id=session,
            conversation_id=conversation,
            agent_id=agent,
            all_agents=all_agents,
            limit=limit,
            cursor=cursor,
        )
    if as_json:
        for event in page:
            out.print(json.dumps(event.to_dict(), ensure_ascii=False), markup=False, soft_wrap=True)
    elif page:
        out.print(render.events_table(page))
    elif cursor is not None:
        err.print("no more events after that cursor")
    else:
        filters = {"conversation": conversation, "session": session, "since": since, "until": until, "agent": agent}
        err.print(_no_events(memoir.home, {name: value for name, value in filters.items() if value is not None}))
    if page.next_cursor:
        err.print(f"more: add --cursor {page.next_cursor}")


def _no_events(home: Path, filters: dict[str, str]) -> str:
    """An empty list says where it looked and how to look wider."""
    if not filters:
        return f"no events in {home}: `memoir ingest` adds some"
    named = ", ".join(f"{name} {value!r}" for name, value in filters.items())
    return f"no events with {named}; leave out {', '.join('--' + name for name in filters)} to list the whole home"


@app.command()
def search(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(help="what to look for, in plain words")],
    conversation: Annotated[
        str | None, typer.Option(help="only this conversation (and `global`); default: the whole home")
    ] = None,
    k: Annotated[int | None, typer.Option("--k", help="how many hits (default: search.top_k)")] = None,
    kinds: Annotated[str | None, typer.Option(help="comma-separated kinds, e.g. turn,fact")] = None,
    agent: AgentOption = None,
    as_of: Annotated[
        str | None, typer.Option(help="what was known just before this time (ISO 8601 or epoch ms)")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object per hit")] = False,
) -> None:
    """Search memories and turns: score, kind, when, snippet and provenance."""
    with _open(ctx) as memoir:
        chosen = kinds.split(",") if kinds else None
        hits = memoir.search(query, k=k, conversation_id=conversation, kinds=chosen, agent_id=agent, as_of=as_of)
    if as_json:
        for hit in hits:
            out.print(json.dumps(hit.to_dict(), ensure_ascii=False, default=str), markup=False, soft_wrap=True)
    elif hits:
        out.print(render.hits_table(hits, conversations=conversation is None))
    elif conversation is None:
        err.print(f"no hits anywhere in {memoir.home}: nothing stored matches {query!r}")
    else:
        err.print(f"no hits in conversation {conversation!r} or global; leave out --conversation to search everything")


@app.command()
def reindex(ctx: typer.Context) -> None:
    """Rebuild the search index from the event log (embeddings are reused when text is unchanged)."""
    with _open(ctx) as memoir, render.count_progress(err, "reindexing events") as advance:
        items = memoir.reindex(progress=advance)
    out.print(f"reindexed: {counted(items, 'item')} searchable")


@app.command()
def doctor(ctx: typer.Context) -> None:
    """Check that the event log, the vault and the search index agree, and that the models work."""
    with _open(ctx) as memoir:
        findings = memoir.doctor()
    for finding in findings:
        colour = {"ok": "green", "warning": "yellow", "error": "red"}[finding.level]
        out.print(f"[{colour}]{finding.level:<7}[/{colour}] {finding.area:<7} {render.escape(finding.message)}")
    if any(f.level == "error" for f in findings):
        raise typer.Exit(EXIT_FAILURE)


@app.command()
def show(
    ctx: typer.Context, event_id: Annotated[str, typer.Argument(help="the event's id")], agent: AgentOption = None
) -> None:
    """Print one event as JSON."""
    with _open(ctx) as memoir:
        event = memoir.get_event(event_id, agent_id=agent)
    out.print(json.dumps(event.to_dict(), ensure_ascii=False, indent=2), markup=False)


@app.command()
def status(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable")] = False,
) -> None:
    """Counts, outbox backlog, database path and size."""
    with _open(ctx) as memoir:
        current = memoir.status()
    if as_json:
        out.print(json.dumps(current.to_dict(), indent=2, default=str), markup=False)
    else:
        out.print(render.status_table(current))


@config_app.command("show")
def config_show(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable")] = False,
) -> None:
    """Every effective setting and where its value came from."""
    options: _Options = ctx.obj
    settings = load_settings({"home": options.home}, config_file=options.config)
    if as_json:
        rows = render.settings_rows(settings)
        out.print(json.dumps({k: {"value": v, "source": s} for k, v, s in rows}, indent=2), markup=False)
    else:
        out.print(render.settings_table(settings))


@app.command()
def worker(
    ctx: typer.Context,
    once: Annotated[bool, typer.Option("--once", help="drain the outbox, then exit")] = False,
    retry_failed: Annotated[bool, typer.Option("--retry-failed", help="first re-queue entries set aside")] = False,
    lane: Annotated[
        list[str] | None, typer.Option("--lane", help="run only this lane: fast or llm (repeat for more)")
    ] = None,
) -> None:
    """Run the outbox runners in the foreground, a thread per lane, until interrupted (Ctrl-C)."""
    with _open(ctx) as memoir:
        if retry_failed:
            err.print(f"re-queued {memoir.retry_failed()} failed entries")
        stop = threading.Event()
        with _stopped_by_signals(stop) if not once else contextlib.nullcontext():
            err.print(f"worker running on {memoir.home}")  # from here on, a signal stops it cleanly
            total = memoir.work(lane or None, once=once, report=lambda line: err.print(render.escape(line)), stop=stop)
        if not once:
            err.print(f"worker stopped: {counted(total, 'event')} processed")
    if once:
        out.print(f"outbox drained: {counted(total, 'entry')} processed")


@contextmanager
def _stopped_by_signals(stop: threading.Event) -> Iterator[None]:
    """SIGINT and SIGTERM set `stop`: the runners finish the batch in hand; a second one stops at once.

    Taken explicitly, as `memoir serve` does: Python raises KeyboardInterrupt only where SIGINT
    was not ignored when the process started, and a script's background job (`memoir worker &`)
    or a test runner's child starts with it ignored; process managers (systemd, Docker) send
    SIGTERM. Setting an event, rather than raising wherever the main thread is, never leaves
    a runner thread half started.
    """

    def on_signal(signum: int, frame: object) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


memory_commands.register(app, _open, out, err)
overview_commands.register(app, _open, out, err)
timeline_commands.register(app, _open, out, err)
serve_command.register(app, _open, err)
hooks_commands.register(app, _open, out, err)
mcp_command.register(app, _open, out, err)
think_commands.register(app, _open, out, err)
importing_commands.register(app, _open, out, err)
chat_commands.register(app, _open, out, err)
migrate_command.register(app, out, err)


def main() -> None:
    """Entry point; the app itself maps errors to messages and exit codes (`_ExitCodes`)."""
    app()
