"""What the SQLite table mixins need from `SQLiteStore`, declared once, and shared helpers.

`sqlite_search` and `sqlite_memories` hold derived tables in their own modules; they
reach the store's connection, reads and transactions through these methods, which
`SQLiteStore` implements.

Lookups by many ids go through `in_chunks`: SQLite caps the number of `?` in one
statement (32,766 since 3.32, 999 before), so long id lists are cut into slices of
`IN_CHUNK`, far below either limit and large enough that the loop costs nothing.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, TypeVar

__all__ = ["IN_CHUNK", "SQLiteParts", "in_chunks"]

IN_CHUNK = 500  # ids per IN (...) lookup
T = TypeVar("T")


def in_chunks(values: Sequence[T], size: int = IN_CHUNK) -> Iterator[tuple[list[T], str]]:
    """Slices of `values` for one `IN (...)` each, with the slice's placeholders ("?,?,?")."""
    for start in range(0, len(values), size):
        chunk = list(values[start : start + size])
        yield chunk, ",".join("?" * len(chunk))


class SQLiteParts:
    def _conn(self) -> sqlite3.Connection:
        raise NotImplementedError

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    def atomic(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    def _translated(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    def _read_in(self, sql: str, values: Sequence[Any], params: Sequence[Any] = ()) -> list[Any]:
        """Rows of `sql`, whose `{marks}` is an `IN` list of `values`, after leading `params`."""
        rows: list[Any] = []
        for chunk, marks in in_chunks(values):
            rows.extend(self._read(sql.replace("{marks}", marks), [*params, *chunk]))
        return rows
