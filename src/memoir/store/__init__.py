"""Storage: the Store protocol and its implementations (SQLite today, PostgreSQL later)."""

from memoir.store.base import Checkpoint, EventQuery, RunnerLease, SessionInfo, Store, StoreStats
from memoir.store.sqlite import SQLiteStore

__all__ = ["Checkpoint", "EventQuery", "RunnerLease", "SQLiteStore", "SessionInfo", "Store", "StoreStats"]
