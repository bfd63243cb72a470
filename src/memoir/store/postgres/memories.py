"""The memories mirror of the PostgreSQL store: the vault's files as rows, for queries.

A port of `sqlite_memories`, row for row: the vault is the source of truth, and these rows
are rebuilt from it whenever they disagree. Rows become `Memory`s through the SQLite
module's own function, so both backends read back the same memories.

Differences from SQLite, none visible to callers:
- ids and scopes are `COLLATE "C"`: memories come in (created_ms, id) order by byte value,
  as SQLite's BINARY collation has it, whatever the database's locale;
- where SQLite took whichever row came first (a predecessor, the important memories), the
  order is said: (created_ms, id);
- "no agent" is NULL, as on SQLite; `memory_find` says `IS NULL` or `=` rather than SQLite's
  `IS ?`, so that the lookup keeps its index.

Every write is one statement (an upsert, an update), so concurrent writers need no more
than PostgreSQL's row locks: the last save of an id wins, as on SQLite.
"""

from __future__ import annotations

import json
from typing import Any

from memoir.model.event import to_ms
from memoir.model.memory import Memory, normalise_content
from memoir.store.postgres.parts import PostgresParts
from memoir.store.sqlite_memories import _row_to_memory

__all__ = ["IMPORTANT", "SCHEMA", "PostgresMemoryTables"]

# Memories tagged `important` (tags are a JSON list). The partial index's condition: queries
# that want the index must say exactly this (SQLite's `instr` is `strpos` here).
IMPORTANT = "strpos(tags, '\"important\"') > 0"

SCHEMA = f"""
CREATE TABLE memories (
    id TEXT COLLATE "C" PRIMARY KEY,
    kind TEXT NOT NULL,
    conversation_id TEXT COLLATE "C" NOT NULL,
    content TEXT NOT NULL,
    normalised TEXT NOT NULL,
    tags TEXT NOT NULL,
    severity TEXT,
    created_ms BIGINT NOT NULL,
    event_ids TEXT NOT NULL,
    source TEXT NOT NULL,
    replaced_by TEXT COLLATE "C",
    deleted_ms BIGINT,
    path TEXT NOT NULL,
    file_hash TEXT NOT NULL,
    agent_id TEXT COLLATE "C",
    unreadable TEXT,
    reconciled_by TEXT
);
CREATE INDEX memories_by_scope ON memories (conversation_id, kind, created_ms);
CREATE INDEX memories_by_content ON memories (conversation_id, kind, normalised, agent_id);
CREATE INDEX memories_by_successor ON memories (replaced_by);
CREATE INDEX memories_live_by_time ON memories (created_ms, id) WHERE deleted_ms IS NULL;
CREATE INDEX memories_live_important ON memories (created_ms) WHERE deleted_ms IS NULL AND {IMPORTANT};
"""

_COLUMNS = (
    "id, kind, conversation_id, content, tags, severity, created_ms, event_ids, source, replaced_by, deleted_ms,"
    " agent_id, unreadable, reconciled_by"
)
_SAVED = (
    "kind", "conversation_id", "content", "normalised", "tags", "severity", "created_ms", "event_ids", "source",
    "replaced_by", "deleted_ms", "path", "file_hash", "agent_id", "unreadable", "reconciled_by",
)  # fmt: skip
# SQLite's INSERT OR REPLACE: every column of the row of the same id is replaced.
_SAVE = (
    f"INSERT INTO memories (id, {', '.join(_SAVED)}) VALUES ({', '.join(['%s'] * (1 + len(_SAVED)))})"
    f" ON CONFLICT (id) DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in _SAVED)}"
)
# Visible to an agent: its own memories and the shared ones (no agent).
_VISIBLE = "(agent_id = %s OR agent_id IS NULL)"
_ORDER = " ORDER BY created_ms, id"


class PostgresMemoryTables(PostgresParts):
    """Mixed into PostgresStore; relies on its `_conn`, `_read`, `atomic` and `_translated`."""

    def memory_save(self, memory: Memory, path: str, file_hash: str) -> None:
        row = (
            memory.id,
            memory.kind.value,
            memory.conversation_id,
            memory.content,
            normalise_content(memory.content),
            json.dumps(list(memory.tags)),
            memory.severity.value if memory.severity else None,
            to_ms(memory.created_at),
            json.dumps(list(memory.event_ids)),
            memory.source,
            memory.replaced_by,
            None if memory.deleted_at is None else to_ms(memory.deleted_at),
            path,
            file_hash,
            memory.agent_id,
            memory.unreadable,
            memory.reconciled_by,
        )
        with self._translated(), self.atomic():
            self._conn().execute(_SAVE, row)

    def memory_mark_unreadable(self, memory_id: str, reason: str, file_hash: str) -> None:
        """Flag a memory whose note cannot be read; its row (the last good copy) stays."""
        with self._translated(), self.atomic():
            self._conn().execute(
                "UPDATE memories SET unreadable = %s, file_hash = %s WHERE id = %s", (reason, file_hash, memory_id)
            )

    def memory_file(self, memory_id: str) -> str | None:
        """The path of a memory's note as last seen."""
        rows = self._read("SELECT path FROM memories WHERE id = %s", (memory_id,))
        return str(rows[0][0]) if rows else None

    def memory_get(self, memory_id: str) -> Memory | None:
        rows = self._read(f"SELECT {_COLUMNS} FROM memories WHERE id = %s", (memory_id,))
        return _row_to_memory(rows[0]) if rows else None

    def memory_predecessor(self, memory_id: str) -> Memory | None:
        """The tombstone that `memory_id` replaced, if any."""
        rows = self._read(f"SELECT {_COLUMNS} FROM memories WHERE replaced_by = %s{_ORDER} LIMIT 1", (memory_id,))
        return _row_to_memory(rows[0]) if rows else None

    def memory_find(self, conversation_id: str, kind: str, content: str, agent_id: str | None = None) -> Memory | None:
        """A live memory of this owner, scope and kind whose content is the same, normalised."""
        params: list[Any] = [conversation_id, kind, normalise_content(content)]
        owner = "agent_id IS NULL"
        if agent_id is not None:
            owner = "agent_id = %s"
            params.append(agent_id)
        rows = self._read(
            f"SELECT {_COLUMNS} FROM memories WHERE conversation_id = %s AND kind = %s AND normalised = %s"
            f" AND {owner} AND deleted_ms IS NULL{_ORDER} LIMIT 1",
            params,
        )
        return _row_to_memory(rows[0]) if rows else None

    def memory_list(
        self,
        conversation_id: str | None = None,
        kind: str | None = None,
        include_deleted: bool = False,
        visible_to: str | None = None,
    ) -> list[Memory]:
        """Memories in creation order; `visible_to` keeps an agent's own and the shared ones."""
        clauses: list[str] = []
        params: list[Any] = []
        if visible_to is not None:
            clauses.append(_VISIBLE)
            params.append(visible_to)
        if conversation_id is not None:
            clauses.append("conversation_id = %s")
            params.append(conversation_id)
        if kind is not None:
            clauses.append("kind = %s")
            params.append(kind)
        if not include_deleted:
            clauses.append("deleted_ms IS NULL")
        where = " WHERE " + " AND ".join(clauses) if clauses else ""
        rows = self._read(f"SELECT {_COLUMNS} FROM memories{where}{_ORDER}", params)
        return [_row_to_memory(row) for row in rows]

    def memory_key_facts(self, recent: int) -> list[Memory]:
        """Live memories tagged `important`, and the `recent` latest of the others (facts.md).

        Both queries are served by partial indexes (`memories_live_important`, `memories_live_by_time`).
        """
        rows = self._read(f"SELECT {_COLUMNS} FROM memories WHERE deleted_ms IS NULL AND {IMPORTANT}{_ORDER}")
        important = [memory for memory in map(_row_to_memory, rows) if memory.important]  # the tag exactly
        others = self._read(
            f"SELECT {_COLUMNS} FROM memories WHERE deleted_ms IS NULL AND NOT {IMPORTANT}"
            " ORDER BY created_ms DESC, id DESC LIMIT %s",
            (recent,),
        )
        return important + [_row_to_memory(row) for row in others]

    def memory_counts(self, conversation_id: str) -> dict[str | None, int]:
        """Live memories of a conversation other than summaries, per owning agent (None: shared)."""
        rows = self._read(
            "SELECT agent_id, count(*) FROM memories WHERE conversation_id = %s AND deleted_ms IS NULL"
            " AND kind <> 'summary' GROUP BY agent_id",
            (conversation_id,),
        )
        return {row[0]: int(row[1]) for row in rows}

    def memory_files(self) -> dict[str, tuple[str, str]]:
        """id -> (path, file hash): the vault snapshot as last seen."""
        return {row[0]: (row[1], row[2]) for row in self._read("SELECT id, path, file_hash FROM memories")}
