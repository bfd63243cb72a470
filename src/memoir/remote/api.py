"""`MemoirAPI`: the memory operations `Memoir` (embedded) and `MemoirClient` (served) share.

Kept apart from the client so that the shared surface reads as one list; mypy checks both
classes against it (`memoir/__init__.py`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from memoir.facade.doctor import Finding
from memoir.facade.overview import ConversationInfo, DayCount, LedgerDay
from memoir.facade.views import EventPage, Status
from memoir.model import Event, Memory
from memoir.model.limits import BUDGET_TOKENS
from memoir.model.timeline import GripContext, TocNode, TocPage
from memoir.retrieval import Context, Hit, TimeLike
from memoir.workers.scheduler import JobStatus

__all__ = ["EventLike", "MemoirAPI"]

EventLike = Event | Mapping[str, Any]


class MemoirAPI(Protocol):
    """The memory operations `Memoir` (embedded) and `MemoirClient` (served) share, checked by mypy.

    Code written against this type runs on either; `memoir/__init__.py` holds the check that
    both classes satisfy it, so a parameter added to one and not the other fails the type check.
    """

    def ingest(self, event_or_events: EventLike | Iterable[EventLike], *, agent_id: str | None = None) -> list[str]: ...

    def events(
        self,
        since: TimeLike | None = None,
        until: TimeLike | None = None,
        session_id: str | None = None,
        conversation_id: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
        agent_id: str | None = None,
        all_agents: bool = False,
    ) -> EventPage: ...

    def get_event(self, event_id: str, *, agent_id: str | None = None) -> Event: ...

    def search(
        self,
        query: str,
        *,
        k: int | None = None,
        conversation_id: str | None = None,
        kinds: Iterable[str] | None = None,
        since: TimeLike | None = None,
        until: TimeLike | None = None,
        agent_id: str | None = None,
        as_of: TimeLike | None = None,
    ) -> list[Hit]: ...

    def build_context(
        self,
        query: str,
        *,
        conversation_id: str | None = None,
        budget_tokens: int = BUDGET_TOKENS,
        agent_id: str | None = None,
        top_k: int | None = None,
        as_of: TimeLike | None = None,
    ) -> Context: ...

    def remember(
        self,
        text: str,
        *,
        kind: str = "fact",
        conversation_id: str | None = None,
        tags: Iterable[str] = (),
        severity: str | None = None,
        agent_id: str | None = None,
    ) -> Memory: ...

    def forget(self, memory_id: str, *, agent_id: str | None = None) -> Memory: ...

    def memories(
        self,
        conversation_id: str | None = None,
        kind: str | None = None,
        include_deleted: bool = False,
        *,
        agent_id: str | None = None,
        all_agents: bool = False,
    ) -> list[Memory]: ...

    def correct(self, memory_id: str, text: str, *, agent_id: str | None = None) -> Memory: ...

    def memory_history(self, memory_id: str, *, agent_id: str | None = None) -> list[Memory]: ...

    def toc_root(self, conversation_id: str | None = None, *, agent_id: str | None = None) -> list[TocNode]: ...

    def toc_node(
        self,
        node_id: str,
        version: int | None = None,
        *,
        conversation_id: str | None = None,
        agent_id: str | None = None,
    ) -> TocNode: ...

    def browse_toc(
        self,
        parent_id: str,
        limit: int = 20,
        cursor: str | None = None,
        *,
        conversation_id: str | None = None,
        agent_id: str | None = None,
    ) -> TocPage: ...

    def expand_grip(
        self, grip_id: str, before: int = 3, after: int = 3, *, agent_id: str | None = None
    ) -> GripContext: ...

    def scheduler_status(self) -> list[JobStatus]: ...

    def pause_job(self, name: str) -> None: ...

    def resume_job(self, name: str) -> None: ...

    def status(self) -> Status: ...

    def conversations(self, *, agent_id: str | None = None) -> list[ConversationInfo]: ...

    def activity(self, conversation_id: str, *, agent_id: str | None = None) -> list[DayCount]: ...

    def llm_ledger(self, days: int = 30) -> list[LedgerDay]: ...

    def doctor(self) -> list[Finding]: ...
