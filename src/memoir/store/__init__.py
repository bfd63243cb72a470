"""Storage: the store's role protocols and their implementations (SQLite today, PostgreSQL later)."""

from memoir.store.base import (
    Checkpoint,
    Database,
    EventLog,
    EventQuery,
    IndexItem,
    IndexScope,
    MemoryMirror,
    OutboxQueue,
    RunnerLease,
    SearchIndex,
    SessionInfo,
    Store,
    StoreStats,
)
from memoir.store.sqlite import SQLiteStore

__all__ = [
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
    "SearchIndex",
    "SessionInfo",
    "Store",
    "StoreStats",
]
