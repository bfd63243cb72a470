"""Copying a database between backends, table by table, ids kept (`memoir migrate`; the façade opens both ends).

Everything is copied as stored, derived tables included: summaries and TOC nodes came from
an LLM and cannot be made again the same, and embeddings cost minutes to recompute. Only
what each engine derives by itself is left out (SQLite's FTS5 table, PostgreSQL's tsvector
column, the removal log that searchers follow: a copy starts a new index generation).

Both sides are checked afterwards: each table's row count and a checksum of its rows,
independent of row order and of the engine (integers, text, and vectors as float32 bytes).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from memoir.errors import StoreError
from memoir.model.wording import counted

__all__ = ["TABLES", "TableCopy", "TableSide", "checksum", "copy_tables", "known_table", "require_empty"]

# In dependency order; each table's rows are copied with every column both sides have. The
# embeddings before the items: on PostgreSQL each item takes a copy of its vector as it goes in.
TABLES = (
    "events",
    "sessions",
    "outbox",
    "checkpoints",
    "embeddings",
    "index_items",
    "memories",
    "segments",
    "toc_nodes",
    "toc_latest",
    "grips",
    "conversation_summaries",
    "jobs",
    "llm_breakers",
    "llm_calls",
    "llm_servers",
)
BATCH = 2_000


def known_table(table: str) -> str:
    """A table name that may go into SQL text: only memoir's own, never a caller's string."""
    if table not in TABLES:
        raise ValueError(f"{table!r} is not one of memoir's tables")
    return table


class TableSide(Protocol):
    """What a backend offers for copying: its tables' columns, their rows, and loading rows."""

    location: str

    def table_columns(self, table: str) -> list[str]: ...

    def table_rows(self, table: str, columns: Sequence[str], batch: int) -> Iterator[list[tuple[Any, ...]]]: ...

    def table_load(self, table: str, columns: Sequence[str], rows: Sequence[tuple[Any, ...]]) -> None: ...

    def table_loaded(self, tables: Sequence[str]) -> None:
        """After loading: move id sequences past the copied ids, start a new index generation."""
        ...


@dataclass(frozen=True, slots=True)
class TableCopy:
    table: str
    rows_from: int
    rows_to: int
    checksum_from: str
    checksum_to: str

    @property
    def equal(self) -> bool:
        return self.rows_from == self.rows_to and self.checksum_from == self.checksum_to


def _normal(value: Any) -> bytes:
    if value is None:
        return b"\x00"
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return b"b" + bytes(value)
    if isinstance(value, float):
        return b"f" + repr(value).encode()
    if isinstance(value, int):
        return b"i" + str(value).encode()
    return b"s" + str(value).encode("utf-8", "surrogatepass")


def checksum(side: TableSide, table: str, columns: Sequence[str]) -> tuple[int, str]:
    """(rows, a digest of them that does not depend on their order)."""
    count = 0
    total = 0
    for batch in side.table_rows(table, columns, BATCH):
        for row in batch:
            digest = hashlib.sha256(b"\x1f".join(_normal(value) for value in row)).digest()
            total = (total + int.from_bytes(digest[:16], "big")) % (1 << 128)  # a sum: any order
            count += 1
    return count, f"{total:032x}"


def copy_tables(
    source: TableSide, target: TableSide, progress: Callable[[str, int], None] | None = None
) -> list[TableCopy]:
    """Copy every table from `source` to `target` (which must hold no events), then compare them."""
    shared: dict[str, list[str]] = {}
    for table in TABLES:
        here, there = source.table_columns(table), set(target.table_columns(table))
        shared[table] = [column for column in here if column in there]
    for table, columns in shared.items():
        if not columns:
            continue
        for batch in source.table_rows(table, columns, BATCH):
            target.table_load(table, columns, batch)
            if progress is not None:
                progress(table, len(batch))
    target.table_loaded(list(shared))
    report = []
    for table, columns in shared.items():
        rows_from, sum_from = checksum(source, table, columns)
        rows_to, sum_to = checksum(target, table, columns)
        report.append(TableCopy(table, rows_from, rows_to, sum_from, sum_to))
    return report


def require_empty(target: Any) -> None:
    events, kept = target.count_events(), len(target.memory_list(include_deleted=True))
    if events or kept:
        raise StoreError(
            f"{target.location} already holds {counted(events, 'event')} and {counted(kept, 'memory')}:"
            " migrate into an empty database (a new file, or a new PostgreSQL database)"
        )
