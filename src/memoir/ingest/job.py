"""The `extract_facts` job: user messages become facts in the vault, reconciled with what is known.

All of its work happens in `prepare`, outside the runner's transaction: it calls an LLM
(seconds) and writes files, neither of which may hold the database's write lock. It is
safe to repeat after a crash: the same fact again changes nothing, and an update whose
old memory is already a tombstone is not applied twice. `run` has nothing left to do.
With a model it commits after every event (`commit_every`), so a worker killed again and
again still moves a backlog forward; without one, rules take microseconds per event and a
whole claim is settled at once.

LLM calls per user turn: none when the message says nothing in the first person; one for
extraction; one more for reconciliation when there are existing facts nearby.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from memoir.errors import NotFound
from memoir.ingest.extract import extract_by_rules, extract_with_llm, worth_extracting
from memoir.ingest.reconcile import Decision, reconcile_by_rules, reconcile_with_llm
from memoir.llm import LLM, Sourced
from memoir.model import Event, EventType, Memory
from memoir.store import Store
from memoir.vault import MemoryBook, MemoryDraft

__all__ = ["ExtractFactsJob", "ExtractionStats"]

log = logging.getLogger("memoir.ingest")
NEIGHBOURS = 5  # existing facts fetched per new fact (the reference's neighbourhood)


@dataclass
class ExtractionStats:
    turns: int = 0
    facts: int = 0
    decisions: dict[str, int] = field(default_factory=dict)


class ExtractFactsJob:
    name = "extract_facts"
    lane = "llm"  # it waits on a model: never in the lane that makes turns searchable

    def __init__(
        self,
        book: MemoryBook,
        llm: Callable[[], LLM],
        nearest: Callable[[str, Event], list[Memory]],
        max_entries: int = 500,
    ) -> None:
        self.book = book
        self.llm = llm  # a callable: the client is built on first use, not at open
        self.nearest = nearest
        self.max_entries = max_entries
        self.stats = ExtractionStats()

    def wants(self, event: Event) -> bool:
        return event.event_type is EventType.USER_MESSAGE and bool(event.text.strip())

    @property
    def commit_every(self) -> int | None:
        """With a model, one event per commit: each costs seconds, and a crash must lose at most one."""
        return 1 if self.llm().configured else None

    def prepare(self, events: Sequence[Event], store: Store) -> None:
        """Extract, then settle, a chunk of events at a time; facts.md once and eviction once per batch.

        Rules extract in microseconds, so without a model the whole batch is extracted first and all
        its facts embedded in one call (each later embedding of a fact, as content or as a query,
        is then a cache hit). A model takes seconds per call, so with one each event is settled as
        soon as its facts are known rather than after every extraction of the batch.
        """
        llm = self.llm()
        chunk = 1 if llm.configured else max(1, len(events))
        with self.book.batch():
            for start in range(0, len(events), chunk):
                extracted = [(event, self._extract(event, llm)) for event in events[start : start + chunk]]
                self.book.embedder.embed_hashed([fact for _, facts in extracted for fact in facts.value])
                for event, facts in extracted:
                    self._settle(event, facts, llm)
            for conversation_id in dict.fromkeys(event.conversation_id for event in events):
                self._evict(conversation_id)

    def run(self, events: Sequence[Event], store: Store) -> None:
        """Nothing: `prepare` did the work (the vault is outside the transaction)."""

    def _extract(self, event: Event, llm: LLM) -> Sourced[list[str]]:
        self.stats.turns += 1
        if not worth_extracting(event.text):
            return Sourced([], "heuristics")
        return llm.run(
            lambda client: extract_with_llm(client, event.text), lambda: extract_by_rules(event.text), job=self.name
        )

    def _settle(self, event: Event, facts: Sourced[list[str]], llm: LLM) -> list[Decision]:
        """Reconcile an event's facts with the nearest known ones and carry out the decisions."""
        if not facts.value:
            return []
        existing = self._existing(facts.value, event)
        decided = llm.run(
            lambda client: reconcile_with_llm(client, facts.value, existing),
            lambda: reconcile_by_rules(facts.value, existing),
            job=self.name,
        )
        self._apply_all(decided.value, event, facts.source, decided.source)
        self.stats.facts += len(facts.value)
        return decided.value

    def _existing(self, facts: Sequence[str], event: Event) -> list[Memory]:
        found: dict[str, Memory] = {}
        for fact in facts:
            for memory in self.nearest(fact, event)[:NEIGHBOURS]:
                found.setdefault(memory.id, memory)
        return list(found.values())

    def _apply_all(self, decisions: Sequence[Decision], event: Event, source: str, reconciled_by: str) -> None:
        """Decisions in their order, ADDs written together (one embedding call, one transaction).

        An UPDATE or DELETE first writes the ADDs listed before it, so decisions take effect in
        the order given (an ADD may merge into a memory that a later DELETE removes).
        """
        adds: list[MemoryDraft] = []
        for decision in decisions:
            self.stats.decisions[decision.event] = self.stats.decisions.get(decision.event, 0) + 1
            if decision.event == "ADD":
                adds.append(
                    MemoryDraft(
                        decision.text,
                        conversation_id=event.conversation_id,
                        event_ids=(event.event_id,),
                        source=source,
                        agent_id=event.agent_id,  # unified mode: the speaker's agent owns the fact
                        reconciled_by=reconciled_by,
                    )
                )
            elif decision.event in ("UPDATE", "DELETE"):
                self._add(adds)
                adds = []
                self._apply(decision, event, source, reconciled_by)
        self._add(adds)

    def _add(self, drafts: list[MemoryDraft]) -> None:
        if drafts:
            self.book.remember_many(drafts)

    def _apply(self, decision: Decision, event: Event, source: str, reconciled_by: str) -> None:
        if not decision.memory_id:
            return
        try:
            # Only a memory the speaker could see, of the event's own conversation: a model may
            # name any id, and another agent's or conversation's memory is not its to change.
            target = self.book.get(decision.memory_id, agent_id=event.agent_id if self.book.unified else None)
            if target.conversation_id != event.conversation_id or (self.book.unified and target.agent_id is None):
                raise NotFound(f"{decision.memory_id} is not the speaker's memory of {event.conversation_id}")
            if target.deleted:  # a replay: already done
                return
            if decision.event == "UPDATE":
                self.book.update(
                    target.id, decision.text, event_ids=[event.event_id], source=source, reconciled_by=reconciled_by
                )
            elif decision.event == "DELETE":
                self.book.forget(target.id)
        except NotFound:
            log.warning("skipping %s of a memory that is gone or out of scope: %s", decision.event, decision.memory_id)

    def _evict(self, conversation_id: str) -> None:
        """Seed 004, 4.5: beyond max_entries, the oldest memories are soft-deleted (summaries exempt)."""
        counts = self.book.store.memory_counts(conversation_id)  # each agent's memories count apart (unified mode)
        if all(count <= self.max_entries for count in counts.values()):
            return  # the usual case: no need to read every memory of the conversation
        owners: dict[str | None, list[Memory]] = {}
        for memory in self.book.store.memory_list(conversation_id):
            if memory.kind.value != "summary":
                owners.setdefault(memory.agent_id, []).append(memory)
        for live in owners.values():
            for memory in sorted(live, key=lambda m: m.created_at)[: max(0, len(live) - self.max_entries)]:
                self.book.forget(memory.id)
