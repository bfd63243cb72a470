"""Storage: the store's role protocols and their implementations (SQLite here, PostgreSQL in `postgres/`)."""

from memoir.store.base import (
    INDEX_WRITES,
    Checkpoint,
    Database,
    EventLog,
    EventQuery,
    IndexItem,
    IndexScope,
    MemoryMirror,
    OutboxQueue,
    RunnerLease,
    SearchCandidates,
    SearchIndex,
    SessionInfo,
    Store,
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
    "OutboxQueue",
    "RunnerLease",
    "SQLiteStore",
    "SearchCandidates",
    "SearchIndex",
    "SessionInfo",
    "Store",
    "StoreStats",
    "Tuning",
]
