"""Storage: the store's role protocols and their implementations (SQLite here, PostgreSQL in `postgres/`)."""

from memoir.store.base import (
    INDEX_WRITES,
    Database,
    EventLog,
    MemoryMirror,
    ModelState,
    OutboxQueue,
    RunnerLease,
    SearchIndex,
    Store,
    TimelineStore,
)
from memoir.store.records import (
    Checkpoint,
    EventQuery,
    IndexItem,
    IndexScope,
    SearchCandidates,
    SessionInfo,
    StoreStats,
    Tuning,
)
from memoir.store.sqlite import SQLiteStore

__all__ = [
    "INDEX_WRITES",
    "Checkpoint",
    "Database",
    "EventLog",
    "EventQuery",
    "IndexItem",
    "IndexScope",
    "MemoryMirror",
    "ModelState",
    "OutboxQueue",
    "RunnerLease",
    "SQLiteStore",
    "SearchCandidates",
    "SearchIndex",
    "SessionInfo",
    "Store",
    "StoreStats",
    "TimelineStore",
    "Tuning",
]
