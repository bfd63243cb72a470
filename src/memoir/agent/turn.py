"""One chat turn's tool-call loop (seed 000's PROCESSING): ask the model, run its tools, ask again.

- At most `max_iterations` model calls a turn (seed 000: 10). When the last one still
  asks for tools, they are not run: each is answered "not run: the limit was reached",
  so the history stays valid for the API (every call has its answer), and the turn ends
  with `stopped = "max_tool_iterations"`.
- The tools of one answer run in parallel, on a pool the session keeps (its threads, and
  the database connections they open, are reused turn after turn); their results go
  back in the order the model asked for them.
- What the model sends is hostile: a call without an id gets one, a call without a
  name is an unknown tool, and whatever its arguments hold comes back as a failed result
  (`ToolRegistry.execute` never raises for them). A result the log could not keep (a
  lone surrogate in an error message quoting the model) is written as ASCII JSON.
- A context-length refusal (`ContextOverflow`) has the session compress, then the same
  call is made once more; a second refusal ends the turn.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from memoir.agent.tools import ToolRegistry
from memoir.errors import CompressionError
from memoir.llm import ChatClient, Completion, ContextOverflow
from memoir.model.chat import Message, ToolCall, ToolResult
from memoir.model.checks import surrogate_at

__all__ = ["TurnEnd", "TurnRunner", "assistant_message", "tool_message"]

MAX_PARALLEL = 8
NOT_RUN = "not run: this turn reached its limit of model calls for tools (chat.max_tool_iterations)"
Request = Callable[[], list[dict[str, Any]]]
Record = Callable[[Sequence[Message]], list[Message]]


@dataclass(frozen=True)
class TurnEnd:
    text: str
    stopped: str | None = None


def assistant_message(completion: Completion) -> Message:
    """The model's answer as a message; calls with no id get one, calls with no name keep ''."""
    calls = []
    for call in completion.tool_calls:
        function = call.get("function") or {}
        call_id = str(call.get("id") or f"call_{uuid.uuid4().hex[:12]}")
        calls.append(ToolCall(call_id, str(function.get("name") or ""), str(function.get("arguments") or "")))
    return Message("assistant", completion.content, tool_calls=tuple(calls))


def tool_message(call: ToolCall, result: ToolResult) -> Message:
    """A tool's answer to `call`, as the model reads it (seed 000's tool message)."""
    content = result.to_content()
    if surrogate_at(content) is not None:
        body = {"success": True, "data": result.data} if result.success else {"success": False, "error": result.error}
        content = json.dumps(body, ensure_ascii=True, default=str)  # \\ud800 escapes: text any store keeps
    return Message("tool", content, tool_call_id=call.id, name=call.name or "unknown")


class TurnRunner:
    def __init__(
        self, client: ChatClient, tools: ToolRegistry, max_iterations: int, max_tokens: int | None = None
    ) -> None:
        self.client = client
        self.tools = tools
        self.max_iterations = max_iterations
        self.max_tokens = max_tokens
        self._pool = ThreadPoolExecutor(max_workers=MAX_PARALLEL, thread_name_prefix="memoir-tool")

    def close(self) -> None:
        self._pool.shutdown(wait=True)

    def run(
        self,
        request: Request,
        record: Record,
        on_text: Callable[[str], None] | None,
        overflowed: Callable[[], None],
        on_tool: Callable[[ToolCall, ToolResult], None] | None = None,
    ) -> tuple[list[tuple[ToolCall, ToolResult]], TurnEnd]:
        """Model calls and tool runs until the model answers without tools, or the limit is reached."""
        done: list[tuple[ToolCall, ToolResult]] = []
        text = ""
        for iteration in range(self.max_iterations):
            answer = assistant_message(self._complete(request, on_text, overflowed))
            text = answer.content
            if answer.tool_calls or answer.content.strip():  # an empty answer is not logged: an event needs text
                record([answer])
            if not answer.tool_calls:
                return done, TurnEnd(text)
            last = iteration == self.max_iterations - 1
            results = [ToolResult(False, error=NOT_RUN) for _ in answer.tool_calls] if last else self._execute(answer)
            record([tool_message(call, result) for call, result in zip(answer.tool_calls, results, strict=True)])
            done.extend(zip(answer.tool_calls, results, strict=True))
            if on_tool is not None:  # shown as they happen, between the texts of the model calls
                for call, result in zip(answer.tool_calls, results, strict=True):
                    on_tool(call, result)
        return done, TurnEnd(text, "max_tool_iterations")

    def _complete(
        self, request: Request, on_text: Callable[[str], None] | None, overflowed: Callable[[], None]
    ) -> Completion:
        definitions = self.tools.definitions()
        try:
            return self.client.complete(request(), tools=definitions, on_text=on_text, max_tokens=self.max_tokens)
        except ContextOverflow as overflow:
            try:
                overflowed()
            except CompressionError as exc:
                raise ContextOverflow(f"{overflow}; compressing the history did not help: {exc}") from exc
        return self.client.complete(request(), tools=definitions, on_text=on_text, max_tokens=self.max_tokens)

    def _execute(self, answer: Message) -> list[ToolResult]:
        calls = answer.tool_calls
        if len(calls) == 1:
            return [self.tools.execute(calls[0].name, calls[0].arguments)]
        return list(self._pool.map(lambda call: self.tools.execute(call.name, call.arguments), calls))
