"""The `extract_facts` job: user messages become facts in the vault, reconciled with what is known.

Each user message is read by the rules (`changes.read`: its facts, and what it says
changed) against the live facts of its conversation (and agent), which the rules
reconcile (`rule_decisions.reconcile_known`): those that share a word or a topic with what it
says, the only ones it can change or say again, found through an index kept in memory
between messages (`live`), never by reading every fact for each message. With a model
configured, the model is asked too: its facts are added where the rules have none like
them (`extract`), and its reconciliation may replace or delete a known fact where the
message says something changed (`reconcile`). The model only ever adds to the rules: a
model that is down, slow, or answers nonsense leaves the rules' result.

All of its work happens in `prepare`, outside the runner's transaction: it calls a model
(seconds) and writes files, neither of which may hold the database's write lock. It is
safe to repeat after a crash: the same fact again changes nothing, and an update whose
old memory is already a tombstone is not applied twice. `run` has nothing left to do.
With a model it commits after every event (`commit_every`), so a worker killed again and
again still moves a backlog forward; without one, rules take microseconds per event and a
whole claim is settled at once.

Model calls per user turn: none when the message says nothing in the first person; one
for extraction; one more for reconciliation when the message says something changed and
facts would be added beside existing ones nearby (only such a message may change a known
fact, so asking otherwise would spend seconds on an answer that cannot be used).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from memoir.errors import NotFound
from memoir.index.keyword import terms
from memoir.index.spoken_dates import with_dates
from memoir.ingest.answers import restates_any, said_again
from memoir.ingest.changes import Reading, read
from memoir.ingest.extract import extract_with_llm, worth_extracting
from memoir.ingest.live import FactCache, LiveFacts
from memoir.ingest.partings import declined_by
from memoir.ingest.reconcile import reconcile_with_llm, same_topic
from memoir.ingest.rule_decisions import Decision, Names, reconcile_known
from memoir.ingest.rules import Statement
from memoir.ingest.topics import topics
from memoir.ingest.values import values
from memoir.llm import LLM
from memoir.model import Event, EventType, Memory
from memoir.model.secrets import holds_secret
from memoir.store import EventQuery, Store
from memoir.vault import MemoryBook, MemoryDraft

__all__ = ["ExtractFactsJob", "ExtractionStats"]

log = logging.getLogger("memoir.ingest")
NEIGHBOURS = 5  # existing facts shown to a model per new fact (the reference's neighbourhood)


@dataclass
class ExtractionStats:
    turns: int = 0
    facts: int = 0
    decisions: dict[str, int] = field(default_factory=dict)


# Events looked back over for the user's message before one: the assistant's answer, tool calls and their
# results may come between.
_LOOK_BACK = 6


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
        self.nearest = nearest  # the facts a model is shown beside a new one
        self.max_entries = max_entries
        self.stats = ExtractionStats()
        # The live facts of each conversation (and agent) the rules compare with, kept between batches.
        self.facts = FactCache(book.store, unified=book.unified)
        self._lock = threading.Lock()  # one batch at a time reads and changes `facts`

    def wants(self, event: Event) -> bool:
        return event.event_type is EventType.USER_MESSAGE and bool(event.text.strip())

    @property
    def commit_every(self) -> int | None:
        """With a model, one event per commit: each costs seconds, and a crash must lose at most one."""
        return 1 if self.llm().configured else None

    def prepare(self, events: Sequence[Event], store: Store) -> None:
        """Read, then settle, each event in order; facts.md once and eviction once per batch.

        The rules read the whole batch first and its facts are embedded in one call (each later
        embedding of a fact, as content or as a query, is then a cache hit); a model takes seconds
        per call, so with one each event is settled as soon as it is read.
        """
        llm = self.llm()
        with self._lock, self.book.batch():
            before = {event.event_id: self._before(event, store) for event in events}
            if not llm.configured:
                self.book.embedder.embed_hashed([s.text for e in events for s in self._read(e, before[e.event_id])])
            for event in events:
                self._settle(event, llm, before[event.event_id])
            for conversation_id in dict.fromkeys(event.facts_conversation for event in events):
                self._evict(conversation_id)

    def run(self, events: Sequence[Event], store: Store) -> None:
        """Nothing: `prepare` did the work (the vault is outside the transaction)."""

    def _live(self, event: Event) -> LiveFacts:
        """The live facts of the event's facts' conversation (and agent), as the store has them now."""
        return self.facts.live(event.facts_conversation, event.agent_id)

    def _read(self, event: Event, before: str) -> list[Statement]:
        live = self._live(event)
        readings = read(event.text, live.words, before, live.names, (fact.text for fact in live))
        return [s for r in readings for s in r.statements]

    @staticmethod
    def _before(event: Event, store: Store) -> str:
        """The user's message before this one in its session: whom "his name is Herr Vogel" names."""
        query = EventQuery(
            session_id=event.session_id,
            conversation_id=event.conversation_id,
            agent_id=event.agent_id,
            before=(event.timestamp_ms, event.event_id),
            limit=_LOOK_BACK,
            newest_first=True,
        )
        earlier = (e for e in store.scan(query) if e.event_type is EventType.USER_MESSAGE)
        return next((e.text for e in earlier if e.text.strip()), "")

    def _settle(self, event: Event, llm: LLM, before: str = "") -> None:
        """Read the event, decide what it does to the known facts (rules, then a model's additions), do it."""
        self.stats.turns += 1
        live = self._live(event)  # with what this batch's earlier events changed
        names = live.words
        readings = read(event.text, names, before, live.names, (fact.text for fact in live))
        ruled = [s for r in readings for s in r.statements]
        if llm.configured and (ruled or worth_extracting(event.text)):
            taken_back = _taken_back(readings)
            added = llm.run(
                lambda client: extract_with_llm(client, event.text, ruled, taken_back, names),
                lambda: [],
                job=self.name,
                background=True,
            )
            if added.value:
                readings.append(Reading(event.text, tuple(Statement(f, source="llm") for f in added.value)))
        decisions = reconcile_known(readings, live.named_by(readings))
        if llm.configured:
            decisions = self._with_model(decisions, readings, event, llm)
        decisions += _model_echoes(decisions, live, readings)
        decisions = _without_old_places(decisions, live)
        decisions = _without_the_declined(decisions, readings)
        # A fact that says a secret ("The user's AWS key is [MASKED]") tells nothing worth
        # injecting, and says where a secret was: it is never kept.
        decisions = [d for d in decisions if d.event == "DELETE" or not holds_secret(d.text)]
        self._apply_all(decisions, event)
        self.stats.facts += sum(len(r.statements) for r in readings)

    def _with_model(
        self, decisions: list[Decision], readings: Sequence[Reading], event: Event, llm: LLM
    ) -> list[Decision]:
        """The rules' decisions, with what a model's reconciliation adds where the guards let it."""
        changing = any(r.changing for r in readings)
        adds = [d for d in decisions if d.event == "ADD"]
        if not changing or not adds:  # only a message that says something changed may change what is known
            return decisions
        neighbours = self._neighbours([d.text for d in adds], event)
        if not neighbours:
            return decisions
        answer = llm.run(
            lambda client: reconcile_with_llm(client, [d.text for d in adds], neighbours),
            lambda: [],
            job=self.name,
            background=True,
        )
        touched = {d.memory_id for d in decisions if d.memory_id}
        merged = list(decisions)
        for proposal in answer.value:
            if proposal.memory_id in touched or proposal.event not in ("UPDATE", "DELETE"):
                continue
            old = next(m for m in neighbours if m.id == proposal.memory_id)
            if proposal.event == "UPDATE" and same_topic(old.content, proposal.text) and _keeps_topic(old, proposal):
                add = next((d for d in merged if d.event == "ADD" and d.text == proposal.text), None)
                if add is not None:  # the model says which known fact the new one replaces
                    merged[merged.index(add)] = replace(add, event="UPDATE", memory_id=old.id, reconciled_by="llm")
                    touched.add(old.id)
            elif proposal.event == "DELETE" and any(_one_topic(old.content, d.text) for d in adds):
                merged.append(replace(proposal, reconciled_by="llm"))
                touched.add(old.id)
        return merged

    def _neighbours(self, texts: Sequence[str], event: Event) -> list[Memory]:
        found: dict[str, Memory] = {}
        for text in texts:
            for memory in self.nearest(text, event)[:NEIGHBOURS]:
                found.setdefault(memory.id, memory)
        return list(found.values())

    def _apply_all(self, decisions: Sequence[Decision], event: Event) -> None:
        """Decisions in their order, ADDs written together (one embedding call, one transaction).

        An UPDATE or DELETE first writes the ADDs listed before it, so decisions take effect in
        the order given. The scope's live facts (`facts`) follow from the store at the next event.
        A memory a decision updated has a new id: a later decision on it is about that version.
        """
        adds: list[Decision] = []
        versions: dict[str, str] = {}
        for decision in decisions:
            self.stats.decisions[decision.event] = self.stats.decisions.get(decision.event, 0) + 1
            if decision.event == "ADD":
                adds.append(decision)
            elif decision.event in ("UPDATE", "DELETE"):
                self._add(adds, event)
                adds = []
                if decision.memory_id in versions:
                    decision = replace(decision, memory_id=versions[decision.memory_id])
                if (updated := self._apply(decision, event)) is not None and decision.memory_id:
                    versions[decision.memory_id] = updated
        self._add(adds, event)

    def _add(self, decisions: list[Decision], event: Event) -> None:
        if not decisions:
            return
        drafts = [
            MemoryDraft(
                with_dates(d.text, event.timestamp),  # "yesterday" read next month still says which day
                conversation_id=event.facts_conversation,
                tags=("important",) if d.important else (),
                event_ids=(event.event_id,),
                source=d.source,
                agent_id=event.agent_id,  # unified mode: the speaker's agent owns the fact
                reconciled_by=d.reconciled_by,
            )
            for d in decisions
        ]
        self.book.remember_many(drafts)

    def _apply(self, decision: Decision, event: Event) -> str | None:
        """The decision done; an UPDATE's new version's id."""
        if not decision.memory_id:
            return None
        try:
            # Only a memory the speaker could see, of the event's own conversation: a model may
            # name any id, and another agent's or conversation's memory is not its to change.
            target = self.book.get(decision.memory_id, agent_id=event.agent_id if self.book.unified else None)
            scope = event.facts_conversation
            if target.conversation_id != scope or (self.book.unified and target.agent_id is None):
                raise NotFound(f"{decision.memory_id} is not the speaker's memory of {scope}")
            if target.deleted:  # a replay: already done
                return None
            if decision.event == "UPDATE":
                return self.book.update(
                    target.id,
                    # the phrases it kept keep their days; one the message says again is dated anew
                    with_dates(decision.text, event.timestamp, target.content, event.text.lower()),
                    event_ids=[event.event_id],
                    source=decision.source,
                    reconciled_by=decision.reconciled_by,
                ).id
            if decision.event == "DELETE":
                self.book.forget(target.id)
        except NotFound:
            log.warning("skipping %s of a memory that is gone or out of scope: %s", decision.event, decision.memory_id)
        return None

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


def _one_topic(old: str, new: str) -> bool:
    """May a model delete `old` for `new`: both on a topic that holds one value (a home, a job, a name).
    A shared word is not enough ("The user became team lead for Atlas" for "the atlas deadline slipped")."""
    return bool({t.key for t in topics(old)} & {t.key for t in topics(new)})


def _keeps_topic(old: Memory, proposal: Decision) -> bool:
    """A fact on a topic that holds one value (a name, a home, a job) is replaced only on that topic: a
    recorded answer put "The user's hospital name is …" in place of "The user's name is Hiroshi Tanaka"."""
    held = {t.key for t in topics(old.content)}
    return not held or bool(held & {t.key for t in topics(proposal.text)})


def _taken_back(readings: Sequence[Reading]) -> list[str]:
    """What the message says no longer holds: clauses taken back, old values, the "from" of "from A to B"."""
    return [old for r in readings for old in (*r.retracted, *r.old, *(p[0] for p in r.pairs))]


def _model_echoes(decisions: Sequence[Decision], live: LiveFacts, readings: Sequence[Reading]) -> list[Decision]:
    """DELETEs of a model's earlier facts that say what this message's change took away.

    The rules replace their own facts by topic and value; a model's fact says the same in its
    own words ("The user's wedding will have 140 guests" beside the rules' "...has about 140
    guests"), and without this it would stay live, stale, after the rules' fact was replaced.
    """
    changed = {d.memory_id: d for d in decisions if d.event in ("UPDATE", "DELETE") and d.memory_id}
    if not changed and not any(r.changing for r in readings):
        return []
    taken_back = _taken_back(readings)
    replaced = [(fact.text, decision) for memory_id, decision in changed.items() if (fact := live.get(memory_id))]
    echoes = []
    # Only a fact naming what was taken back, or sharing a stem with what was replaced, can say it again.
    for fact in live.near(Names(sharing=tuple(old for old, _ in replaced), words=tuple(taken_back))):
        if fact.source != "llm" or fact.id in changed:
            continue
        if restates_any(fact.text, taken_back) or any(
            said_again(fact.text, old, d.text if d.event == "UPDATE" else None) for old, d in replaced
        ):
            echoes.append(Decision("DELETE", fact.text, memory_id=fact.id))
    return echoes


def _without_old_places(decisions: Sequence[Decision], live: LiveFacts) -> list[Decision]:
    """A model's new fact naming a place or name this message's change took away tells of the old value: not kept.

    "The landlord in Baner is selling the flat", read beside the rules' move from a 2BHK in Baner to one in
    Hinjewadi, would keep Baner live after the user left it (the model's facts of earlier messages that say the
    old value again are `_model_echoes`).
    """
    gone: set[str] = set()
    for decision in decisions:
        if decision.event in ("UPDATE", "DELETE") and decision.memory_id and (fact := live.get(decision.memory_id)):
            now = {v.key for v in values(decision.text)} if decision.event == "UPDATE" else set()
            gone |= {v.key for v in values(fact.text) if v.kind in ("place", "name")} - now
    if not gone:
        return list(decisions)
    return [
        d for d in decisions if not (d.event == "ADD" and d.source == "llm" and gone & {v.key for v in values(d.text)})
    ]


def _without_the_declined(decisions: Sequence[Decision], readings: Sequence[Reading]) -> list[Decision]:
    """A model's new fact naming an organisation the same message says declined the user is of what ended: not kept.

    "Cloudflare: rejected." gave "The user's cloudflare provider rejected"; "Nandos ghosted me but Greggs … said yes"
    gave a job at Nandos. The rules take back what was known of it (`partings`); the model's words would keep it.
    """
    declined = {word for r in readings if r.gone for word in terms(declined_by(r.text, r.message))}
    if not declined:
        return list(decisions)
    return [d for d in decisions if not (d.event == "ADD" and d.source == "llm" and declined & set(terms(d.text)))]
