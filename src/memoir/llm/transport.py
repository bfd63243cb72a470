"""The HTTP side of the chat client: requests sent and retried within a budget, streams read, tokens counted.

`ChatTransport` is the base of `ChatClient` (`client.py`), which sets the attributes it
declares; the client decides what to ask (formats, tools, corrective retries), this sends it:

- A timeout or a 5xx answer is retried up to `retries` times with exponential backoff; a
  refused connection is not (the server is down: the circuit breaker decides when to try
  again), nor a refused response format (not a busy server). An operation given a budget
  (`complete_json`) stops retrying when the budget is spent.
- A stream is retried like a request until its first piece of text is shown, never after.
- A connection closed without an answer is `Dropped`, for the client to name its cause.
- A server's refusal becomes an error that says what to do, with the model name in it
  (`ModelUnavailable`; `ContextOverflow` for a request too long for the model).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memoir.errors import ContextOverflow, ModelOutputError, ModelUnavailable, failure_kind, no_answer
from memoir.llm.streaming import Completion, TurnAssembler, completion_from_json, sse_data

if TYPE_CHECKING:  # imported where a request is made: a process that never asks a model does not load it
    import httpx

__all__ = ["ChatTransport", "Dropped", "TextCallback", "refuses_format"]

TextCallback = Callable[[str], None]


def refuses_format(status: int, text: str) -> bool:
    """A 400 (or, from llama-cpp-python, a 500) about the response format or its schema."""
    lowered = text.lower()
    if status == 400:
        return "format" in lowered or "schema" in lowered
    return status >= 500 and "response_format" in lowered


def _too_long(status: int, text: str) -> bool:
    """A refusal because the prompt does not fit the model's context window.

    Servers word it differently ("maximum context length", "exceeds the context size",
    "too many tokens", OpenAI's `context_length_exceeded`), but all name one of these.
    """
    lowered = text.lower()
    return status in (400, 413) and any(word in lowered for word in ("context", "length", "tokens"))


class Dropped(Exception):
    """The server closed the connection without answering (it may have crashed on the request)."""


class ChatTransport:
    """Sends a `ChatClient`'s requests: retried within the operation's budget, streamed, counted."""

    # Set by `ChatClient.__init__`.
    base_url: str
    model: str
    retries: int
    backoff: float
    timeout: float
    budget: float | None
    calls: int
    _deadline: threading.local
    _usage: threading.local
    _http: httpx.Client

    def tokens(self) -> tuple[int, int]:
        """(prompt, completion) tokens the server reported for this thread's calls so far."""
        return getattr(self._usage, "prompt", 0), getattr(self._usage, "completion", 0)

    def _count_tokens(self, response: httpx.Response) -> None:
        try:
            usage = response.json().get("usage") or {}
        except (ValueError, AttributeError, TypeError):
            return  # no usage reported: the ledger counts the call with no tokens
        self._add_usage(usage)

    def _add_usage(self, usage: Any) -> None:
        try:
            prompt, completion = int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)
        except (ValueError, AttributeError, TypeError, OverflowError):
            return
        self._usage.prompt = getattr(self._usage, "prompt", 0) + prompt
        self._usage.completion = getattr(self._usage, "completion", 0) + completion

    def _left(self) -> float | None:
        """Seconds left of the operation's budget (None: no budget); ModelUnavailable when none are."""
        deadline: float | None = getattr(self._deadline, "at", None)
        if deadline is None:
            return None
        left = deadline - time.monotonic()
        if left <= 0:
            raise ModelUnavailable(
                f"model {self.model!r} at {self.base_url} gave no usable answer within the budget of"
                f" {self.budget:g} s (llm.budget): raise it, or use a smaller model"
            )
        return left

    def _post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        import httpx

        for attempt in range(self.retries + 1):
            last = attempt == self.retries
            left = self._left()
            timeout = self.timeout if left is None else min(self.timeout, left)
            try:
                self.calls += 1
                response = self._http.post(path, json=body, timeout=timeout)
            except httpx.TransportError as exc:
                kind = failure_kind(exc)
                if kind == "dropped":
                    raise Dropped() from None
                if kind == "unreachable":
                    raise ModelUnavailable(self._unreachable(exc)) from None
                self._left()  # the budget ran out, rather than one try's timeout: say so
                if last:
                    raise ModelUnavailable(
                        f"model {self.model!r} at {self.base_url} did not answer within {self.timeout:g} s "
                        f"({self.retries + 1} tries): raise llm.timeout or use a smaller model"
                    ) from None
            else:
                if response.status_code < 500 or last or refuses_format(response.status_code, response.text):
                    return response  # a refused format is not a busy server: no retry
            left = self._left()
            time.sleep(self.backoff * 2**attempt if left is None else min(self.backoff * 2**attempt, left))
        raise AssertionError("unreachable")

    def _stream(self, path: str, body: dict[str, Any], on_text: TextCallback | None) -> Completion:
        """POST with `stream: true`, retried like `_post` until the first piece of text is shown."""
        import httpx

        for attempt in range(self.retries + 1):
            last, shown = attempt == self.retries, [False]
            try:
                self.calls += 1
                with self._http.stream("POST", path, json=body, timeout=self.timeout) as response:
                    if response.status_code < 500 or last:
                        return self._read_stream(response, on_text, shown)
                    response.read()  # a busy server: drained, and asked again after the backoff
            except httpx.TransportError as exc:
                if failure_kind(exc) != "timeout":
                    raise ModelUnavailable(self._unreachable(exc)) from None
                if shown[0]:
                    raise ModelUnavailable(
                        f"model {self.model!r} at {self.base_url} stopped answering for {self.timeout:g} s mid-answer:"
                        " ask again, or raise llm.timeout"
                    ) from None
                if last:
                    raise ModelUnavailable(
                        f"model {self.model!r} at {self.base_url} did not answer within {self.timeout:g} s "
                        f"({self.retries + 1} tries): raise llm.timeout or use a smaller model"
                    ) from None
            time.sleep(self.backoff * 2**attempt)
        raise AssertionError("unreachable")

    def _read_stream(self, response: httpx.Response, on_text: TextCallback | None, shown: list[bool]) -> Completion:
        if response.status_code != 200:
            response.read()
            self._raise_for(response)
        if "text/event-stream" not in response.headers.get("content-type", ""):
            response.read()  # a server that ignores `stream` answers whole
            self._count_tokens(response)
            completion = self._parsed(response)
            if on_text is not None and completion.content:
                on_text(completion.content)
            return completion
        assembler = TurnAssembler()
        for chunk in sse_data(response.iter_lines()):
            piece = assembler.feed(chunk)
            if piece and on_text is not None:
                shown[0] = True
                on_text(piece)
        self._add_usage(assembler.usage)
        return assembler.result()

    def _parsed(self, response: httpx.Response) -> Completion:
        try:
            body = response.json()
        except ValueError:
            raise ModelOutputError(f"the LLM server sent an answer that is not JSON: {response.text[:200]!r}") from None
        return completion_from_json(body)

    def _unreachable(self, exc: Exception) -> str:
        return no_answer(
            f"the LLM server at {self.base_url}", exc, "start it (for Ollama: `ollama serve`) or set llm.base_url"
        )

    def _raise_for(self, response: httpx.Response) -> None:
        if response.status_code == 200:
            return
        detail = response.text[:300]
        if response.status_code == 404:
            raise ModelUnavailable(
                f"the LLM server at {self.base_url} does not know model {self.model!r} ({detail}): "
                f"pull it (`ollama pull {self.model}`) or set llm.model"
            )
        if _too_long(response.status_code, detail):
            raise ContextOverflow(
                f"the request is too long for model {self.model!r} ({detail}): compress the history,"
                " or raise the model's context window (chat.context_window)"
            )
        if response.status_code == 400 and "support" in detail.lower() and "tool" in detail.lower():
            raise ModelUnavailable(
                f"model {self.model!r} does not take tools ({detail}): use one that does (qwen2.5, llama3.1)"
            )
        if response.status_code in (401, 403):
            raise ModelUnavailable(f"the LLM server at {self.base_url} refused the API key: check llm.api_key")
        raise ModelUnavailable(f"the LLM server answered {response.status_code} for model {self.model!r}: {detail}")
