"""The adaptive conversation summary (seed 004, 4.4), kept up to date by a periodic job.

Each conversation (and, in unified mode, each agent's part of it) has a rolling summary
whose level follows its size (`adaptive.level_for`), written to the vault as Markdown
(`vault.summaries`). It is rewritten when the conversation has grown since: once it has
been quiet for 30 minutes, or at once after `REFRESH_EVENTS` new events, so a busy
conversation is not summarized again at every turn. `build_context` puts its L3 first.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime

from memoir.errors import UserError
from memoir.llm import LLM
from memoir.model import Event, now_ms
from memoir.store import EventQuery, Store
from memoir.timeline.adaptive import summarize_conversation
from memoir.vault.summaries import SummaryFiles

__all__ = ["ConversationSummaryJob"]

log = logging.getLogger("memoir.timeline")

QUIET_MS = 30 * 60_000
REFRESH_EVENTS = 50
PAGE = 1000


class ConversationSummaryJob:
    name = "conversation_summary"
    lane = "llm"  # it may wait on a model

    def __init__(
        self,
        store: Store,
        files: SummaryFiles,
        llm: Callable[[], LLM],
        *,
        unified: bool = False,
        clock: Callable[[], int] = now_ms,
    ) -> None:
        self.store = store
        self.files = files
        self.llm = llm
        self.unified = unified
        self.clock = clock

    def due(self) -> list[tuple[str, str | None, int]]:
        """(conversation, agent, events) of every summary to write now."""
        sizes = self.store.conversation_sizes(by_agent=self.unified)  # one aggregate: asked at every flush poll
        marks = self.store.summary_marks()
        now = self.clock()
        due = []
        for (conversation_id, agent_id), (events, last_ms) in sizes.items():
            done = marks.get((conversation_id, agent_id), 0)
            if events > done and (now - last_ms > QUIET_MS or events - done >= REFRESH_EVENTS):
                due.append((conversation_id, agent_id, events))
        return due

    def backlog(self) -> int:
        return len(self.due())

    def tick(self) -> int:
        written = 0
        for conversation_id, agent_id, events in self.due()[:5]:
            try:
                self.refresh(conversation_id, agent_id, events)
            except UserError as exc:
                # A person's file in the way (a folder linked out of the vault, say): this
                # conversation's summary waits for its next events; the others go on.
                log.warning("conversation summary of %r not written: %s", conversation_id, exc)
                self.store.summary_mark(conversation_id, agent_id, events, "not written", self.clock())
            written += 1
        return written

    def refresh(self, conversation_id: str, agent_id: str | None, events: int) -> None:
        turns = [e for e in self._events(conversation_id, agent_id) if e.text.strip()]
        summary = summarize_conversation(conversation_id, turns, self.llm(), agent_id=agent_id)
        self.files.write(summary, now=datetime.fromtimestamp(self.clock() / 1000, UTC))
        self.store.summary_mark(conversation_id, agent_id, events, summary.level.value, self.clock())

    def _events(self, conversation_id: str, agent_id: str | None) -> list[Event]:
        found: list[Event] = []
        query = EventQuery(conversation_id=conversation_id, agent_id=agent_id, limit=PAGE)
        while True:
            page = self.store.scan(query)
            found.extend(page)
            if len(page) < PAGE:
                return found
            query = EventQuery(
                conversation_id=conversation_id,
                agent_id=agent_id,
                limit=PAGE,
                after=(page[-1].timestamp_ms, page[-1].event_id),
            )
