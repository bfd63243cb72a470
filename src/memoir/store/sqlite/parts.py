"""What SQLite's modules and the shared tables (`memoir.store.sql`) need from `SQLiteStore`.

`SQLiteStore` implements the connection, reads and transactions; this module adds SQLite's
side of the shared primitives. Lookups by many values go through `in_chunks`: SQLite caps
the number of `?` in one statement (32,766 since 3.32, 999 before), so long lists are cut
into slices of `IN_CHUNK`, far below either limit and large enough that the loop costs nothing.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

from memoir.store.sql.dialect import SQLITE
from memoir.store.sql.parts import SQLParts

__all__ = ["IN_CHUNK", "SQLiteParts", "in_chunks"]

IN_CHUNK = 500  # ids per IN (...) lookup
T = TypeVar("T")


def in_chunks(values: Sequence[T], size: int = IN_CHUNK) -> Iterator[tuple[list[T], str]]:
    """Slices of `values` for one `IN (...)` each, with the slice's placeholders ("?,?,?")."""
    for start in range(0, len(values), size):
        chunk = list(values[start : start + size])
        yield chunk, ",".join("?" * len(chunk))


class SQLiteParts(SQLParts):
    dialect = SQLITE

    def _conn(self) -> sqlite3.Connection:
        raise NotImplementedError

    def _execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self._conn().executemany(sql, rows)

    def _rows_in(self, sql: str, values: Sequence[Any], params: Sequence[Any] = ()) -> list[Any]:
        rows: list[Any] = []
        for chunk, marks in in_chunks(values):
            rows.extend(self._rows(sql.replace("{in}", f"IN ({marks})"), [*params, *chunk]))
        return rows

    def _read_in(self, sql: str, values: Sequence[Any], params: Sequence[Any] = ()) -> list[Any]:
        """Rows of `sql` (SQLite's), whose `{marks}` is an `IN` list of `values`, after leading `params`."""
        rows: list[Any] = []
        for chunk, marks in in_chunks(values):
            rows.extend(self._read(sql.replace("{marks}", marks), [*params, *chunk]))
        return rows

    def _take_turns(self, key: str) -> None:
        """Nothing to take: `atomic()` holds the database's write lock, which serializes every writer."""
