"""An OpenAI-compatible chat client: Ollama, llama.cpp, vLLM and OpenAI speak the same API.

- Retries: a timeout or a 5xx answer is retried up to `retries` times with exponential
  backoff; a refused connection is not (the server is down; the circuit breaker decides
  when to try again).
- Errors say what to do, with the model name in them: an unknown model suggests
  `ollama pull`, an unreachable server suggests starting it or fixing `llm.base_url`.
- Structured output: a strict JSON schema is sent with every structured call
  (`response_format` of type `json_schema`; Ollama, llama.cpp, vLLM and OpenAI take it);
  a server that refuses schemas is asked for JSON mode (`json_object`), and one that
  refuses that too is asked in words only. The client remembers what its server takes (and
  the store keeps it, so no process asks again with a format the server refused).
  The answer is parsed tolerantly and validated, and a failure gets one corrective retry
  that quotes the error.
- Tools and streaming (`complete`, for the chat agent): the tools' definitions go with the
  request, and the answer comes as server-sent events (`llm.streaming` assembles them),
  each piece of text handed to `on_text` as it arrives. A timeout before the first piece
  is retried like any other; one after it is not (the reader has seen half an answer that
  a retry would write anew), it fails the turn.
- A 400 that says the request is too long for the model (`context`, `length`, `tokens`)
  is `ContextOverflow`, so the agent can compress its history and try again.
- A server that drops the connection while answering a structured request (llama-cpp-python
  dies when its grammar compiler chokes on a schema) is named as the cause, the format is
  remembered as refused (like a 400), and the request is sent again in the next plainer
  format; the error says so instead of calling the server unreachable.
- A health check that connects but gets no answer in time finds the server busy (with
  memoir's own background work, say), not down: only a refused connection is down.

The HTTP side (requests and their retries, streams, token counts, errors from statuses) is
`ChatTransport` in `transport.py`, the class `ChatClient` builds on.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from memoir.errors import ContextOverflow, MemoirError, ModelOutputError, ModelUnavailable
from memoir.http import model_client
from memoir.llm.priority import ForegroundGate
from memoir.llm.streaming import Completion
from memoir.llm.structured import extract_json
from memoir.llm.transport import ChatTransport, TextCallback
from memoir.llm.transport import Dropped as _Dropped
from memoir.llm.transport import refuses_format as _refuses_format

if TYPE_CHECKING:  # imported where a request is made: a process that never asks a model does not load it
    import httpx

__all__ = ["ChatClient", "Completion", "ContextOverflow", "Health", "Message"]

# The most tokens one answer to memoir's own prompts (facts, reconciliation, summaries) may
# take: they need a few hundred. Qwen2.5 Coder 0.5B once wrote for ten minutes on two cores.
ANSWER_TOKENS = 1024

# Best first. "json_object_schema" is llama-cpp-python's own form ({"type": "json_object",
# "schema": ...}): its server answers the standard "json_schema" with a 500, yet constrains
# output to a schema given this way.
_FORMATS = ("json_schema", "json_object_schema", "json_object")

T = TypeVar("T")
Message = dict[str, str]


@dataclass(frozen=True)
class Health:
    ok: bool
    detail: str
    problem: str | None = None  # unreachable, model (not served), server (answered, but not with a model list)


class ChatClient(ChatTransport):
    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str | None = None,
        timeout: float = 60.0,
        retries: int = 3,
        backoff: float = 0.5,
        budget: float | None = None,
        transport: httpx.BaseTransport | None = None,
        formats: Sequence[str] | None = None,
        remember_formats: Callable[[list[str]], None] | None = None,
        foreground: ForegroundGate | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.retries = retries
        self.backoff = backoff
        self.timeout = timeout
        # Seconds one operation (a structured call with its retries and its corrective retry)
        # may take in all: a hung server costs at most this, not timeout x tries x 2.
        self.budget = budget
        self._deadline = threading.local()
        self._usage = threading.local()  # tokens counted per thread: the ledger reads them per operation
        self.calls = 0  # requests sent, for the write-path benchmark and status
        # What the server may take, best first: dropped as it refuses them. `formats` is what an
        # earlier run learnt (the store keeps it), and `remember_formats` tells the store anew.
        self.formats = [kind for kind in (_FORMATS if formats is None else formats) if kind in _FORMATS]
        self._remember_formats = remember_formats
        # Set for a client a person waits on (the chat agent): its calls go before memoir's background work.
        self.foreground = foreground
        self._http = model_client(self.base_url, api_key=api_key, timeout=timeout, transport=transport)

    def close(self) -> None:
        self._http.close()

    # -- plain chat -----------------------------------------------------------------------

    def chat(
        self,
        messages: Sequence[Message],
        *,
        temperature: float = 0.0,
        json_schema: Any = None,
        purpose: str = "chat",
    ) -> str:
        """The assistant's reply text. `json_schema=True` asks for JSON; a dict asks for that schema.

        `purpose` names the request in errors ("memoir's summary request").
        """
        body: dict[str, Any] = {"model": self.model, "messages": list(messages), "temperature": temperature}
        body["max_tokens"] = ANSWER_TOKENS  # a small model looping on its JSON stops here, not at its context's end
        dropped = False
        while True:
            kind = self._format_for(json_schema)
            if kind == "json_schema":
                strict = {"name": "answer", "strict": True, "schema": json_schema}
                body["response_format"] = {"type": "json_schema", "json_schema": strict}
            elif kind == "json_object_schema":
                body["response_format"] = {"type": "json_object", "schema": json_schema}
            elif kind == "json_object":
                body["response_format"] = {"type": "json_object"}
            else:
                body.pop("response_format", None)
            try:
                response = self._post("chat/completions", body)
            except _Dropped:
                if kind is None:
                    raise ModelUnavailable(self._dropped(purpose)) from None
                self.formats.remove(kind)  # what it died on is refused: a plainer format, now and from now on
                self._remember()
                dropped = True
                continue
            except ModelUnavailable as exc:
                if dropped:  # it crashed on the format before: say so rather than "start it"
                    raise ModelUnavailable(f"{self._dropped(purpose)} ({exc})") from None
                raise
            if not (kind and _refuses_format(response.status_code, response.text)):
                break
            self.formats.remove(kind)  # this server does not take it: the next best, now and from now on
            self._remember()
        self._raise_for(response)
        self._count_tokens(response)
        try:
            content = response.json()["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise ModelOutputError(f"the LLM server sent an answer that is not chat-completion JSON: {exc}") from None
        return content if isinstance(content, str) else ""

    def complete(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        tools: Sequence[Mapping[str, Any]] = (),
        on_text: TextCallback | None = None,
        stream: bool = True,
        max_tokens: int | None = None,
    ) -> Completion:
        """One assistant turn with tools offered: its text (streamed to `on_text`) and the tools it calls.

        `max_tokens` bounds the answer (`chat.max_answer_tokens`): without it a small model may
        write until its context is full, minutes on a laptop.
        """
        with self.foreground.foreground() if self.foreground else contextlib.nullcontext():
            return self._complete(messages, tools, on_text, stream, max_tokens)

    def _complete(
        self,
        messages: Sequence[Mapping[str, Any]],
        tools: Sequence[Mapping[str, Any]],
        on_text: TextCallback | None,
        stream: bool,
        max_tokens: int | None = None,
    ) -> Completion:
        body: dict[str, Any] = {"model": self.model, "messages": list(messages), "stream": stream}
        if max_tokens is not None:
            body["max_tokens"] = max_tokens
        if tools:
            body["tools"] = list(tools)
        if stream:
            return self._stream("chat/completions", body, on_text)
        response = self._post("chat/completions", body)
        self._raise_for(response)
        self._count_tokens(response)
        completion = self._parsed(response)
        if on_text is not None and completion.content:
            on_text(completion.content)
        return completion

    def complete_json(
        self,
        messages: Sequence[Message],
        validate: Callable[[Any], T],
        *,
        schema: Any = None,
        purpose: str = "structured",
    ) -> T:
        """A validated JSON answer; one corrective retry quoting the problem, then ModelOutputError.

        The whole operation, retries included, ends by the client's `budget` (ModelUnavailable).
        """
        self._deadline.at = None if self.budget is None else time.monotonic() + self.budget
        try:
            return self._complete_json(messages, validate, schema, purpose)
        finally:
            self._deadline.at = None

    def _complete_json(self, messages: Sequence[Message], validate: Callable[[Any], T], schema: Any, purpose: str) -> T:
        wanted = schema if schema is not None else True
        answer = self.chat(messages, json_schema=wanted, purpose=purpose)
        try:
            return validate(extract_json(answer))
        except (ModelOutputError, ValueError, TypeError, KeyError) as exc:
            problem = str(exc)
        retry = [
            *messages,
            {"role": "assistant", "content": answer},
            {"role": "user", "content": f"That answer could not be used ({problem}). Reply with only the JSON."},
        ]
        second = self.chat(retry, json_schema=wanted, purpose=purpose)
        try:
            return validate(extract_json(second))
        except (ModelOutputError, ValueError, TypeError, KeyError) as exc:
            raise ModelOutputError(f"model {self.model!r} gave no usable JSON, even when asked again: {exc}") from None

    def health(self) -> Health:
        """Does the server answer, and does it know the model?"""
        import httpx

        try:
            response = self._http.get("models", timeout=min(self.timeout, 5.0))
        except httpx.ReadTimeout:  # connected, no answer yet: a server busy answering (memoir's own work, say)
            return Health(True, f"{self.base_url} is busy answering another request")
        except httpx.HTTPError as exc:
            return Health(False, self._unreachable(exc), "unreachable")
        if response.status_code != 200:
            detail = f"{self.base_url}/models answered {response.status_code}: {response.text[:200]}"
            return Health(False, detail, "server")
        try:
            known = {m.get("id") for m in response.json().get("data", [])}
        except (ValueError, AttributeError, TypeError):
            return Health(False, f"{self.base_url}/models did not answer with a model list", "server")
        # Ollama lists "qwen2.5:latest" and serves it as "qwen2.5" too.
        if self.model not in known and f"{self.model}:latest" not in known:
            return Health(False, f"the server at {self.base_url} does not list model {self.model!r}", "model")
        return Health(True, f"{self.base_url} serves {self.model!r}")

    # -- response formats -----------------------------------------------------------------

    def _remember(self) -> None:
        if self._remember_formats is None:
            return
        # Bookkeeping: a full disk must not fail the call (the next run learns again).
        with contextlib.suppress(MemoirError):
            self._remember_formats(list(self.formats))

    def _format_for(self, json_schema: Any) -> str | None:
        """The `response_format` type to send: the best this server still may take for the request."""
        if json_schema is None:
            return None
        wanted = _FORMATS if isinstance(json_schema, dict) else ("json_object",)
        return next((kind for kind in wanted if kind in self.formats), None)

    def _dropped(self, purpose: str) -> str:
        return (
            f"the model server at {self.base_url} closed the connection while answering memoir's {purpose} request;"
            " it may have crashed: see its log"
        )
