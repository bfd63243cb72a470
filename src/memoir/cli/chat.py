"""`memoir chat` and `memoir ask`: the chat agent (seed 000) in a terminal.

The REPL streams the model's answer as it comes, shows each tool the model ran, and
takes slash commands: /exit, /facts, /timeline, /forget ID, /compress, /help. A turn
that fails (the model timed out three times, say) is reported and the session waits for
the next message; a failure at start (no answer from the LLM server, an unknown model, a missing prompt
file) ends the command with the agent's message and exit code 1 (2 for a bad setting).
Conversations resume by id: the REPL prints its id at start and at exit.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from memoir.cli import render
from memoir.errors import InsufficientHistory, MemoirError, UserError
from memoir.facade.engine import Memoir
from memoir.model.chat import ToolCall, ToolResult

if TYPE_CHECKING:
    from memoir.agent import ChatSession, Reply

__all__ = ["register"]

Opener = Callable[..., Memoir]

HELP = """commands:
  /facts        the key facts the agent is given (important, then recent)
  /timeline     this conversation's table of contents
  /forget ID    forget a memory (soft delete: its file moves under deleted/)
  /compress     compress the history now
  /exit         end the session (Ctrl-D too)"""

ConversationOption = Annotated[
    str | None, typer.Option("--conversation", "-c", help="resume this conversation (default: a new one)")
]
ModelOption = Annotated[str | None, typer.Option("--model", help="chat model (default: the llm.model setting)")]
BaseUrlOption = Annotated[
    str | None, typer.Option("--base-url", help="OpenAI-compatible endpoint (default: the llm.base_url setting)")
]
PromptOption = Annotated[
    Path | None, typer.Option("--system-prompt", help="a file holding the system prompt (chat.system_prompt)")
]


def register(app: typer.Typer, open_home: Opener, out: Console, err: Console) -> None:
    @app.command()
    def chat(
        ctx: typer.Context,
        conversation: ConversationOption = None,
        model: ModelOption = None,
        base_url: BaseUrlOption = None,
        system_prompt: PromptOption = None,
    ) -> None:
        """Talk with the memory agent: it remembers, searches its memory and keeps daily notes, with tools."""
        with (
            open_home(ctx, create=True, worker=True) as memoir,
            _session(memoir, conversation, model, base_url, system_prompt) as session,
        ):
            err.print(f"conversation {session.conversation_id} with {session.model} (/help for commands)")
            _repl(session, out, err)
            err.print(f"saved; resume with `memoir chat -c {session.conversation_id}`")

    @app.command()
    def ask(
        ctx: typer.Context,
        question: Annotated[str, typer.Argument(help="what to ask", show_default=False)],
        conversation: ConversationOption = None,
        model: ModelOption = None,
        base_url: BaseUrlOption = None,
        system_prompt: PromptOption = None,
    ) -> None:
        """Ask the memory agent one question and print the answer as it streams."""
        with (
            open_home(ctx, create=True, worker=True) as memoir,
            _session(memoir, conversation, model, base_url, system_prompt) as session,
        ):
            printer = _Printer(out, prompt="")
            reply = session.send(question, on_text=printer.text, on_tool=printer.tool)
            printer.finish(reply)


@contextlib.contextmanager
def _session(
    memoir: Memoir, conversation: str | None, model: str | None, base_url: str | None, prompt: Path | None
) -> Iterator[ChatSession]:
    overrides = {"llm.model": model, "llm.base_url": base_url, "chat.system_prompt": prompt}
    settings = memoir.settings.replace(**{k: v for k, v in overrides.items() if v is not None})
    from memoir.agent import ChatSession  # imported here: the other commands start faster (jsonschema)

    session = ChatSession(memoir, conversation_id=conversation, settings=settings)
    session.start()  # a failure here (no LLM, unknown model, missing prompt) ends the command with its message
    try:
        yield session
    finally:
        session.close()


def _repl(session: ChatSession, out: Console, err: Console) -> None:
    while True:
        try:
            line = input("you> ")
        except EOFError:  # Ctrl-D
            out.print()
            return
        except KeyboardInterrupt:
            out.print()
            return
        text = line.strip()
        if not text:
            continue
        if text.startswith("/"):
            if not _command(session, text, out, err):
                return
            continue
        printer = _Printer(out, prompt="memoir> ")
        try:
            reply = session.send(text, on_text=printer.text, on_tool=printer.tool)
        except UserError as exc:
            err.print(f"[red]error:[/red] {render.escape(str(exc))}")
            continue
        except MemoirError as exc:  # the model timed out three times, say: the session is ready again
            out.print()
            err.print(f"[red]error:[/red] {render.escape(str(exc))}")
            continue
        except KeyboardInterrupt:
            out.print()
            err.print("(answer interrupted)")
            continue
        printer.finish(reply)


def _command(session: ChatSession, text: str, out: Console, err: Console) -> bool:
    """Run a slash command; False when the session should end."""
    name, _, argument = text.partition(" ")
    try:
        if name in ("/exit", "/quit"):
            return False
        if name == "/help":
            out.print(HELP, markup=False)
        elif name == "/facts":
            facts = session.key_facts()
            if not facts:
                out.print("no key facts yet")
            for fact in facts:
                marker = "*" if "important" in fact.tags else "-"
                out.print(f"{marker} {fact.content}  ({fact.id})", markup=False)
        elif name == "/timeline":
            _timeline(session, out)
        elif name == "/forget":
            if not argument.strip():
                err.print("usage: /forget MEMORY_ID (ids are shown by /facts)")
            else:
                forgotten = session.memoir.forget(argument.strip())
                out.print(f"forgot {forgotten.id}: {forgotten.content}", markup=False)
        elif name == "/compress":
            _compress(session, out)
        else:
            err.print(f"unknown command {name} (/help lists them)", markup=False)
    except MemoirError as exc:
        err.print(f"[red]error:[/red] {render.escape(str(exc))}")
    return True


def _compress(session: ChatSession, out: Console) -> None:
    try:
        report = session.compress()
    except InsufficientHistory as exc:  # not a failure in a REPL: there is just too little to summarize yet
        out.print(f"nothing to compress yet: {exc.message_count} messages, compression needs {exc.minimum}")
        return
    out.print(f"history compressed: {report.tokens_before} -> {report.tokens_after} tokens", markup=False)


def _timeline(session: ChatSession, out: Console) -> None:
    memoir = session.memoir
    memoir.update_timeline()
    roots = memoir.toc_root(session.conversation_id)
    if not roots:
        out.print("no timeline yet for this conversation")
    for node in roots:
        out.print(f"{node.title}", markup=False)
        for bullet in node.bullets:
            out.print(f"  - {bullet.text}", markup=False)


class _Printer:
    """The answer as it streams, each tool on its own line as it runs, the next text after it."""

    def __init__(self, out: Console, prompt: str) -> None:
        self.out = out
        self.prompt = prompt
        self.at_line_start = True

    def text(self, delta: str) -> None:
        if self.at_line_start:
            self.out.file.write(self.prompt)
        self.at_line_start = False
        self.out.file.write(delta)
        self.out.file.flush()

    def tool(self, call: ToolCall, result: ToolResult) -> None:
        self._end_line()
        outcome = "ok" if result.success else f"failed: {result.error}"
        self.out.print(f"  [tool {call.name}: {outcome}]", markup=False)

    def finish(self, reply: Reply) -> None:
        self._end_line()
        if reply.stopped:
            self.out.print(f"  [stopped: {reply.stopped}]", markup=False)
        elif reply.empty:  # said, so nobody waits on an answer that never comes
            self.out.print(f"{self.prompt}(the model returned nothing)", markup=False)

    def _end_line(self) -> None:
        if not self.at_line_start:
            self.out.file.write("\n")
            self.out.file.flush()
        self.at_line_start = True
