"""The plain records the store's roles take and return: queries, rows, index items, scopes, statistics.

Frozen dataclasses with no behaviour (and `BreakerRow`, a tuple), shared by the role
protocols (`base.py`), the statements both backends share (`sql/`) and the backends
themselves; code above the store imports them from `memoir.store`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = [
    "BreakerRow",
    "Checkpoint",
    "EventQuery",
    "IndexItem",
    "IndexScope",
    "SearchCandidates",
    "SessionInfo",
    "StoreStats",
    "Tuning",
]


@dataclass(frozen=True, slots=True)
class EventQuery:
    """A time-ordered scan. `since` is inclusive, `until` exclusive, both epoch ms."""

    since_ms: int | None = None
    until_ms: int | None = None
    session_id: str | None = None
    conversation_id: str | None = None
    agent_id: str | None = None
    after: tuple[int, str] | None = None  # (timestamp_ms, event_id) of the last row already seen
    limit: int = 100
    before: tuple[int, str] | None = None  # only rows earlier than this (timestamp_ms, event_id)
    newest_first: bool = False  # the `limit` latest rows, newest first


@dataclass(frozen=True, slots=True)
class Checkpoint:
    job: str
    last_seq: int
    processed: int
    failed: int
    updated_at_ms: int


@dataclass(frozen=True, slots=True)
class SessionInfo:
    conversation_id: str
    session_id: str
    agent_id: str | None
    first_ms: int
    last_ms: int
    event_count: int
    started: bool
    ended: bool


@dataclass(frozen=True, slots=True)
class StoreStats:
    backend: str
    location: str
    size_bytes: int
    schema: list[str]
    events: int
    sessions: int
    conversations: int
    outbox_pending: dict[str, int] = field(default_factory=dict)
    outbox_failed: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class IndexItem:
    """One searchable thing (a turn now; facts and summaries later) and its provenance."""

    kind: str
    ref: str  # the event id of a turn, the memory id of a memory
    conversation_id: str
    created_ms: int
    text: str  # shown in hits
    search_text: str  # what the embedder sees, and the keyword index's main column
    content_hash: str  # of search_text
    event_ids: tuple[str, ...]
    metadata: dict[str, str] = field(default_factory=dict)
    agent_id: str | None = None
    session_id: str | None = None
    role: str | None = None
    item_id: int | None = None
    context_before: str = ""  # the previous turn of the session, for keyword search
    context_after: str = ""  # the next turn, filled in when it arrives


@dataclass(frozen=True, slots=True)
class IndexScope:
    """Which items a search may see: conversations, optionally one agent, kinds, a time range."""

    conversation_ids: tuple[str, ...] | None = None
    agent_id: str | None = None
    kinds: tuple[str, ...] | None = None
    since_ms: int | None = None
    until_ms: int | None = None


@dataclass(frozen=True, slots=True)
class SearchCandidates:
    """What a search reads of the index in one go, where the database ranks vectors itself.

    Each source's ranking, best first (None: that source was not asked), and every ranked
    item with its vector of the search's model (float32 bytes; none for an item without one).
    """

    vector: list[tuple[int, float]] | None
    keyword: list[tuple[int, float]] | None
    items: dict[int, IndexItem]
    vectors: dict[int, bytes]


@dataclass(frozen=True, slots=True)
class Tuning:
    """An engine setting weighed against the data (`memoir doctor`): what it is, what the data wants, and why."""

    setting: str
    current: str
    wanted: str
    why: str
    enough: bool


# A breaker's row: (failures, opened_ms, trial_until_ms, last_error).
BreakerRow = tuple[int, int | None, int | None, str | None]
