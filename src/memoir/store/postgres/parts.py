"""What PostgreSQL's modules and the shared tables (`memoir.store.sql`) need from `PostgresStore`.

The modules (`outbox`, `search`, `vectors`, `hits`, `transfer`) each hold what PostgreSQL does
its own way; they and the shared tables reach connections and transactions through these methods:

- `_read(sql, params)`: rows of one statement, on this thread's transaction when it has one
  (so a job reads its own writes), else on a pooled connection in autocommit;
- `atomic()`: a transaction; nested blocks join the outermost one of their thread;
- `_conn()`: this thread's connection inside `atomic()` (a programming error outside it);
- `_transaction_conn()` and `_pooled()`: that connection if any, else a pooled one, for reads
  that shape their own round trips (`vectors.py`);
- `_translated()`: driver errors become `StoreError`s that say what to do.

Parameters are `%s` (psycopg); a list of ids is one parameter, `= ANY(%s)`, so there is
no statement-length limit to cut lists for, as there is with SQLite. Writers of one key take
turns on a transaction advisory lock (`_take_turns`).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

import psycopg

from memoir.store.records import IndexScope
from memoir.store.sql.dialect import POSTGRES
from memoir.store.sql.parts import SQLParts

__all__ = [
    "CLAIM_LOCK",
    "EXCLUSIVE_NAMESPACE",
    "LOCK_NAMESPACE",
    "MIGRATION_LOCK",
    "OWNER_NAMESPACE",
    "PERIODIC_NAMESPACE",
    "TURNS_NAMESPACE",
    "PostgresParts",
    "scope_sql",
]

# Advisory locks memoir takes are (namespace, key) pairs. In memoir's namespace ('memo' in
# ASCII): migrating the schema, claiming outbox entries, writing the search index (search.py,
# key 3). Hashed keys get namespaces of their own, so that none can stand for another lock:
# owner keys of live stores (outbox.py), periodic jobs, keys writers take turns on (a TOC
# node's scope and id while its next version is written), `exclusive` names.
LOCK_NAMESPACE = 0x6D656D6F
MIGRATION_LOCK = 1
CLAIM_LOCK = 2
OWNER_NAMESPACE = 0x6D656D70
PERIODIC_NAMESPACE = 0x6D656D71  # ('memq') one key per periodic job, crc32 of its name
TURNS_NAMESPACE = 0x6D656D72  # ('memr') `_take_turns(key)`: hashtext of the key
EXCLUSIVE_NAMESPACE = 0x6D656D73  # ('mems') `exclusive(names)`: hashtext of each name


class PostgresParts(SQLParts):
    dialect = POSTGRES

    def _conn(self) -> psycopg.Connection[Any]:
        raise NotImplementedError

    def _transaction_conn(self) -> psycopg.Connection[Any] | None:
        """This thread's connection inside `atomic()`, else None."""
        raise NotImplementedError

    def _pooled(self) -> AbstractContextManager[psycopg.Connection[Any]]:
        """A pooled connection in autocommit, for reads outside `atomic()`."""
        raise NotImplementedError

    def _execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self._conn().cursor().executemany(sql, rows)

    def _rows_in(self, sql: str, values: Sequence[Any], params: Sequence[Any] = ()) -> list[Any]:
        if not values:
            return []
        return self._rows(sql.replace("{in}", "= ANY(?)"), [*params, list(values)])

    def _take_turns(self, key: str) -> None:
        self._conn().execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (TURNS_NAMESPACE, key))


def scope_sql(scope: IndexScope, alias: str = "") -> tuple[str, list[Any]]:
    """WHERE clauses (joined with AND, may be empty) restricting items to a scope, as SQLite's `scope_sql`."""
    wanted = (
        (scope.conversation_ids, "{p}conversation_id = ANY(%s::text[])"),
        (scope.agent_id, "({p}agent_id = %s OR {p}agent_id IS NULL)"),  # its own rows and the shared ones
        (scope.kinds, "{p}kind = ANY(%s::text[])"),
        (scope.since_ms, "{p}created_ms >= %s"),
        (scope.until_ms, "{p}created_ms < %s"),
    )
    prefix = f"{alias}." if alias else ""
    chosen = [(clause.format(p=prefix), value) for value, clause in wanted if value is not None]
    params = [list(value) if isinstance(value, tuple) else value for _, value in chosen]
    return " AND ".join(clause for clause, _ in chosen), params
