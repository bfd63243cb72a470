"""LLM work with a fallback: try the model unless the breaker is open, else use heuristics.

Every result says where it came from (`llm` or `heuristics`), which memories record as
their `source`, so a user can tell a model's judgement from a rule's.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from memoir.errors import ModelOutputError, ModelUnavailable
from memoir.llm.breaker import CircuitBreaker
from memoir.llm.client import ChatClient

__all__ = ["LLM", "Sourced"]

T = TypeVar("T")
Source = Literal["llm", "heuristics"]
log = logging.getLogger("memoir.llm")


@dataclass(frozen=True)
class Sourced(Generic[T]):
    value: T
    source: Source
    error: str | None = None  # why the heuristics ran, when the LLM was tried and failed


class LLM:
    """A chat client (or none, when no model is configured) behind a circuit breaker."""

    def __init__(self, client: ChatClient | None, breaker: CircuitBreaker | None = None) -> None:
        self.client = client
        self.breaker = breaker or CircuitBreaker()

    @property
    def configured(self) -> bool:
        return self.client is not None

    def run(self, attempt: Callable[[ChatClient], T], fallback: Callable[[], T]) -> Sourced[T]:
        """`attempt(client)` when the LLM may be called and succeeds; `fallback()` otherwise."""
        if self.client is None:
            return Sourced(fallback(), "heuristics")
        if not self.breaker.allow():
            return Sourced(fallback(), "heuristics", "circuit breaker open")
        try:
            value = attempt(self.client)
        except (ModelUnavailable, ModelOutputError) as exc:
            self.breaker.record_failure(str(exc))
            state = self.breaker.snapshot()
            log.warning("LLM failed (%d in a row, breaker %s): %s", state.consecutive_failures, state.state, exc)
            return Sourced(fallback(), "heuristics", str(exc))
        self.breaker.record_success()
        return Sourced(value, "llm")
