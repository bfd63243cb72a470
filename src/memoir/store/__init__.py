"""Storage: the Store protocol and its implementations (SQLite today, PostgreSQL later)."""

from memoir.store.base import Checkpoint, EventQuery, IndexItem, IndexScope, RunnerLease, SessionInfo, Store, StoreStats
from memoir.store.sqlite import SQLiteStore

__all__ = [
    "Checkpoint",
    "EventQuery",
    "IndexItem",
    "IndexScope",
    "RunnerLease",
    "SQLiteStore",
    "SessionInfo",
    "Store",
    "StoreStats",
]
