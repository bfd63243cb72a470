"""A chat turn with tools, as OpenAI-compatible servers send it: whole, or streamed as server-sent events.

Protocol only, no I/O (the client feeds it lines), so every shape a server sends can be
tested without one:

- A stream is `data: {json}` lines separated by blank lines, ended by `data: [DONE]`;
  comments (`: keep-alive`) and other fields are skipped.
- Each chunk's `choices[0].delta` carries a piece of text (`content`) and pieces of tool
  calls (`tool_calls`), each with the `index` of the call it belongs to: the id and name
  come once, the JSON arguments in fragments to be joined. OpenAI sends fragments; Ollama
  and llama.cpp send each call whole in one chunk; a server that leaves out `index` has
  its calls told apart by id, as Ollama's older releases needed.
- A chunk holding `error` is the server giving up mid-answer: `ModelUnavailable`.
- What a model writes is hostile: a lone UTF-16 surrogate (a `\\ud800` escape in the
  JSON) cannot be stored or sent on, so it becomes U+FFFD here, in text, names, ids and
  arguments alike.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from memoir.errors import ModelOutputError, ModelUnavailable

__all__ = ["Completion", "TurnAssembler", "completion_from_json", "sse_data"]

_SURROGATE = re.compile(r"[\ud800-\udfff]")
MAX_TOOL_CALLS = 64  # per answer: past this a model is looping, not working


def clean(text: object) -> str:
    """Text as a model sent it, with lone surrogates replaced; anything not text becomes ''."""
    return _SURROGATE.sub("\ufffd", text) if isinstance(text, str) else ""


@dataclass(frozen=True)
class Completion:
    """One assistant answer: its text, and the tools it asks to run (OpenAI's `tool_calls` objects)."""

    content: str
    tool_calls: tuple[dict[str, Any], ...] = ()
    finish_reason: str | None = None

    @property
    def message(self) -> dict[str, Any]:
        """The assistant message in OpenAI format, ready to go back into the history."""
        data: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            data["tool_calls"] = [dict(call) for call in self.tool_calls]
        return data


def _tool_call(call_id: object, name: object, arguments: object, position: int) -> dict[str, Any]:
    if not isinstance(arguments, str):  # some servers send the object itself, not its JSON text
        try:
            arguments = json.dumps(arguments)
        except (TypeError, ValueError):
            arguments = ""
    return {
        "id": clean(call_id) or f"call_{position}",
        "type": "function",
        "function": {"name": clean(name), "arguments": clean(arguments)},
    }


def completion_from_json(body: Any) -> Completion:
    """A whole (non-streamed) chat completion; ModelOutputError when it is not one."""
    try:
        choice = body["choices"][0]
        message = choice["message"]
    except (KeyError, IndexError, TypeError):
        shown = str(body)[:200]
        raise ModelOutputError(f"the LLM server sent an answer that is not a chat completion: {shown}") from None
    calls = message.get("tool_calls") if isinstance(message, Mapping) else None
    found = []
    for position, call in enumerate(calls if isinstance(calls, list) else []):
        function = call.get("function") if isinstance(call, Mapping) else None
        if isinstance(function, Mapping):
            found.append(_tool_call(call.get("id"), function.get("name"), function.get("arguments", "{}"), position))
    content = clean(message.get("content")) if isinstance(message, Mapping) else ""
    reason = choice.get("finish_reason") if isinstance(choice, Mapping) else None
    return Completion(content, tuple(found[:MAX_TOOL_CALLS]), reason if isinstance(reason, str) else None)


def sse_data(lines: Iterable[str]) -> Iterator[Any]:
    """The JSON of each `data:` event of a stream, until `[DONE]`; lines that are not JSON are skipped."""
    for line in lines:
        if not line.startswith("data:"):
            continue  # a blank separator, a comment (": ping"), an `event:` or `id:` field
        data = line[5:].strip()
        if data == "[DONE]":
            return
        try:
            yield json.loads(data)
        except (ValueError, RecursionError):
            continue  # a keep-alive or a server's stray line: the answer is in the others


@dataclass
class _Partial:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


class TurnAssembler:
    """Builds one `Completion` from stream chunks; `feed` returns the text each chunk adds."""

    def __init__(self) -> None:
        self._text: list[str] = []
        self._calls: dict[int, _Partial] = {}
        self._finish: str | None = None
        self.usage: Mapping[str, Any] = {}

    def feed(self, chunk: Any) -> str:
        if not isinstance(chunk, Mapping):
            return ""
        if "error" in chunk:
            error = chunk["error"]
            detail = error.get("message") if isinstance(error, Mapping) else error
            raise ModelUnavailable(f"the LLM server stopped its answer with an error: {str(detail)[:300]}")
        if isinstance(chunk.get("usage"), Mapping):
            self.usage = chunk["usage"]
        choices = chunk.get("choices")
        choice = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], Mapping) else {}
        if isinstance(choice.get("finish_reason"), str):
            self._finish = choice["finish_reason"]
        delta = choice.get("delta") or choice.get("message")  # a few servers put a whole message in a chunk
        if not isinstance(delta, Mapping):
            return ""
        calls = delta.get("tool_calls")
        for position, call in enumerate(calls if isinstance(calls, list) else []):
            if isinstance(call, Mapping):
                self._add_call(call, position)
        text = clean(delta.get("content"))
        self._text.append(text)
        return text

    def _add_call(self, call: Mapping[str, Any], position: int) -> None:
        index = call.get("index")
        call_id = clean(call.get("id"))
        if not isinstance(index, int) or isinstance(index, bool):
            known = [n for n, partial in self._calls.items() if call_id and partial.id == call_id]
            index = known[0] if known else len(self._calls) if call_id or not self._calls else max(self._calls)
        if index not in self._calls and len(self._calls) >= MAX_TOOL_CALLS:
            return
        partial = self._calls.setdefault(index, _Partial())
        partial.id = partial.id or call_id
        function = call.get("function")
        if isinstance(function, Mapping):
            partial.name = partial.name or clean(function.get("name"))
            arguments = function.get("arguments")
            if arguments is not None:
                partial.arguments.append(arguments if isinstance(arguments, str) else json.dumps(arguments))

    def result(self) -> Completion:
        partials = [self._calls[index] for index in sorted(self._calls)]
        calls = tuple(_tool_call(p.id, p.name, "".join(p.arguments), n) for n, p in enumerate(partials))
        return Completion("".join(self._text), calls, self._finish)
