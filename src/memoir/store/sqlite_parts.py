"""What the SQLite table mixins need from `SQLiteStore`, declared once.

`sqlite_search` and `sqlite_memories` hold derived tables in their own modules; they
reach the store's connection, reads and transactions through these methods, which
`SQLiteStore` implements.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

__all__ = ["SQLiteParts"]


class SQLiteParts:
    def _conn(self) -> sqlite3.Connection:
        raise NotImplementedError

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    def atomic(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    def _translated(self) -> AbstractContextManager[None]:
        raise NotImplementedError
