"""What the façade's reads return beside events and memories: a page of events, a home's status."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from memoir.config import MultiAgentMode, Settings
from memoir.errors import InvalidInput, InvalidQuery
from memoir.llm import LLM
from memoir.llm.breaker import BreakerState
from memoir.model import Event, EventKey
from memoir.model.checks import brief
from memoir.store import Checkpoint, ModelState, Store

__all__ = ["AGENT_MODES", "BREAKER_STATES", "EventPage", "Status", "llm_usage", "model_state", "parse_cursor"]

# The values `Status` may carry where a fixed set is known (the OpenAPI document lists them).
BREAKER_STATES = tuple(state.value for state in BreakerState)
AGENT_MODES = tuple(mode.value for mode in MultiAgentMode)


class EventPage(list[Event]):
    """A page of events in time order; `next_cursor` fetches the next page (None at the end)."""

    def __init__(self, events: Iterable[Event], next_cursor: str | None) -> None:
        super().__init__(events)
        self.next_cursor = next_cursor


@dataclass(frozen=True)
class Status:
    home: str
    database: str
    backend: str
    size_bytes: int
    schema: list[str]
    events: int
    sessions: int
    conversations: int
    outbox_pending: dict[str, int]
    outbox_failed: dict[str, int]
    checkpoints: list[Checkpoint]
    workers: dict[str, str]  # lane -> its worker, in words
    multi_agent_mode: str
    indexed_items: int = 0
    model: dict[str, Any] | None = None  # the chat model and its breaker (shared by every process); None: rules
    llm_usage: dict[str, dict[str, int]] = dataclasses.field(default_factory=dict)  # job -> calls and tokens
    jobs: list[dict[str, Any]] = dataclasses.field(default_factory=list)  # the scheduler's view of every job
    timeline: dict[str, int] = dataclasses.field(default_factory=dict)  # segments per state, TOC nodes

    @classmethod
    def of(cls, store: Store, home: str, workers: dict[str, str], multi_agent_mode: str) -> Status:
        stats = store.stats()
        return cls(
            home=home,
            database=stats.location,
            backend=stats.backend,
            size_bytes=stats.size_bytes,
            schema=stats.schema,
            events=stats.events,
            sessions=stats.sessions,
            conversations=stats.conversations,
            outbox_pending=stats.outbox_pending,
            outbox_failed=stats.outbox_failed,
            checkpoints=store.checkpoints(),
            workers=workers,
            multi_agent_mode=multi_agent_mode,
            indexed_items=store.index_count(),
            timeline={
                **{f"segments {k}": v for k, v in store.segment_counts().items()},
                "toc nodes": store.toc_count(),
            },
        )

    @property
    def backlog(self) -> int:
        return sum(self.outbox_pending.values())

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["outbox_backlog"] = self.backlog
        return data


def parse_cursor(cursor: str | None) -> tuple[int, str] | None:
    """The position after which a page starts, from an `EventPage.next_cursor`."""
    if cursor is None:
        return None
    try:
        key = EventKey.parse(cursor)
    except InvalidInput:
        raise InvalidQuery("cursor", f"{brief(cursor)} is not a cursor returned by events()") from None
    return key.timestamp_ms, key.ulid


def model_state(settings: Settings, llm: LLM) -> dict[str, Any] | None:
    """The chat model and its circuit breaker as every process of the home sees it."""
    if not llm.configured:
        return None
    snapshot = llm.breaker.snapshot()
    since = None if snapshot.since is None else datetime.fromtimestamp(snapshot.since, UTC).isoformat()
    return {
        "model": settings.llm.model,
        "base_url": settings.llm.base_url,
        "breaker": snapshot.state.value,
        "failures": snapshot.consecutive_failures,
        "last_error": snapshot.last_error,
        "since": since,
    }


def llm_usage(store: ModelState, since_ms: int) -> dict[str, dict[str, int]]:
    """Per job: LLM calls and tokens in all, and since `since_ms` (the last day, for status); and how the
    operations ended: answers memoir could not use (`rejected`) apart from a server that did not answer
    (`failed`, `timed out`)."""
    recent = store.ledger_usage(since_ms)
    outcomes = store.ledger_outcomes()
    usage = {}
    for job, (calls, prompt, completion) in store.ledger_usage().items():
        day_calls, day_prompt, day_completion = recent.get(job, (0, 0, 0))
        ended = outcomes.get(job, {})
        usage[job] = {
            "calls": calls,
            "tokens": prompt + completion,
            "calls_last_day": day_calls,
            "tokens_last_day": day_prompt + day_completion,
            "ok": ended.get("ok", 0),
            "rejected": ended.get("rejected", 0),
            "failed": ended.get("failed", 0),
            "timed_out": ended.get("timed out", 0),
        }
    return usage
