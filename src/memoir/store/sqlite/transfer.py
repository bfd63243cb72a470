"""The SQLite side of `memoir migrate` (`memoir.store.sql.transfer`): raw rows in and out, ids kept."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from memoir.store.sql.transfer import known_table
from memoir.store.sqlite.parts import SQLiteParts

__all__ = ["SQLiteTransfer"]


class SQLiteTransfer(SQLiteParts):
    def table_columns(self, table: str) -> list[str]:
        return [row[1] for row in self._read(f"PRAGMA table_info({known_table(table)})")]

    def table_rows(self, table: str, columns: Sequence[str], batch: int) -> Iterator[list[tuple[Any, ...]]]:
        with self._translated():
            cursor = self._conn().execute(f"SELECT {', '.join(columns)} FROM {known_table(table)}")
            while rows := cursor.fetchmany(batch):
                yield rows

    def table_load(self, table: str, columns: Sequence[str], rows: Sequence[tuple[Any, ...]]) -> None:
        marks = ", ".join("?" * len(columns))
        with self._translated(), self.atomic():
            self._conn().executemany(f"INSERT INTO {known_table(table)} ({', '.join(columns)}) VALUES ({marks})", rows)

    def table_loaded(self, tables: Sequence[str]) -> None:
        # AUTOINCREMENT ids follow the largest inserted by themselves; searchers reload everything.
        with self._translated(), self.atomic():
            self._conn().execute("UPDATE index_state SET value = value + 1 WHERE key = 'generation'")
