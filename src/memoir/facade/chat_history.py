"""A chat request's history, managed as its `history_*` fields ask (seed 003), and a person's call
to a model server put before memoir's own (a mixin of the façade).

The OpenAI-compatible proxy takes the reference's per-request knobs (`history_compression`,
`history_max_tokens`, `history_max_size`, `history_token_caching`); the façade reads them,
keeps the last compression of each conversation and agent (the most recently used
`STATES_KEPT`), and names the request's own field in every error, so the proxy is a door
that forwards, never a second home of the history rules.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol

from memoir.errors import InsufficientHistory, InvalidInput
from memoir.history import Compressed, HistoryParams, manage, parse_strategy
from memoir.llm import LLM
from memoir.llm.priority import ForegroundGate
from memoir.model.chat import Message, messages_to_openai

__all__ = ["HISTORY_FIELDS", "HistoryMethods", "HistoryStates", "history_params"]

# The request's history fields, and the HistoryParams field each sets (errors name the request's).
HISTORY_FIELDS = {
    "history_compression": "compression_strategy",
    "history_max_tokens": "max_tokens",
    "history_max_size": "max_history_size",
    "history_token_caching": "enable_token_caching",
}
STATES_KEPT = 256


class _Owner(Protocol):  # what these methods need of the façade
    @property
    def home(self) -> Path: ...

    @property
    def llm(self) -> LLM: ...

    @property
    def _history_states(self) -> HistoryStates: ...


class HistoryMethods:
    @cached_property
    def _history_states(self) -> HistoryStates:
        return HistoryStates()

    def manage_history(
        self: _Owner, request: Mapping[str, Any], *, conversation_id: str, agent_id: str | None = None
    ) -> tuple[list[dict[str, Any]], str]:
        """A chat request's messages managed as its `history_*` fields say (OpenAI format), and a
        one-line report of what was done. Summaries are TL;DRs from memoir's own model (`llm.*`)
        when one is set and answers, extractive ones with grips otherwise. InvalidQuery names the
        request's field (`history_max_tokens`, `messages[3].content`)."""
        managed, line = self._history_states.manage(request, (conversation_id, agent_id or ""), self.llm)
        return messages_to_openai(managed), line

    @contextmanager
    def foreground(self: _Owner, base_url: str) -> Iterator[None]:
        """While a person waits on a call to the model server at `base_url`: memoir's own
        background calls to that server wait (`llm.priority`)."""
        with ForegroundGate.of(self.home, base_url.rstrip("/")).foreground():
            yield


class HistoryStates:
    """The last compression of each (conversation, agent), the most recently used `STATES_KEPT` of them."""

    def __init__(self, size: int = STATES_KEPT) -> None:
        self.size = size
        self._states: OrderedDict[tuple[str, str], Compressed] = OrderedDict()
        self._lock = threading.Lock()

    def manage(self, body: Mapping[str, Any], key: tuple[str, str], llm: LLM | None) -> tuple[list[Message], str]:
        """The request's messages managed as its fields say, and the header's one-line report."""
        params, messages = history_params(body), body.get("messages", [])  # checked by `manage`
        with self._lock:
            state = self._states.get(key)
        try:
            managed = manage(messages, params, llm=llm, state=state)
        except InsufficientHistory as exc:  # a chat's first turns: sent whole, and the report says why
            managed = manage(messages, _without_compression(params))
            note = f"compression skipped ({exc.message_count} messages, {exc.minimum} needed); "
            return managed.messages, note + managed.report.brief()
        except InvalidInput as exc:
            raise _renamed(exc) from None
        if managed.state is not None:
            with self._lock:
                self._states[key] = managed.state
                self._states.move_to_end(key)
                while len(self._states) > self.size:
                    self._states.popitem(last=False)
        return managed.messages, managed.report.brief()


def history_params(body: Mapping[str, Any]) -> HistoryParams:
    """The request's history fields as `HistoryParams`; InvalidQuery naming the request's field."""
    strategy, caching = body.get("history_compression"), body.get("history_token_caching")
    try:
        return HistoryParams(
            compression_strategy=None if strategy is None else parse_strategy(strategy, "history_compression"),
            max_tokens=body.get("history_max_tokens"),
            max_history_size=body.get("history_max_size"),
            enable_token_caching=True if caching is None else caching,
        )
    except InvalidInput as exc:
        raise _renamed(exc) from None


def _renamed(exc: InvalidInput) -> InvalidInput:
    """The error with the request's field name (`history_max_tokens`) for `memoir.history`'s (`max_tokens`)."""
    outer = next((name for name, inner in HISTORY_FIELDS.items() if inner == exc.field), None)
    if outer is None:
        return exc  # `messages[3].content` and the like: already the request's
    renamed = copy.copy(exc)
    renamed.field = outer
    renamed.args = (f"{outer}: {exc.reason}",)
    return renamed


def _without_compression(params: HistoryParams) -> HistoryParams:
    return HistoryParams(None, params.max_tokens, params.max_history_size, params.enable_token_caching)
