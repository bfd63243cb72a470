"""What memoir needs from a database, whatever the engine, as seven small roles.

Two engines implement them: SQLite (`memoir.store.sqlite`, the embedded default) and
PostgreSQL (`memoir.store.postgres`, for shared deployments), over the statements they share
(`memoir.store.sql`). Everything above this layer talks to these protocols, never to a driver.

The roles, each a `Protocol` whose docstring is its contract:
- `Database`: location, transactions (`atomic()`), statistics, integrity, closing;
- `EventLog`: the immutable, append-only events and the session catalogue;
- `OutboxQueue`: the outbox written with each event, checkpoints, runner leases;
- `SearchIndex`: the derived search index and the embedding cache;
- `MemoryMirror`: the rows that mirror the vault's memory files;
- `ModelState`: each model's circuit breaker, the ledger of LLM calls, servers' formats;
- `TimelineStore`: segments, versioned TOC nodes, grips, the scheduler's job state.

`Store` is all of them together. They are split so that a backend can be built, and
tested, one role at a time, and so that code needing one role says so. The records they
take and return (`EventQuery`, `IndexItem`, `StoreStats`, ...) are in `records.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Protocol

from memoir.model import Event, OutboxEntry
from memoir.model.memory import Memory
from memoir.model.timeline import Grip, Segment, TocLevel, TocNode
from memoir.store.records import (
    BreakerRow,
    Checkpoint,
    EventQuery,
    IndexItem,
    IndexScope,
    SessionInfo,
    StoreStats,
    Tuning,
)

__all__ = [
    "INDEX_WRITES",
    "Database",
    "EventLog",
    "MemoryMirror",
    "ModelState",
    "OutboxQueue",
    "RunnerLease",
    "SearchIndex",
    "Store",
    "TimelineStore",
]


# The name a transaction gives `Database.exclusive` before it changes rows and then the search index.
INDEX_WRITES = "memoir:index-writes"


class RunnerLease(Protocol):
    """Held by the one outbox runner allowed to work a lane of a store; released on exit or process death."""

    def release(self) -> None: ...


class Database(Protocol):
    """The engine itself: where it lives, its transactions, its health.

    `atomic()` groups writes; blocks nest and join the outermost one of their thread.
    A job's writes and the removal of its outbox entries happen in one `atomic()`
    block, which is what makes store-side jobs run exactly once. `integrity_check`
    returns `["ok"]` when the engine finds nothing wrong, else what it found.
    """

    backend: str
    location: str

    def atomic(self) -> AbstractContextManager[None]: ...

    def exclusive(self, names: Sequence[str]) -> None:
        """Inside `atomic()`: no other transaction holding one of these names runs until this one ends.

        For read-then-write steps (is this memory stored already?) that must not interleave
        across processes, and `INDEX_WRITES` for a transaction that will write the search index
        after other rows (named first, so that writers take their locks in one order). SQLite's
        write lock serializes every transaction already.
        """
        ...

    def stats(self) -> StoreStats: ...

    def integrity_check(self) -> list[str]: ...

    def tuning(self, model: str) -> list[Tuning]:
        """The engine's settings that depend on the data, each weighed against it (searches with `model`'s vectors)."""
        ...

    def close(self) -> None: ...


class EventLog(Protocol):
    """The immutable, append-only event log and the session catalogue derived from it.

    `append` writes new events and their outbox entries in one transaction and returns
    only after that transaction is durable; an event whose id is already stored is not
    written again (the stored one is returned instead). Events are never updated or
    deleted, and the database itself refuses to. Reads return events equal to those
    appended; scans are in (timestamp, event id) order.
    """

    def append(self, events: Sequence[Event], actions_for: Callable[[Event], Iterable[str]]) -> list[Event]: ...

    def get(self, event_id: str) -> Event | None: ...

    def get_many(self, event_ids: Sequence[str]) -> dict[str, Event]: ...

    def scan(self, query: EventQuery) -> list[Event]: ...

    def count_events(self, query: EventQuery | None = None) -> int: ...

    def event_days(self, conversation_id: str, agent_id: str | None = None) -> list[tuple[int, int]]:
        """(day since 1970 UTC, events that day) of a conversation, in order."""
        ...

    def track_sessions(self, events: Sequence[Event]) -> None: ...

    def sessions(self, conversation_id: str | None = None) -> Iterator[SessionInfo]: ...


class OutboxQueue(Protocol):
    """The outbox written by `append`, the jobs' checkpoints and the runner leases.

    Entries of one action come out in FIFO order (`seq`); an entry disappears only when
    `complete_outbox` runs, in the same `atomic()` block as its job's writes, and loses
    finished events (keeping its `seq`) only when `shrink_outbox` runs in such a block. Runners
    claim entries by action: a lane of runners passes only its own jobs' actions to
    `next_outbox` and `outbox_pending`. `try_runner_lease(lane)` admits one runner per
    lane across processes, and frees the lane when the holder dies. `replayable_writes`
    lets a runner's thread trade durability of its newest commits for speed, since
    whatever such a commit loses its outbox entries bring back. `periodic_turn(name)` lets one
    process at a time tick a periodic job, whichever runners of other processes share the store.
    """

    def next_outbox(self, actions: Sequence[str], limit: int, now_ms: int) -> list[OutboxEntry]: ...

    def complete_outbox(self, action: str, entries: Sequence[OutboxEntry], now_ms: int) -> None: ...

    def shrink_outbox(self, entry: OutboxEntry, left: OutboxEntry, now_ms: int) -> None: ...

    def split_outbox(self, entry: OutboxEntry, timestamps: dict[str, int]) -> list[OutboxEntry]: ...

    def fail_outbox(self, entry: OutboxEntry, error: str, retry_at_ms: int, give_up: bool, now_ms: int) -> None: ...

    def retry_failed(self, action: str | None = None) -> int: ...

    def outbox_pending(self, actions: Sequence[str] | None = None, now_ms: int | None = None) -> int: ...

    def outbox_entries(self, event_id: str | None = None) -> list[OutboxEntry]: ...

    def checkpoints(self) -> list[Checkpoint]: ...

    def try_runner_lease(self, lane: str = "fast") -> RunnerLease | None: ...

    def replayable_writes(self) -> None: ...

    def periodic_turn(self, name: str) -> AbstractContextManager[bool]:
        """Whether this process may tick the periodic job `name` now (held for the block's duration)."""
        ...


class SearchIndex(Protocol):
    """The search index: items with provenance, a keyword index and an embedding cache.

    Derived data: `index_clear` may drop all of it, and a reindex writes it again from the
    event log and the memories, in place (decision 93). An item is keyed by its `ref`; adding
    a ref again replaces it, unless nothing changed (it then keeps its id), and an item
    written again without the turn after it keeps the one recorded (a rebuild's page does
    not know it yet). Item ids only grow and are never reused. The ids of removed (or replaced)
    items go to a log that searchers holding vectors in memory follow; when the index is
    cleared, or the log cut, the generation goes up and they reload everything. Embeddings
    are cached by (model, content hash): unchanged text is never embedded twice.

    `searches_vectors`: the database ranks vectors itself (PostgreSQL with pgvector), so a
    search reads its candidates in one statement (`search_candidates`, `database_vectors`)
    rather than keeping every vector in memory (`memoir.index.vectors`).
    """

    searches_vectors: bool

    def index_add(self, items: Sequence[IndexItem]) -> None: ...

    def index_remove(self, refs: Sequence[str]) -> None: ...

    def index_clear(self) -> None: ...

    def index_new_generation(self) -> None:
        """Have searchers holding vectors load them all again (a rebuild may have added vectors)."""
        ...

    def index_refs_not_of_kind(self, kind: str) -> set[str]:
        """The refs of every item of another kind than `kind` (memories and summaries, besides turns)."""
        ...

    def index_generation(self) -> int: ...

    def index_removals(self, after_seq: int | None) -> tuple[list[int], int]: ...

    def index_count(self, kind: str | None = None) -> int: ...

    def index_without_vectors(self, model: str) -> int: ...

    def index_items(self, item_ids: Sequence[int]) -> dict[int, IndexItem]: ...

    def index_items_by_ref(self, refs: Sequence[str]) -> set[str]: ...

    def index_items_of_kind(self, kind: str, conversation_id: str, after_item_id: int = 0) -> list[IndexItem]:
        """A conversation's items of one kind with an id above `after_item_id`, by id (a copy kept in step)."""
        ...

    def index_vectors(self, model: str, after_item_id: int) -> list[tuple[int, str, str | None, str, int, bytes]]: ...

    def index_neighbours(self, item: IndexItem, before: int, after: int) -> list[IndexItem]: ...

    def index_neighbours_many(self, items: Sequence[IndexItem], before: int, after: int) -> dict[int, list[IndexItem]]:
        """`index_neighbours` of each item, by item id (one query where a query is a round trip)."""
        ...

    def index_last_in_session(self, item: IndexItem) -> IndexItem | None: ...

    def index_set_context_after(self, item_id: int, text: str) -> None: ...

    def keyword_search(self, match: str, scope: IndexScope, limit: int) -> list[tuple[int, float]]: ...

    def keyword_document_counts(self, words: Sequence[str]) -> tuple[int, dict[str, int]]:
        """The rows of the keyword index, and how many hold each word (counted up to half of them)."""
        ...

    def embeddings_load(self, model: str, hashes: list[str]) -> dict[str, bytes]: ...

    def embeddings_save(self, model: str, pairs: list[tuple[str, bytes]]) -> None: ...


class MemoryMirror(Protocol):
    """Memories as rows, for queries; the vault's files are the source of truth.

    Rows are rebuilt from the vault whenever they disagree, so a mirror may be dropped
    and refilled. `memory_save` replaces the row of the same id; `memory_files` is the
    vault as last seen (id -> path, file hash), which is how changes are found.
    """

    def memory_save(self, memory: Memory, path: str, file_hash: str) -> None: ...

    def memory_get(self, memory_id: str) -> Memory | None: ...

    def memory_predecessor(self, memory_id: str) -> Memory | None: ...

    def memory_mark_unreadable(self, memory_id: str, reason: str, file_hash: str) -> None: ...

    def memory_file(self, memory_id: str) -> str | None: ...

    def memory_find(
        self, conversation_id: str, kind: str, content: str, agent_id: str | None = None
    ) -> Memory | None: ...

    def memory_list(
        self,
        conversation_id: str | None = None,
        kind: str | None = None,
        include_deleted: bool = False,
        visible_to: str | None = None,
        newest: int | None = None,
    ) -> list[Memory]: ...

    def memory_key_facts(self, recent: int) -> list[Memory]:
        """Live memories tagged `important`, and the `recent` latest of the others (facts.md)."""
        ...

    def memory_counts(self, conversation_id: str) -> dict[str | None, int]:
        """Live memories of a conversation other than summaries, per owning agent (None: shared)."""
        ...

    def memory_files(self) -> dict[str, tuple[str, str]]: ...

    def memory_live_ids(self) -> set[str]: ...

    def memory_unreadable_count(self) -> int: ...


class ModelState(Protocol):
    """What the LLM path keeps for every process of a home: each model's circuit breaker, the ledger."""

    def breaker_row(self, key: str) -> BreakerRow: ...

    def breaker_update(self, key: str, change: Callable[[BreakerRow], BreakerRow]) -> BreakerRow: ...

    def ledger_add(
        self, at_ms: int, job: str, model: str, prompt: int, completion: int, duration_ms: int, outcome: str
    ) -> None: ...

    def ledger_usage(self, since_ms: int = 0) -> dict[str, tuple[int, int, int]]: ...

    def ledger_outcomes(self, since_ms: int = 0) -> dict[str, dict[str, int]]:
        """job -> {outcome: operations} since `since_ms` (ok, rejected, timed out, failed)."""
        ...

    def ledger_days(self, since_ms: int = 0) -> list[tuple[int, str, int, int, int, int]]:
        """(day since 1970 UTC, job, calls, prompt tokens, completion tokens, ms) since `since_ms`."""
        ...

    def server_formats(self, base_url: str) -> list[str] | None: ...

    def set_server_formats(self, base_url: str, formats: Sequence[str]) -> None: ...


class TimelineStore(Protocol):
    """The timeline (seed 002): segments, versioned TOC nodes with a latest pointer, grips;
    and the scheduler's per-job state. A scope is a conversation and an agent (None outside
    unified mode); node ids are unique within a scope, grip ids everywhere."""

    def segment_open(self, conversation_id: str, agent_id: str | None, session_id: str) -> Segment | None: ...

    def segment_save(self, segment: Segment) -> None: ...

    def segments(self, state: str, *, ended_before_ms: int | None = None, limit: int = 100) -> list[Segment]: ...

    def segment_counts(self, ended_before_ms: int | None = None) -> dict[str, int]: ...

    def toc_put(self, node: TocNode, grips: Sequence[Grip] = (), *, created_ms: int) -> TocNode: ...

    def toc_get(
        self, conversation_id: str, agent_id: str | None, node_id: str, version: int | None = None
    ) -> TocNode | None: ...

    def toc_scopes_of(self, node_id: str, agent_id: str | None) -> list[str]: ...

    def toc_children(
        self,
        conversation_id: str,
        agent_id: str | None,
        parent_id: str | None,
        *,
        after: tuple[int, str] | None = None,
        limit: int = 1000,
        level: TocLevel | None = None,
    ) -> list[TocNode]: ...

    def toc_stale_parents(self, level: TocLevel) -> list[tuple[str, str | None, str, bool]]: ...

    def toc_conversations(self, agent_id: str | None, *, all_agents: bool = False) -> list[tuple[str, str | None]]: ...

    def toc_count(self) -> int: ...

    def grip_get(self, grip_id: str) -> Grip | None: ...

    def grips_get(self, grip_ids: Sequence[str]) -> dict[str, Grip]: ...

    def conversation_sizes(self, by_agent: bool) -> dict[tuple[str, str | None], tuple[int, int]]: ...

    def summary_marks(self) -> dict[tuple[str, str | None], int]: ...

    def summary_mark(self, conversation_id: str, agent_id: str | None, events: int, level: str, at_ms: int) -> None: ...

    def job_states(self) -> dict[str, tuple[bool, int | None, int, int, str | None]]: ...

    def job_pause(self, name: str, paused: bool) -> None: ...

    def job_ran(self, name: str, at_ms: int, error: str | None = None, done: int = 1) -> None: ...

    def paused_jobs(self) -> set[str]: ...


class Store(Database, EventLog, OutboxQueue, SearchIndex, MemoryMirror, ModelState, TimelineStore, Protocol):
    """Everything memoir needs from a database: the seven roles together.

    Code above the store asks for `Store`; a function that needs one role only may ask
    for that role, which is how a second backend can arrive role by role.
    """
