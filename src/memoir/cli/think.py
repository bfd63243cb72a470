"""`memoir think`: think documents of the project, other AIs asked for their thought, auto-selection.

Documents belong to the project the command runs in (`model.project.project_scope` of the
working directory) and live in the vault (`think.documents`). Hints and the
auto-selection breaker are kept per agent session (`--session`, or `MEMOIR_SESSION_ID`).
A failed call to another AI changes nothing: the document is written only once its answer
is in.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from memoir.cli import render
from memoir.errors import InvalidInput
from memoir.facade.engine import Memoir
from memoir.model.project import project_root, project_scope
from memoir.model.wording import counted
from memoir.session_state import HintState, session_breaker
from memoir.think.documents import ThinkBook, ThinkDocument, check_open, checked_text, prompt_for
from memoir.think.providers import PROVIDERS, ProviderAnswer, attribution, checked_value, invoke, provider_config
from memoir.think.selection import AutoSelection, auto_select, discover, selection_llm

__all__ = ["register"]

Opener = Callable[[typer.Context], Memoir]

PROVIDER_TIMEOUT = 120.0  # seconds another AI's tool may take (module-level: tests shrink it)
SELECTION_TIMEOUT = 5.0  # seconds the LLM may take to pick agent, style and model
HINT_CALL = (
    "call-ai-assistance",
    "hint: add --call claude|codex|gemini to ask another AI for its thought"
    " (--auto lets memoir pick claude's agent, style and model)",
)
HINT_PROMOTE = (
    "promote-conclusion",
    "hint: --promote decision|learning|gotcha keeps a conclusion as a memory of the project",
)

SessionOption = Annotated[
    str,
    typer.Option(
        "--session", envvar="MEMOIR_SESSION_ID", help="the agent session: hints and the auto-selection breaker"
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="machine-readable")]


def register(app: typer.Typer, open_home: Opener, out: Console, err: Console) -> None:
    think_app = typer.Typer(
        help="Think documents: reason a topic through, ask another AI, conclude.", no_args_is_help=True
    )
    app.add_typer(think_app, name="think")

    def hint(memoir: Memoir, session: str, kind: tuple[str, str]) -> None:
        HintState(memoir.home, session).show(kind[0], kind[1], lambda text: err.print(render.escape(text)))

    @think_app.command("create")
    def create(
        ctx: typer.Context,
        topic: Annotated[str, typer.Argument(help="what to think about")],
        as_json: JsonOption = False,
    ) -> None:
        """Start a think document in this project (a Markdown file in the vault)."""
        with open_home(ctx) as memoir:
            document = _book(memoir).create(topic)
        _report(out, document, as_json, f"created think document {document.id} ({document.path})")

    @think_app.command("add")
    def add(
        ctx: typer.Context,
        words: Annotated[list[str], typer.Argument(help="[ID] TEXT: the document (default: the latest open one)")],
        call: Annotated[str | None, typer.Option("--call", help="ask claude, codex or gemini for its thought")] = None,
        model: Annotated[str | None, typer.Option("--model", help="the model that AI should use")] = None,
        auto: Annotated[bool, typer.Option("--auto", help="let memoir pick claude's agent, style and model")] = False,
        session: SessionOption = "default",
    ) -> None:
        """Add a thought; with --call or --auto, another AI's answer to it as well."""
        doc_id, text = _id_and_text(words)
        text = checked_text("text", text)
        if model is not None and call is None and not auto:
            raise InvalidInput("model", "is for the AI asked: give it with --call or --auto")
        with open_home(ctx) as memoir:
            book = _book(memoir)
            document = book.get(doc_id) if doc_id else book.latest_open()
            check_open(document)  # before asking anyone: their answer would have nowhere to go
            thoughts = [("user", text)]
            answer = None
            if call is not None or auto:
                answer, who = _ask(memoir, err, document, text, call, model, auto, session)
                thoughts.append((who, answer.text))
            else:
                hint(memoir, session, HINT_CALL)
            updated = book.add(document.id, thoughts)
        if answer is not None:
            out.print(answer.text, markup=False)
        out.print(f"added {counted(len(thoughts), 'thought')} to {updated.id} ({render.escape(str(updated.path))})")

    @think_app.command("list")
    def list_(ctx: typer.Context, as_json: JsonOption = False) -> None:
        """The project's think documents, oldest first: id, status, created, topic."""
        with open_home(ctx) as memoir:
            book = _book(memoir)
            documents, problems = book.scan()
        for problem in problems:
            err.print(f"warning: not read as a think document, left alone: {render.escape(str(problem))}")
        for document in documents:
            if as_json:
                data = {k: v for k, v in document.to_dict().items() if k != "body"}
                out.print(json.dumps(data, ensure_ascii=False), markup=False, soft_wrap=True)
            else:
                when = document.created_at.strftime("%Y-%m-%d %H:%M")
                out.print(f"{document.id}  {document.status:<9}  {when}  {document.topic}", markup=False)
        if not documents and not as_json:
            err.print(f"no think documents in project {book.scope}: start one with `memoir think create TOPIC`")

    @think_app.command("show")
    def show(
        ctx: typer.Context,
        doc_id: Annotated[str, typer.Argument(metavar="ID", help="the document's id (or its first characters)")],
        as_json: JsonOption = False,
    ) -> None:
        """Print a think document: its thoughts and conclusion."""
        with open_home(ctx) as memoir:
            document = _book(memoir).get(doc_id)
        if as_json:
            out.print(json.dumps(document.to_dict(), ensure_ascii=False, indent=2), markup=False)
            return
        out.print(f"{document.id} · {document.status} · {document.path}", markup=False)
        out.print(document.body.strip(), markup=False)

    @think_app.command("conclude")
    def conclude(
        ctx: typer.Context,
        doc_id: Annotated[str, typer.Argument(metavar="ID", help="the document's id (or its first characters)")],
        text: Annotated[str, typer.Argument(help="the conclusion")],
        promote: Annotated[
            str | None, typer.Option("--promote", help="keep it as a memory: decision, learning or gotcha")
        ] = None,
        session: SessionOption = "default",
    ) -> None:
        """Close a document with its conclusion; --promote keeps it as a memory of the project."""
        with open_home(ctx) as memoir:
            updated, memory = memoir.conclude_thinking(doc_id, text, scope=project_scope(Path.cwd()), promote=promote)
            if memory is None:
                hint(memoir, session, HINT_PROMOTE)
        promoted = (memory.kind.value, memory.id) if memory is not None else None
        done = f"concluded {updated.id} ({render.escape(str(updated.path))})"
        out.print(done + (f"; kept as {promoted[0]} {promoted[1]}" if promoted else ""))


def _book(memoir: Memoir) -> ThinkBook:
    return memoir.think_book(project_scope(Path.cwd()))  # the project the command runs in


def _report(out: Console, document: ThinkDocument, as_json: bool, line: str) -> None:
    if as_json:
        out.print(json.dumps(document.to_dict(), ensure_ascii=False), markup=False, soft_wrap=True)
    else:
        out.print(line, markup=False)


def _id_and_text(words: list[str]) -> tuple[str | None, str]:
    if len(words) == 1:
        return None, words[0]
    if len(words) == 2:
        return words[0], words[1]
    raise InvalidInput("text", f"got {len(words)} arguments; give [ID] TEXT, with the text quoted as one")


def _ask(
    memoir: Memoir,
    err: Console,
    document: ThinkDocument,
    text: str,
    call: str | None,
    model: str | None,
    auto: bool,
    session: str,
) -> tuple[ProviderAnswer, str]:
    """Another AI's answer to `text`, and the attribution line of that thought."""
    provider = provider_config(call or "claude").name  # exactly the one asked for, or an error
    model = checked_value("model", model)
    selection = AutoSelection()
    if auto:
        if provider != "claude":
            others = "|".join(p for p in PROVIDERS if p != "claude")
            raise InvalidInput("auto", f"it picks claude's agent, style and model: not for --call {others}")
        selection = _select(memoir, document, text, session)
        why = f" (llm: {selection.why_not_llm})" if selection.why_not_llm else ""
        line = f"Auto-selected {selection.label()}: {selection.flags()}. {selection.reasoning}{why}"
        err.print(render.escape(line))
    answer = invoke(
        provider,
        prompt_for(document, text),
        model=model or selection.model,
        agent=selection.agent,
        style=selection.style,
        timeout=PROVIDER_TIMEOUT,
        cwd=project_root(Path.cwd()),
    )
    who = attribution(provider, answer.model, session)
    chosen = [f"{key}:{value}" for key, value in (("agent", selection.agent), ("style", selection.style)) if value]
    return answer, " ".join([who, *chosen, *([f"auto {selection.label()}"] if auto else [])])


def _select(memoir: Memoir, document: ThinkDocument, text: str, session: str) -> AutoSelection:
    try:
        user_home: Path | None = Path.home()
    except RuntimeError:  # no HOME and no user entry: the project's own agents and styles only
        user_home = None
    discovered = discover(project_root(Path.cwd()), user_home)
    llm = selection_llm(memoir.settings.llm, session_breaker(memoir.home, session), SELECTION_TIMEOUT)
    try:
        return auto_select(document.topic, text, discovered, llm)
    finally:
        if llm.client is not None:
            llm.client.close()
