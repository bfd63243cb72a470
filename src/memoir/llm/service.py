"""LLM work with a fallback: try the model unless the breaker is open, else use heuristics.

Every result says where it came from (`llm` or `heuristics`), which memories record as
their `source`, so a user can tell a model's judgement from a rule's.

Every operation is written to a ledger (job, model, tokens, duration, outcome: ok,
rejected, timed out, failed), and a job may have a daily token budget: once the job has
spent it (over the last 24 hours), its work goes to the heuristics, and the log says so.

An answer memoir could not use (`ModelOutputError`) is not an outage: the server answered.
It is counted as `rejected` in the ledger (and `memoir status`), the heuristics do that
work, and the breaker hears of a server that answers; only a server that does not answer
(`ModelUnavailable`: refused, timed out, crashed) counts towards opening it.

Background work (`background=True`: the worker's extraction and summaries) first waits
while a person's call to the same server is in flight (`priority.ForegroundGate`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from memoir.errors import MemoirError, ModelOutputError, ModelUnavailable
from memoir.llm.breaker import CircuitBreaker
from memoir.llm.client import ChatClient
from memoir.llm.priority import ForegroundGate

__all__ = ["LLM", "CallRecord", "Sourced"]

T = TypeVar("T")
Source = Literal["llm", "heuristics"]
log = logging.getLogger("memoir.llm")


@dataclass(frozen=True)
class Sourced(Generic[T]):
    value: T
    source: Source
    error: str | None = None  # why the heuristics ran, when the LLM was tried and failed


@dataclass(frozen=True)
class CallRecord:
    """One LLM operation in the ledger."""

    job: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    duration_ms: int
    outcome: Literal["ok", "rejected", "timed out", "failed"]


class LLM:
    """A chat client (or none, when no model is configured) behind a circuit breaker, with a ledger."""

    def __init__(
        self,
        client: ChatClient | None,
        breaker: CircuitBreaker | None = None,
        *,
        ledger: Callable[[CallRecord], None] | None = None,
        spent_today: Callable[[str], int] | None = None,
        budgets: Mapping[str, int] | None = None,
        gate: ForegroundGate | None = None,
    ) -> None:
        self.client = client
        self.gate = gate
        self.breaker = breaker or CircuitBreaker()
        self.ledger = ledger
        self.spent_today = spent_today
        self.budgets = dict(budgets or {})

    @property
    def configured(self) -> bool:
        return self.client is not None

    def run(
        self,
        attempt: Callable[[ChatClient], T],
        fallback: Callable[[], T],
        job: str = "llm",
        *,
        background: bool = False,
    ) -> Sourced[T]:
        """`attempt(client)` when the LLM may be called and succeeds; `fallback()` otherwise.

        `background`: memoir's own work, which lets a person's call to the same server go first.
        """
        if self.client is None:
            return Sourced(fallback(), "heuristics")
        over = self._over_budget(job)
        if over is not None:
            return Sourced(fallback(), "heuristics", over)
        if background and self.gate is not None:
            waited = self.gate.wait()
            if waited >= 1:
                log.info("job %s waited %.1f s for a foreground call to the model", job, waited)
        if not self.breaker.allow():
            return Sourced(fallback(), "heuristics", "circuit breaker open")
        started, before, sent = time.monotonic(), self.client.tokens(), self.client.calls
        try:
            value = attempt(self.client)
        except ModelOutputError as exc:  # the server answers: not an outage, the answer was of no use
            self._write(job, started, before, "rejected")
            self.breaker.record_success()
            log.info("LLM answer not used for %s: %s", job, exc)
            return Sourced(fallback(), "heuristics", str(exc))
        except ModelUnavailable as exc:
            self._write(job, started, before, "timed out" if "within" in str(exc) else "failed")
            self.breaker.record_failure(str(exc))
            state = self.breaker.snapshot()
            log.warning("LLM failed (%d in a row, breaker %s): %s", state.consecutive_failures, state.state, exc)
            return Sourced(fallback(), "heuristics", str(exc))
        if self.client.calls == sent:  # decided without asking the model (nothing to reconcile against)
            return Sourced(value, "heuristics")
        self._write(job, started, before, "ok")
        self.breaker.record_success()
        return Sourced(value, "llm")

    def _over_budget(self, job: str) -> str | None:
        budget = self.budgets.get(job)
        if budget is None or self.spent_today is None:
            return None
        spent = self.spent_today(job)
        if spent < budget:
            return None
        log.warning("job %s spent its LLM budget (%d of %d tokens in 24 h): the rules do its work", job, spent, budget)
        return f"token budget spent ({spent} of {budget} tokens in 24 h; llm.daily_tokens)"

    def _write(self, job: str, started: float, before: tuple[int, int], outcome: Any) -> None:
        if self.ledger is None or self.client is None:
            return
        prompt, completion = (now - then for now, then in zip(self.client.tokens(), before, strict=True))
        duration = int((time.monotonic() - started) * 1000)
        try:
            self.ledger(CallRecord(job, self.client.model, prompt, completion, duration, outcome))
        except MemoirError as exc:  # the ledger is bookkeeping: a full disk must not fail the work
            log.warning("LLM call not recorded in the ledger: %s", exc)
