"""What the PostgreSQL store's table modules need from `PostgresStore`, declared once.

The modules (`outbox`, `search`, `memories`, `llm`, `timeline`) each hold one role's SQL
and its part of the schema; they reach connections and transactions through these methods:

- `_read(sql, params)`: rows of one statement, on this thread's transaction when it has one
  (so a job reads its own writes), else on a pooled connection in autocommit;
- `atomic()`: a transaction; nested blocks join the outermost one of their thread;
- `_conn()`: this thread's connection inside `atomic()` (a programming error outside it);
- `_translated()`: driver errors become `StoreError`s that say what to do.

Parameters are `%s` (psycopg); a list of ids is one parameter, `= ANY(%s)`, so there is
no statement-length limit to cut lists for, as there is with SQLite.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

import psycopg

from memoir.store.base import IndexScope

__all__ = [
    "CLAIM_LOCK",
    "EXCLUSIVE_NAMESPACE",
    "LOCK_NAMESPACE",
    "MIGRATION_LOCK",
    "OWNER_NAMESPACE",
    "PERIODIC_NAMESPACE",
    "TOC_NAMESPACE",
    "PostgresParts",
    "scope_sql",
]

# Advisory locks memoir takes are (namespace, key) pairs. In memoir's namespace ('memo' in
# ASCII): migrating the schema, claiming outbox entries, writing the search index (search.py,
# key 3). Hashed keys get namespaces of their own, so that none can stand for another lock:
# owner keys of live stores (outbox.py), periodic jobs, TOC nodes, `exclusive` names.
LOCK_NAMESPACE = 0x6D656D6F
MIGRATION_LOCK = 1
CLAIM_LOCK = 2
OWNER_NAMESPACE = 0x6D656D70
PERIODIC_NAMESPACE = 0x6D656D71  # ('memq') one key per periodic job, crc32 of its name
TOC_NAMESPACE = 0x6D656D72  # ('memr') one TOC node's scope and id while its next version is written
EXCLUSIVE_NAMESPACE = 0x6D656D73  # ('mems') `exclusive(names)`: hashtext of each name


class PostgresParts:
    def _conn(self) -> psycopg.Connection[Any]:
        raise NotImplementedError

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    def atomic(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    def _translated(self) -> AbstractContextManager[None]:
        raise NotImplementedError


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
