"""What the shared tables need from a backend, declared once, and the few helpers built on it.

A backend (`SQLiteStore`, `PostgresStore`) implements the primitives, in its driver's own
spelling: `_read` (rows of one statement, in this thread's transaction when there is one),
`_conn` (this thread's connection inside `atomic()`), `_execute_many`, `atomic`,
`_translated` (driver errors become `StoreError`s), `_rows_in` (a lookup by many values) and
`_take_turns` (writers of one key take turns until the transaction ends). The shared modules
call `_rows`, `_run` and `_run_many`, which take statements in the shared spelling
(`dialect.py`) and spell them for the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, ClassVar

from memoir.store.sql.dialect import Dialect

__all__ = ["SQLParts", "upsert"]


class SQLParts:
    dialect: ClassVar[Dialect]

    # -- what each backend implements --------------------------------------------------

    def _conn(self) -> Any:
        raise NotImplementedError

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    def _execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        raise NotImplementedError

    def atomic(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    def _translated(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    def _rows_in(self, sql: str, values: Sequence[Any], params: Sequence[Any] = ()) -> list[Any]:
        """Rows of `sql` (shared spelling), whose `{in}` stands for "is one of `values`", after `params`."""
        raise NotImplementedError

    def _take_turns(self, key: str) -> None:
        """Inside `atomic()`: writers of `key` take turns from here to the end of the transaction."""
        raise NotImplementedError

    # -- built on them -------------------------------------------------------------------

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Rows of a statement in the shared spelling."""
        return self._read(self.dialect.spell(sql), params)

    def _run(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run a statement in the shared spelling, inside `atomic()`; its cursor."""
        return self._conn().execute(self.dialect.spell(sql), params)

    def _run_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            self._execute_many(self.dialect.spell(sql), rows)


def upsert(table: str, columns: Sequence[str], key: Sequence[str]) -> str:
    """Insert a row, or give the row of the same key every other column anew (SQLite's INSERT OR REPLACE)."""
    changes = ", ".join(f"{c} = excluded.{c}" for c in columns if c not in key)
    return (
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        f" ON CONFLICT ({', '.join(key)}) DO UPDATE SET {changes}"
    )
