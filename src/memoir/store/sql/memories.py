"""The memories mirror: the vault's files as rows, for queries (both backends).

The vault is the source of truth; these rows are rebuilt from it whenever they disagree
(a person edited a file, a crash fell between the file and the row). Every write is one
statement (an upsert, an update), so concurrent writers need no more than row locks: the
last save of an id wins. Orders are always said, (created_ms, id), so both engines list
memories alike (PostgreSQL's ids are `COLLATE "C"`, SQLite's BINARY order).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from memoir.model.event import EPOCH, to_ms
from memoir.model.memory import Memory, normalise_content
from memoir.store.sql.parts import SQLParts, upsert

__all__ = ["IMPORTANT", "MemoryTables", "row_to_memory"]

# Memories tagged `important` (tags are a JSON list). A partial index's condition on both
# engines: a query that wants the index must say exactly this.
IMPORTANT = "{find}(tags, '\"important\"') > 0"

_COLUMNS = (
    "id, kind, conversation_id, content, tags, severity, created_ms, event_ids, source, replaced_by, deleted_ms,"
    " agent_id, unreadable, reconciled_by"
)
_SAVE = upsert(
    "memories",
    (
        "id", "kind", "conversation_id", "content", "normalised", "tags", "severity", "created_ms", "event_ids",
        "source", "replaced_by", "deleted_ms", "path", "file_hash", "agent_id", "unreadable", "reconciled_by",
    ),
    ("id",),
)  # fmt: skip
# Visible to an agent: its own memories and the shared ones (no agent).
_VISIBLE = "(agent_id = ? OR agent_id IS NULL)"
_ORDER = " ORDER BY created_ms, id"


def _when(ms: int | None) -> datetime | None:
    # Integer arithmetic: `fromtimestamp(ms / 1000)` goes through a float, which loses
    # the millisecond of dates far enough from 1970.
    return None if ms is None else EPOCH + timedelta(milliseconds=ms)


def row_to_memory(row: Sequence[Any]) -> Memory:
    memory_id, kind, conversation, content, tags, severity, created, events, source, replaced_by, deleted = row[:11]
    agent_id, unreadable, reconciled_by = row[11:]
    created_at = _when(created)
    assert created_at is not None
    return Memory(
        id=memory_id,
        kind=kind,
        content=content,
        conversation_id=conversation,
        created_at=created_at,
        tags=tuple(json.loads(tags)),
        severity=severity,
        event_ids=tuple(json.loads(events)),
        source=source,
        replaced_by=replaced_by,
        deleted_at=_when(deleted),
        agent_id=agent_id,
        unreadable=unreadable,
        reconciled_by=reconciled_by,
    )


class MemoryTables(SQLParts):
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
            self._run(_SAVE, row)

    def memory_mark_unreadable(self, memory_id: str, reason: str, file_hash: str) -> None:
        """Flag a memory whose note cannot be read; its row (the last good copy) stays."""
        with self._translated(), self.atomic():
            self._run("UPDATE memories SET unreadable = ?, file_hash = ? WHERE id = ?", (reason, file_hash, memory_id))

    def memory_file(self, memory_id: str) -> str | None:
        """The path of a memory's note as last seen."""
        rows = self._rows("SELECT path FROM memories WHERE id = ?", (memory_id,))
        return str(rows[0][0]) if rows else None

    def memory_get(self, memory_id: str) -> Memory | None:
        rows = self._rows(f"SELECT {_COLUMNS} FROM memories WHERE id = ?", (memory_id,))
        return row_to_memory(rows[0]) if rows else None

    def memory_predecessor(self, memory_id: str) -> Memory | None:
        """The tombstone that `memory_id` replaced, if any."""
        rows = self._rows(f"SELECT {_COLUMNS} FROM memories WHERE replaced_by = ?{_ORDER} LIMIT 1", (memory_id,))
        return row_to_memory(rows[0]) if rows else None

    def memory_find(self, conversation_id: str, kind: str, content: str, agent_id: str | None = None) -> Memory | None:
        """A live memory of this owner, scope and kind whose content is the same, normalised."""
        params: list[Any] = [conversation_id, kind, normalise_content(content)]
        # `IS NULL` or `=`, not `IS ?`: PostgreSQL keeps its index only for these.
        owner = "agent_id IS NULL"
        if agent_id is not None:
            owner = "agent_id = ?"
            params.append(agent_id)
        rows = self._rows(
            f"SELECT {_COLUMNS} FROM memories WHERE conversation_id = ? AND kind = ? AND normalised = ?"
            f" AND {owner} AND deleted_ms IS NULL{_ORDER} LIMIT 1",
            params,
        )
        return row_to_memory(rows[0]) if rows else None

    def memory_list(
        self,
        conversation_id: str | None = None,
        kind: str | None = None,
        include_deleted: bool = False,
        visible_to: str | None = None,
        newest: int | None = None,
    ) -> list[Memory]:
        """Memories in creation order; `visible_to` keeps an agent's own and the shared ones;
        `newest`, only that many of the latest (still oldest first)."""
        clauses: list[str] = []
        params: list[Any] = []
        if visible_to is not None:
            clauses.append(_VISIBLE)
            params.append(visible_to)
        if conversation_id is not None:
            clauses.append("conversation_id = ?")
            params.append(conversation_id)
        if kind is not None:
            clauses.append("kind = ?")
            params.append(kind)
        if not include_deleted:
            clauses.append("deleted_ms IS NULL")
        where = " WHERE " + " AND ".join(clauses) if clauses else ""
        if newest is None:
            rows = self._rows(f"SELECT {_COLUMNS} FROM memories{where}{_ORDER}", params)
        else:
            latest = f"SELECT {_COLUMNS} FROM memories{where} ORDER BY created_ms DESC, id DESC LIMIT ?"
            rows = self._rows(latest, [*params, newest])[::-1]
        return [row_to_memory(row) for row in rows]

    def memory_key_facts(self, recent: int) -> list[Memory]:
        """Live memories tagged `important`, and the `recent` latest of the others (facts.md).

        Asked after every batch of changes, so it reads those rows only, through partial
        indexes: building every memory of a 10,000-memory home took a third of a second.
        """
        rows = self._rows(f"SELECT {_COLUMNS} FROM memories WHERE deleted_ms IS NULL AND {IMPORTANT}{_ORDER}")
        important = [memory for memory in map(row_to_memory, rows) if memory.important]  # the tag exactly
        others = self._rows(
            f"SELECT {_COLUMNS} FROM memories WHERE deleted_ms IS NULL AND NOT {IMPORTANT}"
            " ORDER BY created_ms DESC, id DESC LIMIT ?",
            (recent,),
        )
        return important + [row_to_memory(row) for row in others]

    def memory_counts(self, conversation_id: str) -> dict[str | None, int]:
        """Live memories of a conversation other than summaries, per owning agent (None: shared)."""
        rows = self._rows(
            "SELECT agent_id, count(*) FROM memories WHERE conversation_id = ? AND deleted_ms IS NULL"
            " AND kind <> 'summary' GROUP BY agent_id",
            (conversation_id,),
        )
        return {row[0]: int(row[1]) for row in rows}

    def memory_files(self) -> dict[str, tuple[str, str]]:
        """id -> (path, file hash): the vault snapshot as last seen."""
        return {row[0]: (row[1], row[2]) for row in self._rows("SELECT id, path, file_hash FROM memories")}

    def memory_live_ids(self) -> set[str]:
        """The ids of every live memory, every agent's (what `memoir doctor` checks the index for)."""
        return {row[0] for row in self._rows("SELECT id FROM memories WHERE deleted_ms IS NULL")}

    def memory_unreadable_count(self) -> int:
        """Memories shown from their last good copy because their note is broken now."""
        return int(self._rows("SELECT count(*) FROM memories WHERE unreadable IS NOT NULL")[0][0])
