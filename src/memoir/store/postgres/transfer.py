"""The PostgreSQL side of `memoir migrate` (`memoir.store.sql.transfer`): raw rows in and out, ids kept.

Rows go in with COPY (tens of thousands a second, where INSERT manages thousands), which also
takes the values of identity columns as given; afterwards each identity is moved past the
largest id copied. Columns the database computes itself (the tsvector) are neither read nor
written; the outbox's `conversation_id`, which SQLite does not keep, is looked up in the events.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from psycopg import sql

from memoir.store.postgres.parts import PostgresParts
from memoir.store.postgres.vectors import COPY_ITEM_VECTORS, from_pgvector, to_pgvector
from memoir.store.sql.transfer import known_table

__all__ = ["PostgresTransfer"]

_COLUMNS = (
    "SELECT column_name, is_identity FROM information_schema.columns"
    " WHERE table_schema = current_schema() AND table_name = %s AND is_generated = 'NEVER'"
    " ORDER BY ordinal_position"
)
_NOT_COPIED = {("outbox", "claimed_by")}  # a claim belongs to a process of this database only
VECTOR = "vector"  # the embeddings' column as SQLite names it, float32 little-endian bytes


def _vectors_after_items(tables: Sequence[str]) -> bool:
    """Whether `embeddings` was loaded after `index_items`: then `item_embeddings` has to be filled."""
    order = list(tables)
    return "index_items" in order and "embeddings" in order and order.index("index_items") < order.index("embeddings")


def _known(table: str) -> sql.Identifier:
    return sql.Identifier(known_table(table))


class PostgresTransfer(PostgresParts):
    def table_columns(self, table: str) -> list[str]:
        _known(table)
        names = [name for name, _ in self._read(_COLUMNS, (table,)) if (table, name) not in _NOT_COPIED]
        # Vectors travel as float32 little-endian bytes under SQLite's column name.
        return [VECTOR if (table, name) == ("embeddings", "embedding") else name for name in names]

    def _identities(self, table: str) -> list[str]:
        return [name for name, identity in self._read(_COLUMNS, (table,)) if identity == "YES"]

    def table_rows(self, table: str, columns: Sequence[str], batch: int) -> Iterator[list[tuple[Any, ...]]]:
        selected = [sql.SQL("vector_send(embedding)") if c == VECTOR else sql.Identifier(c) for c in columns]
        query = sql.SQL("SELECT {} FROM {}").format(sql.SQL(", ").join(selected), _known(table))
        at = list(columns).index(VECTOR) if table == "embeddings" and VECTOR in columns else None
        with self._translated(), self.atomic(), self._conn().cursor(name=f"memoir_copy_{table}") as cursor:
            cursor.execute(query)
            while rows := cursor.fetchmany(batch):
                if at is not None:
                    rows = [(*row[:at], from_pgvector(row[at]), *row[at + 1 :]) for row in rows]
                yield rows

    def table_load(self, table: str, columns: Sequence[str], rows: Sequence[tuple[Any, ...]]) -> None:
        if table == "outbox" and "conversation_id" not in columns:
            columns, rows = self._with_conversations(columns, rows)
        if table == "embeddings" and VECTOR in columns:
            self._load_vectors(columns, rows)
            return
        names = sql.SQL(", ").join(map(sql.Identifier, columns))
        statement = sql.SQL("COPY {} ({}) FROM STDIN").format(_known(table), names)
        with self._translated(), self.atomic(), self._conn().cursor().copy(statement) as copy:
            for row in rows:
                copy.write_row(row)

    def _load_vectors(self, columns: Sequence[str], rows: Sequence[tuple[Any, ...]]) -> None:
        """Embeddings by binary COPY: each vector's field is pgvector's own binary form, as the server reads it."""
        at = list(columns).index(VECTOR)
        names = sql.SQL(", ").join(sql.Identifier("embedding" if c == VECTOR else c) for c in columns)
        statement = sql.SQL("COPY embeddings ({}) FROM STDIN (FORMAT BINARY)").format(names)
        # Declared bytea so psycopg sends the bytes as they are; the column's type reads them.
        types = ["bytea" if c == VECTOR else "text" for c in columns]
        with self._translated(), self.atomic(), self._conn().cursor().copy(statement) as copy:
            copy.set_types(types)
            for row in rows:
                copy.write_row((*row[:at], to_pgvector(bytes(row[at])), *row[at + 1 :]))

    def _with_conversations(
        self, columns: Sequence[str], rows: Sequence[tuple[Any, ...]]
    ) -> tuple[list[str], list[tuple[Any, ...]]]:
        at = list(columns).index("event_id")
        ids = list({row[at] for row in rows})
        found = dict(self._read("SELECT event_id, conversation_id FROM events WHERE event_id = ANY(%s)", (ids,)))
        return [*columns, "conversation_id"], [(*row, found.get(row[at], "")) for row in rows]

    def table_loaded(self, tables: Sequence[str]) -> None:
        with self._translated(), self.atomic():
            conn = self._conn()
            for table in tables:
                for column in self._identities(table):
                    conn.execute(
                        sql.SQL(
                            "SELECT setval(pg_get_serial_sequence(%s, %s), coalesce(max({}), 0) + 1, false) FROM {}"
                        ).format(sql.Identifier(column), _known(table)),
                        (table, column),
                    )
            conn.execute("UPDATE index_state SET value = value + 1 WHERE key = 'generation'")
            if _vectors_after_items(tables):  # loaded before them, the items took theirs as they went in
                conn.execute(COPY_ITEM_VECTORS)
        # Now, not when autovacuum gets round to it: statistics (until then the planner takes the
        # freshly filled tables for empty ones, and would compare every vector), the keyword
        # index's pending entries merged (or every search reads them), pages marked all-visible
        # (or index-only scans of vectors read the table too). VACUUM runs outside a transaction.
        derived = ["item_embeddings"] if {"index_items", "embeddings"} & set(tables) else []
        names = sql.SQL(", ").join([*map(_known, tables), *map(sql.Identifier, derived)])
        if not tables:
            return  # a VACUUM naming no table is one of the whole database
        with self._translated(), self._pooled() as pooled:
            pooled.execute(sql.SQL("VACUUM (ANALYZE) {}").format(names))
